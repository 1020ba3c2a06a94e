import { describe, expect, it } from 'vitest';
import { voxelSurface } from '../../src/physics/voxel-surface.js';
import { meshVolume, openEdges } from './physics-fixtures.js';

describe('voxelSurface', () => {
  it('an L of three cells is a closed outward surface of their volume', () => {
    const dims = [4, 4, 4];
    const at = (i: number, j: number, k: number) => i + 4 * (j + 4 * k);
    const m = voxelSurface([at(1, 1, 1), at(2, 1, 1), at(1, 2, 1)], [0, 0, 0], 0.5, dims);
    expect(openEdges(m)).toBe(0);
    expect(meshVolume(m)).toBeCloseTo(3 * 0.125, 12);
    expect(m.indices.length / 3).toBe(2 * 14); // 14 exposed faces
  });
});
