import { describe, expect, it } from 'vitest';
import { partHull, type PartHull } from '../../src/physics/concavity.js';
import { boxGap, Heap, mergeHulls, type MergeNode } from '../../src/physics/hull-merge.js';
import { box } from './physics-fixtures.js';

const hullOf = (min: number[], max: number[]) => partHull(box(min, max).positions, 0.001)!;

describe('Heap', () => {
  it('pops smallest first, ties in insertion order', () => {
    const h = new Heap<string>();
    for (const [k, v] of [
      [3, 'c'],
      [1, 'a1'],
      [2, 'b'],
      [1, 'a2'],
    ] as [number, string][])
      h.push(k, v);
    expect([h.pop()!.value, h.pop()!.value, h.pop()!.value, h.pop()!.value]).toEqual(['a1', 'a2', 'b', 'c']);
    expect(h.pop()).toBeUndefined();
  });
});

describe('mergeHulls', () => {
  it('merges touching boxes that make a box, not boxes whose union leaves air; respects reach and target', () => {
    const nodes: MergeNode<null>[] = [
      { hull: hullOf([0, 0, 0], [1, 1, 1]), data: null, alive: true },
      { hull: hullOf([1, 0, 0], [2, 1, 1]), data: null, alive: true },
      { hull: hullOf([0, 1, 0], [0.2, 3, 1]), data: null, alive: true },
      { hull: hullOf([9, 9, 9], [10, 10, 10]), data: null, alive: true },
    ];
    const added = (a: PartHull, b: PartHull, m: PartHull) => m.volume - a.volume - b.volume;
    const merges = mergeHulls(nodes, {
      reach: 0.01,
      target: 1,
      evaluate: (a, b) => {
        const pts = new Float64Array([...a.hull.points, ...b.hull.points]);
        const m = partHull(pts, 0.001)!;
        const air = added(a.hull, b.hull, m);
        return air < 1e-9 ? { hull: m, data: null, cost: air } : undefined;
      },
    });
    expect(merges).toBe(1);
    const alive = nodes.filter((n) => n.alive);
    expect(alive.length).toBe(3);
    expect(alive.some((n) => Math.abs(n.hull.volume - 2) < 1e-9)).toBe(true);
    expect(boxGap(nodes[0].hull, nodes[3].hull)).toBeCloseTo(8, 9);
  });

  it('with neighbours, scores far fewer pairs and still gets down to the target, merging near hulls', () => {
    // A row of 60 unit cubes, a metre apart.
    const row = () =>
      Array.from({ length: 60 }, (_, i) => ({
        hull: hullOf([2 * i, 0, 0], [2 * i + 1, 1, 1]),
        data: null,
        alive: true,
      })) as MergeNode<null>[];
    const run = (neighbours?: number) => {
      const nodes = row();
      let scored = 0;
      mergeHulls(nodes, {
        reach: Infinity,
        target: 20,
        ...(neighbours ? { neighbours } : {}),
        evaluate: (a, b) => {
          scored++;
          const m = partHull(new Float64Array([...a.hull.points, ...b.hull.points]), 0.001)!;
          return { hull: m, data: null, cost: m.volume - a.hull.volume - b.hull.volume };
        },
      });
      return { nodes: nodes.filter((n) => n.alive), scored };
    };
    const all = run();
    const near = run(4);
    expect(all.nodes.length).toBe(20);
    expect(near.nodes.length).toBe(20);
    expect(all.scored).toBeGreaterThan((60 * 59) / 2);
    expect(near.scored).toBeLessThan(all.scored / 5);
    // Merging neighbours only costs no more air than trying every pair (nearest are cheapest here).
    const volume = (ns: MergeNode<null>[]) => ns.reduce((a, n) => a + n.hull.volume, 0);
    expect(volume(near.nodes)).toBeLessThanOrEqual(volume(all.nodes) * (1 + 1e-9));
  });
});
