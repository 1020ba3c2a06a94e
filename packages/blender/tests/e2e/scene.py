"""The test scene and add-on installation shared by the Blender e2e test and the README screenshot (needs bpy)."""

from __future__ import annotations

import os

import bpy

ADDON = "slmesh_blender"


def install_addon(zip_path: str, node: str, bin_js: str):
    """Install and enable the add-on from its zip; point it at ``node bin_js``. Returns its preferences."""
    bpy.ops.preferences.addon_install(filepath=os.path.abspath(zip_path), overwrite=True)
    bpy.ops.preferences.addon_enable(module=ADDON)
    prefs = bpy.context.preferences.addons[ADDON].preferences
    prefs.mode = "NODE"
    prefs.node = node
    prefs.script = os.path.abspath(bin_js)
    return prefs


# -- scene --------------------------------------------------------------------------------------
def material(name: str, color) -> bpy.types.Material:
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = color
    return mat


def cube(name: str, location, size, mat) -> bpy.types.Object:
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
    obj = bpy.context.active_object
    obj.name = name
    obj.data.name = name
    obj.scale = size
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    obj.data.materials.append(mat)
    return obj


def build_scene(levels: int = 1) -> list[bpy.types.Object]:
    """A chair of six cubes (two materials) and Suzanne subdivided ``levels`` times beside it
    (1: about 3,900 triangles, 2: about 15,700)."""
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    wood = material("Wood", (0.45, 0.3, 0.15, 1))
    fabric = material("Fabric", (0.2, 0.3, 0.6, 1))
    parts = [
        cube("Seat", (0, 0, 0.45), (0.5, 0.5, 0.05), fabric),
        cube("Back", (0, 0.23, 0.7), (0.5, 0.04, 0.45), wood),
    ]
    for name, x, y in (("Leg_FL", -0.22, -0.22), ("Leg_FR", 0.22, -0.22), ("Leg_BL", -0.22, 0.22), ("Leg_BR", 0.22, 0.22)):
        parts.append(cube(name, (x, y, 0.2), (0.04, 0.04, 0.4), wood))
    bpy.ops.mesh.primitive_monkey_add(size=0.6, location=(1.2, 0, 0.5))
    suzanne = bpy.context.active_object
    suzanne.name = suzanne.data.name = "Suzanne"
    modifier = suzanne.modifiers.new("Subdivision", "SUBSURF")
    modifier.levels = levels
    bpy.ops.object.modifier_apply(modifier=modifier.name)
    suzanne.data.materials.append(fabric)
    parts.append(suzanne)
    bpy.ops.object.select_all(action="DESELECT")
    for obj in parts:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = parts[0]
    return parts


