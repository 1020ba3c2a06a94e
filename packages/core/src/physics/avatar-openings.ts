/**
 * Would a convex shape close an opening an avatar uses? For each given convex hull (the single
 * hull, the bounding box), finds the empty space it fills that an upright avatar (a capsule
 * AVATAR_PASSAGE_WIDTH wide and AVATAR_PASSAGE_HEIGHT tall along the prim's up axis) can reach
 * from outside the object, and calls it an opening when that avatar could
 * - pass through the hull from one side to the opposite one (a doorway, an arch, the hole of a
 *   big ring, between the legs of a statue several times life size), or
 * - be wholly enclosed by the hull (a room entered by its door, a pen, a deep hollow).
 * Smaller concavities (the avatar does not fit, or only grazes the hull's surface: a seat between
 * armrests, the space under a table or between a life-size figure's legs, a hole too low to walk
 * through) are not openings and may be closed.
 *
 * Method, on a voxel grid at the object's size (cell about a sixth of the capsule's width):
 * 1. Rasterise the surface (triangles sampled at half-cell spacing). Only the surface is solid:
 *    a closed shell's inside is never reached from outside, so it needs no inside test, and
 *    single-sided walls stay thin walls.
 * 2. Squared distance transform from the surface cells (Felzenszwalb and Huttenlocher 2012,
 *    "Distance Transforms of Sampled Functions"); cells at least `clearance` * radius from the
 *    surface can hold a point of the capsule's axis as far as width goes.
 * 3. The capsule's axis fits at a cell on an upright run of such cells as long as the axis
 *    (height less width), or one running out of the top of the grid (the space above is empty).
 *    The avatar stands on the ground the object stands on: no run starts below the object.
 * 4. Flood those cells from the grid's border (the avatar comes from outside; the padding is
 *    wider than the capsule, so it can go round the object).
 * 5. Per hull: reached cells whose centre is inside the hull (thickened to two cells when flat)
 *    are space it would fill; group them (6-connected). A group is
 *    - a passage when it starts within a step (1 m) of the ground, the avatar leaves it through
 *      two hull faces facing apart (normals' dot product below -0.5) and the space is walled: at least half of its lower half meets the
 *      surface on both sides across the passage before leaving the hull (jambs, legs, a ring),
 *      or it is roofed (half its cells have surface straight above) and deep enough to stand in
 *      wholly (a cell its width inside every face: a pavilion, under a big table). A shaft
 *      passed upright needs walls on both level axes;
 *    - enclosed when one of its cells lies at least a radius inside every face and its lower
 *      half is walled on both level axes (a room, a pen, a deep bowl).
 *    A nook under an overhang (the space under a life-size figure's outstretched arm) is neither.
 *
 * An object with no side as long as the capsule is wide has no opening (nothing is computed).
 * Limits: the grid is capped at `maxCells` voxels; on very big objects the cell grows beyond a
 * sixth of the width and gaps near the threshold are judged to about a cell. Moving the capsule
 * sideways is judged cell by cell, not over its whole height, so a passage that narrows at
 * different heights in turn may count. An object hung above the ground is judged as if it stood
 * on it. Deterministic; pure (no Node APIs).
 */

import { AVATAR_PASSAGE_HEIGHT, AVATAR_PASSAGE_WIDTH } from '../constants.js';
import { partHull } from './concavity.js';
import { forEachTriangleCell } from './solid-field.js';
import { exactConvexHull } from './convex-hull.js';
import { TriangleBvh } from '../lod/hausdorff.js';

/** Surfaces of at most this many triangles are checked for being a convex solid (convexSolidPlanes). */
const CONVEX_CHECK_MAX_TRIANGLES = 4096;
/**
 * A hull point this share of the avatar's width (5 cm) from a convex solid counts as inside it:
 * a cell the avatar reaches is 0.85 x its radius (21 cm) from any surface, and the hulls auto
 * prices are within 5 cm of their LOD (a reduced hull: HULL_REDUCTION_SHARE, the tolerance).
 */
const CONVEX_SLACK = 0.1;

/**
 * The convex hull's face planes (nx, ny, nz, d; n.x <= d inside) when the surface is a closed
 * convex solid, else undefined: every edge used once each way (closed and consistently
 * oriented, vertices welded where equal), every triangle on a face plane of the convex hull of
 * its vertices, and the enclosed volume that hull's. Such a surface has no opening an avatar can
 * use and no space a hull inside its convex hull could close. `eps`: distance tolerance.
 */
export function convexSolidPlanes(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  eps: number,
): Float64Array | undefined {
  const t = Math.floor(indices.length / 3);
  if (t < 4 || t > CONVEX_CHECK_MAX_TRIANGLES) return undefined;
  // Weld equal positions; directed edges a->b must pair with b->a exactly once.
  const ids = new Map<string, number>();
  const points: number[] = [];
  const id = (v: number) => {
    const key = `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
    let i = ids.get(key);
    if (i === undefined) {
      i = ids.size;
      ids.set(key, i);
      points.push(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
    }
    return i;
  };
  const tri = new Int32Array(3 * t);
  for (let k = 0; k < 3 * t; k++) tri[k] = id(indices[k]);
  const edges = new Map<number, number>();
  const n = ids.size;
  for (let f = 0; f < t; f++)
    for (let e = 0; e < 3; e++) {
      const a = tri[3 * f + e],
        b = tri[3 * f + ((e + 1) % 3)];
      if (a === b) return undefined;
      const key = a * n + b;
      if (edges.has(key)) return undefined;
      edges.set(key, f);
    }
  for (const key of edges.keys()) if (!edges.has((key % n) * n + Math.floor(key / n))) return undefined;
  const hull = exactConvexHull(Float64Array.from(points));
  if (!hull) return undefined;
  const pl = hull.planes;
  const planes = pl.length / 4;
  // Every triangle on one face plane of the hull; the signed volume it encloses.
  let volume = 0;
  const at = (i: number, k: number) => points[3 * i + k];
  for (let f = 0; f < t; f++) {
    const [a, b, c] = [tri[3 * f], tri[3 * f + 1], tri[3 * f + 2]];
    let on = false;
    for (let q = 0; q < planes && !on; q++) {
      on = [a, b, c].every(
        (i) =>
          Math.abs(pl[4 * q] * at(i, 0) + pl[4 * q + 1] * at(i, 1) + pl[4 * q + 2] * at(i, 2) - pl[4 * q + 3]) <= eps,
      );
    }
    if (!on) return undefined;
    volume +=
      (at(a, 0) * (at(b, 1) * at(c, 2) - at(b, 2) * at(c, 1)) +
        at(a, 1) * (at(b, 2) * at(c, 0) - at(b, 0) * at(c, 2)) +
        at(a, 2) * (at(b, 0) * at(c, 1) - at(b, 1) * at(c, 0))) /
      6;
  }
  return Math.abs(volume) >= hull.volume * (1 - 1e-6) ? pl : undefined;
}

export interface AvatarOpeningOptions {
  /** Width of the avatar (its capsule's diameter), metres. Default AVATAR_PASSAGE_WIDTH (0.5). */
  width?: number;
  /** Height of the avatar (its capsule's length, end to end), metres. Default AVATAR_PASSAGE_HEIGHT (1.8). */
  height?: number;
  /** The axis that is up in the frame of the positions (0 x, 1 y, 2 z). Default 2 (Second Life is Z-up). */
  up?: 0 | 1 | 2;
  /** Share of the radius a gap must clear to count (rounding of the voxel grid). Default 0.85. */
  clearance?: number;
  /** Most voxels. Default 1,000,000. */
  maxCells?: number;
  /**
   * Answer "closes nothing" without the voxel grid for a hull inside the convex hull of a surface
   * that is itself a closed convex solid (see convexSolidPlanes). Default true; false for tests.
   */
  convexShortcut?: boolean;
  /**
   * The rest of the linkset (the other objects' surfaces, same frame and units): what of it lies
   * overhead, wholly an avatar's height or more above the object's base and within an avatar's
   * height and width of it sideways, closes the object's spaces from above, so space only it and
   * this surface enclose together (a house's walls under a roof that is another object) is not
   * reached from outside. Parts lower than that (a door, a gate: often parts of their own, made to
   * move) do not count. The ground stays the object's own. A function is called only when the
   * voxel grid is built (a closed convex solid's own hull needs none), and may be called again.
   */
  surroundings?: OpeningSurroundings | (() => OpeningSurroundings | undefined);
}

/** The rest of a linkset as the opening test takes it (AvatarOpeningOptions.surroundings). */
export interface OpeningSurroundings {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
}

export interface AvatarOpening {
  /** True when the hull fills space an avatar uses (see the file comment). */
  closes: boolean;
  /** What kind: a passage through the object, or a space the hull would enclose. */
  kind?: 'passage' | 'enclosed';
  /** Widest clearance in that space, metres (twice the distance to the nearest surface). */
  width?: number;
  /**
   * Where the avatar's axis can be in every opening the hull closes (cell centres, flat xyz, in
   * the frame of the input; thinned to a lattice of at most MAX_OPENING_POINTS): a shape keeps the openings
   * open when it leaves these points a margin clear.
   */
  points?: Float64Array;
  /** A point in it, metres, in the frame of the input. */
  at?: [number, number, number];
  /** Distance between neighbouring `points` along each axis, metres (a grid cell, more when thinned). */
  spacing?: number;
}

/** Samples of the surroundings' triangles the grid may take, per cell (bounds their cost). */
const SURROUNDING_SAMPLES_PER_CELL = 16;

/** Most points `AvatarOpening.points` holds. */
export const MAX_OPENING_POINTS = 8192;
/**
 * How far above the ground a passage may start, metres (a threshold an avatar climbs or jumps; a
 * ring's hole above its rim): higher gaps (over a figure's back, in a tall chair's carving) are
 * flown through at most, and may close. Rooms count at any height.
 */
export const PASSAGE_STEP = 1;
/** Cells of a space sampled for its walls. */
const SAMPLE_CELLS = 96;
/** Share of a space's cells that must meet a wall (or a roof) for it to count. */
const WALLED_SHARE = 0.5;

export const AVATAR_OPENING_DEFAULTS = { clearance: 0.85, maxCells: 1_000_000 } as const;

/**
 * Voxels the opening test may use over a whole linkset. It runs once per object (twice with the
 * linkset's second physics pass), and every object of a big linkset of big parts filled its own
 * million cells: 300 cubes scattered over 32 km (a fuzzed prims-300) took 2.5 minutes in it. Each
 * object gets an equal share, at most maxCells and at least MIN_OPENING_CELLS; a linkset of up to
 * 32 objects keeps the full grid each.
 */
export const LINKSET_OPENING_CELLS = 32_000_000;
const MIN_OPENING_CELLS = 50_000;

/** The voxel budget (maxCells) of one object's opening test in a linkset of `objects` objects. */
export function openingCellsPerObject(objects: number): number {
  const share = Math.floor(LINKSET_OPENING_CELLS / Math.max(1, objects));
  return Math.max(MIN_OPENING_CELLS, Math.min(AVATAR_OPENING_DEFAULTS.maxCells, share));
}

/** 1D squared distance transform of f (length n) into out (Felzenszwalb-Huttenlocher lower envelope). */
function edt1d(f: Float64Array, n: number, out: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    if (f[q] >= 1e20) continue;
    if (f[v[0]] >= 1e20) {
      v[0] = q;
      continue;
    }
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (k > 0 && s <= z[k]) {
      k--;
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  if (f[v[0]] >= 1e20) {
    for (let q = 0; q < n; q++) out[q] = 1e20;
    return;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    out[q] = (q - v[k]) * (q - v[k]) + f[v[k]];
  }
}

interface AvatarGrid {
  origin: number[];
  cell: number;
  dims: number[];
  /** Squared distance to the nearest surface cell, in cells squared. */
  d2: Float32Array;
  /** 1 where a point of the capsule's axis can be, coming from outside. */
  reached: Uint8Array;
  r: number;
  lo: number[];
  hi: number[];
  /** Index along `up` of the lowest cell the capsule's axis may hold (standing on the ground). */
  floor: number;
}

/**
 * The box of the surface's finite vertices, or undefined when there is nothing an avatar could
 * meet: no triangle, or a box smaller than the ball (nothing an avatar fits through or into can be).
 */
function surfaceBox(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  options: AvatarOpeningOptions,
): { lo: number[]; hi: number[] } | undefined {
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k];
      if (!Number.isFinite(v)) continue;
      if (v < lo[k]) lo[k] = v;
      if (v > hi[k]) hi[k] = v;
    }
  }
  if (!(lo[0] <= hi[0]) || indices.length < 3) return undefined;
  if (!mayHaveOpenings([hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]], options)) return undefined;
  return { lo, hi };
}

/**
 * False when a surface of this box size (metres) can have no opening an avatar uses, whatever is
 * around it: no side as long as the avatar is wide (less the clearance share). avatarOpenings then
 * answers "closes nothing" for every hull without a grid.
 */
export function mayHaveOpenings(size: ArrayLike<number>, options: AvatarOpeningOptions = {}): boolean {
  const width = options.width ?? AVATAR_PASSAGE_WIDTH;
  const clearance = options.clearance ?? AVATAR_OPENING_DEFAULTS.clearance;
  return Math.max(size[0], size[1], size[2]) >= clearance * width;
}

/** Steps 1-4 of the file comment: the grid, the distance to the surface, the flooded capsule axis. */
function avatarGrid(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  options: AvatarOpeningOptions,
  box: { lo: number[]; hi: number[] },
): AvatarGrid {
  const width = options.width ?? AVATAR_PASSAGE_WIDTH;
  const height = Math.max(width, options.height ?? AVATAR_PASSAGE_HEIGHT);
  const r = width / 2;
  const clearance = options.clearance ?? AVATAR_OPENING_DEFAULTS.clearance;
  const maxCells = options.maxCells ?? AVATAR_OPENING_DEFAULTS.maxCells;
  // 1. The grid: the surface's box (surfaceBox), with the surroundings overhead (nearSurroundings),
  //    padded by more than the ball.
  const up = options.up ?? 2;
  const given = typeof options.surroundings === 'function' ? options.surroundings() : options.surroundings;
  const near = given ? nearSurroundings(given, box, up, height + width, height) : undefined;
  const lo = near ? near.lo : box.lo;
  const hi = near ? near.hi : box.hi;
  let cell = width / 6;
  const dimsAt = (c: number) => [0, 1, 2].map((k) => Math.ceil((hi[k] - lo[k]) / c) + 2 * (Math.ceil(r / c) + 2));
  while (dimsAt(cell).reduce((a, b) => a * b, 1) > maxCells) cell *= 1.15;
  const pad = Math.ceil(r / cell) + 2;
  const dims = dimsAt(cell);
  const [nx, ny, nz] = dims;
  const origin = [lo[0] - pad * cell, lo[1] - pad * cell, lo[2] - pad * cell];
  const n = nx * ny * nz;
  const p = positions;
  const d2 = new Float32Array(n).fill(1e20);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    if (!Number.isFinite(p[a] + p[a + 1] + p[a + 2] + p[b] + p[b + 1] + p[b + 2] + p[c] + p[c + 1] + p[c + 2]))
      continue;
    forEachTriangleCell(p, a, b, c, origin, cell, dims, (g) => {
      d2[g] = 0;
    });
  }
  if (near) {
    // A triangle is sampled at half-cell steps over its whole area (forEachTriangleCell): the
    // samples are bounded (SURROUNDING_SAMPLES_PER_CELL per cell); a triangle past what is left
    // (a ground plane, a terrain far larger than the grid) is left out, and the space it would
    // have blocked is judged open, as without surroundings.
    let budget = SURROUNDING_SAMPLES_PER_CELL * n;
    const sp = near.positions;
    for (const t of near.triangles) {
      const a = 3 * near.indices[t],
        b = 3 * near.indices[t + 1],
        c = 3 * near.indices[t + 2];
      const edge2 = (u: number, v: number) =>
        (sp[u] - sp[v]) ** 2 + (sp[u + 1] - sp[v + 1]) ** 2 + (sp[u + 2] - sp[v + 2]) ** 2;
      const steps = Math.max(1, Math.ceil(Math.sqrt(Math.max(edge2(a, b), edge2(b, c), edge2(c, a))) / (0.5 * cell)));
      const samples = ((steps + 1) * (steps + 2)) / 2;
      if (samples > budget) continue;
      budget -= samples;
      forEachTriangleCell(sp, a, b, c, origin, cell, dims, (g) => {
        d2[g] = 0;
      });
    }
  }
  // 2. Squared distance (cell units) to the nearest surface cell.
  edt3d(d2, dims);
  // Distances are between cell centres: a surface cell's centre lies within half a cell of the
  // surface, so a gap is judged to about a cell (the clearance share absorbs it).
  const need = (clearance * r) / cell;
  const need2 = need * need;
  // 3. The capsule: its axis stands upright, so a cell can hold a point of that axis when it and
  //    the cells above and below it, over the axis' length (height less the two end caps), all
  //    hold the ball's centre.
  const floor = Math.ceil((box.lo[up] + clearance * r - origin[up]) / cell - 0.5);
  const fits = capsuleCells(d2, need2, dims, up, Math.max(0, height - width) / cell, floor);

  // 4. Flood the capsule's axis from the border through cells where it fits.
  const reached = new Uint8Array(n);
  const queue = new Int32Array(n);
  let qh = 0,
    qt = 0;
  const push = (g: number) => {
    if (reached[g] || !fits[g]) return;
    reached[g] = 1;
    queue[qt++] = g;
  };
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        if (i === 0 || j === 0 || k === 0 || i === nx - 1 || j === ny - 1 || k === nz - 1) push(i + nx * (j + ny * k));
      }
    }
  }
  while (qh < qt) {
    forEachNeighbour(queue[qh++], nx, ny, nz, push);
  }
  return { origin, cell, dims, d2, reached, r: clearance * r, lo: box.lo, hi: box.hi, floor };
}

/**
 * The surroundings' triangles that lie wholly at least `overhead` (an avatar's height) above the
 * object's base and within `reach` of its box sideways, at any height (first index of each in
 * `indices`), and the box grown to hold them, clipped to that zone: what closes the object's
 * spaces from above (a roof, the storeys of a tower). Above, the zone has no limit: a shaft through
 * storeys that are other objects is open or closed at its top, however high that is (a grid that
 * stopped short would take it for open sky). Nothing an avatar could walk into from the object's
 * ground counts: a door, a gate or a window pane is often a part of its own, made to move, and
 * the doorway it fills must stay open; below the base the avatar never goes.
 */
function nearSurroundings(
  s: OpeningSurroundings,
  box: { lo: number[]; hi: number[] },
  up: number,
  reach: number,
  overhead: number,
):
  | { positions: ArrayLike<number>; indices: ArrayLike<number>; triangles: number[]; lo: number[]; hi: number[] }
  | undefined {
  const p = s.positions;
  const idx = s.indices;
  const zoneLo = box.lo.map((v, k) => (k === up ? v + overhead : v - reach));
  const zoneHi = box.hi.map((v, k) => (k === up ? Infinity : v + reach));
  const lo = [...box.lo],
    hi = [...box.hi];
  const triangles: number[] = [];
  const tLo = [0, 0, 0],
    tHi = [0, 0, 0];
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = 3 * idx[t],
      b = 3 * idx[t + 1],
      c = 3 * idx[t + 2];
    let inZone = true;
    for (let k = 0; k < 3 && inZone; k++) {
      tLo[k] = Math.min(p[a + k], p[b + k], p[c + k]);
      tHi[k] = Math.max(p[a + k], p[b + k], p[c + k]);
      // Up: the whole triangle above the zone's floor; sideways: overlapping the zone. NaN fails
      // every test: left out.
      if (!((k === up ? tLo[k] : tHi[k]) >= zoneLo[k] && tLo[k] <= zoneHi[k])) inZone = false;
    }
    if (!inZone) continue;
    triangles.push(t);
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], Math.max(zoneLo[k], tLo[k]));
      hi[k] = Math.max(hi[k], Math.min(zoneHi[k], tHi[k]));
    }
  }
  return triangles.length > 0 ? { positions: p, indices: idx, triangles, lo, hi } : undefined;
}

/**
 * Cells on an upright run of ball-centre cells (d2 >= need2) at least `length` cells long (the
 * run's first and last centres that far apart, give or take a cell), or running out of the top of
 * the grid (the space above is empty): where the capsule's axis fits. Cells below `floor` (an
 * index along `up`) are never in a run: the avatar stands on the ground the object stands on.
 */
function capsuleCells(
  d2: Float32Array,
  need2: number,
  dims: number[],
  up: number,
  length: number,
  floor: number,
): Uint8Array {
  const [nx, ny, nz] = dims;
  const n = nx * ny * nz;
  const out = new Uint8Array(n);
  const stride = [1, nx, nx * ny][up];
  const len = dims[up];
  const m = Math.max(1, Math.floor(length));
  const t0 = Math.max(0, floor);
  // Every column along `up`: its start cells are those whose `up` index is 0.
  for (let g0 = 0; g0 < n; g0++) {
    if (Math.floor(g0 / stride) % len !== 0) continue;
    let run = 0;
    for (let t = t0; t <= len; t++) {
      if (t < len && d2[g0 + t * stride] >= need2) {
        run++;
        continue;
      }
      if (run >= m || (run > 0 && t === len)) for (let u = t - run; u < t; u++) out[g0 + u * stride] = 1;
      run = 0;
    }
  }
  return out;
}

/** At most `most` of `xs`, evenly spread: every n-th, n = ceil(length / most); `xs` itself when it fits. */
function everyNth(xs: Int32Array, most: number): Int32Array {
  if (xs.length <= most) return xs;
  const step = Math.ceil(xs.length / most);
  const out = new Int32Array(Math.ceil(xs.length / step));
  for (let q = 0, o = 0; q < xs.length; q += step) out[o++] = xs[q];
  return out;
}

/**
 * At most `most` of `cells` (indices into an nx x ny x nz grid), spread evenly in space: the
 * cells whose three grid coordinates are multiples of the smallest `stride` that leaves at most
 * `most` (all when they fit). A lattice, unlike every nth cell in grid order (which keeps whole
 * columns metres apart along x, at a phase that moves with the grid's box): two openings' points
 * can then be compared within a spacing of each other.
 */
function latticeCells(cells: Int32Array, nx: number, ny: number, most: number): { kept: Int32Array; stride: number } {
  if (cells.length <= most) return { kept: cells, stride: 1 };
  // The lattice goes through the first cell, so it keeps at least that one (an avatar's axis
  // points often form a sheet one cell thick: a doorway just wide enough).
  const [i0, j0, k0] = [cells[0] % nx, Math.floor(cells[0] / nx) % ny, Math.floor(cells[0] / (nx * ny))];
  for (let stride = Math.max(2, Math.floor(Math.cbrt(cells.length / most))); ; stride++) {
    const on = (g: number) =>
      (g % nx) - i0 === stride * Math.round(((g % nx) - i0) / stride) &&
      (Math.floor(g / nx) % ny) - j0 === stride * Math.round(((Math.floor(g / nx) % ny) - j0) / stride) &&
      Math.floor(g / (nx * ny)) - k0 === stride * Math.round((Math.floor(g / (nx * ny)) - k0) / stride);
    let n = 0;
    for (const g of cells) if (on(g)) n++;
    if (n > most) continue;
    const kept = new Int32Array(n);
    n = 0;
    for (const g of cells) if (on(g)) kept[n++] = g;
    return { kept, stride };
  }
}

/** Calls `f` on the cells 6-connected to cell `g` of an nx x ny x nz grid, in the order -x, +x, -y, +y, -z, +z. */
function forEachNeighbour(g: number, nx: number, ny: number, nz: number, f: (h: number) => void): void {
  const i = g % nx,
    j = Math.floor(g / nx) % ny,
    k = Math.floor(g / (nx * ny));
  if (i > 0) f(g - 1);
  if (i < nx - 1) f(g + 1);
  if (j > 0) f(g - nx);
  if (j < ny - 1) f(g + nx);
  if (k > 0) f(g - nx * ny);
  if (k < nz - 1) f(g + nx * ny);
}

/** Squared Euclidean distance transform in place (cells), one axis at a time. */
function edt3d(d2: Float32Array, dims: number[]): void {
  const [nx, ny, nz] = dims;
  const maxN = Math.max(nx, ny, nz);
  const f = new Float64Array(maxN),
    out = new Float64Array(maxN),
    z = new Float64Array(maxN + 1),
    v = new Int32Array(maxN);
  const pass = (len: number, stride: number, s0: number) => {
    for (let i = 0, at = s0; i < len; i++, at += stride) f[i] = d2[at];
    edt1d(f, len, out, v, z);
    for (let i = 0, at = s0; i < len; i++, at += stride) d2[at] = out[i];
  };
  for (let l = 0; l < ny * nz; l++) pass(nx, 1, nx * l);
  for (let k = 0; k < nz; k++) for (let i = 0; i < nx; i++) pass(ny, nx, i + nx * ny * k);
  for (let l = 0; l < nx * ny; l++) pass(nz, nx * ny, l);
}

/**
 * For each hull (flat xyz points, same frame and units as `positions`), whether it closes an
 * opening an avatar uses. `positions`/`indices`: the object's surface, metres, at its size.
 */
export function avatarOpenings(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  hulls: readonly ArrayLike<number>[],
  options: AvatarOpeningOptions = {},
): AvatarOpening[] {
  const box = surfaceBox(positions, indices, options);
  if (!box) return hulls.map(() => ({ closes: false }));
  // A closed convex solid: a hull inside its convex hull closes nothing (no grid needed), nor one
  // whose points outside it are within CONVEX_SLACK of its surface (a ball's reduced hull, 56
  // vertices 3.9 cm out at most). Such a hull lies within that distance of the solid, and a cell
  // the avatar reaches is at least 0.85 x its radius (0.21 m) from any surface.
  let inside = hulls.map(() => false);
  if (options.convexShortcut !== false) {
    const eps = 1e-6 * Math.max(box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]);
    const solid = convexSolidPlanes(positions, indices, eps);
    if (solid) {
      const slack = Math.max(eps, CONVEX_SLACK * (options.width ?? AVATAR_PASSAGE_WIDTH));
      let bvh: TriangleBvh | undefined;
      const near = (x: number, y: number, z: number): boolean => {
        bvh ??= TriangleBvh.build({
          positions: positions instanceof Float32Array ? positions : Float32Array.from(positions),
          indices: indices instanceof Uint32Array ? indices : Uint32Array.from(indices),
        });
        return bvh.closestDistanceSquared(x, y, z, slack * slack) <= slack * slack;
      };
      inside = hulls.map((h) => {
        for (let i = 0; i + 2 < h.length; i += 3) {
          let out = 0;
          for (let q = 0; q < solid.length; q += 4)
            out = Math.max(out, solid[q] * h[i] + solid[q + 1] * h[i + 1] + solid[q + 2] * h[i + 2] - solid[q + 3]);
          if (out > eps && (out > slack || !near(h[i], h[i + 1], h[i + 2]))) return false;
        }
        return true;
      });
    }
    if (inside.every(Boolean)) return hulls.map(() => ({ closes: false }));
  }
  const g = avatarGrid(positions, indices, options, box);
  const { origin, cell, d2, reached, lo, hi, floor } = g;
  const [nx, ny, nz] = g.dims;
  const gridDims = g.dims;
  const up = options.up ?? 2;
  const r = (options.width ?? AVATAR_PASSAGE_WIDTH) / 2;
  const inv = 1 / cell;

  // 5. Per hull: the reached cells inside it, grouped; passage or enclosure.
  const centre = (g: number): [number, number, number] => {
    const i = g % nx,
      j = Math.floor(g / nx) % ny,
      k = Math.floor(g / (nx * ny));
    return [origin[0] + (i + 0.5) * cell, origin[1] + (j + 0.5) * cell, origin[2] + (k + 0.5) * cell];
  };
  // A cell's place in a hull's list of inside cells plus one (0: not inside): one grid for every
  // hull, cleared after each (only the cells set), not a fresh million-cell array per hull.
  const slot = new Int32Array(nx * ny * nz);
  return hulls.map((points, hullIndex): AvatarOpening => {
    if (inside[hullIndex]) return { closes: false };
    const hull = partHull(points, 2 * cell);
    if (!hull) return { closes: false };
    const pl = hull.planes;
    const planes = pl.length / 4;
    const inHull = (g: number): boolean => {
      const [x, y, zz] = centre(g);
      for (let q = 0; q < planes; q++)
        if (pl[4 * q] * x + pl[4 * q + 1] * y + pl[4 * q + 2] * zz > pl[4 * q + 3]) return false;
      return true;
    };
    const steps = [1, nx, nx * ny];
    /**
     * From cell g along an axis (sign s): does the surface come before the hull's outside? For a
     * flat hull (thickened to two cells) a cell beside the surface counts too: a sheet lying on a
     * cell boundary is rasterised into one of the two layers only.
     */
    const wallD2 = hull.thickened ? 1 : 0;
    const wallFrom = (g: number, axis: number, s: number): boolean => {
      const idx = [g % nx, Math.floor(g / nx) % ny, Math.floor(g / (nx * ny))];
      for (let t = idx[axis] + s, h = g + s * steps[axis]; t >= 0 && t < gridDims[axis]; t += s, h += s * steps[axis]) {
        if (d2[h] <= wallD2) return true;
        if (!inHull(h)) return false;
      }
      return false;
    };
    const i0 = Math.max(0, Math.floor((hull.min[0] - origin[0]) * inv)),
      i1 = Math.min(nx - 1, Math.floor((hull.max[0] - origin[0]) * inv));
    const j0 = Math.max(0, Math.floor((hull.min[1] - origin[1]) * inv)),
      j1 = Math.min(ny - 1, Math.floor((hull.max[1] - origin[1]) * inv));
    const k0 = Math.max(0, Math.floor((hull.min[2] - origin[2]) * inv)),
      k1 = Math.min(nz - 1, Math.floor((hull.max[2] - origin[2]) * inv));
    // The reached cells inside the hull, in scan order, with their depth; `slot` maps a cell to
    // its place in that list plus one (0: not inside). Typed arrays: a grid has up to a million
    // cells and this runs once per hull and per candidate shape.
    let insideCells = new Int32Array(1024),
      insideDepth = new Float64Array(1024),
      count = 0,
      lastOut = 0;
    for (let k = k0; k <= k1; k++) {
      const z0 = origin[2] + (k + 0.5) * cell;
      for (let j = j0; j <= j1; j++) {
        const y0 = origin[1] + (j + 0.5) * cell;
        for (let i = i0; i <= i1; i++) {
          const g = i + nx * (j + ny * k);
          if (!reached[g]) continue;
          const x0 = origin[0] + (i + 0.5) * cell;
          // Most reached cells are outside: the face the last cell was beyond is tried first (a
          // neighbour is mostly beyond the same one), then the loop stops at the first face it is beyond.
          if (pl[4 * lastOut + 3] - (pl[4 * lastOut] * x0 + pl[4 * lastOut + 1] * y0 + pl[4 * lastOut + 2] * z0) < 0)
            continue;
          let d = Infinity;
          for (let q = 0; q < planes; q++) {
            const sd = pl[4 * q + 3] - (pl[4 * q] * x0 + pl[4 * q + 1] * y0 + pl[4 * q + 2] * z0);
            if (sd < 0) {
              d = -1;
              lastOut = q;
              break;
            }
            if (sd < d) d = sd;
          }
          if (!(d > 0)) continue;
          if (count === insideCells.length) {
            const c = new Int32Array(2 * count);
            c.set(insideCells);
            insideCells = c;
            const e = new Float64Array(2 * count);
            e.set(insideDepth);
            insideDepth = e;
          }
          insideCells[count] = g;
          insideDepth[count] = d;
          slot[g] = ++count;
        }
      }
    }
    if (count === 0) return { closes: false };
    /** The face a point outside the hull is farthest beyond (depth's face). */
    const exitFace = (h: number): number => {
      const x = origin[0] + ((h % nx) + 0.5) * cell,
        y = origin[1] + ((Math.floor(h / nx) % ny) + 0.5) * cell,
        zz = origin[2] + (Math.floor(h / (nx * ny)) + 0.5) * cell;
      let d = Infinity,
        face = 0;
      for (let q = 0; q < planes; q++) {
        const sd = pl[4 * q + 3] - (pl[4 * q] * x + pl[4 * q + 1] * y + pl[4 * q + 2] * zz);
        if (sd < d) {
          d = sd;
          face = q;
        }
      }
      return face;
    };
    const seen = new Uint8Array(count);
    let best: AvatarOpening = { closes: false };
    // Groups are disjoint: each one's cells are a range of `grouped` (filled in visiting order),
    // and the cells of the openings found a prefix of `openingCells`. No per-cell allocation.
    const grouped = new Int32Array(count);
    const openingCells = new Int32Array(count);
    const stack = new Int32Array(count);
    let filled = 0,
      openings = 0;
    for (let s0 = 0; s0 < count; s0++) {
      if (seen[s0]) continue;
      const seed = insideCells[s0];
      // Group the cells (6-connected) and collect the faces the ball leaves them through.
      let sp = 0;
      stack[sp++] = seed;
      const start = filled;
      seen[s0] = 1;
      const exits = new Set<number>();
      let deepest = 0,
        widest2 = 0,
        at = seed;
      const visit = (h: number) => {
        if (!reached[h]) return;
        const sh = slot[h];
        if (sh > 0) {
          if (!seen[sh - 1]) {
            seen[sh - 1] = 1;
            stack[sp++] = h;
          }
        } else exits.add(exitFace(h));
      };
      while (sp > 0) {
        const g = stack[--sp];
        grouped[filled++] = g;
        const dg = insideDepth[slot[g] - 1];
        if (dg > deepest) {
          deepest = dg;
          at = g;
        }
        if (d2[g] > widest2) widest2 = d2[g];
        forEachNeighbour(g, nx, ny, nz, visit);
      }
      const cells = grouped.subarray(start, filled);
      const widest = Math.sqrt(widest2) * cell;
      // The most opposed pair of exit faces: the passage's direction.
      let pairDot = 1,
        dir: number[] = [];
      const ex = [...exits];
      for (let a = 0; a < ex.length; a++) {
        for (let b = a + 1; b < ex.length; b++) {
          const na = [pl[4 * ex[a]], pl[4 * ex[a] + 1], pl[4 * ex[a] + 2]];
          const nb = [pl[4 * ex[b]], pl[4 * ex[b] + 1], pl[4 * ex[b] + 2]];
          const dot = na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2];
          if (dot < pairDot) {
            pairDot = dot;
            dir = [na[0] - nb[0], na[1] - nb[1], na[2] - nb[2]];
          }
        }
      }
      // What walls the space in: the share of its cells (a sample) that meet the surface before
      // leaving the hull straight up (a roof), or on both sides along a level axis (jambs, walls).
      // Walls are looked for in the space's lower half, where an avatar walks: the gap between a
      // figure's arm and its side is walled by the arm only at shoulder height.
      const upIndex = (g: number) => Math.floor(g / steps[up]) % gridDims[up];
      // The lowest and the median height (cells counted per layer: a group can have a million cells).
      const perLayer = new Int32Array(gridDims[up]);
      for (const g of cells) perLayer[upIndex(g)]++;
      let lowest = 0;
      while (perLayer[lowest] === 0) lowest++;
      let mid = lowest;
      for (let below = perLayer[lowest]; below <= (cells.length - 1) >> 1; below += perLayer[++mid]);
      const all = everyNth(cells, SAMPLE_CELLS);
      let lowCount = 0;
      for (let t = 0; t <= mid; t++) lowCount += perLayer[t];
      const lower = new Int32Array(lowCount);
      for (let q = 0, o = 0; q < cells.length; q++) if (upIndex(cells[q]) <= mid) lower[o++] = cells[q];
      const low = everyNth(lower, SAMPLE_CELLS);
      const share = (axis: number, both: boolean) => {
        const from = axis === up ? all : low;
        return from.filter((g) => wallFrom(g, axis, 1) && (!both || wallFrom(g, axis, -1))).length / from.length;
      };
      const level = [0, 1, 2].filter((a) => a !== up);
      const walledAll = () => share(level[0], true) >= WALLED_SHARE && share(level[1], true) >= WALLED_SHARE;
      let passage = false;
      // A passage is walked through from the ground: its lowest point no higher than a step.
      const grounded = lowest <= floor + Math.ceil(PASSAGE_STEP / cell);
      if (pairDot < -0.5 && grounded) {
        const dn = Math.hypot(dir[0], dir[1], dir[2]) || 1;
        if (Math.abs(dir[up]) / dn > 0.7) passage = walledAll();
        else {
          // The level axis across the passage (least along its direction) must have walls on both sides.
          const across = Math.abs(dir[level[0]]) <= Math.abs(dir[level[1]]) ? level[0] : level[1];
          // Or a roof over a space deep enough to stand in wholly (a pavilion, under a big
          // table); a roof over a shallow nook (under a figure's arm) does not make a passage.
          passage = share(across, true) >= WALLED_SHARE || (deepest >= 2 * r && share(up, false) >= WALLED_SHARE);
        }
      }
      const enclosed = !passage && deepest >= r && walledAll();
      if (passage || enclosed) {
        openingCells.set(cells, openings);
        openings += cells.length;
      }
      if ((passage || enclosed) && widest > (best.width ?? 0)) {
        best = {
          closes: true,
          kind: passage ? 'passage' : 'enclosed',
          width: Math.min(2 * widest, Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])),
          at: centre(at),
        };
      }
    }
    if (best.closes) {
      const { kept, stride } = latticeCells(openingCells.subarray(0, openings), nx, ny, MAX_OPENING_POINTS);
      const points = new Float64Array(3 * kept.length);
      kept.forEach((g, q) => points.set(centre(g), 3 * q));
      best.points = points;
      best.spacing = stride * cell;
    }
    for (let q = 0; q < count; q++) slot[insideCells[q]] = 0;
    return best;
  });
}
