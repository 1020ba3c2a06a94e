/**
 * A voxel picture of a mesh's solid and how far every point is from it, for measuring how far a
 * convex hull sticks out into empty space (concavity.ts).
 *
 * 1. Cells whose centre is inside (MeshInsideTest.gridVotes: at least 4 of the 6 axis half-rays
 *    see the centre from inside) are solid, and so is every cell the surface passes through
 *    (each triangle sampled at half-cell spacing): open or paper-thin surfaces stay solid sheets.
 * 2. Near the surface (cell centres within one cell of a surface cell) the distance is exact:
 *    the nearest of the triangles in the surrounding surface cells (Ericson, "Real-Time Collision
 *    Detection", 5.1.5), negative inside. Farther out, the exact separable squared-distance
 *    transform (Felzenszwalb and Huttenlocher 2012, "Distance Transforms of Sampled Functions")
 *    finds the nearest solid cell, and the distance is the exact one to that cell's triangles.
 * 3. `outsideDistance` interpolates the signed values trilinearly and clamps at zero; points off
 *    the grid add their distance to it.
 *
 * Accuracy: a fraction of a cell (the nearest cell's triangles need not hold the nearest point,
 * and values are interpolated between cell centres); about half a cell at sharp creases and
 * open sheets.
 */

import { MeshInsideTest } from '../geometry/mesh-inside.js';

export interface SolidField {
  /** Corner of the grid; cell (i, j, k) has centre origin + (i + 0.5, j + 0.5, k + 0.5) * cell. */
  origin: [number, number, number];
  cell: number;
  dims: [number, number, number];
  /** 1 for solid cells (inside or touched by the surface). */
  solid: Uint8Array;
  /** 1 for cells the surface passes through. */
  surface: Uint8Array;
  /** Signed distance from each cell centre to the surface, metres: negative inside, exact near the surface. */
  distance: Float32Array;
  /** Solid cells. */
  solidCells: number;
}

export interface SolidFieldOptions {
  /** Cell size, metres. */
  cell: number;
  /** Empty cells added around the mesh's box on every side. Default 2. */
  padding?: number;
  /** An inside test already built for this mesh. */
  inside?: MeshInsideTest;
}

export function buildSolidField(positions: Float64Array, indices: Uint32Array, options: SolidFieldOptions): SolidField {
  const cell = options.cell;
  const pad = options.padding ?? 2;
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[i + k]);
      hi[k] = Math.max(hi[k], positions[i + k]);
    }
  }
  const origin: [number, number, number] = [lo[0] - pad * cell, lo[1] - pad * cell, lo[2] - pad * cell];
  const dims: [number, number, number] = [0, 1, 2].map((k) =>
    Math.max(1, Math.ceil((hi[k] - lo[k]) / cell) + 2 * pad),
  ) as [number, number, number];
  const [nx, ny, nz] = dims;
  // 1. Inside cells, then every cell a triangle touches.
  const inside = options.inside ?? new MeshInsideTest(positions, indices);
  const votes = inside.gridVotes(origin, cell, dims);
  const solid = new Uint8Array(nx * ny * nz);
  for (let i = 0; i < solid.length; i++) solid[i] = votes[i] >= 4 ? 1 : 0;
  const p = positions;
  // Triangles per surface cell (CSR), each (cell, triangle) pair once.
  const cellTris: number[] = [];
  const lastTri = new Int32Array(solid.length).fill(-1);
  const surface = new Uint8Array(solid.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    forEachTriangleCell(p, a, b, c, origin, cell, dims, (g) => {
      solid[g] = 1;
      surface[g] = 1;
      if (lastTri[g] !== t) {
        lastTri[g] = t;
        cellTris.push(g, t / 3);
      }
    });
  }
  let solidCells = 0;
  for (let i = 0; i < solid.length; i++) solidCells += solid[i];
  // 2. Squared distance transform, one axis at a time (in cell units; exact integers in float32),
  //    remembering which solid cell is nearest (`site`).
  const INF = 1e20;
  const d2 = new Float32Array(solid.length);
  const site = new Int32Array(solid.length).fill(-1);
  for (let i = 0; i < solid.length; i++) {
    d2[i] = solid[i] ? 0 : INF;
    if (solid[i]) site[i] = i;
  }
  const maxN = Math.max(nx, ny, nz);
  const f = new Float64Array(maxN),
    out = new Float64Array(maxN),
    z = new Float64Array(maxN + 1);
  const v = new Int32Array(maxN),
    from = new Int32Array(maxN),
    lineSite = new Int32Array(maxN);
  const line = (n: number, stride: number, s0: number) => {
    let any = false;
    for (let i = 0, at = s0; i < n; i++, at += stride) {
      f[i] = d2[at];
      lineSite[i] = site[at];
      if (f[i] < INF) any = true;
    }
    if (!any) return;
    lowerEnvelope(f, n, out, v, z, from);
    for (let i = 0, at = s0; i < n; i++, at += stride) {
      d2[at] = out[i];
      site[at] = lineSite[from[i]];
    }
  };
  for (let l = 0; l < ny * nz; l++) line(nx, 1, nx * l);
  for (let k = 0; k < nz; k++) for (let i = 0; i < nx; i++) line(ny, nx, i + nx * ny * k);
  for (let l = 0; l < nx * ny; l++) line(nz, nx * ny, l);
  // 3. Far field: the exact distance to the triangles of the nearest solid cell when it is a
  //    surface cell (else to its centre, less half a cell); then the exact band: every triangle
  //    of a surface cell updates the 27 cell centres around it.
  const start = new Int32Array(solid.length + 1);
  for (let e = 0; e < cellTris.length; e += 2) start[cellTris[e] + 1]++;
  for (let g = 0; g < solid.length; g++) start[g + 1] += start[g];
  const fill = start.slice(0, solid.length);
  const trisOf = new Int32Array(cellTris.length / 2);
  for (let e = 0; e < cellTris.length; e += 2) trisOf[fill[cellTris[e]]++] = cellTris[e + 1];
  const distance = new Float32Array(solid.length);
  for (let g = 0; g < solid.length; g++) {
    if (solid[g]) {
      distance[g] = -cell;
      continue;
    }
    if (d2[g] >= INF) {
      distance[g] = 1e9;
      continue;
    }
    const sc = site[g];
    let best = Infinity;
    if (sc >= 0 && start[sc + 1] > start[sc]) {
      const qx = origin[0] + ((g % nx) + 0.5) * cell,
        qy = origin[1] + ((Math.floor(g / nx) % ny) + 0.5) * cell,
        qz = origin[2] + (Math.floor(g / (nx * ny)) + 0.5) * cell;
      for (let e = start[sc]; e < start[sc + 1]; e++) {
        const t = 3 * trisOf[e];
        best = Math.min(
          best,
          distanceToTriangleSquared(qx, qy, qz, p, 3 * indices[t], 3 * indices[t + 1], 3 * indices[t + 2]),
        );
      }
    }
    distance[g] = best < Infinity ? Math.sqrt(best) : Math.max(0, Math.sqrt(d2[g]) - 0.5) * cell;
  }
  const band = new Float32Array(solid.length).fill(Infinity);
  for (let e = 0; e < cellTris.length; e += 2) {
    const g = cellTris[e],
      t = 3 * cellTris[e + 1];
    const gi = g % nx,
      gj = Math.floor(g / nx) % ny,
      gk = Math.floor(g / (nx * ny));
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    for (let dk = -1; dk <= 1; dk++) {
      const k = gk + dk;
      if (k < 0 || k >= nz) continue;
      for (let dj = -1; dj <= 1; dj++) {
        const j = gj + dj;
        if (j < 0 || j >= ny) continue;
        for (let di = -1; di <= 1; di++) {
          const i = gi + di;
          if (i < 0 || i >= nx) continue;
          const h = i + nx * (j + ny * k);
          const qx = origin[0] + (i + 0.5) * cell,
            qy = origin[1] + (j + 0.5) * cell,
            qz = origin[2] + (k + 0.5) * cell;
          const dd = distanceToTriangleSquared(qx, qy, qz, p, a, b, c);
          if (dd < band[h]) band[h] = dd;
        }
      }
    }
  }
  for (let h = 0; h < solid.length; h++) {
    if (band[h] === Infinity) continue;
    const d = Math.sqrt(band[h]);
    // Inside cell centres (by the vote) are negative; surface-only cells keep their distance.
    distance[h] = votes[h] >= 4 ? -d : d;
  }
  return { origin, cell, dims, solid, surface, distance, solidCells };
}

/** 1D squared distance transform of f (first n entries) into out: min_q (i - q)^2 + f(q); from[i] = the q. */
function lowerEnvelope(
  f: Float64Array,
  n: number,
  out: Float64Array,
  v: Int32Array,
  z: Float64Array,
  from: Int32Array,
): void {
  let k = 0;
  let first = -1;
  for (let q = 0; q < n; q++) {
    if (f[q] >= 1e20) continue;
    if (first < 0) {
      first = q;
      v[0] = q;
      z[0] = -Infinity;
      z[1] = Infinity;
      continue;
    }
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  if (first < 0) {
    for (let q = 0; q < n; q++) {
      out[q] = f[q];
      from[q] = q;
    }
    return;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    out[q] = (q - v[k]) * (q - v[k]) + f[v[k]];
    from[q] = v[k];
  }
}

/** Distance from (x, y, z) to the field's solid, metres (trilinear between cell centres, 0 inside). */
export function outsideDistance(field: SolidField, x: number, y: number, z: number): number {
  const { origin, cell, dims, distance } = field;
  const [nx, ny, nz] = dims;
  let u = (x - origin[0]) / cell - 0.5,
    v = (y - origin[1]) / cell - 0.5,
    w = (z - origin[2]) / cell - 0.5;
  // Beyond the grid: the distance to it plus the boundary value.
  let extra = 0;
  const cu = Math.min(Math.max(u, 0), nx - 1),
    cv = Math.min(Math.max(v, 0), ny - 1),
    cw = Math.min(Math.max(w, 0), nz - 1);
  if (cu !== u || cv !== v || cw !== w) {
    extra = Math.hypot(u - cu, v - cv, w - cw) * cell;
    u = cu;
    v = cv;
    w = cw;
  }
  const i0 = Math.min(Math.floor(u), nx - 2 < 0 ? 0 : nx - 2),
    j0 = Math.min(Math.floor(v), ny - 2 < 0 ? 0 : ny - 2),
    k0 = Math.min(Math.floor(w), nz - 2 < 0 ? 0 : nz - 2);
  const i1 = Math.min(i0 + 1, nx - 1),
    j1 = Math.min(j0 + 1, ny - 1),
    k1 = Math.min(k0 + 1, nz - 1);
  const fu = u - i0,
    fv = v - j0,
    fw = w - k0;
  const at = (i: number, j: number, k: number) => distance[i + nx * (j + ny * k)];
  const c00 = at(i0, j0, k0) * (1 - fu) + at(i1, j0, k0) * fu;
  const c10 = at(i0, j1, k0) * (1 - fu) + at(i1, j1, k0) * fu;
  const c01 = at(i0, j0, k1) * (1 - fu) + at(i1, j0, k1) * fu;
  const c11 = at(i0, j1, k1) * (1 - fu) + at(i1, j1, k1) * fu;
  const c0 = c00 * (1 - fv) + c10 * fv,
    c1 = c01 * (1 - fv) + c11 * fv;
  const d = c0 * (1 - fw) + c1 * fw;
  return (d > 0 ? d : 0) + extra;
}

/** Squared distance from q to triangle (a, b, c) (offsets into p), by its closest point. */
export function distanceToTriangleSquared(
  qx: number,
  qy: number,
  qz: number,
  p: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
): number {
  const ax = p[a],
    ay = p[a + 1],
    az = p[a + 2];
  const abx = p[b] - ax,
    aby = p[b + 1] - ay,
    abz = p[b + 2] - az;
  const acx = p[c] - ax,
    acy = p[c + 1] - ay,
    acz = p[c + 2] - az;
  const apx = qx - ax,
    apy = qy - ay,
    apz = qz - az;
  const d1 = abx * apx + aby * apy + abz * apz,
    d2 = acx * apx + acy * apy + acz * apz;
  let x: number, y: number, z: number;
  if (d1 <= 0 && d2 <= 0) return apx * apx + apy * apy + apz * apz;
  const bpx = qx - p[b],
    bpy = qy - p[b + 1],
    bpz = qz - p[b + 2];
  const d3 = abx * bpx + aby * bpy + abz * bpz,
    d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return bpx * bpx + bpy * bpy + bpz * bpz;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    x = ax + v * abx;
    y = ay + v * aby;
    z = az + v * abz;
  } else {
    const cpx = qx - p[c],
      cpy = qy - p[c + 1],
      cpz = qz - p[c + 2];
    const d5 = abx * cpx + aby * cpy + abz * cpz,
      d6 = acx * cpx + acy * cpy + acz * cpz;
    if (d6 >= 0 && d5 <= d6) return cpx * cpx + cpy * cpy + cpz * cpz;
    const vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      const w = d2 / (d2 - d6);
      x = ax + w * acx;
      y = ay + w * acy;
      z = az + w * acz;
    } else {
      const va = d3 * d6 - d5 * d4;
      if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
        x = p[b] + w * (p[c] - p[b]);
        y = p[b + 1] + w * (p[c + 1] - p[b + 1]);
        z = p[b + 2] + w * (p[c + 2] - p[b + 2]);
      } else {
        const denom = 1 / (va + vb + vc);
        const v = vb * denom,
          w = vc * denom;
        x = ax + abx * v + acx * w;
        y = ay + aby * v + acy * w;
        z = az + abz * v + acz * w;
      }
    }
  }
  return (qx - x) ** 2 + (qy - y) ** 2 + (qz - z) ** 2;
}

/**
 * Calls `visit` with the index of every grid cell that triangle (a, b, c) of `p` (offsets into the
 * flat xyz array) touches, sampling the triangle at half-cell steps; a cell may be visited more
 * than once. The grid: `dims` cells of side `cell` from `origin`, x fastest.
 *
 * The samples form a lattice of as many steps along both edges from corner a as the longest edge
 * needs. For a needle (a fuzzed column 9e19 m tall in a grid of 40,000 cells along it) that is
 * billions of samples for a few thousand cells (43 s), so past SLIVER_SAMPLES the lattice is laid
 * from the corner opposite the longest edge with each edge's own step count, and the third edge
 * is walked too: about as many samples as the triangle has half-cells.
 */
export function forEachTriangleCell(
  p: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  origin: readonly number[],
  cell: number,
  dims: readonly number[],
  visit: (g: number) => void,
): void {
  const ab = edgeLength(p, a, b),
    bc = edgeLength(p, b, c),
    ca = edgeLength(p, c, a);
  const half = 0.5 * cell;
  const steps = Math.max(1, Math.ceil(Math.max(ab, bc, ca) / half));
  if ((steps * steps) / 2 <= SLIVER_SAMPLES) {
    lattice(p, a, b, c, steps, steps, origin, cell, dims, visit);
    return;
  }
  // A long triangle: the lattice from the corner opposite its longest edge, and that edge walked.
  const [o, q, r] = bc >= ab && bc >= ca ? [a, b, c] : ca >= ab ? [b, c, a] : [c, a, b];
  const stepsOf = (x: number, y: number) => Math.max(1, Math.ceil(edgeLength(p, x, y) / half));
  lattice(p, o, q, r, stepsOf(o, q), stepsOf(o, r), origin, cell, dims, visit);
  lattice(p, q, r, r, stepsOf(q, r), 1, origin, cell, dims, visit);
}

/** Distance between points x and y (offsets into the flat xyz array p). */
function edgeLength(p: ArrayLike<number>, x: number, y: number): number {
  return Math.sqrt((p[x] - p[y]) ** 2 + (p[x + 1] - p[y + 1]) ** 2 + (p[x + 2] - p[y + 2]) ** 2);
}

/** Samples past which forEachTriangleCell lays a triangle's lattice along its own edges. */
const SLIVER_SAMPLES = 1_000_000;

/**
 * Visits the cells of the points o + (i / su) (q - o) + (j / sv) (r - o) with i / su + j / sv <= 1:
 * a triangle's lattice, or with q = r and sv = 1 the segment from o to q.
 */
function lattice(
  p: ArrayLike<number>,
  o: number,
  q: number,
  r: number,
  su: number,
  sv: number,
  origin: readonly number[],
  cell: number,
  dims: readonly number[],
  visit: (g: number) => void,
): void {
  const [nx, ny, nz] = dims;
  const inv = 1 / cell;
  // Corners relative to the grid, in cell units.
  const ox = (p[o] - origin[0]) * inv,
    oy = (p[o + 1] - origin[1]) * inv,
    oz = (p[o + 2] - origin[2]) * inv;
  const ux = (p[q] - p[o]) * inv,
    uy = (p[q + 1] - p[o + 1]) * inv,
    uz = (p[q + 2] - p[o + 2]) * inv;
  const vx = (p[r] - p[o]) * inv,
    vy = (p[r + 1] - p[o + 1]) * inv,
    vz = (p[r + 2] - p[o + 2]) * inv;
  for (let i = 0; i <= su; i++) {
    const u = i / su;
    // j / sv <= 1 - i / su, in integers (exact: i + j <= su when su = sv).
    const last = Math.floor(((su - i) * sv) / su);
    for (let j = 0; j <= last; j++) {
      const w = j / sv;
      const gi = Math.floor(ox + u * ux + w * vx),
        gj = Math.floor(oy + u * uy + w * vy),
        gk = Math.floor(oz + u * uz + w * vz);
      if (gi < 0 || gj < 0 || gk < 0 || gi >= nx || gj >= ny || gk >= nz) continue;
      visit(gi + nx * (gj + ny * gk));
    }
  }
}
