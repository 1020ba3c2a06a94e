"""Blender side of the round-trip test (packages/cli/test/blender-roundtrip.test.ts).

    blender -b --factory-startup --python roundtrip.py -- export OUT.glb FACTS.json
        builds test-assets/make.py's textured hierarchy (rotated, scaled, parented, multi-material,
        textured parts), exports it as OUT.glb and writes what Blender knows about it;
    blender -b --factory-startup --python roundtrip.py -- import FACTS.json FILE.glb...
        imports each file into an empty scene and writes what Blender sees, per file.

Facts per object: type, parent, world matrix, mesh name, material names, and the mesh's box in
the object's own (local) coordinates.
"""

import importlib.util
import json
import os
import sys

import bpy

# Blender 3.4's glTF importer uses `np.bool`, which numpy 1.24 (Debian 12's python3-numpy) removed;
# the alias is the builtin it always meant.
import numpy as np
if "bool" not in np.__dict__:
    np.bool = bool

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE = os.path.join(HERE, "..", "..", "..", "..", "test-assets", "make.py")


def load_make():
    os.environ["SLMESH_ASSETS_LIBRARY"] = "1"
    spec = importlib.util.spec_from_file_location("slmesh_make", MAKE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def facts():
    out = {}
    for o in bpy.context.scene.objects:
        f = {
            "type": o.type,
            "parent": o.parent.name if o.parent else None,
            "matrix_world": [v for row in o.matrix_world for v in row],
        }
        if o.type == 'MESH':
            me = o.data
            co = [v.co for v in me.vertices]
            f["mesh"] = me.name
            f["materials"] = [m.name if m else None for m in me.materials]
            f["used_materials"] = sorted({me.materials[p.material_index].name for p in me.polygons if me.materials})
            f["box"] = [[min(c[k] for c in co) for k in range(3)], [max(c[k] for c in co) for k in range(3)]]
            f["triangles"] = sum(len(p.vertices) - 2 for p in me.polygons)
            f["uv"] = len(me.uv_layers) > 0
            f["textured"] = sorted(
                m.name for m in me.materials
                if m and m.use_nodes and any(n.type == 'TEX_IMAGE' and n.image for n in m.node_tree.nodes)
            )
        out[o.name] = f
    return out


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    mode = argv[0]
    if mode == "export":
        out, facts_path = os.path.abspath(argv[1]), argv[2]
        make = load_make()
        make.OUT = os.path.dirname(out)
        make.reset_scene()
        make.build_textured_hierarchy()
        bpy.context.view_layer.update()
        make.export(os.path.basename(out))
        with open(facts_path, "w") as f:
            json.dump(facts(), f)
    elif mode == "import":
        make = load_make()
        facts_path, files = argv[1], argv[2:]
        result = {}
        for path in files:
            make.reset_scene()
            bpy.ops.import_scene.gltf(filepath=path)
            bpy.context.view_layer.update()
            result[os.path.basename(path)] = facts()
        with open(facts_path, "w") as f:
            json.dump(result, f)
    else:
        raise SystemExit("roundtrip.py: mode is export or import")


main()
