/**
 * Silhouette coverage: how much of a reference mesh's silhouette another mesh still covers, seen
 * from several directions. slmesh uses it as the floor under every generated LOD: however far a
 * LOD is shown, it must keep the object's outline (a LOD whose pieces collapsed would fail here
 * even when its Hausdorff error is within the pixel bound).
 *
 * Method: orthographic projections along 7 directions (the 3 axes and the 4 cube diagonals; a
 * silhouette seen from d equals the one seen from -d). For each direction the reference mesh's
 * projected bounding rectangle is divided into `resolution` x `resolution` cells (a cell is
 * filled when its centre lies in a projected triangle; edges count as inside), so the measure
 * does not depend on the object's size or proportions. A reference cell is covered when the other
 * mesh fills a cell within `tolerance` (default 1/64 of the reference's largest side, the same
 * distance in every view) of it: shrinking by less than that does not count, parts that vanish or
 * holes that open do. Coverage of a view = covered reference cells / reference cells; the result
 * is the smallest coverage over the views (views where the reference has no area, e.g. a flat
 * plane seen edge on, are skipped). Deterministic; pure scan conversion, no GPU.
 */

import type { IndexedMesh } from './../geometry/indexed-mesh.js';

export type Direction = readonly [number, number, number];

/** The 3 axes and the 4 cube diagonals. */
export const SILHOUETTE_DIRECTIONS: readonly Direction[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 1],
  [1, 1, -1],
  [1, -1, 1],
  [-1, 1, 1],
];

export interface SilhouetteOptions {
  /** Cells per side of each view's grid. Default 64. */
  resolution?: number;
  /** A reference cell within this distance of the other mesh's silhouette counts as covered, as a fraction of the reference's largest side. Default 1/64. */
  tolerance?: number;
  /** View directions. Default SILHOUETTE_DIRECTIONS. */
  directions?: readonly Direction[];
}

export const SILHOUETTE_DEFAULTS = { resolution: 64, tolerance: 1 / 64 };

/** One view: a projection plane (u, v) and the grid placed on the reference's projected box. */
export interface SilhouetteView {
  u: [number, number, number];
  v: [number, number, number];
  u0: number;
  v0: number;
  /** Cell size along u and v. */
  du: number;
  dv: number;
  resolution: number;
  /** Covered means within this many cells along u and v (the tolerance in this view's cells). */
  reachU: number;
  reachV: number;
}

/** The reference silhouettes: one grid per view with the covered cells, and their counts. */
export interface SilhouetteReference {
  views: SilhouetteView[];
  masks: Uint8Array[];
  areas: number[];
}

function basis(d: Direction): { u: [number, number, number]; v: [number, number, number] } {
  const len = Math.hypot(d[0], d[1], d[2]);
  const w = [d[0] / len, d[1] / len, d[2] / len];
  // Any vector not parallel to w, then Gram-Schmidt.
  const a = Math.abs(w[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const dot = a[0] * w[0] + a[1] * w[1] + a[2] * w[2];
  const u0 = [a[0] - dot * w[0], a[1] - dot * w[1], a[2] - dot * w[2]];
  const ul = Math.hypot(u0[0], u0[1], u0[2]);
  const u: [number, number, number] = [u0[0] / ul, u0[1] / ul, u0[2] / ul];
  const v: [number, number, number] = [w[1] * u[2] - w[2] * u[1], w[2] * u[0] - w[0] * u[2], w[0] * u[1] - w[1] * u[0]];
  return { u, v };
}

/** Views fitted to a mesh's projected bounding rectangles; a view with no extent has du = dv = 0. */
export function silhouetteViews(mesh: IndexedMesh<Float32Array>, options: SilhouetteOptions = {}): SilhouetteView[] {
  const resolution = options.resolution ?? SILHOUETTE_DEFAULTS.resolution;
  const directions = options.directions ?? SILHOUETTE_DIRECTIONS;
  const tolerance = options.tolerance ?? SILHOUETTE_DEFAULTS.tolerance;
  const { positions: p, indices } = mesh;
  const used = new Uint8Array(p.length / 3);
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    used[v] = 1;
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p[v * 3 + k]);
      hi[k] = Math.max(hi[k], p[v * 3 + k]);
    }
  }
  const reach = tolerance * Math.max(0, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return directions.map((d) => {
    const { u, v } = basis(d);
    let umin = Infinity,
      umax = -Infinity,
      vmin = Infinity,
      vmax = -Infinity;
    for (let o = 0; o + 2 < p.length; o += 3) {
      if (!used[o / 3]) continue;
      const pu = p[o] * u[0] + p[o + 1] * u[1] + p[o + 2] * u[2];
      const pv = p[o] * v[0] + p[o + 1] * v[1] + p[o + 2] * v[2];
      if (pu < umin) umin = pu;
      if (pu > umax) umax = pu;
      if (pv < vmin) vmin = pv;
      if (pv > vmax) vmax = pv;
    }
    const extent = Math.max(umax - umin, vmax - vmin);
    const flat = !(extent > 0) || !(umax - umin > extent * 1e-6) || !(vmax - vmin > extent * 1e-6);
    const du = flat ? 0 : (umax - umin) / resolution,
      dv = flat ? 0 : (vmax - vmin) / resolution;
    const cells = (c: number) => (c > 0 ? Math.min(resolution, Math.floor(reach / c + 1e-9)) : 0);
    return { u, v, u0: flat ? 0 : umin, v0: flat ? 0 : vmin, du, dv, resolution, reachU: cells(du), reachV: cells(dv) };
  });
}

/** Scan-converts a mesh into one view's grid (cells whose centre is inside a projected triangle). */
export function rasterizeSilhouette(mesh: IndexedMesh<Float32Array>, view: SilhouetteView): Uint8Array {
  const r = view.resolution;
  const mask = new Uint8Array(r * r);
  if (!(view.du > 0) || !(view.dv > 0)) return mask;
  const { positions: p, indices } = mesh;
  const { u, v, u0, v0, du, dv } = view;
  // Project each vertex once, in cell units.
  const nv = Math.floor(p.length / 3);
  const px = new Float32Array(nv),
    py = new Float32Array(nv);
  for (let i = 0; i < nv; i++) {
    const o = i * 3;
    px[i] = (p[o] * u[0] + p[o + 1] * u[1] + p[o + 2] * u[2] - u0) / du;
    py[i] = (p[o] * v[0] + p[o + 1] * v[1] + p[o + 2] * v[2] - v0) / dv;
  }
  const X = [0, 0, 0],
    Y = [0, 0, 0];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      X[k] = px[indices[t + k]];
      Y[k] = py[indices[t + k]];
    }
    const area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (!(Math.abs(area) > 1e-12)) continue;
    const s = area > 0 ? 1 : -1;
    // Cell (i, j) has its centre at (i + 0.5, j + 0.5).
    const i0 = Math.max(0, Math.ceil(Math.min(X[0], X[1], X[2]) - 0.5));
    const i1 = Math.min(r - 1, Math.floor(Math.max(X[0], X[1], X[2]) - 0.5));
    const j0 = Math.max(0, Math.ceil(Math.min(Y[0], Y[1], Y[2]) - 0.5));
    const j1 = Math.min(r - 1, Math.floor(Math.max(Y[0], Y[1], Y[2]) - 0.5));
    for (let j = j0; j <= j1; j++) fillSpan(mask, j * r, j + 0.5, i0, i1, s, X, Y);
  }
  return mask;
}

/**
 * Edge k's test at cell column i on the row at height y: whether the cell's centre is on the
 * triangle's side of (or on) the edge from corner k to corner k + 1.
 */
function inside(k: number, i: number, y: number, s: number, X: number[], Y: number[]): boolean {
  const k1 = k === 2 ? 0 : k + 1;
  return !(s * ((X[k1] - X[k]) * (y - Y[k]) - (i + 0.5 - X[k]) * (Y[k1] - Y[k])) < 0);
}

/**
 * Sets the cells of one row (columns i0..i1 at height y, the row starting at `base`) whose centre
 * is inside the triangle: each edge's test, as computed, moves one way along a row (each step of
 * its arithmetic is monotone in x), so the cells passing all three are one run. Its ends are found
 * from where each edge crosses the row, corrected cell by cell with the test itself, so the cells
 * set are exactly those the test passes, without testing every cell of the box.
 */
function fillSpan(
  mask: Uint8Array,
  base: number,
  y: number,
  i0: number,
  i1: number,
  s: number,
  X: number[],
  Y: number[],
): void {
  let lo = i0,
    hi = i1;
  for (let k = 0; k < 3 && lo <= hi; k++) {
    const k1 = k === 2 ? 0 : k + 1;
    const dy = Y[k1] - Y[k];
    if (dy === 0) {
      // The same at every column.
      if (!inside(k, lo, y, s, X, Y)) return;
      continue;
    }
    // The column nearest where the edge crosses the row, then the first (or last) that passes.
    const cross = Math.round(X[k] + ((X[k1] - X[k]) * (y - Y[k])) / dy - 0.5);
    const guess = Number.isFinite(cross) ? Math.min(hi, Math.max(lo, cross)) : lo;
    if (s * dy > 0) {
      // Passes up to a last column.
      let g = guess;
      while (g >= lo && !inside(k, g, y, s, X, Y)) g--;
      while (g + 1 <= hi && inside(k, g + 1, y, s, X, Y)) g++;
      hi = g;
    } else {
      // Passes from a first column on.
      let g = guess;
      while (g <= hi && !inside(k, g, y, s, X, Y)) g++;
      while (g - 1 >= lo && inside(k, g - 1, y, s, X, Y)) g--;
      lo = g;
    }
  }
  if (lo <= hi) mask.fill(1, base + lo, base + hi + 1);
}

/** The reference mesh's silhouettes, to compare other meshes against (computed once). */
export function silhouetteReference(
  mesh: IndexedMesh<Float32Array>,
  options: SilhouetteOptions = {},
): SilhouetteReference {
  const views = silhouetteViews(mesh, options);
  const masks = views.map((view) => rasterizeSilhouette(mesh, view));
  const areas = masks.map((m) => m.reduce((a, b) => a + b, 0));
  return { views, masks, areas };
}

export interface SilhouetteCoverage {
  /** Smallest coverage over the views, in [0, 1] (1 when no view has area). */
  coverage: number;
  /** Coverage per view (1 for skipped views). */
  perView: number[];
}

/** Grows a mask by `ru` cells along u and `rv` along v (a box-shaped max filter, done per axis). */
function dilate(mask: Uint8Array, r: number, ru: number, rv: number): Uint8Array {
  if (ru <= 0 && rv <= 0) return mask;
  const a = new Uint8Array(mask.length);
  for (let j = 0; j < r; j++) {
    // Two sweeps: distance to the nearest set cell on the left and on the right.
    let last = -Infinity;
    for (let i = 0; i < r; i++) {
      if (mask[j * r + i]) last = i;
      if (i - last <= ru) a[j * r + i] = 1;
    }
    last = Infinity;
    for (let i = r - 1; i >= 0; i--) {
      if (mask[j * r + i]) last = i;
      if (last - i <= ru) a[j * r + i] = 1;
    }
  }
  if (rv <= 0) return a;
  const b = new Uint8Array(mask.length);
  for (let i = 0; i < r; i++) {
    let last = -Infinity;
    for (let j = 0; j < r; j++) {
      if (a[j * r + i]) last = j;
      if (j - last <= rv) b[j * r + i] = 1;
    }
    last = Infinity;
    for (let j = r - 1; j >= 0; j--) {
      if (a[j * r + i]) last = j;
      if (last - j <= rv) b[j * r + i] = 1;
    }
  }
  return b;
}

/** How much of the reference's silhouettes `mesh` covers: min over views of |ref AND mesh| / |ref|. */
export function silhouetteCoverage(
  reference: SilhouetteReference,
  mesh: IndexedMesh<Float32Array>,
): SilhouetteCoverage {
  const perView = reference.views.map((view, k) => {
    const area = reference.areas[k];
    if (area === 0) return 1;
    const m = dilate(rasterizeSilhouette(mesh, view), view.resolution, view.reachU, view.reachV);
    return overlapCount(reference.masks[k], m) / area;
  });
  return { coverage: Math.min(1, ...perView), perView };
}

/** Cells set in both masks. (Its own function: V8 optimises the loop once, not each closure above.) */
function overlapCount(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  for (let i = 0; i < a.length; i++) if (a[i] && b[i]) both++;
  return both;
}
