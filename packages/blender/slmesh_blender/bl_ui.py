"""The 3D View sidebar tab "Second Life" (needs bpy): land impact, weights, objects, LOD
distances, diagnostics, export and preview."""

from __future__ import annotations

import json
import os
from typing import Optional

import bpy

from .diagnostics import group
from .report import LOWER_LODS, Summary, distances_text, format_weight, parse_report, summarize, triangles_text, wrap
from .cli import SlmeshError

_cache: dict[str, object] = {"text": None, "summary": None}


def current_summary(scene) -> Optional[Summary]:
    """The stored report's summary (parsed once per report text); None when there is none or it is unreadable."""
    text = scene.slmesh_report
    if not text:
        return None
    if _cache["text"] != text:
        try:
            _cache["summary"] = summarize(parse_report(text))
        except (SlmeshError, KeyError, TypeError, ValueError):
            _cache["summary"] = None
        _cache["text"] = text
    return _cache["summary"]  # type: ignore[return-value]


def _chars(context) -> int:
    """How many characters of label text fit across the sidebar."""
    width = context.region.width if context.region else 300
    return max(20, int(width / (7.0 * context.preferences.system.ui_scale)))


def _paragraph(layout, context, text: str, icon: str = "NONE") -> None:
    col = layout.column(align=True)
    for i, line in enumerate(wrap(text, _chars(context) - (4 if icon != "NONE" else 0))):
        col.label(text=line, icon=icon if i == 0 else "BLANK1" if icon != "NONE" else "NONE")


class _Tab:
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Second Life"


class SLMESH_PT_main(_Tab, bpy.types.Panel):
    bl_label = "Second Life"
    bl_idname = "SLMESH_PT_main"

    def draw(self, context):
        layout = self.layout
        scene = context.scene
        settings = scene.slmesh
        row = layout.row(align=True)
        row.prop(settings, "source", expand=True)
        if settings.source == "COLLECTION":
            layout.prop(settings, "collection", text="")
        layout.prop(settings, "lod_factor")
        row = layout.row(align=True)
        row.scale_y = 1.3
        row.operator("slmesh.price", icon="FILE_REFRESH")
        row.prop(settings, "auto_price", text="", icon="AUTO")
        if settings.status:
            box = layout.box()
            box.label(text=settings.status, icon="SORTTIME")
            box.prop(settings, "progress", text="Progress", slider=True)
            box.operator("slmesh.cancel", icon="CANCEL")
        if settings.error:
            box = layout.box()
            box.alert = True
            _paragraph(box, context, settings.error, icon="ERROR")
            box.operator("slmesh.clear_error", icon="X")
        summary = current_summary(scene)
        if summary is None:
            if not settings.error and not settings.status:
                layout.label(text="Select meshes and press Price", icon="INFO")
            return
        box = layout.box()
        row = box.row()
        row.scale_y = 1.4
        row.label(text=f"Land impact {summary.land_impact_rounded}", icon="MESH_DATA")
        grid = box.grid_flow(row_major=True, columns=2, even_columns=True, align=True)
        grid.label(text="Exact")
        grid.label(text=f"{summary.land_impact:.3f}")
        grid.label(text="Download")
        grid.label(text=format_weight(summary.download))
        grid.label(text="Physics")
        grid.label(text=format_weight(summary.physics) + (" est." if summary.physics_estimate else ""))
        grid.label(text="Server")
        grid.label(text=format_weight(summary.server))
        grid.label(text="Objects")
        grid.label(text=str(summary.prims))
        _paragraph(box, context, summary.dominant_text + ".", icon="LIGHT")
        _paragraph(box, context, summary.linkable_text, icon="LINKED" if summary.linkable else "UNLINKED")
        if not summary.can_be_physical:
            _paragraph(box, context, f"Too heavy to be physical: {summary.physical_weight:.1f} > {summary.physical_limit:g}", icon="ERROR")


def _object_rows(layout, context, title: str, rows: list[tuple[str, str, str]]) -> None:
    """A table of (name, values, extra): one row each in a wide sidebar, two rows each (name
    and extra, then the values indented) when the sidebar is narrow, so nothing is cut."""
    col = layout.column(align=True)
    col.label(text=title)
    wide = _chars(context) >= 48
    for name, values, extra in rows:
        if wide:
            split = col.split(factor=0.32, align=True)
            split.label(text=name)
            inner = split.split(factor=0.78, align=True)
            inner.label(text=values)
            inner.label(text=extra)
        else:
            split = col.split(factor=0.7, align=True)
            split.label(text=name, icon="OBJECT_DATA")
            split.label(text=extra)
            col.label(text=values, icon="BLANK1")


class SLMESH_PT_objects(_Tab, bpy.types.Panel):
    bl_label = "Triangles per LOD"
    bl_parent_id = "SLMESH_PT_main"

    @classmethod
    def poll(cls, context):
        return current_summary(context.scene) is not None

    def draw(self, context):
        summary = current_summary(context.scene)
        rows = [(o.name, triangles_text(o), f"LI {o.land_impact:.2f}") for o in summary.objects]
        _object_rows(self.layout, context, "High / Medium / Low / Lowest", rows)
        if any(not o.present[l] for o in summary.objects for l in LOWER_LODS):
            _paragraph(self.layout, context, "* no LOD of its own: the viewer shows the one above")


class SLMESH_PT_distances(_Tab, bpy.types.Panel):
    bl_label = "LOD switch distances"
    bl_parent_id = "SLMESH_PT_main"
    bl_options = {"DEFAULT_CLOSED"}

    @classmethod
    def poll(cls, context):
        return current_summary(context.scene) is not None

    def draw(self, context):
        summary = current_summary(context.scene)
        layout = self.layout
        _paragraph(layout, context, f"Camera distance where each LOD starts to show, at LOD factor {summary.lod_factor:g}:")
        rows = [(o.name, distances_text(o), "") for o in summary.objects]
        _object_rows(layout, context, "Medium / Low / Lowest", rows)


class SLMESH_PT_diagnostics(_Tab, bpy.types.Panel):
    bl_label = "Upload checks"
    bl_parent_id = "SLMESH_PT_main"

    @classmethod
    def poll(cls, context):
        return current_summary(context.scene) is not None

    def draw(self, context):
        summary = current_summary(context.scene)
        if not summary.findings:
            self.layout.label(text="No problems found", icon="CHECKMARK")
            return
        icons = {"error": "CANCEL", "warning": "ERROR", "info": "INFO"}
        for item in group(summary.findings):
            _paragraph(self.layout, context, item.line, icon=icons[item.severity])


class SLMESH_PT_export(_Tab, bpy.types.Panel):
    bl_label = "Export for Second Life"
    bl_parent_id = "SLMESH_PT_main"

    def draw(self, context):
        layout = self.layout
        settings = context.scene.slmesh
        layout.prop(settings, "export_path")
        col = layout.column(align=True)
        col.prop(settings, "physics")
        col.prop(settings, "target_li")
        col.prop(settings, "max_error_px")
        col.prop(settings, "keep_lods")
        col.prop(settings, "keep_high")
        col.prop(settings, "keep_precision")
        col.prop(settings, "merge_objects")
        col.prop(settings, "import_lods")
        row = layout.row(align=True)
        row.scale_y = 1.3
        row.operator("slmesh.export", icon="EXPORT")
        row.operator("slmesh.preview", icon="URL", text="Preview")
        if settings.export_result:
            try:
                result = json.loads(settings.export_result)
            except ValueError:
                return
            box = layout.box()
            _paragraph(box, context, result.get("line", ""), icon="CHECKMARK")
            for path in result.get("files", []):
                box.label(text=os.path.basename(path), icon="FILE_3D")
            for note in result.get("notes", []):
                _paragraph(box, context, note, icon="INFO")
            for warning in result.get("warnings", []):
                _paragraph(box, context, warning, icon="ERROR")


CLASSES = (SLMESH_PT_main, SLMESH_PT_objects, SLMESH_PT_distances, SLMESH_PT_diagnostics, SLMESH_PT_export)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
