import { describe, expect, it } from 'vitest';
import { partHull } from '../../src/physics/concavity.js';
import { blocks, mergeKeepingOpenings } from '../../src/physics/opening-merge.js';

/** True when a hull (flat xyz points each) has one of the opening's `points` inside it. */
const hullsBlockOpening = (hulls: Float32Array[], points: Float64Array) =>
  hulls.some((h) => {
    const hull = partHull(Float64Array.from(h), 1e-3);
    return hull !== undefined && blocks(hull, points, 0);
  });

/** The 8 corners of a box, flat xyz. */
const box = (min: number[], max: number[]) => {
  const p = new Float32Array(24);
  for (let i = 0; i < 8; i++) p.set([i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]], 3 * i);
  return p;
};
/** A sphere's points (many vertices: simplification has something to drop). */
const ball = (c: number[], r: number, n = 12) => {
  const out: number[] = [];
  for (let i = 0; i <= n; i++)
    for (let j = 0; j < 2 * n; j++) {
      const a = (Math.PI * i) / n,
        b = (Math.PI * j) / n;
      out.push(c[0] + r * Math.sin(a) * Math.cos(b), c[1] + r * Math.sin(a) * Math.sin(b), c[2] + r * Math.cos(a));
    }
  return Float32Array.from(out);
};

describe('mergeKeepingOpenings', () => {
  it('merges two pillars into one hull, unless an opening point stands between them', () => {
    const pillars = [box([0, 0, 0], [0.3, 0.3, 3]), box([1.3, 0, 0], [1.6, 0.3, 3])];
    const gap = Float64Array.of(0.8, 0.15, 1, 0.8, 0.15, 2);
    const free = mergeKeepingOpenings(pillars, new Float64Array(0), { margin: 0.125, reach: 2 }).hulls;
    expect(free).toHaveLength(1);
    expect(hullsBlockOpening(free, gap)).toBe(true);
    const kept = mergeKeepingOpenings(pillars, gap, { margin: 0.125, reach: 2 });
    expect(kept.hulls).toHaveLength(2);
    expect(hullsBlockOpening(kept.hulls, gap)).toBe(false);
    expect(kept.blocksOpening).toBe(false);
    // A hull that spans the gap already (a decomposition cut short) is reported.
    expect(mergeKeepingOpenings([box([0, 0, 0], [1.6, 0.3, 3])], gap, { margin: 0.125 }).blocksOpening).toBe(true);
  });

  it('stops at the floor weight, and still returns its hulls simplified inside themselves', () => {
    const balls = [ball([0, 0, 0], 1), ball([2.1, 0, 0], 1)];
    const before = balls.reduce((a, h) => a + h.length / 3, 0);
    const out = mergeKeepingOpenings(balls, new Float64Array(0), {
      margin: 0.1,
      floorWeight: 1e9,
      hullError: 0.1,
    }).hulls;
    expect(out).toHaveLength(2);
    expect(out.reduce((a, h) => a + h.length / 3, 0)).toBeLessThan(before / 2);
    // Inside: no simplified vertex is farther from its centre than the radius.
    for (const [k, h] of out.entries())
      for (let i = 0; i < h.length; i += 3)
        expect(Math.hypot(h[i] - 2.1 * k, h[i + 1], h[i + 2])).toBeLessThanOrEqual(1 + 1e-5);
  });
});
