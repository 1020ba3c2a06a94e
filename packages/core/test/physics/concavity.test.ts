import { describe, expect, it } from 'vitest';
import { forEachProbe, hullAir, hullConcavity, hullProbes, partHull } from '../../src/physics/concavity.js';
import { buildSolidField } from '../../src/physics/solid-field.js';
import { box, boxes } from './physics-fixtures.js';

describe('partHull', () => {
  it('is exact for solid point sets and thickened for flat ones', () => {
    const b = box([0, 0, 0], [1, 2, 3]);
    const h = partHull(b.positions, 0.01)!;
    expect(h.volume).toBeCloseTo(6, 9);
    expect(h.thickened).toBe(false);
    const flat = partHull(Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0), 0.01)!;
    expect(flat.thickened).toBe(true);
    expect(flat.volume).toBeCloseTo(0.01, 6);
    const rod = partHull(Float64Array.of(0, 0, 0, 1, 1, 1, 2, 2, 2), 0.01)!;
    expect(rod.thickened).toBe(true);
    expect(rod.volume).toBeGreaterThan(0);
    expect(partHull(new Float64Array(0), 0.01)).toBeUndefined();
  });
});

describe('hullProbes', () => {
  it('covers every face at the spacing asked, and coarsens to stay near maxProbes', () => {
    const h = partHull(box([0, 0, 0], [1, 1, 1]).positions, 0.01)!;
    const fine = hullProbes(h, 0.1, 1e6);
    // About 6 faces x 11 x 11 points (shared edges counted per triangle).
    expect(fine.length / 3).toBeGreaterThan(6 * 100);
    for (let i = 0; i < fine.length; i += 3)
      for (let k = 0; k < 3; k++) expect(fine[i + k]).toBeGreaterThanOrEqual(-1e-12);
    const coarse = hullProbes(h, 0.01, 500);
    expect(coarse.length / 3).toBeLessThan(2000);
    let n = 0;
    forEachProbe(h, 0.1, 1e6, () => ++n >= 10);
    expect(n).toBe(10);
  });
});

describe('hullConcavity and hullAir', () => {
  const u = boxes([
    [
      [0, 0, 0],
      [0.2, 1, 1],
    ],
    [
      [0.8, 0, 0],
      [1, 1, 1],
    ],
    [
      [0, 0, 0],
      [1, 0.2, 1],
    ],
  ]);
  const field = buildSolidField(u.positions, u.indices, { cell: 0.02 });

  it('a U-shaped solid: the hull over the gap reaches far (0.3 m at the middle of the 0.6 m gap)', () => {
    const h = partHull(u.positions, 0.01)!;
    const c = hullConcavity(h, field, 0.02, 20000);
    expect(c.value).toBeGreaterThan(0.25);
    expect(c.value).toBeLessThan(0.35);
    expect(c.worst[1]).toBeGreaterThan(0.5); // found over the gap
    // The gap is 0.6 x 0.8 x 1 = 0.48 m^3 of air.
    expect(hullAir(h, field, 20000)).toBeCloseTo(0.48, 1);
  });

  it('one arm alone fits: no reach, no air; stopAbove ends early with a lower bound', () => {
    const arm = partHull(box([0, 0, 0], [0.2, 1, 1]).positions, 0.01)!;
    expect(hullConcavity(arm, field, 0.02, 20000).value).toBeLessThan(0.01);
    expect(hullAir(arm, field)).toBeLessThan(0.002);
    const h = partHull(u.positions, 0.01)!;
    const early = hullConcavity(h, field, 0.02, 20000, 0.05);
    expect(early.value).toBeGreaterThan(0.05);
  });
});
