// The add-on's UI path in a real Blender window under Xvfb (tests/e2e/blender_ui.py): a run
// invoked from the UI is modal (Blender keeps going), shows progress, stops on Esc without
// writing anything, and "Re-price after edits" prices again after an object moves.
// Its own file so vitest runs it beside the headless e2e test, not after it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const pkg = fileURLToPath(new URL('..', import.meta.url));
const onPath = (command: string) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
const ready = onPath('blender') && onPath('xvfb-run');

it.skipIf(!ready)(
  ready
    ? 'Blender UI under Xvfb: modal run with progress, Esc cancels, re-price after edits'
    : 'Blender UI under Xvfb: SKIPPED, needs `blender` and `xvfb-run` (apt-get install -y blender python3-numpy xvfb xauth; .ci/run does)',
  async () => {
    let output = '';
    let code = 0;
    try {
      const r = await run('python3', ['tests/e2e/run_e2e.py', '--ui'], {
        cwd: pkg,
        timeout: 170_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      output = r.stdout + r.stderr;
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string; message: string };
      code = typeof e.code === 'number' ? e.code : -1;
      output = `${e.stdout ?? ''}${e.stderr ?? ''}\n${e.message}`;
    }
    expect(code, output).toBe(0);
    expect(output).toContain('all checks passed');
  },
  180_000,
);
