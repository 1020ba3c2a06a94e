import { describe, expect, it } from 'vitest';
import { ConvexPolytope } from '../../src/physics/convex-polytope.js';

describe('ConvexPolytope', () => {
  it('a box has 8 vertices and its volume', () => {
    const p = ConvexPolytope.box([0, 0, 0], [2, 3, 4]);
    expect(p.vertexCount()).toBe(8);
    expect(p.volume()).toBeCloseTo(24, 12);
  });

  it('cutting a corner off a unit cube leaves 7/8 + ... : volume drops by the corner tetrahedron', () => {
    const p = ConvexPolytope.box([0, 0, 0], [1, 1, 1]);
    // Plane x + y + z <= 2.5 cuts the tetrahedron at (1,1,1) with legs 0.5: volume 0.5^3 / 6.
    expect(p.clip(1, 1, 1, 2.5, 1e-12)).toBe(true);
    expect(p.volume()).toBeCloseTo(1 - 0.125 / 6, 12);
    expect(p.vertexCount()).toBe(10);
    // Faces stay outward: every vertex is behind every face plane.
    const v = p.vertices();
    for (const f of p.faces)
      for (let i = 0; i < v.length; i += 3)
        expect(f.n[0] * v[i] + f.n[1] * v[i + 1] + f.n[2] * v[i + 2] - f.d).toBeLessThanOrEqual(1e-9);
  });

  it('leaves the polytope unchanged when the plane misses it or would remove everything', () => {
    const p = ConvexPolytope.box([0, 0, 0], [1, 1, 1]);
    expect(p.clip(1, 0, 0, 5, 1e-12)).toBe(false);
    expect(p.clip(1, 0, 0, -5, 1e-12)).toBe(false);
    expect(p.volume()).toBeCloseTo(1, 12);
  });

  it('many random cuts keep a closed outward polytope whose volume only shrinks', () => {
    const p = ConvexPolytope.box([-1, -1, -1], [1, 1, 1]);
    let previous = p.volume();
    let s = 7;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    for (let k = 0; k < 60; k++) {
      const z = 2 * rnd() - 1,
        a = 2 * Math.PI * rnd(),
        r = Math.sqrt(1 - z * z);
      p.clip(r * Math.cos(a), r * Math.sin(a), z, 0.8 + 0.3 * rnd(), 1e-12);
      const vol = p.volume();
      expect(vol).toBeLessThanOrEqual(previous + 1e-12);
      previous = vol;
    }
    // Closed: every directed edge has its reverse.
    const edges = new Set<string>();
    for (const f of p.faces)
      for (let i = 0; i < f.verts.length; i++) edges.add(`${f.verts[i]},${f.verts[(i + 1) % f.verts.length]}`);
    for (const e of edges) {
      const [a, b] = e.split(',');
      expect(edges.has(`${b},${a}`)).toBe(true);
    }
    // The sphere of radius 0.8 is inside every cut.
    expect(previous).toBeGreaterThan((4 / 3) * Math.PI * 0.8 ** 3);
  });
});
