import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildSolidField,
  distanceToTriangleSquared,
  forEachTriangleCell,
  outsideDistance,
} from '../../src/physics/solid-field.js';
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

describe('forEachTriangleCell', () => {
  // A cell-aligned grid of side 1 from the origin.
  const cellsOf = (p: number[], dims: number[]) => {
    const seen = new Set<number>();
    let visits = 0;
    forEachTriangleCell(p, 0, 3, 6, [0, 0, 0], 1, dims, (g) => {
      seen.add(g);
      visits++;
    });
    return { seen, visits };
  };

  it('a needle 3,000 cells long visits its cells and no others, in about as many samples as it has half-cells (fuzz seed 9333: 43 s)', () => {
    // Along x at y, z in (0.4, 0.7): every cell (i, 0, 0) and nothing else. The lattice from one
    // corner with the longest edge's step count took 6000^2 / 2 samples for it.
    const dims = [3002, 2, 2];
    const { seen, visits } = cellsOf([0.5, 0.4, 0.5, 3000.5, 0.7, 0.5, 3000.5, 0.4, 0.6], dims);
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 3001 }, (_, i) => i));
    expect(visits).toBeLessThan(40 * 3001);
    // The other corner order gives the same cells (the lattice starts opposite the longest edge).
    const again = cellsOf([3000.5, 0.7, 0.5, 3000.5, 0.4, 0.6, 0.5, 0.4, 0.5], dims);
    expect(again.seen).toEqual(seen);
  });

  it('a needle along a diagonal reaches every cell its axis crosses for more than its half-cell step (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 800, max: 1500 }), fc.double({ min: 0.05, max: 0.4, noNaN: true }), (n, w) => {
        // From (0.5, 0.5, 0.5) to (n + 0.5, n / 3 + 0.5, 0.5), a thin sliver beside that line.
        const p = [0.5, 0.5, 0.5, n + 0.5, n / 3 + 0.5, 0.5, n + 0.5, n / 3 + 0.5 + w, 0.5];
        const dims = [n + 2, Math.ceil(n / 3) + 3, 2];
        const { seen } = cellsOf(p, dims);
        for (let k = 0; k <= 4 * n; k++) {
          const t = k / (4 * n);
          const x = 0.5 + t * n,
            y = 0.5 + (t * n) / 3;
          // At least 0.3 of a cell from its sides: the axis crosses that cell for 0.6 or more, more
          // than the samples' spacing (a cell it only clips may be missed, as before).
          const inner = (v: number) => v - Math.floor(v) >= 0.3 && v - Math.floor(v) <= 0.7;
          if (inner(x) && inner(y)) expect(seen.has(Math.floor(x) + dims[0] * Math.floor(y))).toBe(true);
        }
      }),
      { numRuns: 8 },
    );
  });
});
