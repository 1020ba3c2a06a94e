// The Blender add-on's tests, in the repository's one test command: the pure-Python unit tests
// (python3 -m unittest, no Blender needed) and the end-to-end test in a headless Blender
// (tests/e2e/run_e2e.py: installs dist/slmesh_blender.zip into a fresh Blender, prices and
// exports a scene with the built CLI). `pnpm test` builds the zip and the CLI first.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const pkg = fileURLToPath(new URL('..', import.meta.url));

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

const hasBlender = onPath('blender');

/** Runs a command (asynchronously: a long blocking spawn would starve vitest's worker RPC). */
async function python(args: string[], timeout: number): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('python3', args, { cwd: pkg, timeout, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      output: `${e.stdout ?? ''}${e.stderr ?? ''}\n${e.message}`,
    };
  }
}

describe('Blender add-on (packages/blender)', () => {
  it('pure-Python unit tests pass (python3 -m unittest)', async () => {
    const { code, output } = await python(['-m', 'unittest'], 60_000);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Ran \d+ tests/);
  }, 90_000);

  it.skipIf(!hasBlender)(
    hasBlender
      ? 'end-to-end in headless Blender: install the zip, price, export, LODs back, preview, missing slmesh'
      : 'end-to-end in headless Blender: SKIPPED, `blender` is not installed (apt-get install -y blender python3-numpy; .ci/run does)',
    async () => {
      const { code, output } = await python(['tests/e2e/run_e2e.py'], 115_000);
      expect(code, output).toBe(0);
      expect(output).toContain('all checks passed');
      expect(output).not.toContain('FAIL:');
    },
    120_000,
  );
});
