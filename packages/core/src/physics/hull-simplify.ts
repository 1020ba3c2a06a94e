/**
 * Fewer vertices for a convex hull that sits inside the original: farthest-point insertion.
 *
 * Start from the four points spanning the largest tetrahedron found greedily; then, round by
 * round, hull the chosen points and add the original points lying farther outside it than
 * `maxError` (one per face, the farthest first, a third of the current count per round at most),
 * until none is or `maxVertices` are chosen; the last round's points that turn out not to be
 * needed are dropped again. The result's vertices are a subset of the
 * input's, so it lies inside the original hull and within `maxError` of every original vertex
 * (distance measured to the face planes, a lower bound that is exact where a face is nearest).
 *
 * With `minVolume`, rounds continue until the subset's hull also keeps that much volume: once
 * only the volume is short, one point (the farthest outside) per round.
 *
 * This is the inner counterpart of convex-hull.ts's containing reduction. For decomposition
 * hulls it is the better trade: for the same error an inner polytope needs about half the
 * vertices of an outer one, and it can never close a gap.
 */

import { fastConvexHull } from './convex-hull.js';

function farthestFrom(p: Float64Array, skip: Set<number>, dist: (i: number) => number): number {
  let best = -1,
    bestD = -Infinity;
  for (let i = 0; i < p.length / 3; i++) {
    if (skip.has(i)) continue;
    const d = dist(i);
    if (d > bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Indices of four points spanning a large tetrahedron (fewer if the set is degenerate). */
function seedTetrahedron(p: Float64Array): number[] {
  const n = p.length / 3;
  const at = (i: number) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
  const chosen = new Set<number>();
  let a = 0;
  for (let i = 1; i < n; i++) if (p[3 * i] < p[3 * a] || (p[3 * i] === p[3 * a] && i < a)) a = i;
  chosen.add(a);
  const pa = at(a);
  const b = farthestFrom(
    p,
    chosen,
    (i) => (p[3 * i] - pa[0]) ** 2 + (p[3 * i + 1] - pa[1]) ** 2 + (p[3 * i + 2] - pa[2]) ** 2,
  );
  if (b < 0) return [...chosen];
  chosen.add(b);
  const pb = at(b);
  const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
  const c = farthestFrom(p, chosen, (i) => {
    const d = [p[3 * i] - pa[0], p[3 * i + 1] - pa[1], p[3 * i + 2] - pa[2]];
    return (d[1] * u[2] - d[2] * u[1]) ** 2 + (d[2] * u[0] - d[0] * u[2]) ** 2 + (d[0] * u[1] - d[1] * u[0]) ** 2;
  });
  if (c < 0) return [...chosen];
  chosen.add(c);
  const pc = at(c);
  const v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
  const nrm = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const d = farthestFrom(p, chosen, (i) =>
    Math.abs(nrm[0] * (p[3 * i] - pa[0]) + nrm[1] * (p[3 * i + 1] - pa[1]) + nrm[2] * (p[3 * i + 2] - pa[2])),
  );
  if (d >= 0) chosen.add(d);
  return [...chosen];
}

/**
 * A subset of the convex point set `points` (flat xyz, usually a hull's vertices) of at most
 * `maxVertices` points whose hull is within `maxError` of every input point and, when
 * `minVolume` is given, keeps at least that volume. Returns the chosen points (flat xyz), or the
 * input when it already fits.
 */
export function simplifyHull(points: Float64Array, maxVertices: number, maxError: number, minVolume = 0): Float64Array {
  const n = points.length / 3;
  const limit = Math.max(4, Math.floor(maxVertices));
  if (n <= 4) return points;
  if (n <= limit && maxError <= 0) return points;
  const chosen = seedTetrahedron(points);
  if (chosen.length < 4) return n <= limit ? points : points.slice(0, 3 * limit);
  const inSet = new Set(chosen);
  const gather = () => pointsAt(points, chosen);
  /** The points the last round added. */
  let batch: number[] = [];
  for (;;) {
    const sub = gather();
    const hull = fastConvexHull(sub);
    if (!hull) return n <= limit ? points : sub;
    // 1. Farthest outside point per face.
    const planes = hull.planes;
    const nf = planes.length / 4;
    const bestOf = new Float64Array(nf).fill(-1);
    const bestIdx = new Int32Array(nf).fill(-1);
    for (let i = 0; i < n; i++) {
      if (inSet.has(i)) continue;
      const x = points[3 * i],
        y = points[3 * i + 1],
        z = points[3 * i + 2];
      let d = -Infinity,
        f = -1;
      for (let k = 0; k < nf; k++) {
        const s = planes[4 * k] * x + planes[4 * k + 1] * y + planes[4 * k + 2] * z - planes[4 * k + 3];
        if (s > d) {
          d = s;
          f = k;
        }
      }
      if (d > 0 && d > bestOf[f]) {
        bestOf[f] = d;
        bestIdx[f] = i;
      }
    }
    // 2. Add the worst ones: those beyond maxError, or while the volume is short, the farthest.
    //    (A face whose farthest point is within maxError needs none while the volume suffices:
    //    adding it anyway spent vertices the error did not ask for.)
    const volumeShort = hull.volume < minVolume;
    const cands: number[] = [];
    let worst = 0;
    for (let k = 0; k < nf; k++) {
      if (bestIdx[k] < 0) continue;
      worst = Math.max(worst, bestOf[k]);
      if (volumeShort || bestOf[k] > maxError) cands.push(k);
    }
    if (worst <= maxError && !volumeShort)
      return batch.length > 1 ? pruned(points, chosen, batch, maxError, minVolume) : sub;
    if (cands.length === 0 || chosen.length >= limit) return sub;
    cands.sort((x, y) => bestOf[y] - bestOf[x] || bestIdx[x] - bestIdx[y]);
    // Past the error, only the volume is short: one point at a time, so none is spent beyond it.
    const room = Math.min(limit - chosen.length, worst <= maxError ? 1 : Math.max(1, Math.floor(chosen.length / 3)));
    batch = [];
    for (let k = 0; k < cands.length && k < room; k++) {
      const i = bestIdx[cands[k]];
      if (inSet.has(i)) continue;
      inSet.add(i);
      chosen.push(i);
      batch.push(i);
    }
  }
}

/**
 * The chosen points without those of the last round (`batch`, added together) that the error and
 * the volume do not need, tried from the last added (the nearest of them) back. Dropping points
 * only shrinks the hull, so a point found needed stays needed as others are dropped.
 */
function pruned(
  points: Float64Array,
  chosen: number[],
  batch: number[],
  maxError: number,
  minVolume: number,
): Float64Array {
  const keep = new Set(chosen);
  const gather = () =>
    pointsAt(
      points,
      chosen.filter((i) => keep.has(i)),
    );
  for (let b = batch.length - 1; b >= 0; b--) {
    keep.delete(batch[b]);
    const hull = keep.size >= 4 ? fastConvexHull(gather()) : undefined;
    if (!hull || hull.volume < minVolume || farthestOutside(points, hull.planes) > maxError) keep.add(batch[b]);
  }
  return gather();
}

/** The points of `points` (flat xyz) at the indices `idx`, in that order. */
function pointsAt(points: Float64Array, idx: readonly number[]): Float64Array {
  const out = new Float64Array(idx.length * 3);
  idx.forEach((i, k) => out.set(points.subarray(3 * i, 3 * i + 3), 3 * k));
  return out;
}

/** How far the farthest of `points` lies outside the planes (a x + b y + c z = d, outward). */
function farthestOutside(points: Float64Array, planes: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < points.length; i += 3) {
    let d = -Infinity;
    for (let k = 0; k < planes.length; k += 4) {
      const s = planes[k] * points[i] + planes[k + 1] * points[i + 1] + planes[k + 2] * points[i + 2] - planes[k + 3];
      if (s > d) d = s;
    }
    if (d > worst) worst = d;
  }
  return worst;
}
