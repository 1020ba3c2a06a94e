import ast
import os
import re
import subprocess
import sys
import tempfile
import unittest
import zipfile

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDON = os.path.join(PACKAGE, "slmesh_blender")
PURE = ("cli", "jobs", "pipeline", "report", "diagnostics", "files")


class PackageTest(unittest.TestCase):
    def test_pure_modules_import_without_bpy(self):
        code = "import sys; sys.modules['bpy'] = None\n" + "".join(f"import slmesh_blender.{m}\n" for m in PURE) + "import slmesh_blender; print('ok')"
        done = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_bl_info_and_manifest_agree(self):
        with open(os.path.join(ADDON, "__init__.py"), encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        bl_info = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "bl_info")
        self.assertEqual(bl_info["blender"], (3, 4, 0))
        with open(os.path.join(ADDON, "blender_manifest.toml"), encoding="utf-8") as handle:
            manifest = handle.read()
        version = re.search(r'^version = "([^"]+)"', manifest, re.MULTILINE).group(1)
        self.assertEqual(version, ".".join(map(str, bl_info["version"])))
        self.assertRegex(manifest, r'(?m)^id = "slmesh_blender"$')
        self.assertRegex(manifest, r'(?m)^type = "add-on"$')
        # Blender's extension validation (bl_pkg, strict): terse texts of at most 64 characters
        # ending in a letter, digit or closing bracket; permissions from a fixed set.
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            self.skipTest("tomllib needs Python 3.11")
        data = tomllib.loads(manifest)
        terse = {"tagline": data["tagline"], **{f"permissions.{k}": v for k, v in data.get("permissions", {}).items()}}
        for key, text in terse.items():
            self.assertLessEqual(len(text), 64, key)
            self.assertTrue(text[-1].isalnum() or text[-1] in ")]}", key)
        self.assertLessEqual(set(data.get("permissions", {})), {"files", "network", "clipboard", "camera", "microphone"})
        for key in ("schema_version", "id", "version", "name", "tagline", "maintainer", "type", "license", "blender_version_min"):
            self.assertIn(key, data)
        self.assertTrue(data["id"].isidentifier() and "__" not in data["id"])

    def test_only_relative_imports_of_the_addon(self):
        for name in os.listdir(ADDON):
            if name.endswith(".py"):
                with open(os.path.join(ADDON, name), encoding="utf-8") as handle:
                    text = handle.read()
                self.assertNotRegex(text, r"(?m)^\s*(from|import) slmesh_blender", name)

    def test_build_zip_layout(self):
        sys.path.insert(0, PACKAGE)
        try:
            import build
        finally:
            sys.path.remove(PACKAGE)
        with tempfile.TemporaryDirectory() as tmp:
            build.OUTPUT = os.path.join(tmp, "slmesh_blender.zip")
            path = build.build()
            with zipfile.ZipFile(path) as zf:
                names = zf.namelist()
        self.assertIn("slmesh_blender/__init__.py", names)
        self.assertIn("slmesh_blender/blender_manifest.toml", names)
        self.assertTrue(all(n.startswith("slmesh_blender/") and "__pycache__" not in n for n in names))


if __name__ == "__main__":
    unittest.main()
