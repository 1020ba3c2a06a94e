/**
 * A bounded fuzz run in CI (seeded, so reproducible), plus every input that once failed.
 * `pnpm fuzz --cases N` runs longer.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS harness
import { fuzz, root, runCase } from '../../../fuzz/harness.mjs';

const CASES = Number(process.env.SLMESH_FUZZ_CASES ?? 40);

describe('fuzz', () => {
  it(`${CASES} seeded mutations of the test assets end in success or a clean error`, () => {
    const failures: string[] = fuzz({ count: CASES, seed: 20261121 });
    expect(failures).toEqual([]);
  }, 600_000);

  const dir = join(root, 'test-assets/fuzz-regressions');
  for (const f of readdirSync(dir).filter((x: string) => x.endsWith('.glb'))) {
    it(`regression ${f} ends cleanly`, () => {
      expect(runCase(new Uint8Array(readFileSync(join(dir, f))), f)).toEqual([]);
    }, 120_000);
  }
});
