/**
 * --watch: a burst of writes to the model or a sibling file re-runs once; other files in the
 * folder (the page itself, unrelated models) do not.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchedNames, watchModel, type ModelWatcher } from '../../src/preview/watch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `cond` holds (polling), or fails after `ms`. */
async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}
let watcher: ModelWatcher | undefined;
afterEach(() => {
  watcher?.close();
  watcher = undefined;
});

describe('watchModel', () => {
  it('names the model, its sibling files and their .bin buffers', () => {
    const names = watchedNames('/x/chair.glb');
    for (const n of [
      'chair.glb',
      'chair_LOD2.glb',
      'chair_LOD1.glb',
      'chair_LOD0.glb',
      'chair_PHYS.glb',
      'chair.bin',
      'chair_LOD2.bin',
      'chair_PHYS.gltf',
    ])
      expect(names).toContain(n);
    expect(names).not.toContain('chair.preview.html');
    expect(names).not.toContain('table.glb');
  });

  it('runs once after a burst of writes to the model, and again for a sibling', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-watch-'));
    const model = join(dir, 'chair.glb');
    writeFileSync(model, 'a');
    let runs = 0;
    watcher = watchModel(model, () => void runs++, { debounceMs: 100 });
    for (let i = 0; i < 5; i++) writeFileSync(model, `b${i}`);
    await until(() => runs >= 1);
    await sleep(400);
    expect(runs).toBe(1);
    writeFileSync(join(dir, 'chair_LOD1.glb'), 'c');
    await until(() => runs >= 2);
    writeFileSync(join(dir, 'table.glb'), 'd');
    writeFileSync(join(dir, 'chair.preview.html'), 'e');
    await sleep(400);
    expect(runs).toBe(2);
  });

  it('never runs twice at once: a change during a run queues one more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-watch-'));
    const model = join(dir, 'vase.glb');
    writeFileSync(model, 'a');
    let active = 0,
      most = 0,
      runs = 0;
    watcher = watchModel(
      model,
      async () => {
        active++;
        most = Math.max(most, active);
        runs++;
        await sleep(600);
        active--;
      },
      { debounceMs: 50 },
    );
    writeFileSync(model, 'b');
    await until(() => active === 1);
    writeFileSync(model, 'c');
    await until(() => runs === 2 && active === 0);
    await sleep(200);
    expect(most).toBe(1);
    expect(runs).toBe(2);
  });
});
