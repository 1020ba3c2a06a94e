/**
 * How badly a convex hull fits the solid it stands for, in metres, as an avatar would feel it:
 * the farthest any point of the hull's surface lies from the solid (SolidField distance).
 *
 * CoACD (Wei et al. 2022, "Approximate convex decomposition for 3D meshes with collision-aware
 * concavity and tree search") measures concavity as the Hausdorff distance between a part and
 * its hull (plus a volume term). Here only the direction that matters for collisions is kept:
 * hull surface far from any solid is a wall where there is none - a doorway closed, a hole
 * filled, a gap bridged - and it is exactly what the tolerance bounds. Material inside the hull
 * (the other direction) costs nothing in a collision and is not counted, so enclosed cavities may
 * be filled, as voxel methods with flood fill do too.
 *
 * The surface is probed on a regular lattice per hull triangle (rows parallel to its longest
 * edge, at most `spacing` apart), deterministic; the probe count is capped, coarsening the
 * spacing on big hulls.
 *
 * `partHull` is the hull every part gets: exact (quickhull.ts, quickhull3d as its fallback) when
 * the points span a volume, otherwise the flat or thin set is thickened to `minThickness` first,
 * so every hull is solid. `hullAir` counts the empty space inside a hull on the field.
 */

import { fastConvexHull, spansVolume, type HullGeometry } from './convex-hull.js';
import { principalAxes } from '../geometry/principal-axes.js';
import { outsideDistance, type SolidField } from './solid-field.js';
import { triangleArea } from '../geometry/indexed-mesh.js';

export interface PartHull extends HullGeometry {
  /** Surface area. */
  area: number;
  /** Bounding box of the hull's points. */
  min: [number, number, number];
  max: [number, number, number];
  /** True when the points were flat (or thinner than minThickness) and were thickened. */
  thickened: boolean;
}

function finishHull(h: HullGeometry, thickened: boolean): PartHull {
  const p = h.points,
    t = h.triangles;
  let area = 0;
  for (let i = 0; i < t.length; i += 3) {
    area += triangleArea(p, t[i], t[i + 1], t[i + 2]);
  }
  const min: [number, number, number] = [Infinity, Infinity, Infinity],
    max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[i + k]);
      max[k] = Math.max(max[k], p[i + k]);
    }
  }
  return { ...h, area, min, max, thickened };
}

/** Adds copies of the points offset by +-half along each direction given. */
function thicken(p: Float64Array, dirs: number[][], half: number): Float64Array {
  let out = p;
  for (const [dx, dy, dz] of dirs) {
    const n = out.length / 3;
    const next = new Float64Array(out.length * 2);
    for (let i = 0; i < n; i++) {
      next.set([out[3 * i] + dx * half, out[3 * i + 1] + dy * half, out[3 * i + 2] + dz * half], 6 * i);
      next.set([out[3 * i] - dx * half, out[3 * i + 1] - dy * half, out[3 * i + 2] - dz * half], 6 * i + 3);
    }
    out = next;
  }
  return out;
}

/**
 * The convex hull of `points` as a solid: exact when they span more than `minThickness`, else
 * thickened to `minThickness` across their plane (or line, or point). Undefined for no points.
 */
export function partHull(points: ArrayLike<number>, minThickness: number): PartHull | undefined {
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < points.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], points[i + k]);
      hi[k] = Math.max(hi[k], points[i + k]);
    }
  }
  if (!(lo[0] <= hi[0])) return undefined;
  let p = points instanceof Float64Array ? points : Float64Array.from(points);
  const thin = !spansVolume(p, minThickness * 0.5);
  if (thin) {
    // 1. Thin: thicken across the directions of least spread (1 for a sheet, 2 for a rod, 3 for a point).
    const pa = principalAxes(p);
    const flat = pa.variances.map((v) => Math.sqrt(v) * 2 < minThickness);
    const dirs = [0, 1, 2].filter((i) => flat[i] || i === 2).map((i) => pa.axes[i]);
    p = thicken(p, dirs, minThickness / 2);
  }
  const h = fastConvexHull(p);
  if (h) return finishHull(h, thin);
  // 2. quickhull could not: the (thickened) bounding box.
  const m = minThickness / 2;
  const box: number[] = [];
  for (let i = 0; i < 8; i++)
    box.push(i & 1 ? hi[0] + m : lo[0] - m, i & 2 ? hi[1] + m : lo[1] - m, i & 4 ? hi[2] + m : lo[2] - m);
  const hb = fastConvexHull(Float64Array.from(box));
  return hb ? finishHull(hb, true) : undefined;
}

/**
 * Probe points on the hull's surface: per triangle, rows parallel to its longest edge at most
 * `spacing` apart, points on each row at most `spacing` apart. The spacing grows so that about
 * `maxProbes` points cover the hull. Each point is handed to `visit`; returning true stops.
 */
export function forEachProbe(
  hull: PartHull,
  spacing: number,
  maxProbes: number,
  // biome-ignore lint/suspicious/noConfusingVoidType: a visitor returns nothing to go on, or true to stop
  visit: (x: number, y: number, z: number) => boolean | void,
): void {
  const s = Math.max(spacing, Math.sqrt(hull.area / Math.max(1, maxProbes)));
  const p = hull.points,
    t = hull.triangles;
  for (let i = 0; i < t.length; i += 3) {
    // Base = longest edge (a, b), apex c.
    let a = 3 * t[i],
      b = 3 * t[i + 1],
      c = 3 * t[i + 2];
    const lab = (p[b] - p[a]) ** 2 + (p[b + 1] - p[a + 1]) ** 2 + (p[b + 2] - p[a + 2]) ** 2;
    const lbc = (p[c] - p[b]) ** 2 + (p[c + 1] - p[b + 1]) ** 2 + (p[c + 2] - p[b + 2]) ** 2;
    const lca = (p[a] - p[c]) ** 2 + (p[a + 1] - p[c + 1]) ** 2 + (p[a + 2] - p[c + 2]) ** 2;
    if (lbc >= lab && lbc >= lca) [a, b, c] = [b, c, a];
    else if (lca >= lab && lca >= lbc) [a, b, c] = [c, a, b];
    const ux = p[b] - p[a],
      uy = p[b + 1] - p[a + 1],
      uz = p[b + 2] - p[a + 2];
    const base = Math.sqrt(ux * ux + uy * uy + uz * uz);
    if (base === 0) continue;
    const vx = p[c] - p[a],
      vy = p[c + 1] - p[a + 1],
      vz = p[c + 2] - p[a + 2];
    const cx = uy * vz - uz * vy,
      cy = uz * vx - ux * vz,
      cz = ux * vy - uy * vx;
    const height = Math.sqrt(cx * cx + cy * cy + cz * cz) / base;
    const rows = Math.max(1, Math.ceil(height / s));
    for (let r = 0; r <= rows; r++) {
      const f = r / rows;
      // Row from a + f (c - a) to b + f (c - b): length (1 - f) * base.
      const x0 = p[a] + f * vx,
        y0 = p[a + 1] + f * vy,
        z0 = p[a + 2] + f * vz;
      const x1 = p[b] + f * (p[c] - p[b]),
        y1 = p[b + 1] + f * (p[c + 1] - p[b + 1]),
        z1 = p[b + 2] + f * (p[c + 2] - p[b + 2]);
      const cols = Math.max(1, Math.ceil(((1 - f) * base) / s));
      for (let k = 0; k <= cols; k++) {
        const g = k / cols;
        if (visit(x0 + g * (x1 - x0), y0 + g * (y1 - y0), z0 + g * (z1 - z0))) return;
      }
    }
  }
}

/** The probe points of forEachProbe, flat xyz. */
export function hullProbes(hull: PartHull, spacing: number, maxProbes: number): Float64Array {
  const out: number[] = [];
  forEachProbe(hull, spacing, maxProbes, (x, y, z) => {
    out.push(x, y, z);
  });
  return Float64Array.from(out);
}

export interface Concavity {
  /** Largest distance from a probe on the hull's surface to the solid, metres. */
  value: number;
  /** Where it was found. */
  worst: [number, number, number];
  /**
   * Empty volume just under the hull's surface, m^3: the integral over the surface of the
   * distance to the solid beyond a tenth of a cell (each probe standing for its share of the
   * area). Exact for a thin layer of air along the surface; deep pockets are hullAir's job.
   */
  air: number;
}

/**
 * Concavity of `hull` against `field`: the farthest probe from the solid, and the air under the
 * surface. With `stopAbove`, a coarse pass first looks for a probe farther than that and stops
 * there (the value is then a lower bound and `air` is not computed).
 */
export function hullConcavity(
  hull: PartHull,
  field: SolidField,
  spacing: number,
  maxProbes: number,
  stopAbove = Infinity,
): Concavity {
  const worst: [number, number, number] = [hull.points[0], hull.points[1], hull.points[2]];
  let value = 0;
  if (stopAbove < Infinity) {
    forEachProbe(hull, spacing * 3, maxProbes / 9, (x, y, z) => {
      const d = outsideDistance(field, x, y, z);
      if (d > value) {
        value = d;
        worst[0] = x;
        worst[1] = y;
        worst[2] = z;
      }
      return d > stopAbove;
    });
    if (value > stopAbove) return { value, worst, air: 0 };
  }
  const floor = 0.1 * field.cell;
  let sum = 0,
    count = 0;
  forEachProbe(hull, spacing, maxProbes, (x, y, z) => {
    const d = outsideDistance(field, x, y, z);
    count++;
    if (d > floor) sum += d - floor;
    if (d > value) {
      value = d;
      worst[0] = x;
      worst[1] = y;
      worst[2] = z;
      return d > stopAbove;
    }
    return false;
  });
  return { value, worst, air: count > 0 ? (sum * hull.area) / count : 0 };
}

/**
 * Empty volume inside the hull, m^3: lattice points (a sub-lattice of the field's cell centres,
 * about `samples` over the hull's box) inside the hull and outside the solid by the field's
 * distance (more than a tenth of a cell, so thin layers of air along a surface count too).
 */
export function hullAir(hull: PartHull, field: SolidField, samples = 4096): number {
  const { origin, cell, dims, distance } = field;
  const [nx, ny, nz] = dims;
  const i0 = Math.max(0, Math.floor((hull.min[0] - origin[0]) / cell)),
    i1 = Math.min(nx - 1, Math.floor((hull.max[0] - origin[0]) / cell));
  const j0 = Math.max(0, Math.floor((hull.min[1] - origin[1]) / cell)),
    j1 = Math.min(ny - 1, Math.floor((hull.max[1] - origin[1]) / cell));
  const k0 = Math.max(0, Math.floor((hull.min[2] - origin[2]) / cell)),
    k1 = Math.min(nz - 1, Math.floor((hull.max[2] - origin[2]) / cell));
  const box = (i1 - i0 + 1) * (j1 - j0 + 1) * (k1 - k0 + 1);
  const stride = Math.max(1, Math.round(Math.cbrt(box / samples)));
  const pl = hull.planes;
  let air = 0;
  for (let k = k0 + (stride >> 1); k <= k1; k += stride) {
    const z = origin[2] + (k + 0.5) * cell;
    for (let j = j0 + (stride >> 1); j <= j1; j += stride) {
      const y = origin[1] + (j + 0.5) * cell;
      for (let i = i0 + (stride >> 1); i <= i1; i += stride) {
        // Far inside (the transform's value) is solid for certain; near the surface, interpolate.
        if (distance[i + nx * (j + ny * k)] <= -cell) continue;
        const x = origin[0] + (i + 0.5) * cell;
        let inside = true;
        for (let f = 0; f < pl.length; f += 4) {
          if (pl[f] * x + pl[f + 1] * y + pl[f + 2] * z > pl[f + 3]) {
            inside = false;
            break;
          }
        }
        // Sampled a quarter cell off the lattice, between the field's own values.
        if (inside && outsideDistance(field, x + 0.25 * cell, y + 0.25 * cell, z + 0.25 * cell) > 0.1 * cell) air++;
      }
    }
  }
  return air * (stride * cell) ** 3;
}
