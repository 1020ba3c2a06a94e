import { describe, expect, it } from 'vitest';
import { generalizedWindingNumber, MeshInsideTest } from '../../src/geometry/mesh-inside.js';
import { box, boxes, sphere, torus } from '../physics/physics-fixtures.js';

describe('MeshInsideTest', () => {
  it('agrees with the exact winding number on a closed sphere and a torus', () => {
    for (const m of [sphere(1, 16, 8), torus(1, 0.3, 24, 10)]) {
      const t = new MeshInsideTest(m.positions, m.indices);
      let s = 11;
      const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
      for (let i = 0; i < 300; i++) {
        const x = 3 * rnd() - 1.5,
          y = 3 * rnd() - 1.5,
          z = 3 * rnd() - 1.5;
        const w = generalizedWindingNumber(m.positions, m.indices, x, y, z);
        if (Math.abs(w - 0.5) < 0.45) continue; // too close to the surface to call
        expect(t.contains(x, y, z)).toBe(w > 0.5);
      }
    }
  });

  it('counts shared edges and vertices once: a point level with a box edge and on a diagonal', () => {
    const m = box([0, 0, 0], [1, 1, 1]);
    const t = new MeshInsideTest(m.positions, m.indices);
    expect(t.votes(0.5, 0.5, 0.5)).toBe(6); // rays pass through the faces' diagonals
    expect(t.contains(0.25, 0.25, 0.25)).toBe(true);
    expect(t.contains(1.5, 0.5, 0.5)).toBe(false);
  });

  it('overlapping closed parts are solid where they overlap; an inside-out mesh is turned around', () => {
    const m = boxes([
      [
        [0, 0, 0],
        [2, 1, 1],
      ],
      [
        [1, 0, 0],
        [3, 1, 1],
      ],
    ]);
    const t = new MeshInsideTest(m.positions, m.indices);
    expect(t.contains(1.5, 0.5, 0.5)).toBe(true);
    const inv = box([0, 0, 0], [1, 1, 1]);
    for (let i = 0; i < inv.indices.length; i += 3)
      [inv.indices[i + 1], inv.indices[i + 2]] = [inv.indices[i + 2], inv.indices[i + 1]];
    const ti = new MeshInsideTest(inv.positions, inv.indices);
    expect(ti.orientation).toBe(-1);
    expect(ti.contains(0.5, 0.5, 0.5)).toBe(true);
  });

  it('a box with one face missing is still solid (the hole is outvoted); a lone sheet encloses nothing', () => {
    const m = box([0, 0, 0], [1, 1, 1]);
    const open = { positions: m.positions, indices: m.indices.slice(6) };
    const t = new MeshInsideTest(open.positions, open.indices);
    expect(t.contains(0.5, 0.5, 0.5)).toBe(true);
    const sheet = new MeshInsideTest(
      Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0),
      Uint32Array.of(0, 1, 2, 0, 2, 3),
    );
    expect(sheet.contains(0.5, 0.5, 0.1)).toBe(false);
    expect(sheet.contains(0.5, 0.5, -0.1)).toBe(false);
  });

  it('gridVotes gives each cell centre the same votes as votes()', () => {
    const m = torus(1, 0.3, 20, 8);
    const t = new MeshInsideTest(m.positions, m.indices);
    const origin = [-1.5, -1.5, -0.5],
      cell = 0.1,
      dims = [30, 30, 10];
    const g = t.gridVotes(origin, cell, dims);
    for (let k = 0; k < 10; k += 3)
      for (let j = 0; j < 30; j += 4)
        for (let i = 0; i < 30; i += 4) {
          expect(g[i + 30 * (j + 30 * k)]).toBe(
            t.votes(origin[0] + (i + 0.5) * cell, origin[1] + (j + 0.5) * cell, origin[2] + (k + 0.5) * cell),
          );
        }
  });
});

describe('generalizedWindingNumber', () => {
  it('is 1 inside a closed mesh (even just inside a face) and 0 outside', () => {
    const m = box([0, 0, 0], [1, 1, 1]);
    expect(generalizedWindingNumber(m.positions, m.indices, 0.5, 0.5, 0.5)).toBeCloseTo(1, 9);
    expect(generalizedWindingNumber(m.positions, m.indices, 2, 0.5, 0.5)).toBeCloseTo(0, 9);
    expect(generalizedWindingNumber(m.positions, m.indices, 0.5, 0.5, 1e-9)).toBeCloseTo(1, 3);
  });
});
