import os
import tempfile
import unittest

from slmesh_blender import files


def touch(path: str, data: bytes = b"x") -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


class SiblingTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name

    def p(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def test_sibling_names(self):
        self.assertEqual(files.sibling_path("/a/out.glb", "LOD2"), "/a/out_LOD2.glb")
        self.assertEqual(files.sibling_path("/a/chair.v2.glb", "PHYS"), "/a/chair.v2_PHYS.glb")

    def test_collect_only_what_exists_in_uploader_order(self):
        self.assertEqual(files.collect_outputs(self.p("out.glb")), [])
        touch(self.p("out.glb"))
        self.assertEqual(files.collect_outputs(self.p("out.glb")), [self.p("out.glb")])
        for slot in ("PHYS", "LOD0", "LOD2"):
            touch(self.p(f"out_{slot}.glb"))
        touch(self.p("out_LOD3.glb"))
        touch(self.p("other_LOD1.glb"))
        self.assertEqual(files.collect_outputs(self.p("out.glb")), [self.p(n) for n in ("out.glb", "out_LOD2.glb", "out_LOD0.glb", "out_PHYS.glb")])
        self.assertEqual(files.slot_of_file(self.p("out_LOD0.glb"), self.p("out.glb")), "LOD0")
        self.assertIsNone(files.slot_of_file(self.p("out.glb"), self.p("out.glb")))

    def test_install_moves_and_removes_stale_siblings(self):
        made = os.path.join(self.dir, "tmp", "chair.glb")
        touch(made, b"new")
        touch(files.sibling_path(made, "LOD2"), b"new2")
        dest = self.p("final/chair.glb")
        touch(dest, b"old")
        touch(files.sibling_path(dest, "LOD2"), b"old2")
        touch(files.sibling_path(dest, "PHYS"), b"stale")
        written = files.install_outputs(made, dest)
        self.assertEqual(written, [dest, files.sibling_path(dest, "LOD2")])
        with open(dest, "rb") as handle:
            self.assertEqual(handle.read(), b"new")
        self.assertFalse(os.path.exists(files.sibling_path(dest, "PHYS")))
        self.assertFalse(os.path.exists(made))

    def test_install_of_nothing_deletes_nothing(self):
        dest = touch(self.p("chair.glb"))
        touch(files.sibling_path(dest, "LOD2"))
        self.assertEqual(files.install_outputs(self.p("missing/chair.glb"), dest), [])
        self.assertTrue(os.path.exists(files.sibling_path(dest, "LOD2")))


class NameTest(unittest.TestCase):
    def test_split_slot(self):
        self.assertEqual(files.split_slot("Chair_LOD2"), ("Chair", "LOD2"))
        self.assertEqual(files.split_slot("Chair_phys.001"), ("Chair", "PHYS"))
        self.assertEqual(files.split_slot("Chair"), ("Chair", None))
        self.assertEqual(files.split_slot("Leg_FL"), ("Leg_FL", None))
        self.assertEqual(files.split_slot("Chair_LOD3"), ("Chair_LOD3", None))

    def test_imported_names_pair_with_the_originals(self):
        # One file with Name_LODn nodes (optimize without --split)
        self.assertEqual(files.imported_name("Seat_LOD1", None), "Seat_LOD1")
        self.assertIsNone(files.imported_name("Seat.001", None))  # the high LOD: the creator's own object
        # Sibling files whose nodes keep the input's names
        self.assertEqual(files.imported_name("Seat.001", "LOD2"), "Seat_LOD2")
        self.assertEqual(files.imported_name("Seat_PHYS", "PHYS"), "Seat_PHYS")

    def test_strip_duplicate_suffix(self):
        self.assertEqual(files.strip_duplicate_suffix("Wood.001"), "Wood")
        self.assertEqual(files.strip_duplicate_suffix("Wood.v2"), "Wood.v2")

    def test_paths(self):
        self.assertEqual(files.export_path_for("/p/chair.blend", "/tmp"), "/p/chair_sl.glb")
        self.assertEqual(files.export_path_for("", "/tmp"), "/tmp/untitled_sl.glb")
        self.assertEqual(files.normalise_output("/p/chair.gltf"), "/p/chair.glb")
        self.assertEqual(files.normalise_output("/p/chair"), "/p/chair.glb")
        self.assertEqual(files.normalise_output("/p/chair.GLB"), "/p/chair.GLB")
        self.assertEqual(files.normalise_output("/p/chair.v2"), "/p/chair.v2.glb")


if __name__ == "__main__":
    unittest.main()
