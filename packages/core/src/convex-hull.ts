/**
 * The single convex hull of an object (the asset's BoundingVerts), over quickhull3d.
 *
 * Guarantees: returns the hull's vertices as a flat xyz array of at most `maxVertices`
 * (MAX_HULL_VERTICES) points taken from the input; never throws on degenerate input (fewer
 * than four points, coplanar or collinear sets fall back to the points' bounding box corners,
 * as the viewer falls back to the bounding box).
 *
 * Interim limit: a hull with more than `maxVertices` vertices is cut down by farthest-point
 * sampling of its vertices, which keeps the shape but may leave input points slightly outside;
 * `reduced` says when that happened so reports can say so.
 */

import quickhull from 'quickhull3d/dist/quickhull3d.js';
import { MAX_HULL_VERTICES } from './constants.js';
import { boxSize, emptyBox, growBox, isEmptyBox } from './object-geometry.js';

export interface ConvexHullResult {
  /** Hull vertices, flat xyz. */
  points: Float32Array;
  /** Vertices of the exact hull before any reduction. */
  exactVertexCount: number;
  /** True when the exact hull had more than maxVertices vertices and was sampled down. */
  reduced: boolean;
  /** True when the input was degenerate and the bounding box was used. */
  boxFallback: boolean;
}

/** Unique finite points of a flat xyz array, as [x, y, z] tuples (exact duplicates removed). */
function uniquePoints(positions: Float32Array): [number, number, number][] {
  const seen = new Set<string>();
  const out: [number, number, number][] = [];
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i], y = positions[i + 1], z = positions[i + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    const key = `${x},${y},${z}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([x, y, z]);
  }
  return out;
}

function boxCorners(positions: Float32Array): Float32Array {
  const box = growBox(emptyBox(), positions);
  if (isEmptyBox(box)) return new Float32Array(0);
  const out: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const p = [i & 1 ? box.max[0] : box.min[0], i & 2 ? box.max[1] : box.min[1], i & 4 ? box.max[2] : box.min[2]];
    const k = p.join(',');
    if (!seen.has(k)) {
      seen.add(k);
      out.push(...p);
    }
  }
  return Float32Array.from(out);
}

/** Picks `count` of `points` spread as far apart as possible (deterministic). */
function farthestPointSample(points: [number, number, number][], count: number): [number, number, number][] {
  const n = points.length;
  const dist = new Float64Array(n).fill(Infinity);
  const chosen: number[] = [0];
  let last = 0;
  for (let k = 1; k < count; k++) {
    let best = -1, bestD = -1;
    const [lx, ly, lz] = points[last];
    for (let i = 0; i < n; i++) {
      const [x, y, z] = points[i];
      const d = (x - lx) ** 2 + (y - ly) ** 2 + (z - lz) ** 2;
      if (d < dist[i]) dist[i] = d;
      if (dist[i] > bestD) {
        bestD = dist[i];
        best = i;
      }
    }
    chosen.push(best);
    dist[best] = -1;
    last = best;
  }
  return chosen.map((i) => points[i]);
}

export function convexHull(positions: Float32Array, maxVertices = MAX_HULL_VERTICES): ConvexHullResult {
  // 1. Deduplicate; too few points, or a flat / thin set, has no proper 3D hull.
  const pts = uniquePoints(positions);
  const size = boxSize(growBox(emptyBox(), positions));
  const extent = Math.max(size[0], size[1], size[2]);
  // A set thinner than 1e-4 of its extent on some axis is treated as flat: quickhull is not robust there.
  const flat = size.some((s) => s <= extent * 1e-4);
  if (pts.length < 4 || flat) {
    const corners = boxCorners(positions);
    return { points: corners, exactVertexCount: corners.length / 3, reduced: false, boxFallback: true };
  }
  // 2. Quickhull; collect the vertices its faces use.
  let faces: number[][];
  try {
    faces = quickhull(pts);
  } catch {
    const corners = boxCorners(positions);
    return { points: corners, exactVertexCount: corners.length / 3, reduced: false, boxFallback: true };
  }
  const used = new Set<number>();
  for (const f of faces) for (const i of f) used.add(i);
  let hull = [...used].sort((a, b) => a - b).map((i) => pts[i]);
  if (hull.length < 4) {
    const corners = boxCorners(positions);
    return { points: corners, exactVertexCount: corners.length / 3, reduced: false, boxFallback: true };
  }
  // 3. Cap the vertex count.
  const exactVertexCount = hull.length;
  const reduced = hull.length > maxVertices;
  if (reduced) hull = farthestPointSample(hull, maxVertices);
  return { points: Float32Array.from(hull.flat()), exactVertexCount, reduced, boxFallback: false };
}

/**
 * A closed triangle mesh of the convex hull of `points` (flat xyz), outward-facing, for writing
 * a hull as a mesh (the `_PHYS` node of uploader-ready glTF). Degenerate sets give no triangles.
 */
export function convexHullMesh(points: Float32Array): { positions: Float32Array; indices: Uint32Array } {
  const pts = uniquePoints(points);
  if (pts.length < 4) return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  let faces: number[][];
  try {
    faces = quickhull(pts);
  } catch {
    return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  }
  // Keep only the vertices the faces use, re-indexed.
  const remap = new Map<number, number>();
  const positions: number[] = [];
  const indices: number[] = [];
  for (const f of faces) {
    for (const i of f) {
      let j = remap.get(i);
      if (j === undefined) {
        j = remap.size;
        remap.set(i, j);
        positions.push(...pts[i]);
      }
      indices.push(j);
    }
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
