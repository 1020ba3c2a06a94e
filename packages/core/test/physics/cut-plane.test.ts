import { describe, expect, it } from 'vitest';
import { checkAbort, chooseCut, cutScore } from '../../src/physics/cut-plane.js';
import { weldMesh } from '../../src/geometry/weld-mesh.js';
import { boxes, torus } from './physics-fixtures.js';

describe('chooseCut', () => {
  it('cuts an L exactly at its inner corner (snapped to the model coordinates)', () => {
    const l = weldMesh(
      boxes([
        [
          [0, 0, 0],
          [2, 1, 1],
        ],
        [
          [0, 0, 0],
          [1, 3, 1],
        ],
      ]).positions,
      boxes([
        [
          [0, 0, 0],
          [2, 1, 1],
        ],
        [
          [0, 0, 0],
          [1, 3, 1],
        ],
      ]).indices,
      1e-9,
    );
    const cut = chooseCut(l, { area: 20, worst: [1.5, 1.5, 0.5], eps: 1e-9, minGain: 0.05, minSide: 0.05 })!;
    // Either x = 1 or y = 1 leaves two boxes.
    const onX = cut.n[0] === 1 && Math.abs(cut.d - 1) < 1e-9;
    const onY = cut.n[1] === 1 && Math.abs(cut.d - 1) < 1e-9;
    expect(onX || onY).toBe(true);
    expect(cutScore(l, cut.n, cut.d, 1e-9)).toBeCloseTo(4, 6); // the solid's own volume: no air left
  });

  it('a ring gains nothing from any single cut: it is cut through the worst probe, evenly', () => {
    const t = torus(1, 0.25, 24, 8);
    const cut = chooseCut(t, { area: 10, worst: [0, 0, 0.25], eps: 1e-9, minGain: 0.1, minSide: 0.05 })!;
    expect(Math.abs(cut.d)).toBeLessThan(1e-9); // through the middle of the hole
    expect(Math.abs(cut.n[2])).toBeLessThan(1e-9); // across the ring, not slicing its top off
  });
});

describe('checkAbort', () => {
  it('throws the abort reason, and nothing without a signal', () => {
    expect(() => checkAbort(undefined)).not.toThrow();
    const ac = new AbortController();
    expect(() => checkAbort(ac.signal)).not.toThrow();
    ac.abort(new Error('stop'));
    expect(() => checkAbort(ac.signal)).toThrow('stop');
  });
});
