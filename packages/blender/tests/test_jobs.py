import sys
import time
import unittest

from slmesh_blender.cli import SlmeshError, SlmeshNotFound
from slmesh_blender.jobs import Cancelled, PolledJob, Run, RunResult, run_once, run_sync

PY = sys.executable


def two_step_job(log: list):
    """Runs python twice, the second time with the first run's output."""
    try:
        first = yield Run([PY, "-c", "print('hello')"], "first")
        second = yield Run([PY, "-c", f"import sys; print({first.stdout.strip()!r} + ' world'); sys.exit(3)"], "second")
        return second
    finally:
        log.append("cleaned up")


def drive(polled: PolledJob, timeout: float = 30.0) -> PolledJob:
    deadline = time.monotonic() + timeout
    while not polled.poll():
        if time.monotonic() > deadline:
            raise AssertionError("job did not finish")
        time.sleep(0.01)
    return polled


class SyncTest(unittest.TestCase):
    def test_runs_steps_in_order(self):
        log: list = []
        result = run_sync(two_step_job(log))
        self.assertEqual(result.stdout.strip(), "hello world")
        self.assertEqual(result.returncode, 3)
        self.assertEqual(log, ["cleaned up"])

    def test_missing_program_is_slmesh_not_found(self):
        with self.assertRaises(SlmeshNotFound) as caught:
            run_once(Run(["/no/such/slmesh", "--version"], "version"))
        self.assertIn("slmesh not found", str(caught.exception))

    def test_timeout(self):
        with self.assertRaises(SlmeshError):
            run_once(Run([PY, "-c", "import time; time.sleep(5)"], "sleep", timeout=0.3))


class PolledTest(unittest.TestCase):
    def test_same_result_as_sync_with_progress(self):
        log: list = []
        polled = PolledJob(two_step_job(log), steps=2).start()
        self.assertFalse(polled.done)
        self.assertEqual(polled.label, "first")
        drive(polled)
        self.assertIsNone(polled.error)
        self.assertEqual(polled.result.stdout.strip(), "hello world")
        self.assertEqual(polled.fraction, 1.0)
        self.assertEqual(log, ["cleaned up"])

    def test_large_output_does_not_stall(self):
        def job():
            result = yield Run([PY, "-c", "import sys; sys.stdout.write('x' * 3_000_000)"], "big")
            return len(result.stdout)

        self.assertEqual(drive(PolledJob(job()).start()).result, 3_000_000)

    def test_cancel_stops_the_process_and_cleans_up(self):
        log: list = []

        def job():
            try:
                yield Run([PY, "-c", "import time; time.sleep(30)"], "sleeping")
                log.append("not reached")
            finally:
                log.append("cleaned up")

        polled = PolledJob(job()).start()
        started = time.monotonic()
        self.assertFalse(polled.poll())
        polled.cancel()
        self.assertTrue(polled.done)
        self.assertIsInstance(polled.error, Cancelled)
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(log, ["cleaned up"])

    def test_job_errors_end_the_job(self):
        def job():
            yield Run([PY, "-c", "pass"], "ok")
            raise SlmeshError("bad report")

        polled = drive(PolledJob(job()).start())
        self.assertIsInstance(polled.error, SlmeshError)
        self.assertEqual(str(polled.error), "bad report")

    def test_missing_program(self):
        log: list = []

        def job():
            try:
                yield Run(["/no/such/slmesh"], "x")
            finally:
                log.append("cleaned up")

        polled = PolledJob(job()).start()
        self.assertTrue(polled.done)
        self.assertIsInstance(polled.error, SlmeshNotFound)
        self.assertEqual(log, ["cleaned up"])

    def test_a_job_without_runs_finishes_at_start(self):
        def job():
            return "value"
            yield  # noqa: unreachable - makes this a generator

        polled = PolledJob(job()).start()
        self.assertTrue(polled.done)
        self.assertEqual(polled.result, "value")

    def test_run_timeout(self):
        def job():
            yield Run([PY, "-c", "import time; time.sleep(30)"], "slow", timeout=0.2)

        polled = drive(PolledJob(job()).start())
        self.assertIsInstance(polled.error, SlmeshError)
        self.assertIn("took longer", str(polled.error))


if __name__ == "__main__":
    unittest.main()
