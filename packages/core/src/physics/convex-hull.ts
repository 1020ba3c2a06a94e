/**
 * The single convex hull of an object (the asset's BoundingVerts): at most 256 vertices that
 * CONTAIN every input vertex, with as little volume as the budget allows.
 *
 * 1. Clean the input: drop non-finite points and exact duplicates.
 * 2. Degenerate sets (fewer than 4 points, collinear or flat within 1e-4 of the extent, or
 *    smaller than 1e-30) have no solid hull: like the viewer, fall back to the bounding box's
 *    corners (`boxFallback`; with fewer than 8 vertices allowed, a tetrahedron around the box).
 * 3. Exact hull by quickhull3d; checked to be a closed, outward-facing, locally convex surface
 *    (each face's neighbours lie behind it); any face the library wound the wrong way is turned.
 * 4. If it has more than `maxVertices` vertices, a containing polytope replaces it: start from
 *    the bounding box and repeatedly intersect with the exact hull's face plane that the worst
 *    remaining corner violates most (a greedy outer approximation, farthest corner first), while
 *    the vertex count stays within budget. Every plane is a supporting plane of the input (its
 *    offset is the maximum over all input points, plus a rounding margin), so the result contains
 *    every input point by construction; its vertices are plane intersections, not input points.
 *    On spheres, the worst case, 256 vertices come within about 2-3 % of the exact volume.
 *
 * Never throws: an empty input gives no points.
 */

import quickhull, { QuickHull } from 'quickhull3d/dist/quickhull3d.js';
import { MAX_HULL_VERTICES } from '../constants.js';
import { ConvexPolytope } from './convex-polytope.js';
import { quickHull } from './quickhull.js';
import { ByteMemo } from '../geometry/byte-memo.js';
import { bytesOf } from '../geometry/equal-keys.js';
import { triangleCross } from '../geometry/indexed-mesh.js';

export interface ConvexHullResult {
  /** Hull vertices, flat xyz: at most maxVertices; their hull contains every input point. */
  points: Float32Array;
  /** Vertices of the exact hull before any reduction. */
  exactVertexCount: number;
  /** True when the exact hull had more than maxVertices vertices and a containing hull of fewer replaced it. */
  reduced: boolean;
  /** True when the input was degenerate (fewer than 4 points, collinear or flat) and the bounding box was used. */
  boxFallback: boolean;
  /** Volume of the returned hull (0 for a flat box). */
  volume: number;
  /** Volume of the exact hull (0 when degenerate). */
  exactVolume: number;
}

/** An exact hull: its vertex points and outward triangles (indices into `points`). */
export interface HullGeometry {
  /** Flat xyz of the hull's vertices only. */
  points: Float64Array;
  /** Three indices into `points` per triangle, counter-clockwise seen from outside. */
  triangles: Uint32Array;
  /** Outward unit normal and offset per triangle: nx, ny, nz, d with n.x <= d inside. */
  planes: Float64Array;
  volume: number;
}

/** Welding cell and flatness threshold, relative to the largest extent of the input. */
const WELD_RELATIVE = 1e-7;
const FLAT_RELATIVE = 1e-4;

/** Unique finite points of a flat xyz array, welded on a grid of `cell`; first point of each cell kept. */
export function weldPoints(positions: ArrayLike<number>, cell: number): Float64Array {
  const seen = new Map<string, number>();
  const out: number[] = [];
  const inv = cell > 0 ? 1 / cell : 0;
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i],
      y = positions[i + 1],
      z = positions[i + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    const key = inv > 0 ? `${Math.round(x * inv)},${Math.round(y * inv)},${Math.round(z * inv)}` : `${x},${y},${z}`;
    if (seen.has(key)) continue;
    seen.set(key, out.length / 3);
    out.push(x, y, z);
  }
  return Float64Array.from(out);
}

function bounds(p: ArrayLike<number>): { min: number[]; max: number[]; extent: number; maxAbs: number } {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  let maxAbs = 0;
  for (let i = 0; i + 2 < p.length; i += 3) {
    if (!Number.isFinite(p[i]) || !Number.isFinite(p[i + 1]) || !Number.isFinite(p[i + 2])) continue;
    for (let k = 0; k < 3; k++) {
      const v = p[i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
      if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
    }
  }
  const extent = min[0] <= max[0] ? Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) : 0;
  return { min, max, extent, maxAbs };
}

/** The distinct corners of the bounding box of the finite points. */
function boxCorners(positions: ArrayLike<number>): Float32Array {
  const { min, max } = bounds(positions);
  if (!(min[0] <= max[0])) return new Float32Array(0);
  const out: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const p = [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]];
    const k = p.join(',');
    if (!seen.has(k)) {
      seen.add(k);
      out.push(...p);
    }
  }
  return Float32Array.from(out);
}

/**
 * Whether the points span a solid: not all within `tol` of one line or one plane. Uses the
 * extreme points along the axes and the farthest points from them (exact up to a factor ~2).
 */
export function spansVolume(p: Float64Array, tol: number): boolean {
  const n = p.length / 3;
  if (n < 4) return false;
  // Two far-apart points a, b.
  let a = 0;
  for (let i = 1; i < n; i++) if (p[3 * i] < p[3 * a]) a = i;
  let b = a,
    best = -1;
  for (let i = 0; i < n; i++) {
    const d = (p[3 * i] - p[3 * a]) ** 2 + (p[3 * i + 1] - p[3 * a + 1]) ** 2 + (p[3 * i + 2] - p[3 * a + 2]) ** 2;
    if (d > best) {
      best = d;
      b = i;
    }
  }
  a = b;
  best = -1;
  for (let i = 0; i < n; i++) {
    const d = (p[3 * i] - p[3 * a]) ** 2 + (p[3 * i + 1] - p[3 * a + 1]) ** 2 + (p[3 * i + 2] - p[3 * a + 2]) ** 2;
    if (d > best) {
      best = d;
      b = i;
    }
  }
  if (best <= tol * tol) return false;
  const ux = p[3 * b] - p[3 * a],
    uy = p[3 * b + 1] - p[3 * a + 1],
    uz = p[3 * b + 2] - p[3 * a + 2];
  const ul = Math.hypot(ux, uy, uz);
  // Farthest point c from line ab.
  let c = -1;
  best = -1;
  for (let i = 0; i < n; i++) {
    const dx = p[3 * i] - p[3 * a],
      dy = p[3 * i + 1] - p[3 * a + 1],
      dz = p[3 * i + 2] - p[3 * a + 2];
    const cx = dy * uz - dz * uy,
      cy = dz * ux - dx * uz,
      cz = dx * uy - dy * ux;
    const d = (cx * cx + cy * cy + cz * cz) / (ul * ul);
    if (d > best) {
      best = d;
      c = i;
    }
  }
  if (best <= tol * tol) return false;
  // Farthest point from plane abc.
  const vx = p[3 * c] - p[3 * a],
    vy = p[3 * c + 1] - p[3 * a + 1],
    vz = p[3 * c + 2] - p[3 * a + 2];
  let nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const nl = Math.hypot(nx, ny, nz);
  nx /= nl;
  ny /= nl;
  nz /= nl;
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const d = nx * (p[3 * i] - p[3 * a]) + ny * (p[3 * i + 1] - p[3 * a + 1]) + nz * (p[3 * i + 2] - p[3 * a + 2]);
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  return hi - lo > tol;
}

/** Steps a face's ring of half-edges may take before the guard calls it broken (no face has more edges than the hull has points, and hulls here are of at most a few million). */
const QUICKHULL3D_RING_LIMIT = 1 << 24;
let quickhull3dGuarded = false;

/**
 * quickhull3d 3.1.2 can loop forever: merging near-coplanar faces, it can leave a face whose ring
 * of half-edges never comes back to its first edge, and computing that face's normal walks the
 * ring until it does (the decomposition met one on a piece of a VR controller, see
 * FAST_HULL_RETRY_EPS). A guard on its face class: before a face computes its normal, its ring is
 * walked (at most QUICKHULL3D_RING_LIMIT steps) and one that does not close throws, which
 * exactConvexHull turns into "no hull" (the callers' fallbacks: the bounding box, another hull).
 * A ring that closes goes on to the library's own computation unchanged, so no result changes.
 * Installed once, on the face class reached through a hull of a tetrahedron; if the library's
 * faces ever stop looking as expected (no `computeNormal`, no `edge` ring), it stays as it is.
 */
function guardQuickhull3d(): void {
  if (quickhull3dGuarded) return;
  quickhull3dGuarded = true;
  const probe = new QuickHull([
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ]).build();
  const proto = probe.faces[0] && (Object.getPrototypeOf(probe.faces[0]) as Record<string, unknown>);
  const compute = proto?.computeNormal;
  if (typeof compute !== 'function') return;
  type Edge = { next?: Edge } | null | undefined;
  proto.computeNormal = function (this: { edge?: Edge }, ...args: unknown[]) {
    const start = this.edge;
    if (start) {
      let e = start.next;
      for (let steps = 0; e !== start; steps++) {
        if (!e || steps > QUICKHULL3D_RING_LIMIT) throw new Error('quickhull3d: a face whose edges do not close');
        e = e.next;
      }
    }
    return compute.apply(this, args);
  };
}

/**
 * Exact convex hull of points that span a volume (see spansVolume), by quickhull3d, or undefined
 * when it fails (a broken face included: guardQuickhull3d) or its result is not a closed convex
 * surface.
 */
export function exactConvexHull(p: Float64Array): HullGeometry | undefined {
  guardQuickhull3d();
  const n = p.length / 3;
  const pts: number[][] = [];
  for (let i = 0; i < n; i++) pts.push([p[3 * i], p[3 * i + 1], p[3 * i + 2]]);
  let faces: number[][];
  try {
    faces = quickhull(pts);
  } catch {
    return undefined;
  }
  const tris: number[] = [];
  for (const f of faces) {
    if (f.length !== 3) return undefined;
    tris.push(f[0], f[1], f[2]);
  }
  return hullFromTriangles(p, tris);
}

/**
 * quickhull.ts's tolerances (relative to the extent) fastConvexHull tries after its default one:
 * near-coplanar points (a cut piece's face on the cut plane, a flat bottom) can leave creases the
 * validation rejects at 1e-10 and accepts a little looser. quickhull3d, the last resort, never
 * returned on one such set: 193 points of a piece of the WebXR Oculus Touch controller's x button
 * at 2 m, 16 x 10 x 9 cm (npm @webxr-input-profiles/assets 1.0.20), looped in its face merging;
 * at 1e-9 quickhull.ts gives its hull (154 of the points).
 */
const FAST_HULL_RETRY_EPS = [1e-9, 1e-7];

/**
 * The same, by the typed-array quickhull of quickhull.ts (faster, for the decomposition's inner
 * loops), at its default tolerance, then at FAST_HULL_RETRY_EPS, and only then by quickhull3d.
 */
export function fastConvexHull(p: Float64Array): HullGeometry | undefined {
  const hull = quickHull(p);
  if (hull) return hull;
  for (const eps of FAST_HULL_RETRY_EPS) {
    const again = quickHull(p, eps);
    if (again) return again;
  }
  return exactConvexHull(p);
}

/**
 * A HullGeometry from hull triangles over `p`: re-indexed to the used points, every face turned
 * outward, checked to be closed and locally convex. Undefined when the check fails.
 */
function hullFromTriangles(p: Float64Array, faces: ArrayLike<number>): HullGeometry | undefined {
  if (faces.length < 12) return undefined;
  // 1. Re-index the used vertices.
  const remap = new Map<number, number>();
  const verts: number[] = [];
  const tris: number[] = [];
  for (let k = 0; k < faces.length; k++) {
    const i = faces[k];
    let j = remap.get(i);
    if (j === undefined) {
      j = remap.size;
      remap.set(i, j);
      verts.push(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    }
    tris.push(j);
  }
  const m = remap.size;
  if (m < 4) return undefined;
  let cx = 0,
    cy = 0,
    cz = 0;
  for (let i = 0; i < m; i++) {
    cx += verts[3 * i];
    cy += verts[3 * i + 1];
    cz += verts[3 * i + 2];
  }
  cx /= m;
  cy /= m;
  cz /= m;
  // 2. Planes, each turned outward (away from the centroid of the hull's vertices).
  const t = tris.length / 3;
  const planes = new Float64Array(4 * t);
  let volume6 = 0;
  for (let f = 0; f < t; f++) {
    let a = tris[3 * f],
      b = tris[3 * f + 1],
      c = tris[3 * f + 2];
    triangleCross(verts, a, b, c, planes, 4 * f);
    let nx = planes[4 * f],
      ny = planes[4 * f + 1],
      nz = planes[4 * f + 2];
    const len = Math.hypot(nx, ny, nz);
    if (len === 0) {
      planes.set([0, 0, 0, 0], 4 * f);
      continue;
    }
    nx /= len;
    ny /= len;
    nz /= len;
    if (nx * (verts[3 * a] - cx) + ny * (verts[3 * a + 1] - cy) + nz * (verts[3 * a + 2] - cz) < 0) {
      tris[3 * f + 1] = c;
      tris[3 * f + 2] = b;
      [b, c] = [c, b];
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
    planes[4 * f] = nx;
    planes[4 * f + 1] = ny;
    planes[4 * f + 2] = nz;
    planes[4 * f + 3] = nx * verts[3 * a] + ny * verts[3 * a + 1] + nz * verts[3 * a + 2];
    volume6 += ((verts[3 * a] - cx) * nx + (verts[3 * a + 1] - cy) * ny + (verts[3 * a + 2] - cz) * nz) * len;
  }
  // 3. Closed manifold: every directed edge once, its reverse once.
  const edges = new Map<number, number>();
  for (let f = 0; f < t; f++) {
    for (let k = 0; k < 3; k++) {
      const a = tris[3 * f + k],
        b = tris[3 * f + ((k + 1) % 3)];
      const key = a * m + b;
      if (edges.has(key)) return undefined;
      edges.set(key, f);
    }
  }
  // 4. Locally convex: the far vertex of each neighbouring face is not in front of this face.
  const { extent } = bounds(verts);
  const tol = extent * 1e-9;
  for (let f = 0; f < t; f++) {
    for (let k = 0; k < 3; k++) {
      const a = tris[3 * f + k],
        b = tris[3 * f + ((k + 1) % 3)];
      const g = edges.get(b * m + a);
      if (g === undefined) return undefined;
      let far = tris[3 * g];
      if (far === a || far === b) far = tris[3 * g + 1];
      if (far === a || far === b) far = tris[3 * g + 2];
      const s =
        planes[4 * f] * verts[3 * far] +
        planes[4 * f + 1] * verts[3 * far + 1] +
        planes[4 * f + 2] * verts[3 * far + 2] -
        planes[4 * f + 3];
      if (s > tol) return undefined;
    }
  }
  return { points: Float64Array.from(verts), triangles: Uint32Array.from(tris), planes, volume: volume6 / 6 };
}

/**
 * A polytope of at most `maxVertices` vertices containing every point of `all`, cut from the
 * bounding box by planes of `hull` (greedy: the worst corner's most violated plane first).
 * `margin` is added to every plane offset. Returns its vertices and volume.
 */
function containingPolytope(
  hull: HullGeometry,
  all: Float64Array,
  maxVertices: number,
  margin: number,
): { points: Float64Array; volume: number } {
  // 1. Work in a frame centred on the hull with unit half-extent (for the polytope's epsilons).
  const { min, max } = bounds(all);
  const c = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const s = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2 || 1;
  const m = margin / s;
  const eps = 1e-10;
  const support = (nx: number, ny: number, nz: number): number => {
    let best = -Infinity;
    for (let i = 0; i < all.length; i += 3) {
      const d = nx * all[i] + ny * all[i + 1] + nz * all[i + 2];
      if (d > best) best = d;
    }
    return (best - (nx * c[0] + ny * c[1] + nz * c[2])) / s + m;
  };
  // 2. Candidate planes: the hull's face normals, near-duplicates merged, offsets from the hull's vertices.
  const np = hull.planes.length / 4;
  const cand: number[] = [];
  const seen = new Set<string>();
  for (let f = 0; f < np; f++) {
    const nx = hull.planes[4 * f],
      ny = hull.planes[4 * f + 1],
      nz = hull.planes[4 * f + 2];
    if (nx === 0 && ny === 0 && nz === 0) continue;
    const key = `${Math.round(nx * 1e7)},${Math.round(ny * 1e7)},${Math.round(nz * 1e7)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cand.push(f);
  }
  // (The hull is convex, so a face's own plane is its supporting plane over the hull's vertices.)
  const cn = new Float64Array(cand.length * 4);
  cand.forEach((f, i) => {
    const nx = hull.planes[4 * f],
      ny = hull.planes[4 * f + 1],
      nz = hull.planes[4 * f + 2];
    cn.set([nx, ny, nz, (hull.planes[4 * f + 3] - (nx * c[0] + ny * c[1] + nz * c[2])) / s], 4 * i);
  });
  // 3. Start from the box (or, for fewer than 8 vertices, a bounding tetrahedron).
  const lo = [0, 1, 2].map((k) => (min[k] - c[k]) / s - m);
  const hi = [0, 1, 2].map((k) => (max[k] - c[k]) / s + m);
  let poly = ConvexPolytope.box(lo, hi);
  if (maxVertices < 8) {
    poly = ConvexPolytope.box([-8, -8, -8], [8, 8, 8]);
    for (const [x, y, z] of [
      [1, 1, 1],
      [1, -1, -1],
      [-1, 1, -1],
      [-1, -1, 1],
    ]) {
      const l = Math.sqrt(3);
      poly.clip(x / l, y / l, z / l, support(x / l, y / l, z / l), eps);
    }
  }
  // 4. Greedy: cut the corner that sticks out farthest by the plane it violates most.
  const violation = new Map<number, { v: number; plane: number }>();
  const rate = (vi: number) => {
    const x = poly.xyz[3 * vi],
      y = poly.xyz[3 * vi + 1],
      z = poly.xyz[3 * vi + 2];
    let best = -Infinity,
      plane = -1;
    for (let i = 0; i < cn.length; i += 4) {
      const d = cn[i] * x + cn[i + 1] * y + cn[i + 2] * z - cn[i + 3];
      if (d > best) {
        best = d;
        plane = i / 4;
      }
    }
    violation.set(vi, { v: best, plane });
  };
  const used = new Set<number>();
  let failures = 0;
  for (;;) {
    const verts = poly.vertexIndices();
    for (const v of verts) if (!violation.has(v)) rate(v);
    // Corners in order of violation; the first whose plane fits the budget wins.
    const order = verts
      .filter((v) => violation.get(v)!.v > 1e-9 && !used.has(violation.get(v)!.plane))
      .sort((a, b) => violation.get(b)!.v - violation.get(a)!.v || a - b);
    if (order.length === 0) break;
    let applied = false;
    for (const v of order) {
      const j = violation.get(v)!.plane;
      const facesBefore = poly.faces;
      const xyzBefore = poly.xyz.length;
      const nx = cn[4 * j],
        ny = cn[4 * j + 1],
        nz = cn[4 * j + 2];
      const changed = poly.clip(nx, ny, nz, support(nx * 1, ny * 1, nz * 1), eps);
      used.add(j);
      if (!changed) continue;
      if (poly.vertexCount() <= maxVertices) {
        applied = true;
        break;
      }
      poly.faces = facesBefore;
      poly.xyz.length = xyzBefore;
      for (const key of [...violation.keys()]) if (key * 3 >= xyzBefore) violation.delete(key);
      if (++failures > 64) break;
    }
    if (!applied) break;
  }
  // 5. Back to the input frame.
  const local = poly.vertices();
  const out = new Float64Array(local.length);
  for (let i = 0; i < local.length; i += 3) {
    out[i] = local[i] * s + c[0];
    out[i + 1] = local[i + 1] * s + c[1];
    out[i + 2] = local[i + 2] * s + c[2];
  }
  return { points: out, volume: poly.volume() * s * s * s };
}

/**
 * The single convex hull (BoundingVerts) of `positions` (flat xyz), at most `maxVertices`
 * (default 256) vertices, containing every finite input point. See the file comment.
 *
 * Remembered for the inputs last asked for (HULL_MEMO_FLOATS values in all): a linkset of copies of one
 * part (fence pickets, an engine's springs) asks for the same hull once per copy, and a hull
 * reduced to 256 vertices takes tens of milliseconds; a big object's pricing asks again for what
 * optimize's physics step priced (a 1M-triangle Suzanne exported flat-shaded is written as four
 * objects, three of them high only: three hulls of 524k points each, 2.3 s in all, each asked
 * twice). An input of up to half the memory (in 4-byte words) is kept. An input is the same only when its every
 * value is bit for bit equal (and its type and the limit); each caller gets its own copy.
 */
export function convexHull(positions: Float32Array | Float64Array, maxVertices = MAX_HULL_VERTICES): ConvexHullResult {
  const limit = Math.max(4, Math.floor(maxVertices));
  if (positions.byteLength / 4 > HULL_MEMO_FLOATS / 2) return computeConvexHull(positions, limit);
  const tag = `${positions instanceof Float32Array ? 'f' : 'd'}${limit}`;
  const result = HULL_MEMO.take([bytesOf(positions)], tag, () => computeConvexHull(positions, limit));
  return { ...result, points: result.points.slice() };
}

/** Most input held by convexHull's memory, in 4-byte words over all its remembered inputs (32 MB). */
const HULL_MEMO_FLOATS = 8_000_000;

/** Hulls by input, weighed in input words; the results are never handed out (callers get copies). */
const HULL_MEMO = new ByteMemo<ConvexHullResult>(HULL_MEMO_FLOATS, ([input]) => input.length / 4);

function computeConvexHull(positions: Float32Array | Float64Array, limit: number): ConvexHullResult {
  const { extent, maxAbs } = bounds(positions);
  // 1. Clean: exact duplicates only (welding near ones could leave a point outside).
  const pts = weldPoints(positions, 0);
  const fallback = (): ConvexHullResult => {
    const corners = boxCorners(positions);
    const { min, max } = bounds(corners);
    const volume = corners.length >= 24 ? (max[0] - min[0]) * (max[1] - min[1]) * (max[2] - min[2]) : 0;
    if (corners.length / 3 > limit) {
      // Fewer vertices than a box has: the tetrahedron x/3a + y/3b + z/3c <= 1 from the box's
      // min corner (a, b, c its sides) holds the whole box.
      const [a, b, c] = [max[0] - min[0], max[1] - min[1], max[2] - min[2]].map((v) => Math.fround(3 * v) * (1 + 1e-6));
      const tet = Float32Array.of(
        min[0],
        min[1],
        min[2],
        min[0] + a,
        min[1],
        min[2],
        min[0],
        min[1] + b,
        min[2],
        min[0],
        min[1],
        min[2] + c,
      );
      return {
        points: tet,
        exactVertexCount: corners.length / 3,
        reduced: true,
        boxFallback: true,
        volume: (a * b * c) / 6,
        exactVolume: 0,
      };
    }
    return {
      points: corners,
      exactVertexCount: corners.length / 3,
      reduced: false,
      boxFallback: true,
      volume,
      exactVolume: 0,
    };
  };
  // 2. Degenerate sets (and sizes so small that float arithmetic underflows).
  if (pts.length < 12 || extent < 1e-30 || !spansVolume(pts, extent * FLAT_RELATIVE)) return fallback();
  // 3. Exact hull.
  const hull = exactConvexHull(pts);
  // A margin that survives rounding the output to float32.
  const margin = Math.max(extent * 1e-6, maxAbs * 2.5e-7);
  if (!hull) {
    // quickhull failed or gave an invalid surface: the bounding box still contains everything.
    return fallback();
  }
  const exactVertexCount = hull.points.length / 3;
  if (exactVertexCount <= limit) {
    return {
      points: Float32Array.from(hull.points),
      exactVertexCount,
      reduced: false,
      boxFallback: false,
      volume: hull.volume,
      exactVolume: hull.volume,
    };
  }
  // 4. Reduce, containing every input point. Corners that rounding leaves on an edge or a flat
  //    side are dropped (the shape does not change).
  const poly = containingPolytope(hull, pts, limit, margin);
  const rounded = Float32Array.from(poly.points);
  const clean = exactConvexHull(Float64Array.from(rounded));
  const points = clean && clean.points.length <= rounded.length ? Float32Array.from(clean.points) : rounded;
  return { points, exactVertexCount, reduced: true, boxFallback: false, volume: poly.volume, exactVolume: hull.volume };
}

/**
 * A closed triangle mesh of the convex hull of `points` (flat xyz), outward-facing, for writing
 * a hull as a mesh (the `_PHYS` node of uploader-ready glTF). Degenerate sets give no triangles.
 */
export function convexHullMesh(points: Float32Array | Float64Array): { positions: Float32Array; indices: Uint32Array } {
  const { extent } = bounds(points);
  const pts = weldPoints(points, extent * WELD_RELATIVE);
  if (pts.length < 12 || !spansVolume(pts, extent * FLAT_RELATIVE))
    return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  const hull = exactConvexHull(pts);
  if (!hull) return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  return { positions: Float32Array.from(hull.points), indices: hull.triangles };
}
