"""Build the slmesh test assets with Blender and export them as GLB.

Run (from the repository root):

    blender -b -t 1 --factory-startup --python test-assets/make.py -- test-assets/

Written for Blender 3.4 (Debian 12 package `blender` 3.4.1, glTF exporter
io_scene_gltf2 3.4.50, which needs `python3-numpy`). Every scene is built
from scratch (all default objects and data are deleted first) and nothing
is random. With `-t 1`, re-running produces byte-identical files. Without
it, Blender's multi-threaded vertex-normal sums can change the last bit of
some normals on meshes with more than about 1000 faces (Ball, Suzanne).

Axes: Blender is Z-up; the exporter is called with export_yup=True, so a
Blender point (x, y, z) ends up as glTF (x, z, -y).
"""

import math
import os
import struct
import sys

import bmesh
import bpy
from mathutils import Vector

# --------------------------------------------------------------------------
# arguments: everything after "--" ; first one is the output directory
argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
OUT = os.path.abspath(argv[0] if argv else os.path.dirname(os.path.abspath(__file__)))


# --------------------------------------------------------------------------
# helpers

def reset_scene():
    """Delete every object and every mesh/material/etc. data block."""
    if bpy.context.object is not None and bpy.context.object.mode != 'OBJECT':
        bpy.ops.object.mode_set(mode='OBJECT')
    for coll in (bpy.data.objects, bpy.data.meshes, bpy.data.materials,
                 bpy.data.cameras, bpy.data.lights, bpy.data.curves,
                 bpy.data.images, bpy.data.textures):
        for block in list(coll):
            coll.remove(block)
    # Drop the default "Collection" too, so every new object lands directly
    # in the scene's master collection (keeps glTF node order = creation order).
    for block in list(bpy.data.collections):
        bpy.data.collections.remove(block)
    scene = bpy.context.scene
    scene.cursor.location = (0.0, 0.0, 0.0)


def material(name, rgba, roughness=0.5, metallic=0.0):
    """A Principled BSDF material with a given base colour."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes.get("Principled BSDF")
    bsdf.inputs["Base Color"].default_value = rgba
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Metallic"].default_value = metallic
    mat.diffuse_color = rgba
    return mat


def finish(obj, name, mats=(), smooth=False):
    """Name object and its mesh data, attach materials, set shading."""
    obj.name = name
    obj.data.name = name
    for m in mats:
        obj.data.materials.append(m)
    obj.data.polygons.foreach_set("use_smooth", [smooth] * len(obj.data.polygons))
    obj.data.update()
    return obj


def canonicalize(obj):
    """Rebuild obj's mesh with a deterministic face and loop order.

    Blender 3.4's UV-sphere primitive emits its faces in a different order
    on every run (same vertices, same geometry), which changes the exported
    index buffer and the last bits of the smooth normals. Re-emit the same
    faces, UVs and material indices sorted: each face's loop starts at its
    lowest vertex index (winding kept), faces sorted by their vertex tuples.
    """
    me = obj.data
    uv = me.uv_layers.active.data if me.uv_layers else None
    faces = []
    for p in me.polygons:
        loops = list(p.loop_indices)
        verts = [me.loops[li].vertex_index for li in loops]
        k = verts.index(min(verts))
        loops = loops[k:] + loops[:k]
        verts = verts[k:] + verts[:k]
        uvs = [tuple(uv[li].uv) for li in loops] if uv else None
        faces.append((tuple(verts), uvs, p.material_index, p.use_smooth))
    faces.sort(key=lambda f: f[0])
    coords = [tuple(v.co) for v in me.vertices]
    mats = list(me.materials)
    new = bpy.data.meshes.new(me.name)
    new.from_pydata(coords, [], [f[0] for f in faces])
    for m in mats:
        new.materials.append(m)
    for p, f in zip(new.polygons, faces):
        p.material_index = f[2]
        p.use_smooth = f[3]
    if uv:
        layer = new.uv_layers.new(name=me.uv_layers.active.name)
        for p, f in zip(new.polygons, faces):
            for li, co in zip(p.loop_indices, f[1]):
                layer.data[li].uv = co
    new.validate()
    new.update()
    name = me.name
    obj.data = new
    bpy.data.meshes.remove(me)
    new.name = name


def select_only(objs):
    bpy.ops.object.select_all(action='DESELECT')
    for o in objs:
        o.select_set(True)
    bpy.context.view_layer.objects.active = objs[0]


def apply_scale(obj):
    select_only([obj])
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)


def apply_location(obj):
    select_only([obj])
    bpy.ops.object.transform_apply(location=True, rotation=False, scale=False)


def smart_uv(obj):
    """Replace the object's UVs with a Smart UV Project unwrap."""
    select_only([obj])
    if not obj.data.uv_layers:
        obj.data.uv_layers.new(name="UVMap")
    bpy.ops.object.mode_set(mode='EDIT')
    bpy.ops.mesh.select_all(action='SELECT')
    bpy.ops.uv.smart_project(angle_limit=math.radians(66.0), island_margin=0.02)
    bpy.ops.object.mode_set(mode='OBJECT')


def add_cube(size, location=(0.0, 0.0, 0.0)):
    bpy.ops.mesh.primitive_cube_add(size=size, location=location)
    return bpy.context.active_object


def add_box(name, dims, location, mats):
    """A box with real dimensions dims (x, y, z) metres; scale applied."""
    obj = add_cube(1.0, location)
    obj.scale = dims
    apply_scale(obj)
    return finish(obj, name, mats)


def export(filename, objs=None):
    """Export the whole scene, or only `objs`, as GLB."""
    path = os.path.join(OUT, filename)
    if objs:
        select_only(objs)
    bpy.ops.export_scene.gltf(
        filepath=path,
        export_format='GLB',
        use_selection=bool(objs),
        export_apply=True,        # apply modifiers (bevel, subsurf, decimate...)
        export_yup=True,          # Blender default: +Y up in glTF
        export_normals=True,
        export_texcoords=True,
        export_materials='EXPORT',
        export_cameras=False,
        export_lights=False,
        export_animations=False,
        export_extras=False,
    )
    print("slmesh-assets: wrote %s (%d bytes)" % (path, os.path.getsize(path)))


def faces_by_normal(obj, pick):
    """Set material_index of each polygon to pick(normal)."""
    for p in obj.data.polygons:
        p.material_index = pick(p.normal)
    obj.data.update()


# --------------------------------------------------------------------------
# scenes

def scene_cube():
    reset_scene()
    cube = add_cube(1.0)
    finish(cube, "Cube", [material("CubeGrey", (0.6, 0.6, 0.6, 1.0))])
    export("cube.glb")


def scene_chair():
    reset_scene()
    wood = material("Wood", (0.40, 0.24, 0.12, 1.0), roughness=0.6)
    fabric = material("Fabric", (0.15, 0.25, 0.55, 1.0), roughness=0.9)

    # Seat: 0.50 x 0.50 x 0.05 m, top surface at 0.45 m.
    # Slot 0 = Fabric (top face), slot 1 = Wood (sides and underside).
    seat = add_box("Seat", (0.50, 0.50, 0.05), (0.0, 0.0, 0.425), [fabric, wood])
    faces_by_normal(seat, lambda n: 0 if n.z > 0.5 else 1)

    # Back: 0.50 wide, 0.04 thick, from the seat top (0.45) up to 0.90 m.
    # Front of the chair faces -Y (Blender's front view looks along +Y).
    add_box("Back", (0.50, 0.04, 0.45), (0.0, 0.23, 0.675), [fabric])

    # Legs: 0.04 x 0.04 x 0.40 m from the floor to the seat underside,
    # each with a Bevel modifier (applied by the exporter).
    # F/B = front (-Y) / back (+Y); L/R = -X / +X as seen in front view.
    for name, x, y in (("Leg_FL", -0.22, -0.22), ("Leg_FR", 0.22, -0.22),
                       ("Leg_BL", -0.22, 0.22), ("Leg_BR", 0.22, 0.22)):
        leg = add_box(name, (0.04, 0.04, 0.40), (x, y, 0.20), [wood])
        bev = leg.modifiers.new("Bevel", 'BEVEL')
        bev.width = 0.004
        bev.segments = 2
        bev.limit_method = 'NONE'
    export("chair.glb")


def scene_two_cubes():
    reset_scene()
    a = add_cube(1.0, (0.0, 0.0, 0.0))
    finish(a, "CubeA", [material("CubeARed", (0.8, 0.1, 0.1, 1.0))])
    b = add_cube(1.0, (60.0, 0.0, 0.0))
    finish(b, "CubeB", [material("CubeBBlue", (0.1, 0.1, 0.8, 1.0))])
    export("two-cubes-60m.glb")


def scene_prims_300():
    reset_scene()
    mat = material("PrimWhite", (0.9, 0.9, 0.9, 1.0))
    first = add_cube(0.1, (0.0, 0.0, 0.0))
    finish(first, "P000", [mat])
    mesh = first.data
    mesh.name = "PrimCube"          # one mesh shared by all 300 objects
    coll = bpy.context.scene.collection
    cols, rows, step = 15, 20, 0.2
    for i in range(cols * rows):
        col, row = i % cols, i // cols
        loc = (col * step, row * step, 0.0)
        if i == 0:
            first.location = loc
            continue
        obj = bpy.data.objects.new("P%03d" % i, mesh)   # linked duplicate
        obj.location = loc
        coll.objects.link(obj)
    export("prims-300.glb")


def scene_beveled_cube():
    reset_scene()
    red = material("BevelRed", (0.8, 0.1, 0.1, 1.0))
    green = material("BevelGreen", (0.1, 0.7, 0.1, 1.0))
    blue = material("BevelBlue", (0.1, 0.2, 0.8, 1.0))
    cube = add_cube(1.0)
    finish(cube, "BevelCube", [red, green, blue])

    # +-X faces -> red, +-Y faces -> green, +-Z faces -> blue
    def pick(n):
        a = (abs(n.x), abs(n.y), abs(n.z))
        return a.index(max(a))
    faces_by_normal(cube, pick)
    bev = cube.modifiers.new("Bevel", 'BEVEL')
    bev.width = 0.08
    bev.segments = 3
    bev.limit_method = 'NONE'
    bev.material = -1                 # bevel faces take an adjacent face's material
    export("beveled-cube-3mat.glb")


def scene_lod_authored():
    reset_scene()
    mat = material("BallOrange", (0.9, 0.45, 0.1, 1.0))
    for name, seg, rings in (("Ball", 64, 32), ("Ball_LOD2", 32, 16),
                             ("Ball_LOD1", 16, 8), ("Ball_LOD0", 8, 4)):
        bpy.ops.mesh.primitive_uv_sphere_add(segments=seg, ring_count=rings,
                                             radius=0.5, location=(0, 0, 0))
        ball = bpy.context.active_object
        finish(ball, name, [mat], smooth=True)
        canonicalize(ball)
    phys = add_cube(1.0)
    finish(phys, "Ball_PHYS", [mat])
    export("lod-authored.glb")


def _smoothstep(a, b, t):
    t = min(1.0, max(0.0, (t - a) / (b - a)))
    return t * t * (3.0 - 2.0 * t)


def _vase_radius(t):
    """Vase profile radius (m) at relative height t in [0, 1]."""
    keys = ((0.00, 0.080), (0.35, 0.145), (0.75, 0.050), (0.90, 0.045), (1.00, 0.070))
    for (t0, r0), (t1, r1) in zip(keys, keys[1:]):
        if t <= t1:
            return r0 + (r1 - r0) * _smoothstep(t0, t1, t)
    return keys[-1][1]


def scene_vase():
    reset_scene()
    mat = material("VaseGlaze", (0.2, 0.5, 0.45, 1.0), roughness=0.3)
    height = 0.40

    # Profile: centre of the base on the Z axis, then 21 points up the wall.
    verts = [(0.0, 0.0, 0.0)]
    for i in range(21):
        t = i / 20.0
        verts.append((_vase_radius(t), 0.0, t * height))
    edges = [(i, i + 1) for i in range(len(verts) - 1)]
    mesh = bpy.data.meshes.new("Vase")
    mesh.from_pydata(verts, edges, [])
    vase = bpy.data.objects.new("Vase", mesh)
    bpy.context.scene.collection.objects.link(vase)

    # Lathe it with a Screw modifier (48 steps, 360 deg) and apply it, so
    # the LOD copies below start from the same ~2k triangle mesh.
    screw = vase.modifiers.new("Screw", 'SCREW')
    screw.axis = 'Z'
    screw.angle = 2.0 * math.pi
    screw.steps = 48
    screw.render_steps = 48
    screw.screw_offset = 0.0
    screw.use_merge_vertices = True
    screw.merge_threshold = 1e-5
    screw.use_normal_calculate = True
    select_only([vase])
    bpy.ops.object.modifier_apply(modifier="Screw")

    # Make normals point outwards (the exporter triangulates).
    bm = bmesh.new()
    bm.from_mesh(vase.data)
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    # The surface is open at the top, so recalc can pick "inside" as the
    # outside: check the widest face against the radial direction.
    widest = max(bm.faces, key=lambda f: Vector(f.calc_center_median().xy).length)
    if widest.normal.dot(Vector((*widest.calc_center_median().xy, 0.0))) < 0.0:
        bmesh.ops.reverse_faces(bm, faces=bm.faces)
    bm.to_mesh(vase.data)
    bm.free()
    finish(vase, "Vase", [mat], smooth=True)
    smart_uv(vase)

    lods = []
    for name, ratio in (("Vase_LOD2", 0.3), ("Vase_LOD1", 0.1), ("Vase_LOD0", 0.03)):
        obj = bpy.data.objects.new(name, vase.data.copy())
        obj.data.name = name
        bpy.context.scene.collection.objects.link(obj)
        dec = obj.modifiers.new("Decimate", 'DECIMATE')
        dec.decimate_type = 'COLLAPSE'
        dec.ratio = ratio
        lods.append(obj)

    # Physics shape: a 12-sided cylinder enclosing the vase, origin at the
    # vase's origin (base centre) so all files share the same node transform.
    bpy.ops.mesh.primitive_cylinder_add(vertices=12, radius=0.145, depth=height,
                                        location=(0.0, 0.0, height / 2.0))
    phys = bpy.context.active_object
    apply_location(phys)
    finish(phys, "Vase_PHYS", [mat])

    export("vase.glb", [vase])
    for obj in lods:
        export("vase_%s.glb" % obj.name.split("_", 1)[1], [obj])   # vase_LOD2.glb ...
    export("vase_PHYS.glb", [phys])


def scene_column():
    reset_scene()
    mat = material("ColumnMarble", (0.85, 0.83, 0.78, 1.0), roughness=0.4)
    bpy.ops.mesh.primitive_cylinder_add(vertices=32, radius=0.5, depth=10.0,
                                        location=(0.0, 0.0, 5.0))
    col = bpy.context.active_object
    # Flutes: inset every side face and push the inset inwards by 3 cm.
    bm = bmesh.new()
    bm.from_mesh(col.data)
    sides = [f for f in bm.faces if abs(f.normal.z) < 0.5]
    bmesh.ops.inset_individual(bm, faces=sides, thickness=0.012, depth=0.0)
    for f in sides:
        for v in f.verts:
            d = Vector((v.co.x, v.co.y, 0.0)).normalized()
            v.co -= d * 0.03
    bm.to_mesh(col.data)
    bm.free()
    finish(col, "Column", [mat])
    smart_uv(col)
    export("column-10m.glb")


def scene_bead():
    reset_scene()
    bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3, radius=0.025,
                                          location=(0.0, 0.0, 0.0))
    finish(bpy.context.active_object, "Bead",
           [material("BeadGlass", (0.3, 0.8, 0.9, 1.0), roughness=0.1)], smooth=True)
    export("bead-5cm.glb")


def scene_rotated_scaled():
    reset_scene()
    parent = bpy.data.objects.new("Parent", None)      # an Empty
    parent.empty_display_type = 'PLAIN_AXES'
    parent.rotation_euler = (0.0, 0.0, math.radians(45.0))
    parent.scale = (2.0, 2.0, 2.0)
    bpy.context.scene.collection.objects.link(parent)
    child = add_cube(1.0)
    finish(child, "Child", [material("ChildYellow", (0.9, 0.8, 0.1, 1.0))])
    child.parent = parent                   # parent inverse stays identity
    child.location = (1.0, 0.0, 0.25)       # in the parent's space
    # World: centre = Rz(45) * 2 * (1, 0, 0.25) = (1.414, 1.414, 0.5),
    # a 2 m cube rotated 45 deg about Z -> AABB x,y in [0, 2.828], z in [-0.5, 1.5].
    export("rotated-scaled.glb")


def scene_suzanne():
    reset_scene()
    bpy.ops.mesh.primitive_monkey_add(size=2.0, location=(0.0, 0.0, 0.0))
    suz = bpy.context.active_object
    finish(suz, "Suzanne", [material("SuzanneSkin", (0.8, 0.55, 0.4, 1.0))], smooth=True)
    sub = suz.modifiers.new("Subdivision", 'SUBSURF')
    sub.levels = 2
    sub.render_levels = 2
    # Subsurf level 2 on Suzanne gives ~15.7k triangles / ~350 KB. A
    # Decimate (collapse 0.5) after it brings it to ~7.9k triangles so the
    # file stays well under the 300 KB asset budget.
    dec = suz.modifiers.new("Decimate", 'DECIMATE')
    dec.decimate_type = 'COLLAPSE'
    dec.ratio = 0.5
    export("suzanne.glb")


def checker_image(name, colours, size=8):
    """A small generated checker texture (packed into the .blend, embedded by the exporter)."""
    img = bpy.data.images.new(name, width=size, height=size, alpha=False)
    px = []
    for j in range(size):
        for i in range(size):
            px.extend(colours[(i + j) % 2])
    img.pixels = px
    img.file_format = 'PNG'
    img.pack()
    return img


def textured_material(name, img):
    """A Principled BSDF material whose Base Color is an image texture (needs UVs)."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes = mat.node_tree.nodes
    bsdf = nodes.get("Principled BSDF")
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = img
    tex.interpolation = 'Closest'
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    return mat


def build_textured_hierarchy():
    """Rotated, scaled, parented, multi-material and textured parts (no transform applied).

    Empty `Rig` (location (1, 2, 0), rotated 30 deg about Z)
      `Table`: 1 m cube scaled (1.2, 0.6, 0.05) as an object scale, top face `Checker`
               (textured), other faces `Oak` (plain); at (0, 0, 0.75) in Rig's space
        `Lamp`: cylinder (16 sides, r 0.1, depth 0.4), textured `Shade`, rotated 20 deg
                about X, at (0.3, 0.1, 8) in Table's (scaled) space
          `Bulb`: icosphere (r 0.08), textured `Shade`, uniform scale 0.5, at (0, 0, 0.3)
    """
    checker = checker_image("CheckerTex", [(0.9, 0.9, 0.9, 1.0), (0.1, 0.1, 0.1, 1.0)])
    stripes = checker_image("ShadeTex", [(0.9, 0.7, 0.2, 1.0), (0.6, 0.2, 0.1, 1.0)])
    rig = bpy.data.objects.new("Rig", None)
    rig.empty_display_type = 'PLAIN_AXES'
    rig.location = (1.0, 2.0, 0.0)
    rig.rotation_euler = (0.0, 0.0, math.radians(30.0))
    bpy.context.scene.collection.objects.link(rig)

    table = add_cube(1.0)
    finish(table, "Table", [textured_material("Checker", checker), material("Oak", (0.5, 0.3, 0.1, 1.0))])
    faces_by_normal(table, lambda n: 0 if n.z > 0.5 else 1)
    table.parent = rig
    table.location = (0.0, 0.0, 0.75)
    table.scale = (1.2, 0.6, 0.05)

    bpy.ops.mesh.primitive_cylinder_add(vertices=16, radius=0.1, depth=0.4)
    lamp = bpy.context.active_object
    finish(lamp, "Lamp", [textured_material("Shade", stripes)])
    lamp.parent = table
    lamp.location = (0.3, 0.1, 8.0)
    lamp.rotation_euler = (math.radians(20.0), 0.0, 0.0)

    bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, radius=0.08)
    bulb = bpy.context.active_object
    finish(bulb, "Bulb", [bpy.data.materials["Shade"]], smooth=True)
    bulb.parent = lamp
    bulb.location = (0.0, 0.0, 0.3)
    bulb.scale = (0.5, 0.5, 0.5)
    return [rig, table, lamp, bulb]


def scene_textured_hierarchy():
    reset_scene()
    build_textured_hierarchy()
    export("textured-hierarchy.glb")


def broken_files():
    os.makedirs(os.path.join(OUT, "broken"), exist_ok=True)
    with open(os.path.join(OUT, "chair.glb"), "rb") as f:
        head = f.read(1000)
    with open(os.path.join(OUT, "broken", "truncated.glb"), "wb") as f:
        f.write(head)

    with open(os.path.join(OUT, "broken", "not-a-glb.glb"), "wb") as f:
        f.write(b"hello")

    # A structurally valid GLB container whose JSON chunk is `{"asset":`.
    json_bytes = b'{"asset":'
    json_bytes += b" " * ((4 - len(json_bytes) % 4) % 4)     # pad to 4 with spaces
    chunk = struct.pack("<II", len(json_bytes), 0x4E4F534A) + json_bytes  # "JSON"
    total = 12 + len(chunk)
    header = struct.pack("<4sII", b"glTF", 2, total)
    with open(os.path.join(OUT, "broken", "bad-json.glb"), "wb") as f:
        f.write(header + chunk)
    print("slmesh-assets: wrote broken/*.glb")


def main():
    only = os.environ.get("SLMESH_ASSETS_ONLY")
    if only:
        globals()["scene_" + only]()
        return
    scene_cube()
    scene_chair()
    scene_two_cubes()
    scene_prims_300()
    scene_beveled_cube()
    scene_lod_authored()
    scene_vase()
    scene_column()
    scene_bead()
    scene_rotated_scaled()
    scene_suzanne()
    scene_textured_hierarchy()
    broken_files()


# Imported as a library (the Blender round-trip test builds its scene with it): no main().
if not os.environ.get("SLMESH_ASSETS_LIBRARY"):
    main()
