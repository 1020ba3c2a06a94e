import { describe, expect, it } from 'vitest';
import { planarRemesh } from '../../src/geometry/planar-remesh.js';
import { gridWall, sphere } from '../physics/physics-fixtures.js';

function normalOf(p: ArrayLike<number>, ix: ArrayLike<number>, t: number): number[] {
  const [a, b, c] = [ix[t], ix[t + 1], ix[t + 2]].map((v) => [p[3 * v], p[3 * v + 1], p[3 * v + 2]]);
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
    v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
}

function area(p: ArrayLike<number>, ix: ArrayLike<number>): number {
  let s = 0;
  for (let t = 0; t < ix.length; t += 3) s += Math.hypot(...normalOf(p, ix, t)) / 2;
  return s;
}

/** Whether point (x, z) of the plane y = 0 lies in one of the triangles (barycentric, inclusive). */
function covered(p: ArrayLike<number>, ix: ArrayLike<number>, x: number, z: number): boolean {
  for (let t = 0; t < ix.length; t += 3) {
    const [a, b, c] = [ix[t], ix[t + 1], ix[t + 2]].map((v) => [p[3 * v], p[3 * v + 2]]);
    const d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    const l1 = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (z - c[1])) / d;
    const l2 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (z - c[1])) / d;
    if (l1 >= -1e-9 && l2 >= -1e-9 && 1 - l1 - l2 >= -1e-9) return true;
  }
  return false;
}

describe('planarRemesh', () => {
  it('a wall of 96 quads becomes two triangles, same area, same facing', () => {
    const wall = gridWall(6, 3, 12, 8);
    const r = planarRemesh(wall.positions, wall.indices);
    expect(r.length / 3).toBe(2);
    expect(area(wall.positions, r)).toBeCloseTo(18, 9);
    for (let t = 0; t < r.length; t += 3) expect(normalOf(wall.positions, r, t)[1]).toBeLessThan(0);
  });

  it('a wall with a window and a doorway keeps both open, in far fewer triangles', () => {
    const window = [0.5, 1.5, 1.25, 2.25];
    const door = [2.5, 3.5, 0, 2.25];
    const wall = gridWall(6, 3, 24, 12, [window, door]);
    const r = planarRemesh(wall.positions, wall.indices);
    expect(r.length).toBeLessThan(wall.indices.length / 10);
    expect(area(wall.positions, r)).toBeCloseTo(area(wall.positions, wall.indices), 9);
    expect(covered(wall.positions, r, 1, 1.75)).toBe(false);
    expect(covered(wall.positions, r, 3, 1)).toBe(false);
    expect(covered(wall.positions, r, 4.5, 1)).toBe(true);
    expect(covered(wall.positions, r, 1, 0.5)).toBe(true);
  });

  it('leaves a curved surface as it is (no two triangles share a plane)', () => {
    const s = sphere(1, 16, 8);
    const r = planarRemesh(s.positions, s.indices);
    expect(r.length).toBeLessThanOrEqual(s.indices.length);
    expect(area(s.positions, r)).toBeCloseTo(area(s.positions, s.indices), 6);
  });

  it('property: random walls with random holes keep their area and facing, never gain triangles, and index only their own vertices', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 40; k++) {
      const nu = 4 + Math.floor(rand() * 20),
        nv = 4 + Math.floor(rand() * 12);
      const w = 1 + rand() * 10,
        h = 1 + rand() * 5;
      const holes: number[][] = [];
      for (let q = Math.floor(rand() * 4); q > 0; q--) {
        const u0 = rand() * w,
          z0 = rand() * h;
        holes.push([u0, u0 + rand() * w * 0.4, z0, z0 + rand() * h * 0.4]);
      }
      const wall = gridWall(w, h, nu, nv, holes);
      // Tilted: a rotation about z and x moves the plane off the axes.
      const a = rand() * Math.PI,
        b = rand() * Math.PI;
      const p = new Float64Array(wall.positions.length);
      for (let i = 0; i < p.length; i += 3) {
        const [x, y, z] = [wall.positions[i], wall.positions[i + 1], wall.positions[i + 2]];
        const x1 = x * Math.cos(a) - y * Math.sin(a),
          y1 = x * Math.sin(a) + y * Math.cos(a);
        p.set([x1, y1 * Math.cos(b) - z * Math.sin(b), y1 * Math.sin(b) + z * Math.cos(b)], i);
      }
      const r = planarRemesh(p, wall.indices);
      expect(r.length).toBeLessThanOrEqual(wall.indices.length);
      expect(Math.max(0, ...r)).toBeLessThan(p.length / 3);
      expect(area(p, r)).toBeCloseTo(area(p, wall.indices), 6);
      const n0 = normalOf(p, wall.indices, 0);
      for (let t = 0; t < r.length; t += 3) {
        const n = normalOf(p, r, t);
        expect(n[0] * n0[0] + n[1] * n0[1] + n[2] * n0[2]).toBeGreaterThan(0);
      }
    }
  });
});
