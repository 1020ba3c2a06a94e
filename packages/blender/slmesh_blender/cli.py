"""How to run the ``slmesh`` command, and the argument lists of its subcommands.

Pure Python (no ``bpy``): the add-on's preferences are turned into a :class:`CliConfig`, and
everything here only builds lists of strings or reads command output, so it is unit-tested
without Blender.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

#: How the user installs the command; quoted in the "not found" message.
INSTALL_HINT = (
    "install it with `npm install -g @slmesh/cli` (or build the slmesh repository and choose "
    "'Node + bin.js')"
)
PREFS_HINT = "set the path in Preferences > Add-ons > slmesh"

MODE_PATH = "PATH"
MODE_EXECUTABLE = "EXECUTABLE"
MODE_NODE = "NODE"
MODES = (MODE_PATH, MODE_EXECUTABLE, MODE_NODE)

PHYSICS_MODES = ("auto", "hull", "decompose", "mesh", "none")


class SlmeshError(Exception):
    """A failure worded for the creator: the message is shown as is, never a traceback."""


class SlmeshNotFound(SlmeshError):
    """The configured slmesh command does not exist."""


def not_found_message(detail: str) -> str:
    """The one message shown whenever slmesh cannot be started; ``detail`` says what was tried."""
    return f"slmesh not found ({detail}): {INSTALL_HINT}, or {PREFS_HINT}"


@dataclass(frozen=True)
class CliConfig:
    """Where the slmesh command is, as set in the add-on preferences.

    ``mode`` is ``PATH`` (the ``slmesh`` command found on PATH), ``EXECUTABLE`` (``executable``
    is the path of the slmesh command) or ``NODE`` (``node`` runs ``script``, the CLI's bin.js).
    """

    mode: str = MODE_PATH
    executable: str = ""
    node: str = "node"
    script: str = ""
    extra_path: Sequence[str] = field(default_factory=tuple)

    def key(self) -> tuple:
        """A hashable identity, to cache facts about this command (its --help)."""
        return (self.mode, self.executable, self.node, self.script)


def _which(name: str, extra_path: Iterable[str] = ()) -> Optional[str]:
    """``shutil.which`` on PATH plus ``extra_path`` (GUI launches often lack the shell's PATH)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *extra_path])
    return shutil.which(name, path=path)


#: Where npm and package managers put global commands, searched after PATH.
COMMON_BIN_DIRS = (
    os.path.expanduser("~/.npm-global/bin"),
    os.path.expanduser("~/.local/bin"),
    "/usr/local/bin",
    "/opt/homebrew/bin",
    os.path.join(os.environ.get("APPDATA", ""), "npm") if os.name == "nt" else "/usr/bin",
)


def base_argv(config: CliConfig) -> list[str]:
    """The argv prefix that starts slmesh (``[slmesh]`` or ``[node, bin.js]``).

    Guarantees every returned path exists and is a file; otherwise raises
    :class:`SlmeshNotFound` with :func:`not_found_message`.
    """
    mode = config.mode if config.mode in MODES else MODE_PATH
    extra = tuple(config.extra_path) or COMMON_BIN_DIRS
    if mode == MODE_PATH:
        found = _which("slmesh", extra)
        if not found:
            raise SlmeshNotFound(not_found_message("no `slmesh` command on PATH"))
        return [found]
    if mode == MODE_EXECUTABLE:
        path = os.path.expanduser(config.executable.strip())
        if not path:
            raise SlmeshNotFound(not_found_message("the slmesh path is empty"))
        if not os.path.isfile(path):
            found = _which(path, extra)
            if not found:
                raise SlmeshNotFound(not_found_message(f"no file {path}"))
            path = found
        return [path]
    node = os.path.expanduser(config.node.strip() or "node")
    node_found = node if os.path.isfile(node) else _which(node, extra)
    if not node_found:
        raise SlmeshNotFound(not_found_message(f"node not found: {node}"))
    script = os.path.expanduser(config.script.strip())
    if not script or not os.path.isfile(script):
        raise SlmeshNotFound(not_found_message(f"no bin.js at {script or '(empty path)'}"))
    return [node_found, script]


def fmt_number(value: float) -> str:
    """A number as the CLI parses it: no exponent, no trailing zeros (``2``, ``1.125``)."""
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def version_argv(base: Sequence[str]) -> list[str]:
    return [*base, "--version"]


def help_argv(base: Sequence[str], command: str) -> list[str]:
    return [*base, command, "--help"]


def cost_argv(base: Sequence[str], model: str, lod_factor: float = 2.0) -> list[str]:
    """``slmesh cost --json`` of one model at a RenderVolumeLODFactor."""
    return [*base, "cost", "--json", "--lod-factor", fmt_number(lod_factor), model]


def preview_argv(base: Sequence[str], model: str, page: str, lod_factor: float = 2.0) -> list[str]:
    """``slmesh preview`` writing the self-contained page ``page``."""
    return [*base, "preview", model, "-o", page, "--lod-factor", fmt_number(lod_factor)]


_OPTION_RE = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


_ENTRY_RE = re.compile(r"^\s{1,8}(-\w, )?(--[a-z][a-z0-9-]*)")


def parse_help_options(help_text: str) -> frozenset[str]:
    """The long options (``--split``, ``--target-li`` ...) a command's ``--help`` lists, less
    those it calls deprecated (``--split`` once sibling files became the only layout).

    Each option's entry is its line in the Options list plus the more indented lines under it.
    """
    options: dict[str, str] = {}
    current = None
    for line in help_text.splitlines():
        match = _ENTRY_RE.match(line)
        if match:
            current = match.group(2)
            options[current] = line[match.end():]
        elif current and line.startswith(" " * 10):
            options[current] += " " + line.strip()
        else:
            current = None
    if not options:  # not commander's layout: any option named anywhere
        return frozenset(_OPTION_RE.findall(help_text))
    return frozenset(o for o, text in options.items() if "deprecated" not in text.lower())


@dataclass(frozen=True)
class OptimizeOptions:
    """The panel's export options. ``target_li`` <= 0 means no target."""

    lod_factor: float = 2.0
    physics: str = "auto"
    target_li: float = 0.0
    max_error_px: float = 1.0
    keep_lods: bool = False
    keep_high: bool = False
    keep_precision: bool = False
    merge_objects: bool = False


@dataclass(frozen=True)
class OptimizePlan:
    """The optimize argv, and what it will write or could not honour."""

    argv: list[str]
    report_path: Optional[str]
    split: bool
    notes: tuple[str, ...] = ()


def optimize_argv(
    base: Sequence[str],
    model: str,
    output: str,
    options: OptimizeOptions,
    supported: frozenset[str],
    report_path: Optional[str] = None,
) -> OptimizePlan:
    """``slmesh optimize`` writing uploader-ready sibling files next to ``output``.

    ``supported`` is :func:`parse_help_options` of ``optimize --help``: ``--split`` is passed
    when the CLI has it (older CLIs write one file by default; newer ones write siblings by
    default), ``--report``, ``--target-li``, ``--max-error-px``, ``--keep-lods`` and
    ``--merge-objects`` only when listed; with joining off, ``--no-merge-objects`` when listed (a CLI
    that has it joins more prims than a linkset holds by default). An option the CLI lacks is left
    out and named in ``notes``.
    """
    argv = [*base, "optimize", model, "-o", output]
    notes: list[str] = []

    def want(flag: str, *values: str, label: str) -> None:
        if flag in supported:
            argv.extend([flag, *values])
        else:
            notes.append(f"this slmesh has no {flag}: {label} ignored")

    split = "--split" in supported
    if split:
        argv.append("--split")
    want("--lod-factor", fmt_number(options.lod_factor), label="LOD factor")
    physics = options.physics.lower()
    if physics not in PHYSICS_MODES:
        raise SlmeshError(f"unknown physics mode {options.physics!r} (one of {', '.join(PHYSICS_MODES)})")
    want("--physics", physics, label="physics mode")
    if options.target_li > 0:
        want("--target-li", fmt_number(options.target_li), label="target land impact")
    if abs(options.max_error_px - 1.0) > 1e-9:
        want("--max-error-px", fmt_number(options.max_error_px), label="largest error")
    if options.keep_lods:
        want("--keep-lods", label="keep authored LODs")
    if options.keep_high and "--keep-high" in supported:
        argv.append("--keep-high")  # older CLIs never touch the high LOD: nothing to note
    if options.keep_precision and "--keep-precision" in supported:
        argv.append("--keep-precision")  # older CLIs never move vertices: nothing to note
    if options.merge_objects:
        want("--merge-objects", label="joining objects")
    elif "--no-merge-objects" in supported:
        # 'Join objects' off keeps the objects apart (the round trip pairs them by name), also
        # where the CLI would join them by default (more prims than a linkset holds).
        argv.append("--no-merge-objects")
    used_report = None
    if report_path and "--report" in supported:
        argv.extend(["--report", report_path])
        used_report = report_path
    return OptimizePlan(argv=argv, report_path=used_report, split=split, notes=tuple(notes))


def last_line(text: str) -> str:
    """The last non-empty line of command output, without the ``slmesh:`` prefix."""
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line:
            return line[len("slmesh:"):].strip() if line.startswith("slmesh:") else line
    return ""


def failure_message(what: str, returncode: int, stderr: str, stdout: str = "") -> str:
    """One line for a failed run: what was being done and the CLI's own last error line."""
    detail = last_line(stderr) or last_line(stdout) or f"exit status {returncode}"
    return f"{what} failed: {detail}"
