"""End-to-end test of the add-on inside Blender (run by run_e2e.py, not directly by unittest).

    blender -b --factory-startup --python-exit-code 1 --python blender_e2e.py -- \
        --zip dist/slmesh_blender.zip --node node --bin packages/cli/dist/bin.js --out DIR

Installs the zip into a fresh Blender (the caller points BLENDER_USER_SCRIPTS/CONFIG at
temporary folders), builds a 6-part chair of cubes and a subdivided Suzanne, and checks:

1. ``bpy.ops.slmesh.price()`` stores ``scene.slmesh_report``, and its numbers (land impact,
   weights, prims, each object's triangles per LOD) equal those of ``slmesh cost --json`` run by
   this script on its own glTF export of the same selection;
2. ``bpy.ops.slmesh.export(filepath=...)`` writes out.glb plus exactly the sibling
   ``_LOD2/_LOD1/_LOD0/_PHYS`` files that exist (a stale sibling from an earlier export is
   removed), every object has its three lower LODs in them, the stored report equals
   ``slmesh cost --json`` of out.glb, and land impact before and after are recorded;
3. the generated LODs come back into the collection "SL LODs", named ``<object>_LOD2`` ...
   and using the original materials;
4. ``bpy.ops.slmesh.preview(open_browser=False)`` writes an HTML page;
5. with a slmesh path that does not exist, pricing fails with the "slmesh not found ...
   Preferences > Add-ons > slmesh" message in the operator's error and the panel.

Exits 0 when every check passes, 1 otherwise (each failure printed as ``FAIL: ...``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scene import build_scene, install_addon  # noqa: E402

ADDON = "slmesh_blender"
LODS = ("high", "medium", "low", "lowest")

failures: list[str] = []
timings: dict[str, float] = {}


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
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    return parser.parse_args(argv)


# -- independent pricing ------------------------------------------------------------------------
def cost(opts, model: str, lod_factor: float = 2.0) -> dict:
    done = subprocess.run([opts.node, opts.bin, "cost", "--json", "--lod-factor", str(lod_factor), model], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"slmesh cost {model} failed: {done.stderr}")
    return json.loads(done.stdout)


def numbers(report: dict) -> dict:
    """The meaningful numbers of a cost report (computed here, not with the add-on's code)."""
    f = report["files"][0]
    ls = f["linkset"]
    return {
        "landImpact": round(ls["landImpact"], 6),
        "landImpactRounded": ls["landImpactRounded"],
        "download": round(ls["streaming"], 6),
        "physics": round(ls["physics"], 6),
        "server": round(ls["server"], 6),
        "prims": ls["prims"],
        "objects": sorted((o["name"], [o["lods"][l]["triangles"] for l in LODS]) for o in f["objects"]),
    }


def own_export(path: str) -> None:
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", use_selection=True, export_apply=True, export_yup=True)


def glb_node_names(path: str) -> list[str]:
    import struct

    with open(path, "rb") as handle:
        data = handle.read()
    length = struct.unpack_from("<I", data, 12)[0]
    gltf = json.loads(data[20:20 + length])
    return [n.get("name", "") for n in gltf.get("nodes", [])]


# -- the test -----------------------------------------------------------------------------------
def main() -> None:
    opts = args()
    os.makedirs(opts.out, exist_ok=True)
    started = time.monotonic()

    prefs = install_addon(opts.zip, opts.node, opts.bin)
    check(ADDON in bpy.context.preferences.addons, "the zip installs and enables as an add-on")
    check(bpy.ops.slmesh.check() == {"FINISHED"} and prefs.check_result.startswith("slmesh "), f"Check runs slmesh --version ({prefs.check_result})")

    scene = bpy.context.scene
    parts = build_scene()
    names = sorted(o.name for o in parts)

    # 1. price
    t = time.monotonic()
    check(bpy.ops.slmesh.price() == {"FINISHED"}, "slmesh.price finishes")
    timings["price"] = time.monotonic() - t
    stored = json.loads(scene.slmesh_report)
    own = os.path.join(opts.out, "own-export.glb")
    own_export(own)
    direct = cost(opts, own)
    check(numbers(stored) == numbers(direct), f"stored report equals slmesh cost --json of the same export: {numbers(stored)['landImpact']} vs {numbers(direct)['landImpact']}")
    check(sorted(o["name"] for o in stored["files"][0]["objects"]) == names, f"the report prices every selected object ({names})")
    check(scene.slmesh.error == "", "no error after pricing")

    # 2. export
    out_dir = os.path.join(opts.out, "export")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "chair_sl.glb")
    stale = os.path.join(out_dir, "chair_sl_PHYS.glb")
    with open(stale, "wb") as handle:
        handle.write(b"stale sibling from an earlier export")
    scene.slmesh.physics = "none"
    t = time.monotonic()
    check(bpy.ops.slmesh.export(filepath=out, import_lods=True) == {"FINISHED"}, "slmesh.export finishes")
    timings["export"] = time.monotonic() - t
    result = json.loads(scene.slmesh.export_result)
    written = sorted(os.listdir(out_dir))
    expected = ["chair_sl.glb"] + [f"chair_sl_{s}.glb" for s in ("LOD2", "LOD1", "LOD0", "PHYS") if os.path.isfile(os.path.join(out_dir, f"chair_sl_{s}.glb"))]
    check(result["files"] == [os.path.join(out_dir, f) for f in expected], f"export reports out.glb and its existing siblings ({expected})")
    check(written == sorted(expected), f"only the uploader's files are in the folder ({written})")
    check(not os.path.isfile(stale), "a stale _PHYS sibling from an earlier export is removed (physics none)")
    nodes = set()
    for f in expected:
        slot = f[len("chair_sl"):-len(".glb")].lstrip("_")
        for n in glb_node_names(os.path.join(out_dir, f)):
            nodes.add(n if not slot or n.endswith(f"_{slot}") else f"{n}_{slot}")
    missing = [f"{n}_{s}" for n in names for s in ("LOD2", "LOD1", "LOD0") if f"{n}_{s}" not in nodes]
    check(not missing, f"every object has _LOD2/_LOD1/_LOD0 in the written files (missing {missing})")
    after_direct = cost(opts, out)
    check(numbers(json.loads(scene.slmesh_report)) == numbers(after_direct), "after export the stored report equals slmesh cost --json of out.glb")
    check(abs(result["before"]["landImpact"] - numbers(direct)["landImpact"]) < 1e-6, f"land impact before ({result['before']['landImpact']:.3f}) is the selection's")
    check(abs(result["after"]["landImpact"] - numbers(after_direct)["landImpact"]) < 1e-6, f"land impact after ({result['after']['landImpact']:.3f}) is the written files'")
    check(result["after"]["landImpact"] < result["before"]["landImpact"], "the export lowers the land impact")

    # 3. LODs back in the scene
    coll = bpy.data.collections.get("SL LODs")
    lod_names = sorted(o.name for o in coll.objects) if coll else []
    check(lod_names == sorted(f"{n}_{s}" for n in names for s in ("LOD2", "LOD1", "LOD0")), f"'SL LODs' holds <object>_LOD2/1/0 ({lod_names[:4]}...)")
    if coll:
        seat = coll.objects.get("Seat_LOD2")
        check(seat is not None and seat.material_slots[0].material == bpy.data.materials["Fabric"], "imported LODs use the original materials")
        check(not any(m.name.startswith(("Wood.", "Fabric.")) for m in bpy.data.materials), "no duplicate materials left by the import")
    check(sorted(o.name for o in bpy.context.selected_objects) == names, "the selection is restored after export and import")

    # 3b. optimize run by hand with its defaults (one file with Name_LOD2 ... Name_PHYS nodes on
    # older CLIs, sibling files on newer ones) comes back the same way.
    import importlib

    bl_ops = importlib.import_module(f"{ADDON}.bl_ops")
    files_mod = importlib.import_module(f"{ADDON}.files")
    chair = [o for o in parts if o.name != "Suzanne"]
    bpy.ops.object.select_all(action="DESELECT")
    for obj in chair:
        obj.select_set(True)
    chair_glb = os.path.join(opts.out, "chair-only.glb")
    own_export(chair_glb)
    single = os.path.join(opts.out, "plain", "chair1.glb")
    done = subprocess.run([opts.node, opts.bin, "optimize", chair_glb, "-o", single, "--physics", "hull"], capture_output=True, text=True)
    written = files_mod.collect_outputs(single)
    check(done.returncode == 0 and sorted(os.listdir(os.path.dirname(single))) == sorted(os.path.basename(f) for f in written),
          f"optimize with its defaults writes out.glb and siblings only ({[os.path.basename(f) for f in written]}) {done.stderr.strip()[-200:]}")
    bl_ops.import_lods(bpy.context, written, single, [o.name for o in chair])
    lod_names = sorted(o.name for o in bpy.data.collections["SL LODs"].objects)
    expected_names = sorted([f"{o.name}_{s}" for o in chair for s in ("LOD2", "LOD1", "LOD0", "PHYS")] + [f"Suzanne_{s}" for s in ("LOD2", "LOD1", "LOD0")])
    check(lod_names == expected_names, f"LODs and physics of that output replace the chair's and keep Suzanne's ({len(lod_names)} objects)")
    check(all(not o.name.startswith(tuple(f"{c.name}." for c in chair)) for o in bpy.data.objects), "no high-LOD copies left from that import")
    bpy.ops.object.select_all(action="DESELECT")
    for obj in parts:
        obj.select_set(True)

    # 4. preview
    os.environ["SLMESH_NO_BROWSER"] = "1"
    t = time.monotonic()
    check(bpy.ops.slmesh.preview(open_browser=False) == {"FINISHED"}, "slmesh.preview finishes")
    timings["preview"] = time.monotonic() - t
    page = scene.slmesh.preview_path
    check(os.path.isfile(page) and open(page, encoding="utf-8").read(200).lower().lstrip().startswith("<!doctype html"), f"preview writes an HTML page ({page})")

    # 4b. joining: the chair's parts apart give a tip pointing at 'Join objects'; with it ticked
    # they are written as one object that costs less, and the panel says so.
    bpy.ops.object.select_all(action="DESELECT")
    for obj in chair:
        obj.select_set(True)
    join_dir = os.path.join(opts.out, "join")
    os.makedirs(join_dir, exist_ok=True)
    scene.slmesh.physics = "hull"
    scene.slmesh.merge_objects = False
    check(bpy.ops.slmesh.export(filepath=os.path.join(join_dir, "apart.glb"), import_lods=False) == {"FINISHED"}, "export of the chair apart finishes")
    apart = json.loads(scene.slmesh.export_result)
    check(any("tick 'Join objects'" in n for n in apart.get("notes", [])), f"apart, the panel's tip names 'Join objects' ({apart.get('notes')})")
    scene.slmesh.merge_objects = True
    t = time.monotonic()
    check(bpy.ops.slmesh.export(filepath=os.path.join(join_dir, "joined.glb"), import_lods=False) == {"FINISHED"}, "export of the chair joined finishes")
    timings["export-joined"] = time.monotonic() - t
    joined = json.loads(scene.slmesh.export_result)
    scene.slmesh.merge_objects = False
    check(any(" joined into " in n for n in joined.get("notes", [])), f"joined, the panel says what was joined ({joined.get('notes')})")
    joined_objects = cost(opts, os.path.join(join_dir, "joined.glb"))["files"][0]["objects"]
    check(len(joined_objects) < len(chair), f"the joined export has fewer objects than the chair's {len(chair)} parts ({len(joined_objects)})")
    check(joined["after"]["landImpact"] < apart["after"]["landImpact"], f"joined costs less than apart ({joined['after']['landImpact']:.3f} vs {apart['after']['landImpact']:.3f})")
    bpy.ops.object.select_all(action="DESELECT")
    for obj in parts:
        obj.select_set(True)

    # 4c. 'Keep full precision' (--keep-precision): the same selection as in 2 written with every
    # vertex as planned downloads more than the default, whose moved vertices compress smaller.
    scene.slmesh.keep_precision = True
    exact = os.path.join(join_dir, "exact.glb")
    check(bpy.ops.slmesh.export(filepath=exact, import_lods=False) == {"FINISHED"}, "export at full precision finishes")
    scene.slmesh.keep_precision = False
    exact_dl, default_dl = (sum(o["streaming"] for o in r["files"][0]["objects"]) for r in (cost(opts, exact), after_direct))
    check(default_dl < exact_dl, f"'Keep full precision' downloads more than the default ({exact_dl:.3f} vs {default_dl:.3f})")

    # 5. missing slmesh
    prefs.mode = "EXECUTABLE"
    prefs.executable = os.path.join(opts.out, "no-such-dir", "slmesh")
    message = ""
    try:
        bpy.ops.slmesh.price()
    except RuntimeError as error:
        message = str(error)
    check("slmesh not found" in message and "Preferences > Add-ons > slmesh" in message, f"a missing slmesh gives the clear message ({message.strip()})")
    check(scene.slmesh.error.startswith("slmesh not found"), "the message is also in the panel")
    prefs.mode = "PATH"
    os.environ["PATH"] = opts.out
    try:
        bpy.ops.slmesh.check()
    except RuntimeError as error:
        message = str(error)
    check("slmesh not found" in message or "slmesh " in prefs.check_result, "Check explains a missing slmesh on PATH")

    timings["total"] = time.monotonic() - started
    with open(os.path.join(opts.out, "e2e-result.json"), "w", encoding="utf-8") as handle:
        json.dump({"failures": failures, "timings": timings}, handle, indent=1)
    print(f"timings: {json.dumps({k: round(v, 2) for k, v in timings.items()})}")


try:
    main()
except Exception:  # noqa: BLE001 - any crash is a failure of the test
    traceback.print_exc()
    failures.append("crashed")
print(f"{len(failures)} failure(s)" if failures else "all checks passed", flush=True)
sys.exit(1 if failures else 0)
