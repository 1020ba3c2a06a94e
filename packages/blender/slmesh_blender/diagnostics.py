"""The report's diagnostics (docs/diagnostics.md) worded for a creator working in Blender.

Each known code gets a sentence saying what it means for the upload and what to do in Blender;
unknown codes fall back to the CLI's own message, so a newer slmesh never loses information.
Pure Python (no ``bpy``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

#: code -> what it means and what to do, in Blender terms.
CREATOR_TEXT: dict[str, str] = {
    "no-mesh": "Nothing to upload: the selection has no mesh with faces.",
    "no-high-lod": "This object has no faces, so it cannot be uploaded or priced.",
    "non-finite-vertex": "Broken geometry (NaN or infinite coordinates, normals or UVs). Try Mesh > Clean Up, or re-apply modifiers.",
    "bad-index": "Broken geometry (a triangle points past the vertex list). Re-export or rebuild the mesh.",
    "lod-face-count": "A LOD has a different number of materials than the high LOD. Give every LOD the same material slots.",
    "lod-material": "A LOD uses a material the high LOD does not have. Use the same materials on every LOD.",
    "scale-capped": "Over 63.9 m on an axis (or a model over 240 m): the uploader scales it down to fit, and it is priced at that size. Scale it down or cut it into parts to choose the size yourself.",
    "too-many-models": "More than 768 objects in one upload. Upload it in several parts.",
    "hull-vertices": "A physics hull has more than 256 vertices. Simplify the physics shape.",
    "too-many-hulls": "The physics shape has more than 256 hulls. Use fewer, simpler pieces.",
    "physics-degenerate": "The physics mesh has zero-area triangles, which block the upload. Merge by distance, or use physics 'hull'.",
    "too-many-faces": "More than 8 materials: the uploader splits it into linked objects (priced that way). Merge materials to keep one object.",
    "lod-more-vertices": "A lower LOD has more vertices than the one above it; it costs more and saves nothing.",
    "scale-too-small": "Under 1 cm on an axis: Second Life enlarges it to 1 cm.",
    "not-linkable": "These parts cannot be linked in Second Life (too far apart or too many).",
    "non-triangle-primitive": "Loose edges or points were skipped; only faces are uploaded.",
    "no-positions": "A part without vertex positions was skipped.",
    "orphan-lod": "A _LOD or _PHYS object has no high-LOD object of the same name, so it is ignored. Rename it to pair (e.g. Chair and Chair_LOD2).",
    "face-split": "A material has over 65,525 vertices; the uploader splits it (priced that way).",
    "hull-reduced": "The convex hull had over 256 vertices; a smaller hull that still encloses the mesh is used.",
    "physics-hull-box": "This object is flat, so its physics hull is its bounding box, as in the viewer.",
    "physics-open-mesh": "The mesh is not closed; its holes were capped for the physics shape.",
    "physics-tolerance-raised": "Too big for the requested physics accuracy; a coarser tolerance was used.",
    "physics-decomposition-limited": "The physics pieces hit the hull limit before fitting the shape closely.",
    "physics-decomposition-empty": "No solid found for physics pieces; the single hull is used.",
    "physics-mesh-degenerate": "Zero-area triangles in the physics mesh would block the upload; slmesh leaves them out of what it writes.",
    "physics-mesh-costly": "Thin or tiny triangles make the physics mesh expensive. Use physics 'hull' or 'decompose', or clean the mesh.",
    "lod-budget-unmet": "The target land impact could not be reached, even with the simplest LODs that keep the shape.",
    "physics-as-hulls": "The _PHYS object is made of closed convex pieces; priced as the hulls Analyze keeps (an estimate).",
    "physics-opening-kept": "A single hull would close a doorway or hollow an avatar uses, so a shape that keeps it open is used.",
    "physics-proxy": "Very dense mesh: its physics pieces were fitted to a simplified copy.",
    "physics-mesh-convexified": "Under 0.5 m on a side: Second Life treats its triangle physics mesh as a single hull.",
    "lod-fallback": "A LOD could not shrink within the error limit (many small parts or flat detail); a coarser method was used. Check it in the preview.",
    "lod-max-triangles": "A LOD was over its triangle budget and was cut down to it, whatever the error.",
    "lod-node-in-high-file": "A _LOD or _PHYS object is exported in the high file; the uploader takes LODs only from the _LOD2/_LOD1/_LOD0/_PHYS sibling files, so it uploads this one as an extra object. Use Export (it writes the sibling files).",
    "lod-box-mismatch": "A LOD is not the size of the high LOD; the uploader stretches it to the high LOD's box.",
    "physics-box-mismatch": "The physics shape is not the size of the high LOD; the uploader stretches it to the high LOD's box.",
    "lod-material-missing": "A LOD lost one of the high LOD's materials; in the official viewer its other faces then show the wrong textures.",
}

SEVERITY_ICON = {"error": "ERROR", "warning": "ERROR", "info": "INFO"}
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    """One diagnostic ready to show: ``text`` is a full sentence, ``detail`` the CLI's message."""

    severity: str
    code: str
    text: str
    detail: str
    object: Optional[str] = None

    @property
    def line(self) -> str:
        """``Object: sentence`` (or just the sentence for findings about the whole model)."""
        return f"{self.object}: {self.text}" if self.object else self.text


def word(diagnostic: Mapping) -> Finding:
    """A report diagnostic (``{severity, code, message, object?}``) as a :class:`Finding`.

    Never raises on missing fields: an unknown code keeps the CLI's message as its text.
    """
    code = str(diagnostic.get("code", ""))
    message = str(diagnostic.get("message", "")).strip()
    severity = str(diagnostic.get("severity", "info"))
    if severity not in SEVERITY_ORDER:
        severity = "info"
    text = CREATOR_TEXT.get(code) or (message[:1].upper() + message[1:] if message else code)
    obj = diagnostic.get("object")
    return Finding(severity, code, text, message, str(obj) if obj else None)


def word_all(diagnostics) -> list[Finding]:
    """All diagnostics worded, errors first, then warnings, then notes (stable within each)."""
    found = [word(d) for d in diagnostics or () if isinstance(d, Mapping)]
    return sorted(found, key=lambda f: SEVERITY_ORDER[f.severity])


@dataclass(frozen=True)
class Group:
    """Findings of one code and wording, with every object they name."""

    severity: str
    code: str
    text: str
    objects: tuple[str, ...]

    @property
    def line(self) -> str:
        """``Seat, Back and 5 more: sentence``; just the sentence when no object is named."""
        if not self.objects:
            return self.text
        shown = ", ".join(self.objects[:2])
        more = len(self.objects) - 2
        return f"{shown}{f' and {more} more' if more > 0 else ''}: {self.text}"


def group(findings: list[Finding]) -> list[Group]:
    """Findings with the same code and sentence merged (a note on every object becomes one
    line), in the order of their first appearance."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for f in findings:
        names = groups.setdefault((f.severity, f.code, f.text), [])
        if f.object and f.object not in names:
            names.append(f.object)
    return [Group(sev, code, text, tuple(names)) for (sev, code, text), names in groups.items()]
