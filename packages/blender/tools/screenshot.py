"""Make docs/img/blender-panel.png: Blender under Xvfb running shot.py.

    python3 packages/blender/tools/screenshot.py      (after pnpm build; needs blender, xvfb-run)

Uses temporary Blender user folders, like the e2e test, so the user's setup is not touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PACKAGE))


def main() -> int:
    out = os.path.join(REPO, "docs", "img", "blender-panel.png")
    blender = shutil.which("blender")
    if not blender or not shutil.which("xvfb-run"):
        print("needs blender and xvfb-run: apt-get install -y blender python3-numpy xvfb xauth", file=sys.stderr)
        return 3
    sys.path.insert(0, PACKAGE)
    import build  # the add-on's zip, rebuilt when its sources changed

    if build.stale():
        build.build()
    tmp = tempfile.mkdtemp(prefix="slmesh-blender-shot-")
    env = dict(os.environ)
    env["BLENDER_USER_CONFIG"] = os.path.join(tmp, "config")
    env["BLENDER_USER_SCRIPTS"] = os.path.join(tmp, "scripts")
    env["SLMESH_NO_BROWSER"] = "1"
    # Blender's own folder first on PATH: see tests/e2e/run_e2e.py (pyenv/venv pythons).
    env["PATH"] = os.pathsep.join([os.path.dirname(os.path.realpath(blender)), env.get("PATH", "")])
    argv = [
        "xvfb-run", "-a", "-s", "-screen 0 1600x1000x24",
        blender, "--factory-startup", "--enable-event-simulate", "--window-geometry", "0", "0", "1600", "1000",
        "--python", os.path.join(HERE, "shot.py"), "--",
        "--zip", os.path.join(PACKAGE, "dist", "slmesh_blender.zip"),
        "--node", shutil.which("node") or "node",
        "--bin", os.path.join(REPO, "packages", "cli", "dist", "bin.js"),
        "--out", out,
    ]
    try:
        code = subprocess.call(argv, env=env, cwd=tmp, timeout=300)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if code == 0 and os.path.isfile(out):
        print(f"wrote {os.path.relpath(out, REPO)}")
    return code


if __name__ == "__main__":
    sys.exit(main())
