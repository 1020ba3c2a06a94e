"""Build the installable add-on: dist/slmesh_blender.zip.

The zip holds one folder, ``slmesh_blender/``, with the add-on's Python modules and
``blender_manifest.toml``: Blender 3.4+ installs it as a legacy add-on (Preferences > Add-ons >
Install) and Blender 4.2+ as an extension (Install from Disk). Entries are sorted and dated
1980-01-01 so the same sources give the same bytes.
"""

from __future__ import annotations

import os
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "slmesh_blender")
OUTPUT = os.path.join(HERE, "dist", "slmesh_blender.zip")


def files() -> list[str]:
    """The add-on's files, relative to its folder (no caches)."""
    found = []
    for root, dirs, names in os.walk(SOURCE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".toml")):
                found.append(os.path.relpath(os.path.join(root, name), SOURCE))
    return found


def stale() -> bool:
    """Whether the zip is missing or older than any of the add-on's files."""
    if not os.path.isfile(OUTPUT):
        return True
    built = os.path.getmtime(OUTPUT)
    return any(os.path.getmtime(os.path.join(SOURCE, rel)) > built for rel in files())


def build() -> str:
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    # A unique temporary name, then an atomic rename: concurrent builds (two test files) never
    # see or install a half-written zip.
    handle, tmp = tempfile.mkstemp(prefix=".slmesh_blender.", suffix=".zip", dir=os.path.dirname(OUTPUT))
    os.close(handle)
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel in files():
            info = zipfile.ZipInfo(f"slmesh_blender/{rel.replace(os.sep, '/')}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(os.path.join(SOURCE, rel), "rb") as handle:
                zf.writestr(info, handle.read())
    os.chmod(tmp, 0o644)
    os.replace(tmp, OUTPUT)
    return OUTPUT


if __name__ == "__main__":
    path = build()
    print(f"blender: {os.path.relpath(path, os.getcwd())} {os.path.getsize(path) // 1024} KiB ({len(files())} files)")
    sys.exit(0)
