import fc from 'fast-check';
import quickhull from 'quickhull3d/dist/quickhull3d.js';
import { describe, expect, it } from 'vitest';
import { convexHull, exactConvexHull, spansVolume, weldPoints } from '../../src/physics/convex-hull.js';
import { hullPlanes, worstOutside } from './physics-fixtures.js';

/** True when every point is inside (or on) the hull of `hull` points, within eps. */
function containsAll(hull: Float32Array, points: number[][], eps: number): boolean {
  const hp: number[][] = [];
  for (let i = 0; i < hull.length; i += 3) hp.push([hull[i], hull[i + 1], hull[i + 2]]);
  const faces = quickhull(hp);
  for (const f of faces) {
    const [a, b, c] = f.map((i) => hp[i]);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
      v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
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

const pointsArb = fc.array(
  fc.tuple(
    fc.float({ min: -10, max: 10, noNaN: true }),
    fc.float({ min: -10, max: 10, noNaN: true }),
    fc.float({ min: -10, max: 10, noNaN: true }),
  ),
  { minLength: 0, maxLength: 200 },
);

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
        if (h.points.length >= 12 && !h.boxFallback) expect(containsAll(h.points, pts, 1e-3)).toBe(true);
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

  it('caps a sphere of 2000 points at 256 vertices that contain every point, within 5 % of the exact volume', () => {
    const pts: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const z = 1 - (2 * (i + 0.5)) / 2000,
        r = Math.sqrt(1 - z * z),
        a = i * 2.399963;
      pts.push(r * Math.cos(a), r * Math.sin(a), z);
    }
    const input = Float32Array.from(pts);
    const h = convexHull(input);
    expect(h.exactVertexCount).toBe(2000);
    expect(h.points.length / 3).toBeLessThanOrEqual(256);
    expect(h.reduced).toBe(true);
    expect(h.boxFallback).toBe(false);
    // Every input point inside (exactly: no tolerance), volume close to the exact hull's.
    const planes = hullPlanes(h.points);
    expect(worstOutside(planes, input)).toBeLessThanOrEqual(0);
    expect(h.volume / h.exactVolume).toBeGreaterThanOrEqual(1);
    expect(h.volume / h.exactVolume).toBeLessThanOrEqual(1.05);
    // The volume it reports is its own, and every point it returns is a vertex of its hull.
    const own = exactConvexHull(Float64Array.from(h.points))!;
    expect(own.volume).toBeCloseTo(h.volume, 6);
    expect(own.points.length).toBe(h.points.length);
  });

  it('a smaller budget still contains every point (fewer vertices, more volume)', () => {
    const pts: number[] = [];
    for (let i = 0; i < 500; i++) {
      const z = 1 - (2 * (i + 0.5)) / 500,
        r = Math.sqrt(1 - z * z),
        a = i * 2.399963;
      pts.push(2 * r * Math.cos(a), r * Math.sin(a), 0.5 * z);
    }
    const input = Float32Array.from(pts);
    let previous = 0;
    for (const max of [128, 32, 8, 4]) {
      const h = convexHull(input, max);
      expect(h.points.length / 3).toBeLessThanOrEqual(max);
      expect(worstOutside(hullPlanes(h.points), input)).toBeLessThanOrEqual(0);
      expect(h.volume).toBeGreaterThanOrEqual(h.exactVolume);
      expect(h.volume).toBeGreaterThanOrEqual(previous);
      previous = h.volume;
    }
  });

  it('handles huge coordinates, tiny objects and duplicates without a point outside', () => {
    for (const [scale, offset] of [
      [1e-4, 0],
      [1, 1e5],
      [50, -2000],
    ]) {
      const pts: number[] = [];
      for (let i = 0; i < 400; i++) {
        const z = 1 - (2 * (i + 0.5)) / 400,
          r = Math.sqrt(1 - z * z),
          a = i * 2.399963;
        pts.push(offset + scale * r * Math.cos(a), offset + scale * r * Math.sin(a), offset + scale * z);
        pts.push(offset + scale * r * Math.cos(a), offset + scale * r * Math.sin(a), offset + scale * z); // duplicate
      }
      const input = Float32Array.from(pts);
      const h = convexHull(input, 64);
      expect(h.points.length / 3).toBeLessThanOrEqual(64);
      expect(h.boxFallback).toBe(false);
      expect(worstOutside(hullPlanes(h.points), input)).toBeLessThanOrEqual(0);
    }
  });
});

describe('convexHullMesh', () => {
  it('gives a closed, outward-facing mesh of a box: 8 vertices, 12 triangles, positive volume', async () => {
    const { convexHullMesh } = await import('../../src/physics/convex-hull.js');
    const pts: number[] = [];
    for (let i = 0; i < 8; i++) pts.push(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    const m = convexHullMesh(Float32Array.from(pts));
    expect(m.positions.length / 3).toBe(8);
    expect(m.indices.length / 3).toBe(12);
    let vol = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) =>
        Array.from(m.positions.subarray(m.indices[t + k] * 3, m.indices[t + k] * 3 + 3)),
      );
      vol +=
        (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) /
        6;
    }
    expect(vol).toBeCloseTo(8, 5);
  });
});

describe('convexHull reduction (property)', () => {
  it('any budget: every point inside, every returned point a vertex of its hull', () => {
    const coord = fc.double({ min: -50, max: 50, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, coord), { minLength: 4, maxLength: 150 }),
        fc.integer({ min: 4, max: 40 }),
        (pts, max) => {
          const input = Float32Array.from(pts.flat());
          const h = convexHull(input, max);
          expect(h.points.length / 3).toBeLessThanOrEqual(max);
          if (h.boxFallback) return;
          const own = exactConvexHull(Float64Array.from(h.points));
          expect(own).toBeDefined();
          expect(own!.points.length).toBe(h.points.length);
          // Inside, up to rounding in the planes the test computes (1e-9 of the extent).
          let extent = 0;
          for (let i = 0; i < input.length; i++) extent = Math.max(extent, Math.abs(input[i]));
          expect(worstOutside(own!.planes, input)).toBeLessThanOrEqual(1e-9 * extent);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('exactConvexHull', () => {
  it('turns every face outward and reports the volume of a box', () => {
    const pts = new Float64Array(24);
    for (let i = 0; i < 8; i++) pts.set([i & 1 ? 2 : 0, i & 2 ? 3 : 0, i & 4 ? 4 : 0], 3 * i);
    const h = exactConvexHull(pts)!;
    expect(h.volume).toBeCloseTo(24, 9);
    // Every hull vertex is on or behind every face plane.
    expect(worstOutside(h.planes, h.points)).toBeLessThanOrEqual(1e-9);
    for (let f = 0; f < h.planes.length; f += 4)
      expect(Math.hypot(h.planes[f], h.planes[f + 1], h.planes[f + 2])).toBeCloseTo(1, 9);
  });
});

describe('spansVolume and weldPoints', () => {
  it('tells flat and collinear sets from solid ones', () => {
    expect(spansVolume(Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0), 1e-6)).toBe(false);
    expect(spansVolume(Float64Array.of(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3), 1e-6)).toBe(false);
    expect(spansVolume(Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1), 1e-6)).toBe(true);
  });

  it('welds points closer than the cell and drops non-finite ones', () => {
    const w = weldPoints(Float64Array.of(0, 0, 0, 1e-9, 0, 0, 1, 1, 1, NaN, 0, 0), 1e-6);
    expect(w.length / 3).toBe(2);
  });
});

describe('convexHull remembers its last inputs', () => {
  /** A ball of 2000 points: its exact hull has more than 256 vertices, so it is reduced. */
  const ball = (seed: number) => {
    let s = seed;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const out = new Float32Array(6000);
    for (let i = 0; i < out.length; i += 3) {
      const u = 2 * rnd() - 1,
        t = 2 * Math.PI * rnd(),
        r = Math.sqrt(1 - u * u);
      out[i] = r * Math.cos(t);
      out[i + 1] = r * Math.sin(t);
      out[i + 2] = u;
    }
    return out;
  };

  it('gives a copy equal to a first computation to every caller, and a changed input its own hull', () => {
    const a = ball(7);
    const first = convexHull(a);
    expect(first.reduced).toBe(true);
    const kept = first.points.slice();
    first.points.fill(0); // a caller that writes into its result
    const again = convexHull(a.slice());
    expect(Array.from(again.points)).toEqual(Array.from(kept));
    expect(again.points).not.toBe(first.points);
    // The same array changed in place (one point pushed out): not the remembered hull.
    a[0] = 3;
    const moved = convexHull(a);
    expect(worstOutside(hullPlanes(moved.points), a)).toBeLessThanOrEqual(1e-5);
    expect(Math.max(...Array.from(moved.points, Math.abs))).toBeGreaterThan(2);
    // The limit is part of the input.
    expect(convexHull(ball(7), 32).points.length / 3).toBeLessThanOrEqual(32);
  });
});
