import { describe, expect, it } from 'vitest';
import { partHull } from '../../src/physics/concavity.js';
import { buildSolidField } from '../../src/physics/solid-field.js';
import { uncoveredSolid } from '../../src/physics/uncovered-solid.js';
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
});
