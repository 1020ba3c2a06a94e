"""Re-price after edits: a depsgraph_update_post handler plus a debouncing timer (needs bpy).

An edit (geometry or transform of a mesh object) restarts a quiet period of :data:`DELAY`
seconds; when it passes with no further edit, ``slmesh.price`` is invoked in a 3D View (modal,
so Blender stays responsive). Updates caused by the add-on's own export and import are ignored:
nothing is scheduled while a job runs or within :data:`QUIET_AFTER_JOB` seconds of one ending.
"""

from __future__ import annotations

import time

import bpy
from bpy.app.handlers import persistent

from . import bl_ops
from .cli import SlmeshError

DELAY = 1.5
QUIET_AFTER_JOB = 1.0

_state = {"last_change": 0.0, "scene": ""}


def schedule(scene) -> None:
    """Ask for a re-price of ``scene`` after the quiet period, if it has auto re-pricing on."""
    if bpy.app.background or not scene.slmesh.auto_price:
        return
    _state["last_change"] = time.monotonic()
    _state["scene"] = scene.name
    if not bpy.app.timers.is_registered(_tick):
        bpy.app.timers.register(_tick, first_interval=DELAY)


def _relevant(depsgraph) -> bool:
    for update in depsgraph.updates:
        obj = update.id
        if isinstance(obj, bpy.types.Object) and obj.type == "MESH" and (update.is_updated_geometry or update.is_updated_transform):
            return True
        if isinstance(obj, bpy.types.Mesh) and update.is_updated_geometry:
            return True
    return False


@persistent
def on_depsgraph_update(scene, depsgraph=None) -> None:
    if bpy.app.background or not scene.slmesh.auto_price:
        return
    if bl_ops.job_running() or bl_ops.seconds_since_last_job() < QUIET_AFTER_JOB:
        return
    if depsgraph is None or not _relevant(depsgraph):
        return
    schedule(scene)


def _view3d_override():
    wm = bpy.context.window_manager
    for window in wm.windows:
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                region = next((r for r in area.regions if r.type == "WINDOW"), None)
                return {"window": window, "screen": window.screen, "area": area, "region": region}
    return None


def _tick():
    """The debounce timer: returns seconds until it should run again, or None when done."""
    wait = DELAY - (time.monotonic() - _state["last_change"])
    if wait > 0.05:
        return wait
    if bl_ops.job_running():
        return 0.5
    override = _view3d_override()
    if override is None:
        return None
    scene = bpy.data.scenes.get(_state["scene"])
    if scene is None or not scene.slmesh.auto_price or override["window"].scene != scene:
        return None
    try:
        with bpy.context.temp_override(**override):
            try:
                bl_ops.source_objects(bpy.context)
            except SlmeshError:
                return None  # nothing selected to price: not worth an error after every edit
            bpy.ops.slmesh.price("INVOKE_DEFAULT")
    except RuntimeError as error:  # shown in the panel by the operator; keep the timer quiet
        print(f"slmesh: auto price: {error}")
    return None


def register() -> None:
    if on_depsgraph_update not in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.append(on_depsgraph_update)


def unregister() -> None:
    if on_depsgraph_update in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.remove(on_depsgraph_update)
    if bpy.app.timers.is_registered(_tick):
        bpy.app.timers.unregister(_tick)
