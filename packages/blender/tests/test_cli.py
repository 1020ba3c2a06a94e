import os
import stat
import tempfile
import unittest

from slmesh_blender import cli


class BaseArgvTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def make_exe(self, name: str) -> str:
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as handle:
            handle.write("#!/bin/sh\necho 0.1.0\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        return path

    def test_path_mode_finds_slmesh_on_path(self):
        exe = self.make_exe("slmesh")
        old = os.environ.get("PATH", "")
        os.environ["PATH"] = self.tmp.name
        try:
            self.assertEqual(cli.base_argv(cli.CliConfig(mode=cli.MODE_PATH, extra_path=(self.tmp.name,))), [exe])
        finally:
            os.environ["PATH"] = old

    def test_path_mode_missing_gives_the_clear_message(self):
        config = cli.CliConfig(mode=cli.MODE_PATH, extra_path=(self.tmp.name,))
        old = os.environ.get("PATH", "")
        os.environ["PATH"] = self.tmp.name
        try:
            with self.assertRaises(cli.SlmeshNotFound) as caught:
                cli.base_argv(config)
        finally:
            os.environ["PATH"] = old
        message = str(caught.exception)
        self.assertTrue(message.startswith("slmesh not found"))
        self.assertIn("npm install -g @slmesh/cli", message)
        self.assertIn("Preferences > Add-ons > slmesh", message)

    def test_executable_mode(self):
        exe = self.make_exe("my-slmesh")
        self.assertEqual(cli.base_argv(cli.CliConfig(mode=cli.MODE_EXECUTABLE, executable=exe)), [exe])
        with self.assertRaises(cli.SlmeshNotFound) as caught:
            cli.base_argv(cli.CliConfig(mode=cli.MODE_EXECUTABLE, executable=os.path.join(self.tmp.name, "nope")))
        self.assertIn("no file", str(caught.exception))
        with self.assertRaises(cli.SlmeshNotFound):
            cli.base_argv(cli.CliConfig(mode=cli.MODE_EXECUTABLE, executable="  "))

    def test_node_mode_needs_node_and_bin_js(self):
        node = self.make_exe("node")
        script = os.path.join(self.tmp.name, "bin.js")
        with open(script, "w") as handle:
            handle.write("")
        self.assertEqual(cli.base_argv(cli.CliConfig(mode=cli.MODE_NODE, node=node, script=script)), [node, script])
        with self.assertRaises(cli.SlmeshNotFound) as caught:
            cli.base_argv(cli.CliConfig(mode=cli.MODE_NODE, node=node, script=script + ".missing"))
        self.assertIn("no bin.js", str(caught.exception))
        with self.assertRaises(cli.SlmeshNotFound) as caught:
            cli.base_argv(cli.CliConfig(mode=cli.MODE_NODE, node=os.path.join(self.tmp.name, "no-node"), script=script))
        self.assertIn("node not found", str(caught.exception))


class ArgvTest(unittest.TestCase):
    BASE = ["slmesh"]
    CURRENT_HELP = """
  -o, --output <file.glb>       output GLB
  --split                       write sibling files out.glb, out_LOD2.glb,
  --report <file.json>          also write the cost report of the output
  --lod-factor <F>              RenderVolumeLODFactor (default: "2")
  --max-error-px <px>           largest screen-space error
  --target-li <N>               lowest-error LODs that keep the land impact at
  --keep-lods                   keep authored LODs
  --physics <mode>              physics shape: auto (a decomposition when
  --no-siblings                 do not read sibling _LOD2/_LOD1/_LOD0/_PHYS
"""

    COMING_HELP = """Usage: slmesh optimize [options] <input>

Options:
  -o, --output <file.glb>       output GLB; its sibling files out_LOD2.glb,
                                out_LOD1.glb, out_LOD0.glb (and out_PHYS.glb)
                                are written next to it
  --split                       deprecated, no effect: sibling files are always
                                written (the only layout the importer takes LODs
                                from)
  --report <file.json>          also write the cost report of the output
  --lod-factor <F>              RenderVolumeLODFactor the LODs are planned for
  --target-li <N>               lowest-error LODs that keep the land impact at
                                most N
  --physics <mode>              physics shape: auto (a decomposition when
  -q, --quiet                   no progress line on the terminal
  -h, --help                    display help for command
"""

    def test_deprecated_split_is_not_passed(self):
        options = cli.parse_help_options(self.COMING_HELP)
        self.assertNotIn("--split", options)
        self.assertTrue({"--output", "--report", "--target-li", "--physics", "--quiet"} <= options)
        plan = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(target_li=3, keep_high=True), options | {"--keep-high"}, "r.json")
        self.assertNotIn("--split", plan.argv)
        self.assertIn("--keep-high", plan.argv)
        older = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(keep_high=True), options, None)
        self.assertNotIn("--keep-high", older.argv)
        self.assertEqual(older.notes, ())
        # Full precision: passed when the CLI has it; an older CLI moves no vertex (no note).
        exact = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(keep_precision=True), options | {"--keep-precision"}, None)
        self.assertIn("--keep-precision", exact.argv)
        self.assertNotIn("--keep-precision", plan.argv)
        before = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(keep_precision=True), options, None)
        self.assertNotIn("--keep-precision", before.argv)
        self.assertEqual(before.notes, ())
        self.assertIn("--target-li", plan.argv)
        self.assertEqual(plan.notes, ())

    def test_numbers_are_plain(self):
        self.assertEqual(cli.fmt_number(2), "2")
        self.assertEqual(cli.fmt_number(1.125), "1.125")
        self.assertEqual(cli.fmt_number(0.5), "0.5")
        self.assertEqual(cli.fmt_number(1e-7), "0")

    def test_cost_and_preview(self):
        self.assertEqual(cli.cost_argv(self.BASE, "m.glb", 1.5), ["slmesh", "cost", "--json", "--lod-factor", "1.5", "m.glb"])
        self.assertEqual(cli.preview_argv(self.BASE, "m.glb", "p.html"), ["slmesh", "preview", "m.glb", "-o", "p.html", "--lod-factor", "2"])
        self.assertEqual(cli.version_argv(["node", "bin.js"]), ["node", "bin.js", "--version"])

    def test_help_options(self):
        options = cli.parse_help_options(self.CURRENT_HELP)
        self.assertIn("--split", options)
        self.assertIn("--target-li", options)
        self.assertIn("--no-siblings", options)
        self.assertNotIn("--output", {o for o in options if o.startswith("--o") and o != "--output"})

    def test_optimize_with_split_flag(self):
        options = cli.parse_help_options(self.CURRENT_HELP)
        plan = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(lod_factor=1, physics="hull", target_li=5), options, "r.json")
        self.assertEqual(plan.argv[:5], ["slmesh", "optimize", "in.glb", "-o", "out.glb"])
        self.assertIn("--split", plan.argv)
        self.assertEqual(plan.argv[plan.argv.index("--target-li") + 1], "5")
        self.assertEqual(plan.argv[plan.argv.index("--physics") + 1], "hull")
        self.assertEqual(plan.argv[plan.argv.index("--lod-factor") + 1], "1")
        self.assertEqual(plan.report_path, "r.json")
        self.assertNotIn("--max-error-px", plan.argv)  # the default is not passed
        self.assertEqual(plan.notes, ())

    def test_optimize_siblings_by_default_and_missing_options(self):
        # The coming CLI writes sibling files by default: no --split; an older one may lack --target-li / --report.
        options = frozenset({"--output", "--lod-factor", "--physics"})
        plan = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(target_li=4, keep_lods=True), options, "r.json")
        self.assertNotIn("--split", plan.argv)
        self.assertNotIn("--target-li", plan.argv)
        self.assertNotIn("--report", plan.argv)
        self.assertIsNone(plan.report_path)
        self.assertEqual(len(plan.notes), 2)
        self.assertIn("--target-li", plan.notes[0])

    def test_join_objects_only_when_asked_and_supported(self):
        options = frozenset({"--output", "--lod-factor", "--physics", "--merge-objects"})
        joined = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(merge_objects=True), options)
        self.assertIn("--merge-objects", joined.argv)
        self.assertEqual(joined.notes, ())
        apart = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(), options)
        self.assertNotIn("--merge-objects", apart.argv)
        older = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(merge_objects=True), options - {"--merge-objects"})
        self.assertNotIn("--merge-objects", older.argv)
        # A CLI that joins more prims than a linkset holds by default is told not to when unticked.
        newer = options | {"--no-merge-objects"}
        off = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(), newer)
        self.assertIn("--no-merge-objects", off.argv)
        on = cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(merge_objects=True), newer)
        self.assertIn("--merge-objects", on.argv)
        self.assertNotIn("--no-merge-objects", on.argv)
        self.assertEqual(len(older.notes), 1)
        self.assertIn("joining objects ignored", older.notes[0])

    def test_optimize_rejects_unknown_physics(self):
        with self.assertRaises(cli.SlmeshError):
            cli.optimize_argv(self.BASE, "in.glb", "out.glb", cli.OptimizeOptions(physics="jelly"), frozenset({"--physics"}))

    def test_failure_message_uses_the_cli_line(self):
        self.assertEqual(cli.failure_message("slmesh cost", 2, "slmesh: m.glb: not a glTF file\n"), "slmesh cost failed: m.glb: not a glTF file")
        self.assertEqual(cli.failure_message("slmesh cost", 3, ""), "slmesh cost failed: exit status 3")


if __name__ == "__main__":
    unittest.main()
