"""Jobs: sequences of slmesh runs, driven either synchronously or by polling (no threads).

A job is a generator that yields :class:`Run` requests and receives a :class:`RunResult` for
each; its ``return`` value is the job's result. Any Python work between runs (Blender's glTF
export, reading files) happens inside the generator, on the caller's thread, which for Blender
is the main thread. Two drivers:

* :func:`run_sync` runs every step to completion (scripts, background mode, tests);
* :class:`PolledJob` starts each run with ``subprocess.Popen`` and is advanced by :meth:`poll`
  from a modal operator's timer, so Blender never blocks; :meth:`cancel` stops it.

Output goes to temporary files, not pipes, so a large report can never fill a pipe and stall
the child while nobody reads it.

Pure Python (no ``bpy``).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Generator, Optional, Sequence

from .cli import SlmeshError, SlmeshNotFound, not_found_message


@dataclass(frozen=True)
class Run:
    """A request to run ``argv``; ``label`` is shown as progress ("Pricing the export...")."""

    argv: Sequence[str]
    label: str
    timeout: Optional[float] = None


@dataclass(frozen=True)
class RunResult:
    argv: Sequence[str]
    returncode: int
    stdout: str
    stderr: str


Job = Generator[Run, RunResult, Any]


class Cancelled(SlmeshError):
    """The user cancelled the job (Esc)."""


def _no_window_flags() -> int:
    return getattr(subprocess, "CREATE_NO_WINDOW", 0) if os.name == "nt" else 0


def _start_error(argv: Sequence[str], error: OSError) -> SlmeshError:
    """An OSError from starting ``argv`` as the creator-facing error."""
    if isinstance(error, FileNotFoundError):
        return SlmeshNotFound(not_found_message(f"cannot run {argv[0]}"))
    return SlmeshError(f"cannot run {argv[0]}: {error.strerror or error}")


def run_once(run: Run) -> RunResult:
    """Run ``run.argv`` to completion and capture its output (UTF-8, errors replaced).

    Raises :class:`SlmeshNotFound` when the program does not exist, :class:`SlmeshError` on
    timeout; a non-zero exit status is returned, not raised.
    """
    try:
        done = subprocess.run(
            list(run.argv),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=run.timeout,
            creationflags=_no_window_flags(),
        )
    except OSError as error:
        raise _start_error(run.argv, error) from None
    except subprocess.TimeoutExpired:
        raise SlmeshError(f"{run.label} took longer than {run.timeout:g} s and was stopped") from None
    return RunResult(
        run.argv,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def run_sync(job: Job, runner=run_once) -> Any:
    """Drive ``job`` to its end, running each step with ``runner``; returns the job's value.

    Exceptions raised by the job or the runner propagate unchanged.
    """
    try:
        request = next(job)
        while True:
            request = job.send(runner(request))
    except StopIteration as stop:
        return stop.value


class PolledJob:
    """Drive a job one non-blocking :meth:`poll` at a time.

    After :meth:`poll` returns True the job is over: :attr:`result` holds its value, or
    :attr:`error` the :class:`SlmeshError` (or other exception) that ended it. The job's Python
    steps run inside :meth:`start` and :meth:`poll`.
    """

    def __init__(self, job: Job, steps: int = 1) -> None:
        self.job = job
        self.steps = max(1, steps)
        self.step = 0
        self.label = "Starting"
        self.result: Any = None
        self.error: Optional[BaseException] = None
        self.done = False
        self.started_at = time.monotonic()
        self._proc: Optional[subprocess.Popen] = None
        self._run: Optional[Run] = None
        self._out = None
        self._err = None
        self._run_started = 0.0

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "PolledJob":
        """Run the job up to its first slmesh run and start that run."""
        self._advance(lambda: next(self.job))
        return self

    def poll(self) -> bool:
        """Check the running process; when it has ended, feed its result to the job. True when over."""
        if self.done:
            return True
        proc = self._proc
        if proc is None:
            return self.done
        if proc.poll() is None:
            run = self._run
            if run and run.timeout and time.monotonic() - self._run_started > run.timeout:
                self._kill()
                self._finish(error=SlmeshError(f"{run.label} took longer than {run.timeout:g} s and was stopped"))
                return True
            return False
        result = self._collect(proc.returncode)
        self._advance(lambda: self.job.send(result))
        return self.done

    def cancel(self) -> None:
        """Stop the running process and end the job with :class:`Cancelled`."""
        if self.done:
            return
        self._kill()
        try:
            self.job.close()
        except Exception:  # noqa: BLE001 - a job's cleanup must not hide the cancel
            pass
        self._finish(error=Cancelled("cancelled"))

    @property
    def fraction(self) -> float:
        """Progress in [0, 1]: finished steps over the job's announced steps."""
        return min(1.0, self.step / self.steps)

    # -- internals ---------------------------------------------------------------------------
    def _advance(self, step) -> None:
        try:
            request = step()
        except StopIteration as stop:
            self._finish(result=stop.value)
            return
        except BaseException as error:  # noqa: BLE001 - reported to the user, not raised in a timer
            self._finish(error=error)
            return
        self._spawn(request)

    def _spawn(self, request: Run) -> None:
        self._cleanup_files()
        self._run = request
        self.label = request.label
        self._out = tempfile.TemporaryFile()
        self._err = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                list(request.argv),
                stdin=subprocess.DEVNULL,
                stdout=self._out,
                stderr=self._err,
                creationflags=_no_window_flags(),
            )
        except OSError as error:
            self._proc = None
            try:
                self.job.throw(_start_error(request.argv, error))
            except StopIteration as stop:
                self._finish(result=stop.value)
            except BaseException as raised:  # noqa: BLE001
                self._finish(error=raised)
            else:  # the job caught the error and asked for another run: not supported
                self._finish(error=_start_error(request.argv, error))
            return
        self._run_started = time.monotonic()

    def _collect(self, returncode: int) -> RunResult:
        assert self._out is not None and self._err is not None and self._run is not None
        self._out.seek(0)
        self._err.seek(0)
        result = RunResult(
            self._run.argv,
            returncode,
            self._out.read().decode("utf-8", "replace"),
            self._err.read().decode("utf-8", "replace"),
        )
        self._proc = None
        self.step += 1
        self._cleanup_files()
        return result

    def _kill(self) -> None:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=2)
        self._proc = None

    def _cleanup_files(self) -> None:
        for handle in (self._out, self._err):
            if handle is not None:
                handle.close()
        self._out = self._err = None

    def _finish(self, result: Any = None, error: Optional[BaseException] = None) -> None:
        self._cleanup_files()
        self.result = result
        self.error = error
        self.done = True
        self.step = self.steps if error is None else self.step
