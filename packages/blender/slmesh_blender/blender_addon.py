"""Registration of the Blender side of the add-on (needs bpy)."""

from __future__ import annotations

from . import bl_auto, bl_ops, bl_settings, bl_ui

_MODULES = (bl_settings, bl_ops, bl_ui, bl_auto)


def register() -> None:
    for module in _MODULES:
        module.register()


def unregister() -> None:
    for module in reversed(_MODULES):
        module.unregister()
