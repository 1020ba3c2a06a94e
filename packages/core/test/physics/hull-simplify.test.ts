import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactConvexHull } from '../../src/physics/convex-hull.js';
import { simplifyHull } from '../../src/physics/hull-simplify.js';
import { worstOutside } from './physics-fixtures.js';

function spherePoints(n: number, r = 1): Float64Array {
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const z = 1 - (2 * (i + 0.5)) / n,
      s = Math.sqrt(1 - z * z),
      a = i * 2.399963;
    p.set([r * s * Math.cos(a), r * s * Math.sin(a), r * z], 3 * i);
  }
  return p;
}

describe('simplifyHull', () => {
  it('keeps every original point within the error, with fewer vertices, inside the original', () => {
    const p = spherePoints(400);
    const out = simplifyHull(p, 256, 0.05);
    expect(out.length / 3).toBeLessThan(0.4 * 400);
    const h = exactConvexHull(out)!;
    expect(worstOutside(h.planes, p)).toBeLessThanOrEqual(0.05 + 1e-9);
    // A subset: inside the original hull.
    expect(h.volume).toBeLessThanOrEqual(exactConvexHull(p)!.volume + 1e-12);
  });

  it('a volume floor adds vertices until the hull keeps it; the vertex cap wins over both', () => {
    const p = spherePoints(400);
    const full = exactConvexHull(p)!.volume;
    const byVolume = simplifyHull(p, 256, 1, 0.98 * full);
    expect(exactConvexHull(byVolume)!.volume).toBeGreaterThanOrEqual(0.98 * full);
    expect(simplifyHull(p, 12, 0).length / 3).toBeLessThanOrEqual(12);
  });

  it('adds no vertex the error or the volume did not ask for: without the last one added, one of them fails (property)', () => {
    // The output lists the chosen points in the order they were added. The last was added because
    // the hull of the others was short of the volume floor or left a point beyond the error; a
    // round that added several at once (as the farthest point of every face) fails this.
    fc.assert(
      fc.property(
        fc.integer({ min: 40, max: 400 }),
        fc.double({ min: 0.002, max: 0.2, noNaN: true }),
        fc.double({ min: 0.9, max: 0.995, noNaN: true }),
        (n, err, keep) => {
          const p = spherePoints(n, 2);
          const floor = keep * exactConvexHull(p)!.volume;
          const out = simplifyHull(p, 256, err, floor);
          if (out.length / 3 <= 4 || out.length === p.length) return;
          const before = exactConvexHull(out.subarray(0, out.length - 3))!;
          // (1e-6: at an error equal to a point's distance the two hull builders round apart.)
          expect(before.volume < floor || worstOutside(before.planes, p) > err - 1e-6).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('returns points of the input, all in convex position (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 300 }),
        fc.double({ min: 0.001, max: 0.3, noNaN: true }),
        fc.integer({ min: 4, max: 64 }),
        (n, err, cap) => {
          const p = spherePoints(n, 2);
          const out = simplifyHull(p, cap, err);
          expect(out.length / 3).toBeLessThanOrEqual(Math.max(cap, 4));
          const keys = new Set<string>();
          for (let i = 0; i < p.length; i += 3) keys.add(`${p[i]},${p[i + 1]},${p[i + 2]}`);
          for (let i = 0; i < out.length; i += 3) expect(keys.has(`${out[i]},${out[i + 1]},${out[i + 2]}`)).toBe(true);
          const h = exactConvexHull(out);
          if (h) expect(h.points.length).toBe(out.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});
