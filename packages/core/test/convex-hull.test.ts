import fc from 'fast-check';
import quickhull from 'quickhull3d/dist/quickhull3d.js';
import { describe, expect, it } from 'vitest';
import { convexHull } from '../src/convex-hull.js';

/** True when every point is inside (or on) the hull of `hull` points, within eps. */
function containsAll(hull: Float32Array, points: number[][], eps: number): boolean {
  const hp: number[][] = [];
  for (let i = 0; i < hull.length; i += 3) hp.push([hull[i], hull[i + 1], hull[i + 2]]);
  const faces = quickhull(hp);
  for (const f of faces) {
    const [a, b, c] = f.map((i) => hp[i]);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len === 0) continue;
    for (const p of points) {
      const d = (n[0] * (p[0] - a[0]) + n[1] * (p[1] - a[1]) + n[2] * (p[2] - a[2])) / len;
      if (d > eps) return false;
    }
  }
  return true;
}

const pointsArb = fc.array(fc.tuple(fc.float({ min: -10, max: 10, noNaN: true }), fc.float({ min: -10, max: 10, noNaN: true }), fc.float({ min: -10, max: 10, noNaN: true })), { minLength: 0, maxLength: 200 });

describe('convexHull', () => {
  it('a box gives its 8 corners', () => {
    const pts: number[] = [];
    for (let i = 0; i < 8; i++) pts.push(i & 1 ? 1 : -1, i & 2 ? 2 : -2, i & 4 ? 3 : -3);
    pts.push(0, 0, 0, 0.5, 0.5, 0.5); // interior points are not hull vertices
    const h = convexHull(Float32Array.from(pts));
    expect(h.points.length / 3).toBe(8);
    expect(h.reduced).toBe(false);
  });

  it('never throws, stays within 256 vertices, and (unreduced) contains every input point', () => {
    fc.assert(
      fc.property(pointsArb, (pts) => {
        const flat = Float32Array.from(pts.flat());
        const h = convexHull(flat);
        expect(h.points.length / 3).toBeLessThanOrEqual(256);
        if (pts.length > 0) expect(h.points.length).toBeGreaterThan(0);
        if (!h.reduced && h.points.length >= 12 && !h.boxFallback) expect(containsAll(h.points, pts, 1e-3)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('falls back to the bounding box for flat, collinear and tiny inputs', () => {
    expect(convexHull(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0)).boxFallback).toBe(true);
    expect(convexHull(Float32Array.of(0, 0, 0, 1, 1, 1, 2, 2, 2)).boxFallback).toBe(true);
    expect(convexHull(new Float32Array(0)).points.length).toBe(0);
    expect(convexHull(Float32Array.of(NaN, 0, 0, 1, 2, 3)).points.length).toBe(3);
  });

  it('caps a sphere of 2000 points at 256 vertices and says it reduced it', () => {
    const pts: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const z = 1 - (2 * (i + 0.5)) / 2000, r = Math.sqrt(1 - z * z), a = i * 2.399963;
      pts.push(r * Math.cos(a), r * Math.sin(a), z);
    }
    const h = convexHull(Float32Array.from(pts));
    expect(h.exactVertexCount).toBe(2000);
    expect(h.points.length / 3).toBe(256);
    expect(h.reduced).toBe(true);
  });
});

describe('convexHullMesh', () => {
  it('gives a closed, outward-facing mesh of a box: 8 vertices, 12 triangles, positive volume', async () => {
    const { convexHullMesh } = await import('../src/convex-hull.js');
    const pts: number[] = [];
    for (let i = 0; i < 8; i++) pts.push(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    const m = convexHullMesh(Float32Array.from(pts));
    expect(m.positions.length / 3).toBe(8);
    expect(m.indices.length / 3).toBe(12);
    let vol = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => Array.from(m.positions.subarray(m.indices[t + k] * 3, m.indices[t + k] * 3 + 3)));
      vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
    }
    expect(vol).toBeCloseTo(8, 5);
  });
});
