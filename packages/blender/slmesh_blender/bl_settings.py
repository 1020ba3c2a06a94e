"""Add-on preferences (how to run slmesh) and the per-scene settings and results (needs bpy)."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, PointerProperty, StringProperty

from . import cli

ADDON_ID = __package__  # "slmesh_blender", or "bl_ext.<repo>.slmesh_blender" as an extension


class SLMESH_AddonPreferences(bpy.types.AddonPreferences):
    bl_idname = ADDON_ID

    mode: EnumProperty(  # type: ignore[valid-type]
        name="Run slmesh",
        items=[
            (cli.MODE_PATH, "slmesh on PATH", "Run the `slmesh` command found on PATH (npm install -g @slmesh/cli)"),
            (cli.MODE_EXECUTABLE, "Path to slmesh", "Run the slmesh command at this path"),
            (cli.MODE_NODE, "Node + bin.js", "Run node on the CLI's bin.js (a built slmesh repository: packages/cli/dist/bin.js)"),
        ],
        default=cli.MODE_PATH,
    )
    executable: StringProperty(name="slmesh", subtype="FILE_PATH", description="Path of the slmesh command")  # type: ignore[valid-type]
    node: StringProperty(name="node", default="node", subtype="FILE_PATH", description="Node.js (20.19 or newer): a command on PATH or a path")  # type: ignore[valid-type]
    script: StringProperty(name="bin.js", subtype="FILE_PATH", description="The CLI's bin.js, e.g. <repository>/packages/cli/dist/bin.js")  # type: ignore[valid-type]
    check_result: StringProperty(name="Check", options={"SKIP_SAVE"})  # type: ignore[valid-type]

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "mode", expand=True)
        if self.mode == cli.MODE_EXECUTABLE:
            layout.prop(self, "executable")
        elif self.mode == cli.MODE_NODE:
            layout.prop(self, "node")
            layout.prop(self, "script")
        row = layout.row()
        row.operator("slmesh.check", icon="CHECKMARK")
        if self.check_result:
            box = layout.box()
            for line in self.check_result.splitlines():
                box.label(text=line)


def preferences(context=None) -> SLMESH_AddonPreferences:
    """This add-on's preferences (raises KeyError if the add-on is not enabled)."""
    context = context or bpy.context
    return context.preferences.addons[ADDON_ID].preferences


def cli_config(context=None) -> cli.CliConfig:
    """The preferences as a pure :class:`cli.CliConfig`."""
    p = preferences(context)
    return cli.CliConfig(mode=p.mode, executable=bpy.path.abspath(p.executable), node=p.node, script=bpy.path.abspath(p.script))


def _reprice_on_change(self, context) -> None:
    from . import bl_auto

    bl_auto.schedule(context.scene)


class SLMESH_PG_settings(bpy.types.PropertyGroup):
    """Scene settings of the Second Life panel, and the last run's results."""

    source: EnumProperty(  # type: ignore[valid-type]
        name="Price",
        items=[
            ("SELECTION", "Selection", "The selected mesh objects"),
            ("COLLECTION", "Collection", "Every mesh object of a collection"),
        ],
        default="SELECTION",
        update=_reprice_on_change,
    )
    collection: PointerProperty(name="Collection", type=bpy.types.Collection, update=_reprice_on_change)  # type: ignore[valid-type]
    lod_factor: FloatProperty(  # type: ignore[valid-type]
        name="LOD factor",
        description="RenderVolumeLODFactor of the viewer: 1 is the official viewer's default, 2 Firestorm's. Sets the LOD switch distances and what optimize plans for",
        default=2.0, min=0.01, max=8.0, step=25, precision=3,
        update=_reprice_on_change,
    )
    auto_price: BoolProperty(name="Re-price after edits", description="Price again a moment after the selection is edited or moved", default=False)  # type: ignore[valid-type]
    physics: EnumProperty(  # type: ignore[valid-type]
        name="Physics",
        items=[
            ("auto", "Auto", "Convex pieces when cheaper than a triangle mesh, else the single hull"),
            ("hull", "Single hull", "One convex hull per object"),
            ("decompose", "Convex pieces", "A convex decomposition (holes and doorways stay open)"),
            ("mesh", "Triangle mesh", "The low LOD as a triangle physics mesh"),
            ("none", "None", "No physics shape (the uploader makes the single hull)"),
        ],
        default="auto",
    )
    target_li: FloatProperty(name="Target land impact", description="Most accurate LODs that keep the land impact at most this (0: no target)", default=0.0, min=0.0, soft_max=100.0)  # type: ignore[valid-type]
    max_error_px: FloatProperty(name="Largest error (px)", description="How far each LOD may stray from the high LOD, in pixels where it appears", default=1.0, min=0.05, soft_max=8.0)  # type: ignore[valid-type]
    keep_lods: BoolProperty(name="Keep my LODs", description="Objects with their own _LOD2/_LOD1/_LOD0 objects keep them (hand-edited LODs)", default=False)  # type: ignore[valid-type]
    keep_high: BoolProperty(name="Keep my high LOD", description="Upload the high LOD as modelled (newer slmesh simplifies it as far as stays invisible where the object fills the view)", default=False)  # type: ignore[valid-type]
    keep_precision: BoolProperty(name="Keep full precision", description="Upload every vertex at the uploader's full 16-bit precision (newer slmesh moves each LOD's vertices within half its error bound so they compress smaller: a lower download weight at the same triangles)", default=False)  # type: ignore[valid-type]
    merge_objects: BoolProperty(name="Join objects", description="Upload the selection as one object where that lowers the land impact and no LOD looks worse (every object costs at least 0.5; joined parts can no longer be moved or scripted apart)", default=False)  # type: ignore[valid-type]
    export_path: StringProperty(name="Export to", subtype="FILE_PATH", description="Output .glb; its _LOD2/_LOD1/_LOD0/_PHYS sibling files are written next to it")  # type: ignore[valid-type]
    import_lods: BoolProperty(name="Bring LODs into the scene", description="Import the generated LODs and physics into the collection 'SL LODs' to inspect or edit them", default=False)  # type: ignore[valid-type]
    # Results (not settings): shown by the panel.
    status: StringProperty(options={"SKIP_SAVE"})  # type: ignore[valid-type]
    progress: FloatProperty(options={"SKIP_SAVE"}, min=0.0, max=1.0, subtype="FACTOR")  # type: ignore[valid-type]
    error: StringProperty()  # type: ignore[valid-type]
    export_result: StringProperty(description="JSON: the last export's files, land impact before and after, warnings")  # type: ignore[valid-type]
    preview_path: StringProperty(subtype="FILE_PATH")  # type: ignore[valid-type]


CLASSES = (SLMESH_AddonPreferences, SLMESH_PG_settings)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.slmesh = PointerProperty(type=SLMESH_PG_settings)
    bpy.types.Scene.slmesh_report = StringProperty(
        name="slmesh report",
        description="The last `slmesh cost --json` report of the priced objects (JSON text)",
    )


def unregister() -> None:
    del bpy.types.Scene.slmesh_report
    del bpy.types.Scene.slmesh
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
