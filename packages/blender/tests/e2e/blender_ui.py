"""UI-path check in a real Blender window (Xvfb): Esc cancels a modal run, and auto re-pricing
follows an edit. Slow under software GL (about a minute), so not part of `pnpm test`:

    xvfb-run -a -s '-screen 0 1600x1000x24' blender --factory-startup --enable-event-simulate \
        --python blender_ui.py -- --zip ... --node node --bin ... --out DIR

(with BLENDER_USER_CONFIG/BLENDER_USER_SCRIPTS pointing at temporary folders; run_e2e.py --ui
does all of that). Exits 0 when both checks pass.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scene import build_scene, install_addon  # noqa: E402

failures: list[str] = []


def check(condition: bool, what: str) -> None:
    print(("ok:   " if condition else "FAIL: ") + what, flush=True)
    if not condition:
        failures.append(what)


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
    return window, area, region


def steps(opts):
    from slmesh_blender import bl_ops

    yield 1.0
    window, area, region = view3d()
    scene = bpy.context.scene
    settings = scene.slmesh
    out = os.path.join(opts.out, "cancelled", "chair_sl.glb")
    settings.export_path = out
    settings.physics = "decompose"  # slow enough to cancel
    with bpy.context.temp_override(window=window, screen=window.screen, area=area, region=region):
        bpy.ops.slmesh.export("INVOKE_DEFAULT")
    check(bl_ops.job_running(), "export invoked from the UI runs modally (Blender keeps going)")
    yield 2.0
    label = settings.status
    check("Esc to cancel" in label, f"progress is shown while it runs ({label!r})")
    x, y = region.x + 100, region.y + 100
    window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=x, y=y)
    window.event_simulate(type="ESC", value="PRESS", x=x, y=y)
    window.event_simulate(type="ESC", value="RELEASE", x=x, y=y)
    started = time.monotonic()
    while bl_ops.job_running() and time.monotonic() - started < 60:
        yield 0.2
    # Timers are slow under Xvfb's software GL on a busy machine: the proof that Esc stopped the
    # run is that nothing was written (a finished export writes out.glb), not a tight time limit.
    check(not bl_ops.job_running(), f"Esc stops the run ({time.monotonic() - started:.1f} s)")
    check(not os.path.exists(out) and settings.export_result == "" and settings.error == "", "a cancelled export writes nothing and shows no error")

    settings.physics = "hull"
    with bpy.context.temp_override(window=window, screen=window.screen, area=area, region=region):
        bpy.ops.slmesh.price("INVOKE_DEFAULT")
    while bl_ops.job_running():
        yield 0.2
    first = json.loads(scene.slmesh_report)["files"][0]["linkset"]["linkable"]["span"]
    settings.auto_price = True
    yield 1.5
    bpy.data.objects["Suzanne"].location.x += 2.0
    started = time.monotonic()
    span = first
    while time.monotonic() - started < 30:
        yield 0.5
        if not bl_ops.job_running() and scene.slmesh_report:
            span = json.loads(scene.slmesh_report)["files"][0]["linkset"]["linkable"]["span"]
            if abs(span - first) > 1e-6:
                break
    check(abs(span - first) > 1.0, f"moving an object re-prices by itself (span {first:.2f} -> {span:.2f} m, {time.monotonic() - started:.1f} s)")


def main() -> None:
    opts = args()
    install_addon(opts.zip, opts.node, opts.bin)
    build_scene()
    sequence = steps(opts)

    def tick():
        try:
            return next(sequence)
        except StopIteration:
            pass
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            failures.append("crashed")
        print(f"{len(failures)} failure(s)" if failures else "all checks passed", flush=True)
        os._exit(1 if failures else 0)

    bpy.app.timers.register(tick, first_interval=0.5)


main()
