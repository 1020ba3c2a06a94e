/**
 * check/pool.ts and check/worker.ts: the worker_threads pool. The real worker runs from the
 * built dist (`pnpm build` first), as `slmesh check` runs it.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRICING_DEFAULTS } from '../src/check/budget.js';
import { runPool } from '../src/check/pool.js';
import { priceAsset, type PriceResult, type PriceTask } from '../src/check/price-asset.js';
import { asset, root } from './check-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'slmesh-pool-'));
/** A worker that answers n * 2 after a delay that makes later tasks finish first. */
const echo = join(dir, 'echo.mjs');
writeFileSync(
  echo,
  `import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', ({ id, task }) => setTimeout(() => parentPort.postMessage({ id, result: { n: task * 2, thread: threadId } }), (10 - (task % 10)) * 3));`,
);
const crash = join(dir, 'crash.mjs');
writeFileSync(
  crash,
  `import { parentPort } from 'node:worker_threads';
parentPort.on('message', () => { throw new Error('boom'); });`,
);

describe('runPool', () => {
  it('returns results in task order, whichever worker finishes first, using several threads', async () => {
    const tasks = Array.from({ length: 40 }, (_, i) => i);
    const seen: number[] = [];
    const results = await runPool<number, { n: number; thread: number }>(tasks, {
      jobs: 3,
      workerUrl: pathToFileURL(echo),
      inProcess: async () => {
        throw new Error('should use workers');
      },
      onResult: (i) => void seen.push(i),
    });
    expect(results.map((r) => r.n)).toEqual(tasks.map((t) => t * 2));
    expect(new Set(results.map((r) => r.thread)).size).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual(tasks);
  });

  it('runs in this thread for one job or one task, and does nothing for none', async () => {
    const inProcess = async (t: number) => ({ n: t + 1, thread: 0 });
    expect((await runPool([1, 2, 3], { jobs: 1, workerUrl: pathToFileURL(crash), inProcess })).map((r) => r.n)).toEqual(
      [2, 3, 4],
    );
    expect((await runPool([7], { jobs: 8, workerUrl: pathToFileURL(crash), inProcess })).map((r) => r.n)).toEqual([8]);
    expect(await runPool([], { jobs: 8, workerUrl: pathToFileURL(crash), inProcess })).toEqual([]);
  });

  it('fails the run when a worker crashes', async () => {
    await expect(
      runPool([1, 2, 3], { jobs: 2, workerUrl: pathToFileURL(crash), inProcess: async () => 0 }),
    ).rejects.toThrow(/a check worker failed: boom/);
  });

  it('the built worker prices assets exactly as this thread does', async () => {
    const tasks: PriceTask[] = ['cube.glb', 'chair.glb', 'vase.glb', 'broken/bad-json.glb'].map((f) => ({
      path: asset(f),
      pricing: PRICING_DEFAULTS,
      sizes: [2],
    }));
    const viaWorkers = await runPool<PriceTask, PriceResult>(tasks, {
      jobs: 2,
      workerUrl: pathToFileURL(join(root, 'packages/cli/dist/check/worker.js')),
      inProcess: priceAsset,
    });
    const here = await Promise.all(tasks.map(priceAsset));
    expect(viaWorkers).toEqual(here);
    expect('error' in viaWorkers[3]).toBe(true);
  });
});
