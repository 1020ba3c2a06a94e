/**
 * Merging convex hulls back together: greedily, cheapest first, each merged hull being the hull
 * of both. Used after cutting, which over-segments (a cut is chosen one step ahead only), and to
 * get under a hull limit.
 *
 * Each candidate pair is scored by `evaluate` (undefined = may not merge; else a cost, lower
 * merges first). Pairs are found by a sweep over the hulls' boxes along x (only boxes within
 * `reach` of each other), and a merged hull gets fresh pairs with every live hull. Deterministic:
 * ties break by insertion order.
 */

import type { PartHull } from './concavity.js';

export interface MergeNode<T> {
  hull: PartHull;
  /** Whatever the caller keeps per hull (its air, area, ...). */
  data: T;
  alive: boolean;
}

export interface MergeCandidate<T> {
  hull: PartHull;
  data: T;
  cost: number;
}

/** Binary min-heap on a numeric key, ties by insertion order. */
export class Heap<T> {
  private items: { key: number; seq: number; value: T }[] = [];
  private seq = 0;
  get size(): number {
    return this.items.length;
  }
  push(key: number, value: T): void {
    const it = this.items;
    it.push({ key, seq: this.seq++, value });
    let i = it.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      [it[i], it[parent]] = [it[parent], it[i]];
      i = parent;
    }
  }
  pop(): { key: number; value: T } | undefined {
    const it = this.items;
    if (it.length === 0) return undefined;
    const top = it[0];
    const last = it.pop()!;
    if (it.length > 0) {
      it[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < it.length && this.less(l, m)) m = l;
        if (r < it.length && this.less(r, m)) m = r;
        if (m === i) break;
        [it[i], it[m]] = [it[m], it[i]];
        i = m;
      }
    }
    return top;
  }
  private less(a: number, b: number): boolean {
    const x = this.items[a],
      y = this.items[b];
    return x.key < y.key || (x.key === y.key && x.seq < y.seq);
  }
}

/** The gap between two hulls' boxes (0 when they overlap). */
export function boxGap(a: PartHull, b: PartHull): number {
  let g = 0;
  for (let k = 0; k < 3; k++) g = Math.max(g, a.min[k] - b.max[k], b.min[k] - a.max[k]);
  return g;
}

export interface MergeOptions<T> {
  /** Only pairs whose boxes are this close are tried. */
  reach: number;
  /** Stop at this many live hulls. */
  target: number;
  /**
   * Pair each hull only with this many nearest live hulls (by box gap, within reach), so the
   * pairs scored grow with the hull count, not its square. Default: every hull within reach.
   */
  neighbours?: number;
  /** Scores a pair (undefined: may not merge). */
  evaluate: (a: MergeNode<T>, b: MergeNode<T>) => MergeCandidate<T> | undefined;
  /** Last check when a pair comes up, cheapest first: false skips it (and, with `stopOnRefusal`, ends the merging). */
  accept?: (candidate: MergeCandidate<T>, a: MergeNode<T>, b: MergeNode<T>) => boolean;
  stopOnRefusal?: boolean;
  /** Called after each merge. */
  onMerge?: () => void;
  /** Called between steps (throw to abort). */
  check?: () => void;
}

/** Merges live nodes in place (merged ones are marked dead, the merged hull appended). Returns the merge count. */
export function mergeHulls<T>(nodes: MergeNode<T>[], options: MergeOptions<T>): number {
  const heap = new Heap<[number, number, MergeCandidate<T>]>();
  let alive = nodes.filter((n) => n.alive).length;
  let merges = 0;
  const tryPair = (i: number, j: number) => {
    const a = nodes[i],
      b = nodes[j];
    if (boxGap(a.hull, b.hull) > options.reach) return;
    const c = options.evaluate(a, b);
    if (c) heap.push(c.cost, [i, j, c]);
  };
  const k = options.neighbours ?? Infinity;
  /** The (at most k) nearest live hulls to node i within reach, by box gap (ties by index). */
  const nearest = (i: number, among: number): number[] => {
    const near: [number, number][] = [];
    for (let o = 0; o < among; o++) {
      if (o === i || !nodes[o].alive) continue;
      const g = boxGap(nodes[i].hull, nodes[o].hull);
      if (g <= options.reach) near.push([g, o]);
    }
    near.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return near.slice(0, k).map((x) => x[1]);
  };
  // 1. Candidate pairs: boxes within reach, by a sweep along x (or each hull's nearest).
  if (Number.isFinite(k)) {
    const seen = new Set<number>();
    const n = nodes.length;
    for (let i = 0; i < n; i++) {
      if (!nodes[i].alive) continue;
      options.check?.();
      for (const o of nearest(i, n)) {
        const [a, b] = i < o ? [i, o] : [o, i];
        if (seen.has(a * n + b)) continue;
        seen.add(a * n + b);
        tryPair(a, b);
      }
    }
  } else {
    const order = nodes
      .map((_, i) => i)
      .filter((i) => nodes[i].alive)
      .sort((i, j) => nodes[i].hull.min[0] - nodes[j].hull.min[0] || i - j);
    for (let x = 0; x < order.length; x++) {
      options.check?.();
      for (let y = x + 1; y < order.length; y++) {
        if (nodes[order[y]].hull.min[0] - nodes[order[x]].hull.max[0] > options.reach) break;
        tryPair(Math.min(order[x], order[y]), Math.max(order[x], order[y]));
      }
    }
  }
  // 2. Cheapest first; a merged hull gets new pairs.
  while (alive > options.target && heap.size > 0) {
    const [i, j, c] = heap.pop()!.value;
    if (!nodes[i].alive || !nodes[j].alive) continue;
    options.check?.();
    if (options.accept && !options.accept(c, nodes[i], nodes[j])) {
      if (options.stopOnRefusal) break;
      continue;
    }
    nodes[i].alive = false;
    nodes[j].alive = false;
    const m = nodes.length;
    nodes.push({ hull: c.hull, data: c.data, alive: true });
    alive--;
    merges++;
    options.onMerge?.();
    if (Number.isFinite(k)) for (const o of nearest(m, m)) tryPair(o, m);
    else for (let o = 0; o < m; o++) if (nodes[o].alive) tryPair(o, m);
  }
  return merges;
}
