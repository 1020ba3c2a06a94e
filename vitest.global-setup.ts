// Before any test file runs: build what is stale, so tests that spawn the built `slmesh` (CLI
// end-to-end tests) run the code as it is now, even after an edit without `pnpm build`.
// Every test, and every process a test starts (the CLI, Blender, Chromium), writes its temporary
// files under one folder of this run (TMPDIR, which Node's os.tmpdir(), Python's tempfile and
// Chromium read), removed when the run ends: a run leaves nothing in the system's temp folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  const script = fileURLToPath(new URL('./scripts/build-if-stale.mjs', import.meta.url));
  execFileSync(process.execPath, [script], { stdio: 'inherit' });
  const previous = process.env.TMPDIR;
  const runDir = mkdtempSync(join(tmpdir(), 'slmesh-test-run-'));
  process.env.TMPDIR = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(runDir, { recursive: true, force: true });
  };
}
