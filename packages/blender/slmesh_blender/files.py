"""The files the Second Life uploader loads, and the names that pair LODs with their objects.

The viewer's glTF importer takes ``out.glb`` and loads LODs and physics from sibling files
``out_LOD2.glb``, ``out_LOD1.glb``, ``out_LOD0.glb`` and ``out_PHYS.glb``; inside one file, nodes
``Name_LOD2`` ... ``Name_PHYS`` pair with ``Name``. ``slmesh optimize`` writes one or the other
depending on its version and options, so the add-on always collects whatever exists.
Pure Python (no ``bpy``).
"""

from __future__ import annotations

import os
import re
import shutil
from typing import Optional

#: Sibling slots in the order the uploader's LOD rows show them (medium, low, lowest, physics).
SLOTS = ("LOD2", "LOD1", "LOD0", "PHYS")
SLOT_LABEL = {"LOD2": "medium", "LOD1": "low", "LOD0": "lowest", "PHYS": "physics"}

_SLOT_RE = re.compile(r"^(?P<base>.+)_(?P<slot>LOD[012]|PHYS)$", re.IGNORECASE)
_BLENDER_DUP_RE = re.compile(r"^(?P<base>.+)\.\d{3,}$")


def stem_and_ext(path: str) -> tuple[str, str]:
    """``/a/out.glb`` -> (``/a/out``, ``.glb``)."""
    root, ext = os.path.splitext(path)
    return root, ext or ".glb"


def sibling_path(output: str, slot: str) -> str:
    """The sibling file of ``output`` for ``slot`` (``out.glb``, ``LOD2`` -> ``out_LOD2.glb``)."""
    root, ext = stem_and_ext(output)
    return f"{root}_{slot}{ext}"


def collect_outputs(output: str) -> list[str]:
    """``output`` and those of its ``_LOD2/_LOD1/_LOD0/_PHYS`` siblings that exist, in that
    order; empty when ``output`` itself does not exist."""
    if not os.path.isfile(output):
        return []
    return [output] + [p for p in (sibling_path(output, s) for s in SLOTS) if os.path.isfile(p)]


def slot_of_file(path: str, output: str) -> Optional[str]:
    """Which slot a collected file is for: None for ``output`` itself, else ``LOD2`` ... ``PHYS``."""
    for slot in SLOTS:
        if os.path.normcase(os.path.abspath(path)) == os.path.normcase(os.path.abspath(sibling_path(output, slot))):
            return slot
    return None


def install_outputs(produced: str, destination: str) -> list[str]:
    """Move ``produced`` and its existing siblings to ``destination`` and its sibling names.

    Siblings of ``destination`` that this run did not produce (left from an earlier export)
    are deleted, so the uploader never loads a stale LOD. Returns :func:`collect_outputs` of
    ``destination``. Guarantees nothing is deleted when ``produced`` does not exist.
    """
    made = collect_outputs(produced)
    if not made:
        return []
    folder = os.path.dirname(os.path.abspath(destination))
    os.makedirs(folder, exist_ok=True)
    wanted = {None if p == produced else slot_of_file(p, produced): p for p in made}
    for slot in SLOTS:
        target = sibling_path(destination, slot)
        if slot not in wanted and os.path.isfile(target):
            os.remove(target)
    for slot, source in wanted.items():
        target = destination if slot is None else sibling_path(destination, slot)
        shutil.move(source, target)
    return collect_outputs(destination)


def strip_duplicate_suffix(name: str) -> str:
    """Blender's duplicate suffix removed: ``Wood.001`` -> ``Wood``."""
    match = _BLENDER_DUP_RE.match(name)
    return match.group("base") if match else name


def split_slot(name: str) -> tuple[str, Optional[str]]:
    """``Chair_LOD2`` -> (``Chair``, ``LOD2``); ``Chair`` -> (``Chair``, None). Case of the
    slot is normalised to upper case; a Blender ``.001`` suffix is ignored."""
    name = strip_duplicate_suffix(name)
    match = _SLOT_RE.match(name)
    if not match:
        return name, None
    return match.group("base"), match.group("slot").upper()


def lod_name(base: str, slot: str) -> str:
    """The name that pairs a LOD or physics object with ``base`` (``Chair``, ``LOD2`` -> ``Chair_LOD2``)."""
    return f"{base}_{slot}"


def imported_name(node_name: str, file_slot: Optional[str]) -> Optional[str]:
    """The name an object imported from an optimize output gets in the "SL LODs" collection.

    A node already named ``Base_SLOT`` keeps it; a plain node from a sibling file for
    ``file_slot`` becomes ``Base_<file_slot>``; a plain node of the main file is the high LOD
    (the creator's own object) and gets None: it is not brought back.
    """
    base, slot = split_slot(node_name)
    slot = slot or file_slot
    return lod_name(base, slot) if slot else None


def export_path_for(blend_path: str, fallback_dir: str) -> str:
    """A default export path: ``<blend name>_sl.glb`` next to the .blend, else in ``fallback_dir``."""
    if blend_path:
        root, _ = os.path.splitext(blend_path)
        return f"{root}_sl.glb"
    return os.path.join(fallback_dir, "untitled_sl.glb")


def normalise_output(path: str) -> str:
    """An absolute output path ending in ``.glb`` (optimize only writes GLB)."""
    path = os.path.abspath(os.path.expanduser(path))
    root, ext = os.path.splitext(path)
    return path if ext.lower() == ".glb" else f"{root if ext.lower() in ('.gltf', '') else path}.glb"
