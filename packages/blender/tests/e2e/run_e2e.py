"""Run the Blender end-to-end test (blender_e2e.py) in a fresh, headless Blender.

    python3 packages/blender/tests/e2e/run_e2e.py [--blender blender] [--keep] [--ui]

Uses temporary BLENDER_USER_CONFIG / BLENDER_USER_SCRIPTS folders, so the user's own Blender
setup is neither used nor changed, and the built zip (run `pnpm build` first) and CLI
(packages/cli/dist/bin.js). Exit status: Blender's (0 when every check passed); 3 when a
prerequisite is missing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.dirname(HERE))
REPO = os.path.dirname(os.path.dirname(PACKAGE))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blender", default=os.environ.get("BLENDER", "blender"))
    parser.add_argument("--node", default=shutil.which("node") or "node")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--ui", action="store_true", help="run blender_ui.py in a window under xvfb-run instead (Esc cancel, auto re-price)")
    opts = parser.parse_args()
    sys.path.insert(0, PACKAGE)
    import build  # the add-on's zip, rebuilt when its sources changed since (vitest without pnpm build)

    if build.stale():
        build.build()
    zip_path = build.OUTPUT
    bin_js = os.path.join(REPO, "packages", "cli", "dist", "bin.js")
    for path, hint in ((bin_js, "pnpm build"),):
        if not os.path.isfile(path):
            print(f"missing {path}: run {hint}", file=sys.stderr)
            return 3
    if not shutil.which(opts.blender):
        print(f"no {opts.blender}: apt-get install -y blender python3-numpy", file=sys.stderr)
        return 3
    tmp = tempfile.mkdtemp(prefix="slmesh-blender-e2e-")
    env = dict(os.environ)
    env["BLENDER_USER_CONFIG"] = os.path.join(tmp, "config")
    env["BLENDER_USER_SCRIPTS"] = os.path.join(tmp, "scripts")
    env["SLMESH_NO_BROWSER"] = "1"
    # A system Blender (Debian's) finds its Python's prefix through PATH: with a pyenv or venv
    # python first on PATH it loses /usr/lib/python3/dist-packages (numpy, which its glTF
    # exporter needs). Blender's own folder goes first.
    blender_dir = os.path.dirname(os.path.realpath(shutil.which(opts.blender) or opts.blender))
    env["PATH"] = os.pathsep.join([blender_dir, env.get("PATH", "")])
    if opts.ui:
        prefix = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", opts.blender, "--factory-startup", "--enable-event-simulate"]
        script = "blender_ui.py"
    else:
        prefix = [opts.blender, "-b", "--factory-startup", "--python-exit-code", "1"]
        script = "blender_e2e.py"
    argv = [
        *prefix,
        "--python", os.path.join(HERE, script), "--",
        "--zip", zip_path, "--node", opts.node, "--bin", bin_js, "--out", os.path.join(tmp, "out"),
    ]
    started = time.monotonic()
    try:
        code = subprocess.call(argv, env=env, cwd=tmp)
    finally:
        if not opts.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}")
    print(f"blender e2e: exit {code} in {time.monotonic() - started:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
