"""The add-on's three jobs (price, export for Second Life, preview) as :mod:`jobs` generators.

Blender only enters through the ``export`` callback (write the selection to a GLB path), so the
whole sequence of slmesh runs, the handling of their exit codes and the collection of the written
files is testable without Blender. Pure Python (no ``bpy``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from . import cli
from .cli import OptimizeOptions, SlmeshError
from .files import collect_outputs, install_outputs
from .jobs import Job, Run, RunResult
from .report import parse_report

ExportFn = Callable[[str], None]

#: ``optimize --help`` per command, so each export asks at most once per session.
_HELP_CACHE: dict[tuple, frozenset[str]] = {}

COST_TIMEOUT = 600.0
OPTIMIZE_TIMEOUT = 3600.0


def _check(result: RunResult, what: str, ok: Sequence[int] = (0,)) -> None:
    if result.returncode not in ok:
        raise SlmeshError(cli.failure_message(what, result.returncode, result.stderr, result.stdout))


def _cost(base: Sequence[str], model: str, lod_factor: float, label: str) -> Job:
    """Run ``slmesh cost --json`` on ``model``; returns the parsed report."""
    result = yield Run(cli.cost_argv(base, model, lod_factor), label, COST_TIMEOUT)
    _check(result, "slmesh cost")
    return parse_report(result.stdout)


@dataclass
class PriceResult:
    report: dict
    report_text: str


PRICE_STEPS = 1


def price_job(base: Sequence[str], export: ExportFn, lod_factor: float = 2.0) -> Job:
    """Export with ``export`` to a temporary GLB and price it. Returns a :class:`PriceResult`
    whose ``report_text`` is slmesh's JSON as printed. The temporary files are always removed."""
    tmp = tempfile.mkdtemp(prefix="slmesh-price-")
    try:
        model = os.path.join(tmp, "selection.glb")
        export(model)
        result = yield Run(cli.cost_argv(base, model, lod_factor), "Pricing", COST_TIMEOUT)
        _check(result, "slmesh cost")
        return PriceResult(parse_report(result.stdout), result.stdout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class ExportResult:
    """What an export wrote: ``files`` (out.glb first, then the siblings that exist), the
    reports of the input (``before``) and of the written files (``after``), ``warnings``, and
    ``notes``: what optimize said about joining the objects and about the LODs at the pixel bound
    (:func:`join_notes`)."""

    files: list[str]
    before: dict
    after: dict
    after_text: str
    warnings: list[str] = field(default_factory=list)
    optimize_report: Optional[dict] = None
    notes: list[str] = field(default_factory=list)


JOIN_CODES = ("objects-merged", "objects-kept", "objects-mergeable", "lods-strict-taken", "lods-strict-cheaper")


def join_notes(report: Optional[dict]) -> list[str]:
    """What optimize's report says about joining the objects: joined (``objects-merged``), kept
    apart and why (``objects-kept``), or what joining would save (``objects-mergeable``, the CLI's
    tip, pointed at the panel's 'Join objects' instead of the command-line flag); and about the
    LODs planned at the pixel bound: written (``lods-strict-taken``) or cheaper at a larger error
    (``lods-strict-cheaper``, the CLI's tip; the panel has no switch for it, so the note names the
    command line)."""
    notes: list[str] = []
    for entry in (report or {}).get("files", []) if isinstance(report, dict) else []:
        for d in entry.get("diagnostics", []) if isinstance(entry, dict) else []:
            if not isinstance(d, dict) or d.get("code") not in JOIN_CODES or not isinstance(d.get("message"), str):
                continue
            message = d["message"]
            if d["code"] == "objects-mergeable":
                message = message.replace("--merge-objects joins them", "tick 'Join objects' to join them")
            if d["code"] == "lods-strict-cheaper":
                message = message.replace("--strict-error plans so", "slmesh optimize --strict-error on the command line plans so")
            notes.append(message[:1].upper() + message[1:])
    return notes


EXPORT_STEPS = 4


def supported_options(base: Sequence[str], help_result: Optional[RunResult]) -> frozenset[str]:
    """The options of ``optimize --help``; cached per command."""
    key = tuple(base)
    if help_result is not None:
        _check(help_result, "slmesh optimize --help")
        _HELP_CACHE[key] = cli.parse_help_options(help_result.stdout)
    return _HELP_CACHE.get(key, frozenset())


def export_job(
    base: Sequence[str],
    export: ExportFn,
    destination: str,
    options: OptimizeOptions,
) -> Job:
    """Export the selection, price it, optimize it into uploader-ready files at
    ``destination`` (and its ``_LOD2/_LOD1/_LOD0/_PHYS`` siblings), and price those.

    optimize writes into a temporary folder first; only a finished run replaces the files at
    ``destination``, and stale siblings from an earlier export are removed. Exit status 1 of
    optimize (target land impact not reached, files written) is a warning, not a failure.
    """
    tmp = tempfile.mkdtemp(prefix="slmesh-export-")
    try:
        model = os.path.join(tmp, "input", "selection.glb")
        os.makedirs(os.path.dirname(model))
        export(model)
        before = yield from _cost(base, model, options.lod_factor, "Pricing the selection")
        if tuple(base) not in _HELP_CACHE:
            help_result = yield Run(cli.help_argv(base, "optimize"), "Reading slmesh's options", 60.0)
            supported_options(base, help_result)
        supported = _HELP_CACHE[tuple(base)]
        produced = os.path.join(tmp, "out", os.path.basename(destination))
        os.makedirs(os.path.dirname(produced))
        plan = cli.optimize_argv(base, model, produced, options, supported, os.path.join(tmp, "report.json"))
        result = yield Run(plan.argv, "Generating LODs and physics", OPTIMIZE_TIMEOUT)
        if result.returncode == 2 and "unknown option" in result.stderr:
            _HELP_CACHE.pop(tuple(base), None)  # slmesh was updated while Blender ran: ask again next time
        _check(result, "slmesh optimize", ok=(0, 1))
        warnings = list(plan.notes)
        if result.returncode == 1:
            warnings.append(cli.last_line(result.stderr) or "the target land impact was not reached")
        if not collect_outputs(produced):
            raise SlmeshError(f"slmesh optimize wrote no {os.path.basename(produced)}")
        optimize_report = None
        if plan.report_path and os.path.isfile(plan.report_path):
            try:
                with open(plan.report_path, encoding="utf-8") as handle:
                    optimize_report = json.load(handle)
            except (OSError, ValueError):
                optimize_report = None
        files = install_outputs(produced, destination)
        result = yield Run(cli.cost_argv(base, destination, options.lod_factor), "Pricing the written files", COST_TIMEOUT)
        _check(result, "slmesh cost (of the written files)")
        after = parse_report(result.stdout)
        return ExportResult(files, before, after, result.stdout, warnings, optimize_report, join_notes(optimize_report))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


PREVIEW_STEPS = 1


def preview_job(base: Sequence[str], export: ExportFn, folder: str, lod_factor: float = 2.0) -> Job:
    """Export to ``folder``/selection.glb and write its preview page next to it; returns the
    page's path. ``folder`` is kept (the page must outlive the job to be opened)."""
    os.makedirs(folder, exist_ok=True)
    model = os.path.join(folder, "selection.glb")
    for stale in collect_outputs(model):
        os.remove(stale)
    export(model)
    page = os.path.join(folder, "selection.preview.html")
    result = yield Run(cli.preview_argv(base, model, page, lod_factor), "Writing the preview page", COST_TIMEOUT)
    _check(result, "slmesh preview")
    if not os.path.isfile(page):
        raise SlmeshError("slmesh preview wrote no page")
    return page
