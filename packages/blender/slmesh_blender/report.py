"""Reading ``slmesh cost --json`` reports (docs/cost-report.schema.json) for the panel.

:func:`parse_report` checks the JSON is a report this add-on understands; :func:`summarize`
turns its first file into the numbers and sentences the sidebar shows. Pure Python (no ``bpy``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from .cli import SlmeshError
from .diagnostics import Finding, word_all

LODS = ("high", "medium", "low", "lowest")
LOWER_LODS = ("medium", "low", "lowest")

DOMINANT_TEXT = {
    "download": "the download weight: fewer triangles in the LODs (medium and low matter most) lower it",
    "physics": "the physics weight: a simpler physics shape (one hull, or fewer pieces) lowers it",
    "server": "the server weight (0.5 per object): joining parts into fewer objects lowers it",
}


def parse_report(text: str) -> dict:
    """The report in ``text`` as a dict; raises :class:`SlmeshError` unless it is a schema-1
    cost report with at least one file."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise SlmeshError(f"slmesh did not print a JSON report ({error})") from None
    if not isinstance(data, dict) or data.get("schemaVersion") != 1:
        raise SlmeshError("slmesh printed a report this add-on does not understand (schemaVersion is not 1); update the add-on")
    files = data.get("files")
    if not isinstance(files, list) or not files or not isinstance(files[0], dict):
        raise SlmeshError("slmesh's report has no file")
    return data


def round_half_up(value: float) -> int:
    """Land impact rounded as the report does (half up)."""
    return int(math.floor(value + 0.5))


@dataclass(frozen=True)
class ObjectRow:
    """One object (prim) of the linkset."""

    name: str
    triangles: dict[str, int]
    present: dict[str, bool]
    switch: dict[str, Optional[float]]
    land_impact: float
    download: float
    physics: float
    server: float
    physics_shape: str
    physics_estimate: bool


@dataclass(frozen=True)
class Summary:
    """What the panel shows for one priced file."""

    land_impact: float
    land_impact_rounded: int
    download: float
    physics: float
    physics_estimate: bool
    server: float
    dominant: str
    prims: int
    lod_factor: float
    linkable: bool
    linkable_text: str
    can_be_physical: bool
    physical_weight: float
    physical_limit: float
    scale: tuple[float, float, float]
    objects: list[ObjectRow] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def dominant_text(self) -> str:
        """Which weight sets the land impact, and what lowers it."""
        return "Land impact is set by " + DOMINANT_TEXT.get(self.dominant, f"the {self.dominant} weight")

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]


def _num(value: Any, default: float = 0.0) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _object_row(obj: Mapping) -> ObjectRow:
    lods = obj.get("lods") or {}
    switch = obj.get("switchDistances") or {}
    physics = obj.get("physics") or {}
    return ObjectRow(
        name=str(obj.get("name", "?")),
        triangles={lod: int(_num((lods.get(lod) or {}).get("triangles"))) for lod in LODS},
        present={lod: bool((lods.get(lod) or {}).get("present")) for lod in LODS},
        switch={lod: (None if switch.get(lod) is None else _num(switch.get(lod))) for lod in LOWER_LODS},
        land_impact=_num(obj.get("landImpact")),
        download=_num(obj.get("streaming")),
        physics=_num(physics.get("weight")),
        server=_num(obj.get("server")),
        physics_shape=str(physics.get("shape", "convex-hull")),
        physics_estimate=bool(physics.get("estimate")),
    )


def linkable_text(linkable: Mapping) -> str:
    """One line on whether the parts link into one object in Second Life."""
    prims = int(_num(linkable.get("prims")))
    if linkable.get("ok", True):
        if prims <= 1:
            return "Linkable (a single object)"
        return f"Linkable: {prims} parts within {_num(linkable.get('span')):.1f} m (limit {_num(linkable.get('limit'), 54):g} m)"
    reason = linkable.get("reason")
    return "Not linkable: " + (str(reason) if reason else f"span {_num(linkable.get('span')):.1f} m, limit {_num(linkable.get('limit'), 54):g} m")


def summarize(report: Mapping) -> Summary:
    """The panel's view of the report's first file. Missing optional fields read as 0/False."""
    file = report["files"][0]
    linkset = file.get("linkset") or {}
    physical = linkset.get("physical") or {}
    linkable = linkset.get("linkable") or {}
    land_impact = _num(linkset.get("landImpact"))
    rounded = linkset.get("landImpactRounded")
    scale = tuple(_num(v) for v in (linkset.get("scale") or (0, 0, 0)))[:3]
    return Summary(
        land_impact=land_impact,
        land_impact_rounded=int(rounded) if isinstance(rounded, int) else round_half_up(land_impact),
        download=_num(linkset.get("streaming")),
        physics=_num(linkset.get("physics")),
        physics_estimate=bool(linkset.get("physicsEstimate")),
        server=_num(linkset.get("server")),
        dominant=str(linkset.get("dominant", "download")),
        prims=int(_num(linkset.get("prims"))),
        lod_factor=_num((report.get("settings") or {}).get("lodFactor"), 2.0),
        linkable=bool(linkable.get("ok", True)),
        linkable_text=linkable_text(linkable),
        can_be_physical=bool(physical.get("canBePhysical", True)),
        physical_weight=_num(physical.get("weight")),
        physical_limit=_num(physical.get("limit"), 32.0),
        scale=scale if len(scale) == 3 else (0.0, 0.0, 0.0),  # type: ignore[arg-type]
        objects=[_object_row(o) for o in file.get("objects") or () if isinstance(o, Mapping)],
        findings=word_all(file.get("diagnostics")),
    )


def key_numbers(report: Mapping) -> dict:
    """The numbers that make two reports "the same pricing": land impact, the three weights,
    prim count and each object's triangles per LOD (names in report order).

    Used to compare the add-on's stored report with a direct ``slmesh cost --json``.
    """
    s = summarize(report)
    return {
        "landImpact": round(s.land_impact, 6),
        "landImpactRounded": s.land_impact_rounded,
        "download": round(s.download, 6),
        "physics": round(s.physics, 6),
        "server": round(s.server, 6),
        "prims": s.prims,
        "objects": [[o.name, [o.triangles[lod] for lod in LODS]] for o in s.objects],
    }


def triangles_text(row: ObjectRow) -> str:
    """``7872 / 1032 / 324 / 111``: triangles of high, medium, low, lowest; a ``*`` marks a LOD
    the object does not have (the viewer shows the one above, whose count is given)."""
    return " / ".join(f"{row.triangles[lod]}{'' if lod == 'high' or row.present[lod] else '*'}" for lod in LODS)


def distances_text(row: ObjectRow) -> str:
    """``4.2 / 14.1 / 28.2 m``: where medium, low and lowest start to show (``never`` if not)."""
    parts = [format_distance(row.switch[lod]) for lod in LOWER_LODS]
    if all(p.endswith(" m") for p in parts):
        return " / ".join(p[:-2] for p in parts) + " m"
    return " / ".join(parts)


def format_weight(value: float) -> str:
    return f"{value:.2f}"


def format_distance(value: Optional[float]) -> str:
    """A switch distance for a creator: ``4.2 m``, or ``never`` when the LOD never shows."""
    if value is None or not math.isfinite(value):
        return "never"
    return f"{value:.1f} m" if value < 100 else f"{value:.0f} m"


def land_impact_line(summary: Summary) -> str:
    """``Land impact 20.36 (rounds to 20)``."""
    return f"Land impact {summary.land_impact:.2f} (rounds to {summary.land_impact_rounded})"


def before_after_line(before: Summary, after: Summary) -> str:
    """``Land impact 20.36 -> 3.00 (20 -> 3)``: the export's effect, one line."""
    return (
        f"Land impact {before.land_impact:.2f} -> {after.land_impact:.2f} "
        f"({before.land_impact_rounded} -> {after.land_impact_rounded})"
    )


def wrap(text: str, width: int) -> list[str]:
    """``text`` cut at spaces into lines of at most ``width`` characters (longer words kept whole).

    Blender's panel labels do not wrap, so long sentences are drawn as several labels.
    """
    width = max(8, width)
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines or [""]
