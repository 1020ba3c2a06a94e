import { describe, expect, it } from 'vitest';
import { buildSolidField, distanceToTriangleSquared, outsideDistance } from '../../src/physics/solid-field.js';
import { box, sphere } from './physics-fixtures.js';

describe('buildSolidField', () => {
  it('is zero inside a box and the exact distance near its faces and beyond', () => {
    const m = box([0, 0, 0], [1, 1, 1]);
    const f = buildSolidField(m.positions, m.indices, { cell: 0.05 });
    expect(outsideDistance(f, 0.5, 0.5, 0.5)).toBe(0);
    expect(outsideDistance(f, 0.5, 0.5, 1.0)).toBeLessThan(0.01);
    expect(outsideDistance(f, 0.5, 0.5, 1.03)).toBeCloseTo(0.03, 2);
    expect(outsideDistance(f, 0.5, 0.5, 1.2)).toBeCloseTo(0.2, 1);
    // Off the grid: the distance to the grid is added.
    expect(outsideDistance(f, 0.5, 0.5, 5)).toBeGreaterThan(3.5);
  });

  it('tracks the distance to a sphere mesh within half a cell, near and far', () => {
    const m = sphere(1, 32, 16);
    const cell = 0.05;
    const f = buildSolidField(m.positions, m.indices, { cell });
    const exact = (x: number, y: number, z: number) => {
      let best = Infinity;
      for (let t = 0; t < m.indices.length; t += 3)
        best = Math.min(
          best,
          distanceToTriangleSquared(x, y, z, m.positions, 3 * m.indices[t], 3 * m.indices[t + 1], 3 * m.indices[t + 2]),
        );
      return Math.sqrt(best);
    };
    for (const [r, within] of [
      [1.02, 0.5 * cell],
      [1.1, 0.5 * cell],
      [1.2, 0.5 * cell],
    ]) {
      for (const [x, y, z] of [
        [1, 0, 0],
        [0, -1, 0],
        [0.6, 0.48, 0.64],
        [0.36, 0.48, -0.8],
      ]) {
        expect(Math.abs(outsideDistance(f, r * x, r * y, r * z) - exact(r * x, r * y, r * z))).toBeLessThan(within);
      }
    }
    expect(f.solidCells).toBeGreaterThan(0);
  });

  it('keeps a lone sheet solid (its surface cells) and reports distances off it', () => {
    const f = buildSolidField(Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0), Uint32Array.of(0, 1, 2, 0, 2, 3), {
      cell: 0.05,
    });
    expect(outsideDistance(f, 0.5, 0.5, 0)).toBeLessThan(0.03);
    expect(outsideDistance(f, 0.5, 0.5, 0.2)).toBeCloseTo(0.2, 1);
  });
});

describe('distanceToTriangleSquared', () => {
  it('measures to the face, an edge and a corner', () => {
    const p = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    expect(distanceToTriangleSquared(0.2, 0.2, 2, p, 0, 3, 6)).toBeCloseTo(4, 12);
    expect(distanceToTriangleSquared(0.5, -1, 0, p, 0, 3, 6)).toBeCloseTo(1, 12);
    expect(distanceToTriangleSquared(-1, -1, 0, p, 0, 3, 6)).toBeCloseTo(2, 12);
    expect(distanceToTriangleSquared(1, 1, 0, p, 0, 3, 6)).toBeCloseTo(0.5, 12);
  });
});
