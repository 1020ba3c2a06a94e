"""Screenshot of the Second Life panel for the README (docs/img/blender-panel.png).

Run by tools/screenshot.py, which starts Blender under Xvfb:

    xvfb-run -s '-screen 0 1600x1000x24' blender --factory-startup --enable-event-simulate \
        --window-geometry 0 0 1600 1000 --python shot.py -- --zip ... --node node --bin ... --out PNG

(--enable-event-simulate: the script clicks the sidebar's tab; Blender 3.4 has no API to choose it.)

Builds the e2e test's scene (a six-part chair and a subdivided Suzanne), prices it and exports it
from the UI (the modal operators, as a click would run them, so this also shows the UI path
works), brings the LODs back, opens the sidebar on the "Second Life" tab and saves the window.
Exits 0 with the PNG written, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback

import bpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from scene import build_scene, install_addon  # noqa: E402

drawn = {"main": 0}
STARTED = time.monotonic()


def args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--zip", required=True)
    parser.add_argument("--node", default="node")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    return parser.parse_args(sys.argv[sys.argv.index("--") + 1:])


def view3d():
    window = bpy.context.window_manager.windows[0]
    area = next(a for a in window.screen.areas if a.type == "VIEW_3D")
    region = next(r for r in area.regions if r.type == "WINDOW")
    sidebar = next(r for r in area.regions if r.type == "UI")
    return window, area, region, sidebar


def override():
    window, area, region, _ = view3d()
    return bpy.context.temp_override(window=window, screen=window.screen, area=area, region=region)


def wait_for_job():
    from slmesh_blender import bl_ops  # the installed add-on

    yield 0.5
    while bl_ops.job_running():
        yield 0.25


def crop_to_area(source: str, target: str, area, width: int) -> None:
    """Save the right ``width`` pixels of ``area`` (the 3D View: models and sidebar) of the
    window screenshot ``source`` as ``target``."""
    import numpy

    image = bpy.data.images.load(source)
    w, h = image.size
    pixels = numpy.empty(w * h * 4, dtype=numpy.float32)
    image.pixels.foreach_get(pixels)
    pixels = pixels.reshape(h, w, 4)
    x1 = min(w, area.x + area.width)
    x0 = max(0, x1 - width)
    y0, y1 = max(0, area.y), min(h, area.y + area.height)
    part = numpy.ascontiguousarray(pixels[y0:y1, x0:x1, :])
    out = bpy.data.images.new("slmesh-shot", width=x1 - x0, height=y1 - y0, alpha=True)
    out.pixels.foreach_set(part.ravel())
    out.filepath_raw = os.path.abspath(target)
    out.file_format = "PNG"
    out.save()


def log(message: str) -> None:
    print(f"shot: {time.monotonic() - STARTED:6.1f} s {message}", flush=True)


def steps(opts):
    yield 1.0
    log("window up")
    window, area, region, sidebar = view3d()
    area.spaces.active.show_region_ui = True
    for obj in bpy.context.scene.objects:
        obj.select_set(obj.type == "MESH")
    with override():
        bpy.ops.view3d.view_selected()
    yield 0.5
    settings = bpy.context.scene.slmesh
    with override():
        bpy.ops.slmesh.price("INVOKE_DEFAULT")
    yield from wait_for_job()
    if not bpy.context.scene.slmesh_report:
        raise RuntimeError(f"price from the UI failed: {settings.error}")
    log("priced")
    settings.export_path = os.path.join(tempfile.mkdtemp(prefix="slmesh-shot-"), "chair_sl.glb")
    settings.import_lods = True
    settings.physics = "hull"
    with override():
        bpy.ops.slmesh.export("INVOKE_DEFAULT")
    yield from wait_for_job()
    if not settings.export_result:
        raise RuntimeError(f"export from the UI failed: {settings.error}")
    log("exported")
    # The LODs brought back sit on the originals: hide their collection for the picture.
    for child in bpy.context.view_layer.layer_collection.children:
        if child.collection.name == "SL LODs":
            child.hide_viewport = True

    # Bring the "Second Life" tab forward: click its tab, the last one of the sidebar's strip.
    window, area, region, sidebar = view3d()
    top = sidebar.y + sidebar.height
    strip_x = sidebar.x + sidebar.width - 10
    for offset in (185, 170, 200, 215, 155, 230):
        drawn["main"] = 0
        window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=strip_x, y=top - offset)
        yield 0.2
        window.event_simulate(type="LEFTMOUSE", value="PRESS", x=strip_x, y=top - offset)
        window.event_simulate(type="LEFTMOUSE", value="RELEASE", x=strip_x, y=top - offset)
        yield 0.3
        area.tag_redraw()
        yield 0.5
        if drawn["main"]:
            break
    log(f"tab shown: {bool(drawn['main'])}")
    if not drawn["main"]:
        raise RuntimeError("could not bring the Second Life tab forward")
    window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=region.x + 50, y=region.y + 50)
    yield 0.5
    os.makedirs(os.path.dirname(os.path.abspath(opts.out)), exist_ok=True)
    full = os.path.join(tempfile.mkdtemp(prefix="slmesh-shot-"), "window.png")
    with bpy.context.temp_override(window=window, screen=window.screen, area=area):
        bpy.ops.screen.screenshot(filepath=full)
    crop_to_area(full, opts.out, area, width=920)
    print(f"wrote {opts.out}")


def main() -> None:
    opts = args()
    install_addon(opts.zip, opts.node, opts.bin)
    build_scene(levels=2)
    # Count draws of the main panel, to know when its tab is the one shown (Blender takes a
    # panel's draw function when the class is registered: register it again).
    from slmesh_blender import bl_ui

    bl_ui.unregister()
    original = bl_ui.SLMESH_PT_main.draw

    def draw(self, context):
        drawn["main"] += 1
        original(self, context)

    bl_ui.SLMESH_PT_main.draw = draw
    bl_ui.register()
    sequence = steps(opts)

    def tick():
        try:
            return next(sequence)
        except StopIteration:
            bpy.ops.wm.quit_blender()
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            os._exit(1)
        return None

    bpy.app.timers.register(tick, first_interval=0.5)


main()
