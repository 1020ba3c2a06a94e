/**
 * Where to cut a part that does not fit: the plane whose pieces' convex hulls have the least
 * total volume (CoACD's idea, greedy here instead of a tree search).
 *
 * Candidates: the world axes and the part's principal axes, seven evenly spaced offsets each plus
 * the offset through the worst probe, each snapped to the nearest vertex coordinate within half a
 * step so cuts fall on the model's own edges (walls, jambs, steps); the best is refined twice.
 * Principal-axis cuts must gain half as much again as the best world-axis cut to win (models are
 * mostly built along the world axes, where cuts leave clean boxes for later cuts). Pieces are
 * scored on a copy of the part clustered to about 400 vertices.
 *
 * A cut must lower the summed hull volume by `minGain` (the caller asks for a tenth of the part's
 * air: slicing thin caps off a ring lowers it a little but leads nowhere), and neither side may
 * be thinner than `minSide`. When no cut does (a ring: any single cut leaves the hull volume as it
 * was), the cut goes through the worst probe across the direction that splits the part most evenly.
 */

import { fastConvexHull, spansVolume } from './convex-hull.js';
import { splitByPlane } from '../geometry/mesh-clip.js';
import { principalAxes } from '../geometry/principal-axes.js';
import { weldMesh } from '../geometry/weld-mesh.js';
import type { IndexedMesh } from '../geometry/indexed-mesh.js';

/** Vertices of the clustered copy a part's cuts are ranked on. */
const SCORE_VERTICES = 500;

export interface CutPlane {
  /** Unit normal. */
  n: [number, number, number];
  /** Offset: the plane is n.x = d. */
  d: number;
}

/** Volume of the hull of a piece's points (0 when flat), for ranking cuts. */
function pieceHullVolume(p: Float64Array): number {
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p[i + k]);
      hi[k] = Math.max(hi[k], p[i + k]);
    }
  }
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  if (!spansVolume(p, extent * 1e-6)) return 0;
  return fastConvexHull(p)?.volume ?? (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

export function cutScore(mesh: IndexedMesh<Float64Array>, n: readonly number[], d: number, eps: number): number {
  const split = splitByPlane(mesh, n[0], n[1], n[2], d, eps, 'points');
  if (split.below.length === 0 || split.above.length === 0) return Infinity;
  let sum = 0;
  for (const piece of split.below) sum += pieceHullVolume(piece.positions);
  for (const piece of split.above) sum += pieceHullVolume(piece.positions);
  return sum;
}

/** The value of sorted `values` nearest to x if within `reach`, else x. */
function snap(values: Float64Array, x: number, reach: number): number {
  let a = 0,
    b = values.length - 1;
  while (b - a > 1) {
    const m = (a + b) >> 1;
    if (values[m] < x) a = m;
    else b = m;
  }
  const v = Math.abs(values[a] - x) <= Math.abs(values[b] - x) ? values[a] : values[b];
  return Math.abs(v - x) <= reach ? v : x;
}

export interface CutSearch {
  /** Surface area of the part's mesh (sizes the clustered copy). */
  area: number;
  /** The worst probe of the part's hull (where it reaches farthest from the solid). */
  worst: readonly number[];
  /** Coincidence tolerance, metres. */
  eps: number;
  /** A cut must lower the summed hull volume by this share of it, else the fallback applies. */
  minGain: number;
  /** Neither side of a cut may be thinner than this along the normal, metres (no slivers). */
  minSide: number;
  signal?: AbortSignal;
}

/** The cut for a part, or undefined when no plane splits it. */
export function chooseCut(mesh: IndexedMesh<Float64Array>, search: CutSearch): CutPlane | undefined {
  const { area, worst, eps, minSide, signal } = search;
  const p = mesh.positions;
  // 1. Directions: the world axes, and the part's principal axes when they differ from them.
  const dirs: [number, number, number][] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const pa = principalAxes(p);
  for (const ax of pa.axes) {
    if (Math.max(Math.abs(ax[0]), Math.abs(ax[1]), Math.abs(ax[2])) < 0.97) dirs.push(ax);
  }
  // Cuts are ranked on a copy of the part clustered to about SCORE_VERTICES vertices.
  const scoring: IndexedMesh<Float64Array> =
    p.length / 3 > SCORE_VERTICES ? weldMesh(p, mesh.indices, Math.sqrt(area / SCORE_VERTICES)) : mesh;
  const base = pieceHullVolume(scoring.positions);
  // Principal-axis cuts must gain half as much again as the best world-axis cut to win: models
  // are mostly built along the world axes, where cuts leave clean boxes for later cuts.
  let best: { n: [number, number, number]; d: number; score: number; ranked: number; step: number } | undefined;
  let axisScore = Infinity;
  const consider = (n: [number, number, number], d: number, step: number) => {
    const score = cutScore(scoring, n, d, eps);
    const world = dirs.indexOf(n) < 3;
    if (world) axisScore = Math.min(axisScore, score);
    const ranked = world || !Number.isFinite(axisScore) ? score : base - (base - score) / 1.5;
    if (ranked < (best?.ranked ?? Infinity)) best = { n, d, score, ranked, step };
  };
  // 2. Seven offsets per direction, plus the worst probe's, each moved to the nearest vertex
  //    coordinate within half a step (so cuts land on the model's own edges: walls, jambs, steps).
  const w = worst;
  const proj = new Float64Array(p.length / 3);
  const sorted = new Map<[number, number, number], Float64Array>();
  for (const n of dirs) {
    for (let i = 0; i < p.length; i += 3) proj[i / 3] = n[0] * p[i] + n[1] * p[i + 1] + n[2] * p[i + 2];
    const sp = proj.slice().sort();
    sorted.set(n, sp);
    const lo = sp[0],
      hi = sp[sp.length - 1];
    const margin = Math.max(4 * eps, minSide);
    if (hi - lo < 2 * margin) continue;
    const step = (hi - lo) / 8;
    const offsets = new Set<number>();
    const add = (x: number) => {
      const d = snap(sp, x, step / 2);
      if (d > lo + margin && d < hi - margin) offsets.add(d);
    };
    for (let k = 1; k <= 7; k++) add(lo + k * step);
    const ws = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
    if (ws > lo && ws < hi) add(ws);
    for (const d of offsets) consider(n, d, step);
    checkAbort(signal);
  }
  if (!best) return undefined;
  // 3. Refine the best offset.
  for (const f of [0.5, 0.25]) {
    const b: { n: [number, number, number]; d: number; step: number } = best;
    const sp = sorted.get(b.n)!;
    for (const x of [b.d - f * b.step, b.d + f * b.step]) {
      const d = snap(sp, x, (f * b.step) / 2);
      const margin = Math.max(4 * eps, minSide);
      if (d > sp[0] + margin && d < sp[sp.length - 1] - margin && d !== b.d) consider(b.n, d, b.step);
    }
  }
  const chosen = best as { n: [number, number, number]; d: number; score: number };
  if (base - chosen.score >= Math.max(1e-3, search.minGain) * base) return { n: chosen.n, d: chosen.d };
  // 4. No single cut helps (a ring: any one cut leaves the hull volume as it was). Cut through
  //    the worst probe across the direction where that splits the part most evenly.
  let fallback: { n: [number, number, number]; d: number; balance: number } | undefined;
  for (const n of dirs) {
    let lo = Infinity,
      hi = -Infinity;
    for (let i = 0; i < p.length; i += 3) {
      const s = n[0] * p[i] + n[1] * p[i + 1] + n[2] * p[i + 2];
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
    }
    const ws = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
    const balance = Math.min(ws - lo, hi - ws);
    if (balance > Math.max(4 * eps, minSide) && balance > (fallback?.balance ?? 0)) fallback = { n, d: ws, balance };
  }
  if (!fallback || !Number.isFinite(cutScore(mesh, fallback.n, fallback.d, eps))) return undefined;
  return { n: fallback.n, d: fallback.d };
}

export function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) {
    throw signal.reason ?? Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
  }
}
