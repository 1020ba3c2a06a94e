/**
 * physics-worker.ts: buildPhysics in a worker thread. The worker runs from the built dist
 * (`pnpm build` first), as `slmesh optimize` runs it.
 */

import { buildPhysics, type SlObject } from '@slmesh/core';
import { describe, expect, it } from 'vitest';
import { PhysicsCancelledError, physicsWorkerStarts, progressLine, runPhysicsInWorker } from '../src/physics-worker.js';

/** An L of two boxes: two hulls. */
function lShape(): SlObject {
  const pos: number[] = [],
    idx: number[] = [];
  for (const [min, max] of [
    [
      [0, 0, 0],
      [2, 1, 1],
    ],
    [
      [0, 0, 0],
      [1, 3, 1],
    ],
  ]) {
    const base = pos.length / 3;
    for (let i = 0; i < 8; i++) pos.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
    for (const [a, b, c, d] of [
      [0, 4, 6, 2],
      [1, 3, 7, 5],
      [0, 1, 5, 4],
      [2, 6, 7, 3],
      [0, 2, 3, 1],
      [4, 5, 7, 6],
    ])
      idx.push(base + a, base + b, base + c, base + a, base + c, base + d);
  }
  return {
    name: 'L',
    lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(pos), indices: Uint32Array.from(idx) }] } },
  };
}

/** A slow decomposition in the worker, aborted at its first progress (which ends that worker). */
function cancelledBuild(): Promise<unknown> {
  const ac = new AbortController();
  return runPhysicsInWorker(
    lShape(),
    { mode: 'decompose', tolerance: 0.002, decompose: { maxCells: 8_000_000 } },
    { signal: ac.signal, onProgress: () => ac.abort(), handleSigint: false },
  );
}

describe('runPhysicsInWorker', () => {
  it('gives what buildPhysics gives in-process, with progress up to 1', async () => {
    const object = lShape();
    const options = { mode: 'decompose' as const, decompose: { maxCells: 100_000 } };
    const seen: number[] = [];
    const r = await runPhysicsInWorker(object, options, { onProgress: (f) => seen.push(f), handleSigint: false });
    const local = buildPhysics(object, options);
    expect(r.mode).toBe('decompose');
    expect(r.object.decomposition!.map((h) => Array.from(h))).toEqual(
      local.object.decomposition!.map((h) => Array.from(h)),
    );
    expect(r.weight).toBe(local.weight);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[seen.length - 1]).toBe(1);
  });

  it('one worker serves build after build, errors included; a cancelled build ends it', async () => {
    const hull = { mode: 'hull' as const };
    await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    const started = physicsWorkerStarts();
    const a = await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    // An error thrown by the build comes back and leaves the worker in service.
    await expect(
      runPhysicsInWorker({ name: 'no LODs' } as unknown as SlObject, hull, { handleSigint: false }),
    ).rejects.toMatchObject({ name: 'TypeError' });
    const b = await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    expect(physicsWorkerStarts()).toBe(started);
    expect(b.weight).toBe(a.weight);
    await expect(cancelledBuild()).rejects.toBeInstanceOf(PhysicsCancelledError);
    await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    expect(physicsWorkerStarts()).toBe(started + 1);
  });

  it('a big job without a decomposition does not keep its worker (its copy of the job would stay in that idle thread)', async () => {
    const hull = { mode: 'hull' as const };
    // A fresh worker, remembering no decomposition: a cancelled build ends the one there.
    await expect(cancelledBuild()).rejects.toBeInstanceOf(PhysicsCancelledError);
    await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    const started = physicsWorkerStarts();
    // A surface of 40 MB the hull does not read: only its size matters here.
    const surface = {
      faces: [{ material: 'M', positions: new Float32Array(10_000_000), indices: Uint32Array.of(0, 1, 2) }],
    };
    const big = await runPhysicsInWorker(lShape(), { ...hull, surface }, { handleSigint: false });
    expect(big.mode).toBe('hull');
    expect(physicsWorkerStarts()).toBe(started);
    await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    expect(physicsWorkerStarts()).toBe(started + 1);
    await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    expect(physicsWorkerStarts()).toBe(started + 1);
    // A worker that remembers a decomposition (for a later build of the same surface) is kept.
    const cut = await runPhysicsInWorker(lShape(), { mode: 'decompose' }, { handleSigint: false });
    expect(cut.mode).toBe('decompose');
    await runPhysicsInWorker(lShape(), { ...hull, surface }, { handleSigint: false });
    await runPhysicsInWorker(lShape(), hull, { handleSigint: false });
    expect(physicsWorkerStarts()).toBe(started + 1);
  });

  it('an abort terminates the worker and rejects with PhysicsCancelledError', async () => {
    await expect(cancelledBuild()).rejects.toBeInstanceOf(PhysicsCancelledError);
    const pre = new AbortController();
    pre.abort();
    await expect(runPhysicsInWorker(lShape(), { mode: 'hull' }, { signal: pre.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('Ctrl-C (SIGINT) while it runs cancels it and removes its handler afterwards', async () => {
    const before = process.listenerCount('SIGINT');
    const p = runPhysicsInWorker(
      lShape(),
      { mode: 'decompose', tolerance: 0.002, decompose: { maxCells: 8_000_000 } },
      { onProgress: () => process.emit('SIGINT') },
    );
    await expect(p).rejects.toMatchObject({ reason: 'SIGINT' });
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('refuses options carrying a function (they cannot cross to a thread)', async () => {
    await expect(
      runPhysicsInWorker(lShape(), { mode: 'mesh', mesh: { simplify: (_p, i) => i } }),
    ).rejects.toMatchObject({ code: 'USAGE' });
  });
});

describe('progressLine', () => {
  it('draws on a TTY, once per whole percent, and clears; nothing elsewhere', () => {
    const out: string[] = [];
    const line = progressLine('decomposing Chair', { isTTY: true, write: (s: string) => out.push(s) });
    line.update(0.1);
    line.update(0.101);
    line.update(0.5);
    line.done();
    expect(out).toEqual(['\rdecomposing Chair 10%\x1b[K', '\rdecomposing Chair 50%\x1b[K', '\r\x1b[K']);
    const quiet: string[] = [];
    const pipe = progressLine('x', { isTTY: false, write: (s: string) => quiet.push(s) });
    pipe.update(0.3);
    pipe.done();
    expect(quiet).toEqual([]);
  });
});
