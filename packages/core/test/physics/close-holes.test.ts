import { describe, expect, it } from 'vitest';
import { closeHoles } from '../../src/physics/close-holes.js';
import { box, meshVolume, openEdges, sphere } from './physics-fixtures.js';

describe('closeHoles', () => {
  it('caps a box with a missing face back to its volume, consistently wound', () => {
    const b = box([0, 0, 0], [1, 2, 3]);
    const open = { positions: b.positions, indices: b.indices.slice(6) };
    expect(openEdges(open)).toBe(4);
    const c = closeHoles(open);
    expect(c.capped).toBe(1);
    expect(c.openLoops).toBe(0);
    expect(openEdges(c)).toBe(0);
    expect(meshVolume(c)).toBeCloseTo(6, 9);
  });

  it('caps a sphere with its top cut off', () => {
    const s = sphere(1, 16, 8);
    const keep: number[] = [];
    for (let t = 0; t < s.indices.length; t += 3) {
      const z = Math.max(...[0, 1, 2].map((k) => s.positions[3 * s.indices[t + k] + 2]));
      if (z < 0.9) keep.push(s.indices[t], s.indices[t + 1], s.indices[t + 2]);
    }
    const c = closeHoles({ positions: s.positions, indices: Uint32Array.from(keep) });
    expect(openEdges(c)).toBe(0);
    expect(meshVolume(c)).toBeGreaterThan(0.9 * meshVolume(s));
    expect(meshVolume(c)).toBeLessThan(meshVolume(s));
  });

  it('leaves a closed mesh alone; a lone sheet becomes a two-sided sheet of no volume', () => {
    const b = box();
    expect(closeHoles(b).capped).toBe(0);
    const sheet = closeHoles({
      positions: Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0),
      indices: Uint32Array.of(0, 1, 2, 0, 2, 3),
    });
    expect(openEdges(sheet)).toBe(0);
    expect(meshVolume(sheet)).toBeCloseTo(0, 12);
  });
});
