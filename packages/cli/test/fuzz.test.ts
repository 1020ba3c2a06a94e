/**
 * A bounded fuzz run in CI (seeded, so reproducible), plus every input that once failed.
 * `pnpm fuzz --cases N` runs longer. The runs happen in a child process so this test's own
 * event loop stays free while dozens of slmesh commands run.
 */

import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const run = promisify(execFile);
const CASES = Number(process.env.SLMESH_FUZZ_CASES ?? 40);

async function fuzzRun(args: string[]): Promise<{ code: number; problems: string[] }> {
  try {
    const { stdout } = await run(process.execPath, [join(root, 'fuzz/run.mjs'), ...args], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, problems: stdout.split('\n').filter(Boolean) };
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    return { code: err.code ?? -1, problems: (err.stdout ?? '').split('\n').filter(Boolean) };
  }
}

describe('fuzz', () => {
  it(`${CASES} seeded mutations of the test assets end in success or a clean error`, async () => {
    const r = await fuzzRun(['--cases', String(CASES), '--seed', '20261121', '--no-keep']);
    expect(r.problems).toEqual([]);
    expect(r.code).toBe(0);
  }, 900_000);

  it('every input that once failed (test-assets/fuzz-regressions) now ends cleanly', async () => {
    const r = await fuzzRun(['--replay']);
    expect(r.problems).toEqual([]);
    expect(r.code).toBe(0);
  }, 300_000);
});
