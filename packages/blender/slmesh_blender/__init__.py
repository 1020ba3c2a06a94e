"""slmesh for Blender: price the selection in Second Life land impact and export it with
generated LODs and physics, by running the ``slmesh`` command.

Installs as a legacy add-on (``bl_info``, Blender 3.4+) and as an extension
(``blender_manifest.toml``, Blender 4.2+). Blender-only modules are imported in :func:`register`,
so the pure-Python modules (cli, jobs, pipeline, report, diagnostics, files) import without bpy.
"""

bl_info = {
    "name": "slmesh",
    "author": "slmesh contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "3D View > Sidebar (N) > Second Life",
    "description": "Second Life land impact of the selection, and export with generated LODs and physics (runs the slmesh command)",
    "category": "Import-Export",
}


def register() -> None:
    """Register preferences, scene properties, operators, panels and the auto-price handler."""
    from . import blender_addon

    blender_addon.register()


def unregister() -> None:
    from . import blender_addon

    blender_addon.unregister()
