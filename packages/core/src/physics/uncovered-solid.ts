/**
 * Solid that no hull reaches. An open mesh's surface pieces need not enclose all of its solid: a
 * shell cut into strips leaves the core between them out. The interior cells of the solid field
 * (inside by the vote, not on the surface) that no hull contains are gathered into 6-connected
 * clusters, and each cluster at least `minSize` across becomes a closed voxel surface
 * (voxel-surface.ts), a part the decomposition then treats like any other.
 */

import type { PartHull } from './concavity.js';
import type { IndexedMesh } from '../geometry/indexed-mesh.js';
import type { SolidField } from './solid-field.js';
import { voxelSurface } from './voxel-surface.js';

/** Whether (x, y, z) is inside the hull, with `margin` metres to spare. */
function contains(h: PartHull, x: number, y: number, z: number, margin: number): boolean {
  const pl = h.planes;
  for (let f = 0; f < pl.length; f += 4)
    if (pl[f] * x + pl[f + 1] * y + pl[f + 2] * z > pl[f + 3] + margin) return false;
  return true;
}

/** Rows of a hull's box longer than this many cells are struck out by their inside run. */
const RUN_MIN_CELLS = 16;

/**
 * The run of cells i0..i1 of a row (centres at x = ox + (i + 0.5) * cell, the given y and z) that
 * `contains` puts inside the hull: [first, last], first > last when none. A hull is convex, so the
 * run is one interval; it is found from the face planes (one division each, not a test per cell)
 * and its ends are checked with `contains` itself, so rounding moves no cell.
 */
function insideRun(
  h: PartHull,
  ox: number,
  cell: number,
  y: number,
  z: number,
  margin: number,
  i0: number,
  i1: number,
): [number, number] {
  const pl = h.planes;
  let lo = i0,
    hi = i1;
  for (let f = 0; f < pl.length && lo <= hi; f += 4) {
    const a = pl[f],
      rhs = pl[f + 3] + margin - pl[f + 1] * y - pl[f + 2] * z;
    // Inside this face: a * x <= rhs.
    if (a > 0) hi = Math.min(hi, Math.floor((rhs / a - ox) / cell - 0.5));
    else if (a < 0) lo = Math.max(lo, Math.ceil((rhs / a - ox) / cell - 0.5));
    else if (rhs < 0) return [1, 0];
  }
  if (lo > hi) return [lo, hi];
  const inside = (i: number) => contains(h, ox + (i + 0.5) * cell, y, z, margin);
  while (lo <= hi && !inside(lo)) lo++;
  while (hi >= lo && !inside(hi)) hi--;
  if (lo > hi) return [lo, hi];
  while (lo > i0 && inside(lo - 1)) lo--;
  while (hi < i1 && inside(hi + 1)) hi++;
  return [lo, hi];
}

/**
 * Clusters of interior solid cells no hull covers (within half a cell), as closed voxel surfaces.
 * With `within`, only cells inside that hull are considered (what a cut left out of its parent).
 */
export function uncoveredSolid(
  field: SolidField,
  hulls: PartHull[],
  minSize: number,
  within?: PartHull,
): IndexedMesh<Float64Array>[] {
  const { origin, cell, dims } = field;
  const [nx, ny, nz] = dims;
  const open = uncoveredCells(field, hulls, within);
  // 2. Flood-fill what is left into clusters.
  const out: IndexedMesh<Float64Array>[] = [];
  const stack: number[] = [];
  for (let g0 = 0; g0 < open.length; g0++) {
    if (!open[g0]) continue;
    const cluster: number[] = [];
    open[g0] = 0;
    stack.push(g0);
    let loI = Infinity,
      loJ = Infinity,
      loK = Infinity,
      hiI = -Infinity,
      hiJ = -Infinity,
      hiK = -Infinity;
    while (stack.length > 0) {
      const g = stack.pop()!;
      cluster.push(g);
      const i = g % nx,
        j = Math.floor(g / nx) % ny,
        k = Math.floor(g / (nx * ny));
      if (i < loI) loI = i;
      if (i > hiI) hiI = i;
      if (j < loJ) loJ = j;
      if (j > hiJ) hiJ = j;
      if (k < loK) loK = k;
      if (k > hiK) hiK = k;
      if (i > 0 && open[g - 1]) (open[g - 1] = 0), stack.push(g - 1);
      if (i < nx - 1 && open[g + 1]) (open[g + 1] = 0), stack.push(g + 1);
      if (j > 0 && open[g - nx]) (open[g - nx] = 0), stack.push(g - nx);
      if (j < ny - 1 && open[g + nx]) (open[g + nx] = 0), stack.push(g + nx);
      if (k > 0 && open[g - nx * ny]) (open[g - nx * ny] = 0), stack.push(g - nx * ny);
      if (k < nz - 1 && open[g + nx * ny]) (open[g + nx * ny] = 0), stack.push(g + nx * ny);
    }
    const size = Math.max(hiI - loI, hiJ - loJ, hiK - loK) * cell + cell;
    if (size >= minSize) out.push(voxelSurface(cluster, origin, cell, dims));
  }
  return out;
}

/**
 * The mask of interior solid cells (solid, not on the surface; with `within`, inside that hull)
 * that no hull contains within half a cell: what uncoveredSolid clusters.
 */
export function uncoveredCells(field: SolidField, hulls: PartHull[], within?: PartHull): Uint8Array {
  const { origin, cell, dims, solid, surface } = field;
  const [nx, ny, nz] = dims;
  const open = new Uint8Array(solid.length);
  if (within) {
    const i0 = Math.max(0, Math.floor((within.min[0] - origin[0]) / cell)),
      i1 = Math.min(nx - 1, Math.floor((within.max[0] - origin[0]) / cell));
    const j0 = Math.max(0, Math.floor((within.min[1] - origin[1]) / cell)),
      j1 = Math.min(ny - 1, Math.floor((within.max[1] - origin[1]) / cell));
    const k0 = Math.max(0, Math.floor((within.min[2] - origin[2]) / cell)),
      k1 = Math.min(nz - 1, Math.floor((within.max[2] - origin[2]) / cell));
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const g = i + nx * (j + ny * k);
          if (
            solid[g] &&
            !surface[g] &&
            contains(
              within,
              origin[0] + (i + 0.5) * cell,
              origin[1] + (j + 0.5) * cell,
              origin[2] + (k + 0.5) * cell,
              0,
            )
          )
            open[g] = 1;
        }
      }
    }
  } else {
    for (let i = 0; i < solid.length; i++) open[i] = solid[i] && !surface[i] ? 1 : 0;
  }
  // 1. Strike out the cells inside some hull.
  for (const h of hulls) {
    const i0 = Math.max(0, Math.floor((h.min[0] - origin[0]) / cell)),
      i1 = Math.min(nx - 1, Math.floor((h.max[0] - origin[0]) / cell));
    const j0 = Math.max(0, Math.floor((h.min[1] - origin[1]) / cell)),
      j1 = Math.min(ny - 1, Math.floor((h.max[1] - origin[1]) / cell));
    const k0 = Math.max(0, Math.floor((h.min[2] - origin[2]) / cell)),
      k1 = Math.min(nz - 1, Math.floor((h.max[2] - origin[2]) / cell));
    // Long rows by their inside run (one pass over the faces per row); short ones cell by cell,
    // where a cell outside leaves at its first face beyond and a run costs more than the cells.
    const byRun = i1 - i0 + 1 > RUN_MIN_CELLS;
    for (let k = k0; k <= k1; k++) {
      const z = origin[2] + (k + 0.5) * cell;
      for (let j = j0; j <= j1; j++) {
        const y = origin[1] + (j + 0.5) * cell;
        const row = nx * (j + ny * k);
        if (byRun) {
          const [a, b] = insideRun(h, origin[0], cell, y, z, 0.5 * cell, i0, i1);
          if (a <= b) open.fill(0, a + row, b + 1 + row);
        } else {
          for (let i = i0; i <= i1; i++)
            if (open[row + i] && contains(h, origin[0] + (i + 0.5) * cell, y, z, 0.5 * cell)) open[row + i] = 0;
        }
      }
    }
  }
  return open;
}
