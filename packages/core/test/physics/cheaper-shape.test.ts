import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reducedHull } from '../../src/physics/cheaper-shape.js';
import { convexHull } from '../../src/physics/convex-hull.js';
import { convexHullPhysicsCost } from '../../src/cost/physics-cost.js';
import { hullPlanes, openEdges, sphere, worstOutside } from './physics-fixtures.js';

/** The convex hull points of a UV sphere of radius r (metres). */
function sphereHull(r: number, seg = 24, rings = 12): Float32Array {
  return convexHull(Float32Array.from(sphere(r, seg, rings).positions)).points;
}

describe('reducedHull (a convexified object charged as its hull)', () => {
  it('keeps a subset of the hull within the error, closed, priced 0.04 * (vertices + 1)', () => {
    const hull = sphereHull(0.025);
    const r = reducedHull(hull, [1, 1, 1], 0.0025, 0)!;
    expect(r.points.length).toBeLessThan(hull.length);
    expect(r.weight).toBeCloseTo(convexHullPhysicsCost(r.points.length / 3), 12);
    // Every vertex of the reduced hull is a vertex of the hull (inside it) ...
    const key = (p: ArrayLike<number>, i: number) => `${p[i]},${p[i + 1]},${p[i + 2]}`;
    const given = new Set(Array.from({ length: hull.length / 3 }, (_, i) => key(hull, 3 * i)));
    for (let i = 0; i < r.points.length; i += 3) expect(given.has(key(r.points, i))).toBe(true);
    // ... and no hull vertex is farther than the error outside it.
    expect(worstOutside(hullPlanes(r.points), hull)).toBeLessThanOrEqual(0.0025 + 1e-6);
    // The `_PHYS` mesh is that hull, closed.
    expect(openEdges(r.mesh.faces[0])).toBe(0);
    expect(r.mesh.faces[0].positions).toBe(r.points);
  });

  it('stops at the least reduction that reaches the floor weight; errors are world metres', () => {
    const hull = sphereHull(0.025);
    const most = reducedHull(hull, [1, 1, 1], 0.0025, 0)!;
    const least = reducedHull(hull, [1, 1, 1], 0.0025, 100)!;
    expect(least.error).toBeLessThan(most.error);
    expect(least.points.length).toBeGreaterThan(most.points.length);
    // The same hull authored at a tenth of the size and scaled 10x in world: the same reduction.
    const small = reducedHull(
      hull.map((v) => v / 10),
      [10, 10, 10],
      0.0025,
      0,
    )!;
    expect(small.points.length).toBe(most.points.length);
    expect(reducedHull(hull, [1, 1, 1], 0, 0)).toBeUndefined();
  });

  it('property: never heavier than the hull it reduces, never more than the error outside', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.5, noNaN: true }),
        fc.double({ min: 0.001, max: 0.2, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        (radius, share, floor) => {
          const hull = sphereHull(radius, 16, 8);
          const r = reducedHull(hull, [1, 1, 1], share * radius, floor);
          if (!r) return;
          expect(r.weight).toBeLessThan(convexHullPhysicsCost(hull.length / 3));
          expect(worstOutside(hullPlanes(r.points), hull)).toBeLessThanOrEqual(share * radius * (1 + 1e-5) + 1e-7);
        },
      ),
      { numRuns: 40 },
    );
  });
});
