import os
import tempfile
import unittest

from slmesh_blender import pipeline
from slmesh_blender.cli import OptimizeOptions, SlmeshError
from slmesh_blender.jobs import run_sync

from .helpers import FakeSlmesh, arg_after


def fake_export(path: str) -> None:
    with open(path, "wb") as handle:
        handle.write(b"glTF selection")


class PipelineTest(unittest.TestCase):
    def setUp(self):
        pipeline._HELP_CACHE.clear()
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dest = os.path.join(self.tmp.name, "out", "chair.glb")

    def test_price(self):
        fake = FakeSlmesh()
        result = run_sync(pipeline.price_job(["slmesh"], fake_export, 1.5), fake)
        self.assertEqual(result.report["files"][0]["linkset"]["landImpactRounded"], 20)
        argv = fake.runs[0]
        self.assertEqual(argv[:5], ["slmesh", "cost", "--json", "--lod-factor", "1.5"])
        self.assertFalse(os.path.exists(os.path.dirname(argv[-1])), "the temporary export is removed")

    def test_price_failure_uses_the_cli_line(self):
        def failing(run):
            from slmesh_blender.jobs import RunResult
            return RunResult(run.argv, 2, "", "slmesh: selection.glb: no mesh\n")

        with self.assertRaises(SlmeshError) as caught:
            run_sync(pipeline.price_job(["slmesh"], fake_export), failing)
        self.assertEqual(str(caught.exception), "slmesh cost failed: selection.glb: no mesh")

    def test_export_with_split_flag(self):
        fake = FakeSlmesh(split_flag=True)
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions(target_li=5)), fake)
        self.assertEqual([os.path.basename(f) for f in result.files], ["chair.glb", "chair_LOD2.glb", "chair_LOD1.glb", "chair_LOD0.glb", "chair_PHYS.glb"])
        optimize = next(r for r in fake.runs if r[1] == "optimize" and "--help" not in r)
        self.assertIn("--split", optimize)
        self.assertEqual(arg_after(optimize, "--target-li"), "5")
        self.assertEqual(os.path.basename(arg_after(optimize, "-o")), "chair.glb")
        self.assertEqual(fake.runs[-1][-1], self.dest, "the written files are priced")
        self.assertEqual(result.optimize_report, {"schemaVersion": 1, "optimize": {"maxErrorPx": 1}})
        self.assertEqual(result.warnings, [])

    def test_export_siblings_by_default(self):
        # The coming CLI: no --split option, sibling files written by default.
        fake = FakeSlmesh(split_flag=False, writes=("LOD2", "LOD1", "LOD0"))
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), fake)
        self.assertEqual([os.path.basename(f) for f in result.files], ["chair.glb", "chair_LOD2.glb", "chair_LOD1.glb", "chair_LOD0.glb"])
        optimize = next(r for r in fake.runs if r[1] == "optimize" and "--help" not in r)
        self.assertNotIn("--split", optimize)

    def test_export_single_file_and_stale_siblings(self):
        # An optimize that writes one file (LOD nodes inside): earlier siblings must go.
        os.makedirs(os.path.dirname(self.dest))
        for slot in ("LOD2", "PHYS"):
            with open(self.dest.replace(".glb", f"_{slot}.glb"), "wb") as handle:
                handle.write(b"stale")
        fake = FakeSlmesh(split_flag=False, writes=None)
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), fake)
        self.assertEqual(result.files, [self.dest])
        self.assertEqual(os.listdir(os.path.dirname(self.dest)), ["chair.glb"])

    def test_help_is_asked_once(self):
        fake = FakeSlmesh()
        for _ in range(2):
            run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), fake)
        self.assertEqual(sum(1 for r in fake.runs if "--help" in r), 1)

    def test_target_not_reached_is_a_warning(self):
        fake = FakeSlmesh(optimize_code=1)
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions(target_li=2)), fake)
        self.assertEqual(result.warnings, ["land impact 3.2 is over the target 2 (physics weight sets it)"])
        self.assertTrue(os.path.isfile(self.dest))

    def test_unusable_input_writes_nothing(self):
        fake = FakeSlmesh(optimize_code=2)
        with self.assertRaises(SlmeshError) as caught:
            run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), fake)
        self.assertIn("not a glTF file", str(caught.exception))
        self.assertFalse(os.path.exists(self.dest))

    def test_updated_cli_is_asked_again(self):
        fake = FakeSlmesh()
        run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), fake)

        def updated(run):
            from slmesh_blender.jobs import RunResult
            if run.argv[1] == "optimize" and "--help" not in run.argv:
                return RunResult(run.argv, 2, "", "error: unknown option '--split'\n")
            return fake(run)

        with self.assertRaises(SlmeshError):
            run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), updated)
        self.assertNotIn(("slmesh",), pipeline._HELP_CACHE)

    def test_older_cli_without_target_li(self):
        fake = FakeSlmesh(help_extra="")
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions(target_li=3)), fake)
        self.assertEqual(len(result.warnings), 1)
        self.assertIn("--target-li", result.warnings[0])
        self.assertIsNone(result.optimize_report)

    def test_join_tip_names_the_panel_switch(self):
        tip = "joined into one object, these 6 objects would cost less (every prim costs at least 0.5 of server weight): land impact 3.000 apart, 0.750 joined, worst LOD error 0.90 px joined; --merge-objects joins them"
        report = {"schemaVersion": 1, "files": [{"diagnostics": [
            {"severity": "info", "code": "objects-mergeable", "message": tip},
            {"severity": "info", "code": "lod-fallback", "message": "not about joining"},
        ]}]}
        fake = FakeSlmesh(help_extra="--report <file.json>\n  --merge-objects", optimize_report=report)
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions()), fake)
        optimize = next(r for r in fake.runs if r[1] == "optimize" and "--help" not in r)
        self.assertNotIn("--merge-objects", optimize, "objects stay apart unless asked")
        self.assertEqual(len(result.notes), 1)
        self.assertTrue(result.notes[0].startswith("Joined into one object"))
        self.assertIn("tick 'Join objects' to join them", result.notes[0])
        self.assertNotIn("--merge-objects", result.notes[0])

    def test_strict_chain_notes(self):
        taken = "planned with every LOD's bound 1 px where it appears, not the error of the viewer's own auto-LOD (the uploader's Generate): land impact 11.270 instead of 11.858, worst LOD error 0.75 px instead of 0.91 px"
        cheaper = "planned with every LOD's bound 1 px where it appears, not the error of the viewer's own auto-LOD (the uploader's Generate), the land impact would be 2.320 instead of 9.458 (rounded 2 against 9), worst LOD error 0.96 px instead of 0.26 px; --strict-error plans so"
        report = {"files": [{"diagnostics": [
            {"severity": "info", "code": "lods-strict-taken", "message": taken},
            {"severity": "info", "code": "lods-strict-cheaper", "message": cheaper},
        ]}]}
        notes = pipeline.join_notes(report)
        self.assertEqual(len(notes), 2)
        self.assertTrue(notes[0].startswith("Planned with every LOD's bound 1 px"))
        self.assertIn("slmesh optimize --strict-error on the command line plans so", notes[1])

    def test_join_asked_and_said(self):
        report = {"files": [{"diagnostics": [{"code": "objects-merged", "message": "6 objects joined into one, \"Seat\""}]}]}
        fake = FakeSlmesh(help_extra="--report <file.json>\n  --merge-objects", optimize_report=report)
        result = run_sync(pipeline.export_job(["slmesh"], fake_export, self.dest, OptimizeOptions(merge_objects=True)), fake)
        optimize = next(r for r in fake.runs if r[1] == "optimize" and "--help" not in r)
        self.assertIn("--merge-objects", optimize)
        self.assertEqual(result.notes, ['6 objects joined into one, "Seat"'])
        self.assertEqual(result.warnings, [])

    def test_join_notes_ignore_odd_reports(self):
        for odd in (None, [], {"files": "x"}, {"files": [None, {"diagnostics": [7, {"code": "objects-kept"}]}]}):
            self.assertEqual(pipeline.join_notes(odd), [])

    def test_preview(self):
        fake = FakeSlmesh()
        folder = os.path.join(self.tmp.name, "preview")
        page = run_sync(pipeline.preview_job(["slmesh"], fake_export, folder, 1), fake)
        self.assertEqual(page, os.path.join(folder, "selection.preview.html"))
        self.assertTrue(os.path.isfile(page))
        self.assertEqual(fake.runs[0][1], "preview")


if __name__ == "__main__":
    unittest.main()
