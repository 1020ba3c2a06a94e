import { describe, expect, it } from 'vitest';
import { partHull } from '../../src/physics/concavity.js';
import { buildSolidField } from '../../src/physics/solid-field.js';
import { uncoveredCells, uncoveredSolid } from '../../src/physics/uncovered-solid.js';
import fc from 'fast-check';
import { box, meshVolume } from './physics-fixtures.js';

describe('uncoveredSolid', () => {
  const b = box([0, 0, 0], [1, 1, 1]);
  const field = buildSolidField(b.positions, b.indices, { cell: 0.05 });

  it('nothing is left when a hull covers the solid', () => {
    expect(uncoveredSolid(field, [partHull(b.positions, 0.01)!], 0.1)).toEqual([]);
  });

  it('the core two slabs leave out becomes one closed voxel part; tiny leftovers are dropped', () => {
    const left = partHull(box([0, 0, 0], [0.3, 1, 1]).positions, 0.01)!;
    const right = partHull(box([0.7, 0, 0], [1, 1, 1]).positions, 0.01)!;
    const parts = uncoveredSolid(field, [left, right], 0.1);
    expect(parts.length).toBe(1);
    expect(meshVolume(parts[0])).toBeGreaterThan(0.25);
    expect(meshVolume(parts[0])).toBeLessThan(0.45);
    expect(uncoveredSolid(field, [left, right], 2)).toEqual([]);
    // Restricted to a hull: only what lies inside it.
    const within = partHull(box([0, 0, 0], [0.5, 1, 1]).positions, 0.01)!;
    const inside = uncoveredSolid(field, [left, right], 0.1, within);
    expect(meshVolume(inside[0])).toBeLessThan(meshVolume(parts[0]));
  });

  it('uncoveredCells: the cells no hull contains within half a cell, as a test of every cell finds them (random hulls)', () => {
    const { origin, cell, dims, solid, surface } = field;
    const [nx, ny] = dims;
    const point = fc.tuple(
      fc.double({ min: -0.2, max: 1.2, noNaN: true }),
      fc.double({ min: -0.2, max: 1.2, noNaN: true }),
      fc.double({ min: -0.2, max: 1.2, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(point, { minLength: 4, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        (sets) => {
          const hulls = sets.map((pts) => partHull(Float64Array.from(pts.flat()), 0.01)).filter((h) => h !== undefined);
          const got = uncoveredCells(field, hulls);
          for (let g = 0; g < got.length; g++) {
            const [i, j, k] = [g % nx, Math.floor(g / nx) % ny, Math.floor(g / (nx * ny))];
            const [x, y, z] = [i, j, k].map((v, a) => origin[a] + (v + 0.5) * cell);
            const covered = hulls.some((h) => {
              // Only cells within the hull's box are tested (as uncoveredCells does).
              const inBox = [x, y, z].every(
                (v, a) =>
                  Math.floor((h.min[a] - origin[a]) / cell) <= [i, j, k][a] &&
                  [i, j, k][a] <= Math.floor((h.max[a] - origin[a]) / cell),
              );
              if (!inBox) return false;
              for (let f = 0; f < h.planes.length; f += 4)
                if (h.planes[f] * x + h.planes[f + 1] * y + h.planes[f + 2] * z > h.planes[f + 3] + 0.5 * cell)
                  return false;
              return true;
            });
            const want = solid[g] && !surface[g] && !covered ? 1 : 0;
            if (got[g] !== want) return false;
          }
          return true;
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
