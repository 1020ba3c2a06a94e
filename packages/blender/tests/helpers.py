"""Shared helpers of the unit tests: the fixture reports and a fake slmesh."""

from __future__ import annotations

import json
import os
from typing import Callable, Optional

from slmesh_blender.jobs import Run, RunResult

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def fixture_text(name: str) -> str:
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as handle:
        return handle.read()


def fixture(name: str) -> dict:
    return json.loads(fixture_text(name))


def arg_after(argv, flag: str) -> Optional[str]:
    argv = list(argv)
    return argv[argv.index(flag) + 1] if flag in argv else None


class FakeSlmesh:
    """Answers the runs a job asks for like slmesh would, and records them.

    ``split_flag``: whether ``optimize --help`` lists --split (the current CLI) or not (the
    coming one, which writes sibling files by default). ``writes``: the slots optimize writes
    next to its output (None = the main file only, nodes Name_LOD2... inside it).
    """

    def __init__(self, split_flag: bool = True, writes=("LOD2", "LOD1", "LOD0", "PHYS"), optimize_code: int = 0,
                 help_extra: str = "--report <file.json>\n  --target-li <N>\n  --max-error-px <px>\n  --keep-lods",
                 optimize_report: Optional[dict] = None):
        self.split_flag = split_flag
        self.optimize_report = optimize_report or {"schemaVersion": 1, "optimize": {"maxErrorPx": 1}}
        self.writes = writes
        self.optimize_code = optimize_code
        self.help_extra = help_extra
        self.runs: list[list[str]] = []
        self.cost_text: Callable[[str], str] = lambda model: fixture_text("chair-cost.json")

    def __call__(self, run: Run) -> RunResult:
        argv = list(run.argv)
        self.runs.append(argv)
        command = argv[1] if len(argv) > 1 else ""
        if command == "cost":
            return RunResult(argv, 0, self.cost_text(argv[-1]), "")
        if command == "optimize" and "--help" in argv:
            text = "Usage: slmesh optimize [options] <input>\n\nOptions:\n  -o, --output <file.glb>\n  --lod-factor <F>\n  --physics <mode>\n  " + self.help_extra
            if self.split_flag:
                text += "\n  --split   write sibling files"
            return RunResult(argv, 0, text, "")
        if command == "optimize":
            if self.optimize_code == 2:
                return RunResult(argv, 2, "", "slmesh: model.glb: not a glTF file\n")
            out = arg_after(argv, "-o")
            root, ext = os.path.splitext(out)
            with open(out, "wb") as handle:
                handle.write(b"glTF main")
            if self.split_flag and "--split" in argv or not self.split_flag:
                for slot in self.writes or ():
                    with open(f"{root}_{slot}{ext}", "wb") as handle:
                        handle.write(slot.encode())
            report = arg_after(argv, "--report")
            if report:
                with open(report, "w", encoding="utf-8") as handle:
                    json.dump(self.optimize_report, handle)
            stderr = "slmesh: land impact 3.2 is over the target 2 (physics weight sets it)\n" if self.optimize_code == 1 else ""
            return RunResult(argv, self.optimize_code, "done\n", stderr)
        if command == "preview":
            page = arg_after(argv, "-o")
            with open(page, "w", encoding="utf-8") as handle:
                handle.write("<!doctype html><title>preview</title>")
            return RunResult(argv, 0, "", "")
        return RunResult(argv, 0, "0.1.0\n", "")
