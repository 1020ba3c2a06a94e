/**
 * Re-triangulates each flat region of a surface with as few triangles as its outline needs: the
 * triangles of a region (edge-connected, one plane, one facing) are replaced by a triangulation
 * of its boundary, a polygon with holes, with the vertices that lie on a straight stretch of that
 * boundary left out. A wall exported as dozens of slivers around its openings becomes a few large
 * triangles; for a triangle-mesh physics shape, whose weight grows with the triangle count over
 * their harmonic-mean width (spec section 6), that is what makes a building's walls cheap.
 *
 * Guarantees: no new vertices (indices into the same positions); the surface covers the same
 * area of each plane (a region whose new triangles do not add up to its area, or whose boundary
 * is not one outer loop around holes, keeps its own triangles); triangles face as before. Vertices
 * left out of one region may stay in a neighbour (T-junctions: harmless for collision, not for
 * rendering: this is for physics). Deterministic; pure.
 */

import { boundaryLoops } from './boundary-loops.js';
import { surfaceArea, triangleCross } from './indexed-mesh.js';
import { planeBasis, ringArea, triangulatePolygon } from './polygon-triangulate.js';

export interface PlanarRemeshOptions {
  /** Largest angle between two triangles' normals in one region, radians. Default 1e-4. */
  angle?: number;
  /** Largest distance of a vertex from its region's plane, in units of the surface's size. Default 1e-6. */
  flatness?: number;
}

/** New indices for `indices` over `positions` (welded: equal points share an index), flat regions re-triangulated. */
export function planarRemesh(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  options: PlanarRemeshOptions = {},
): Uint32Array {
  const p = positions;
  const nt = Math.floor(indices.length / 3);
  const cosLimit = Math.cos(options.angle ?? 1e-4);
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < p.length; i++) {
    lo = Math.min(lo, p[i]);
    hi = Math.max(hi, p[i]);
  }
  const eps = (options.flatness ?? 1e-6) * Math.max(hi - lo, 1e-30);
  // 1. Unit normals; zero-area triangles have none and are dropped.
  const normal = new Float64Array(3 * nt);
  const valid = new Uint8Array(nt);
  const cross = new Float64Array(3);
  for (let t = 0; t < nt; t++) {
    triangleCross(p, indices[3 * t], indices[3 * t + 1], indices[3 * t + 2], cross);
    const [nx, ny, nz] = cross;
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0)) continue;
    normal.set([nx / len, ny / len, nz / len], 3 * t);
    valid[t] = 1;
  }
  // 2. Edge neighbours: an edge two triangles share (a manifold edge) joins them.
  const nv = p.length / 3;
  const byEdge = new Map<number, number[]>();
  for (let t = 0; t < nt; t++) {
    if (!valid[t]) continue;
    for (let k = 0; k < 3; k++) {
      const a = indices[3 * t + k],
        b = indices[3 * t + ((k + 1) % 3)];
      const key = a < b ? a * nv + b : b * nv + a;
      (byEdge.get(key) ?? byEdge.set(key, []).get(key)!).push(t);
    }
  }
  // 3. Regions: flood fill across manifold edges while the normal and the plane stay the seed's.
  const region = new Int32Array(nt).fill(-1);
  const out: number[] = [];
  for (let seed = 0; seed < nt; seed++) {
    if (!valid[seed] || region[seed] >= 0) continue;
    const [nx, ny, nz] = [normal[3 * seed], normal[3 * seed + 1], normal[3 * seed + 2]];
    const v0 = 3 * indices[3 * seed];
    const d = nx * p[v0] + ny * p[v0 + 1] + nz * p[v0 + 2];
    const onPlane = (v: number) => Math.abs(nx * p[3 * v] + ny * p[3 * v + 1] + nz * p[3 * v + 2] - d) <= eps;
    const members = [seed];
    region[seed] = seed;
    for (let i = 0; i < members.length; i++) {
      const t = members[i];
      for (let k = 0; k < 3; k++) {
        const a = indices[3 * t + k],
          b = indices[3 * t + ((k + 1) % 3)];
        const list = byEdge.get(a < b ? a * nv + b : b * nv + a)!;
        if (list.length !== 2) continue;
        const u = list[0] === t ? list[1] : list[0];
        if (region[u] >= 0) continue;
        const dot = normal[3 * u] * nx + normal[3 * u + 1] * ny + normal[3 * u + 2] * nz;
        if (dot < cosLimit) continue;
        if (![0, 1, 2].every((j) => onPlane(indices[3 * u + j]))) continue;
        region[u] = seed;
        members.push(u);
      }
    }
    const own = (): void => {
      for (const t of members) out.push(indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]);
    };
    if (members.length < 2) {
      own();
      continue;
    }
    const local: number[] = [];
    for (const t of members) local.push(indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]);
    const tris = retriangulate(p, local, nv, [nx, ny, nz], eps);
    if (tris && tris.length < local.length) out.push(...tris);
    else own();
  }
  return Uint32Array.from(out);
}

/**
 * The triangles of one flat region (`tris`, facing `n`) as a triangulation of its outline, or
 * undefined when the outline is not one outer loop around holes or the new triangles do not
 * cover the region's area.
 */
function retriangulate(
  p: ArrayLike<number>,
  tris: number[],
  nv: number,
  n: readonly [number, number, number],
  eps: number,
): number[] | undefined {
  const { loops, openLoops } = boundaryLoops(tris, nv);
  if (openLoops > 0 || loops.length === 0) return undefined;
  // A basis of the plane: u, w with u x w = n.
  const {
    u: [ux, uy, uz],
    w: [wx, wy, wz],
  } = planeBasis(n);
  // Loops without the vertices on a straight stretch of them (within eps of the line through their neighbours).
  const cross = new Float64Array(3);
  const straight = (a: number, b: number, c: number) => {
    const ex = p[3 * c] - p[3 * a],
      ey = p[3 * c + 1] - p[3 * a + 1],
      ez = p[3 * c + 2] - p[3 * a + 2];
    const len = Math.hypot(ex, ey, ez);
    if (!(len > 0)) return false;
    // Within eps of the line a-c (|ac x ab| / |ac|), and between a and c.
    triangleCross(p, a, c, b, cross);
    const along =
      (ex * (p[3 * b] - p[3 * a]) + ey * (p[3 * b + 1] - p[3 * a + 1]) + ez * (p[3 * b + 2] - p[3 * a + 2])) / len;
    return Math.hypot(cross[0], cross[1], cross[2]) / len <= eps && along > 0 && along < len;
  };
  const rings: number[][] = [];
  for (const loop of loops) {
    const ring = [...loop];
    for (let changed = true; changed && ring.length > 3; ) {
      changed = false;
      for (let i = 0; i < ring.length && ring.length > 3; i++) {
        const a = ring[(i + ring.length - 1) % ring.length],
          b = ring[i],
          c = ring[(i + 1) % ring.length];
        if (straight(a, b, c)) {
          ring.splice(i, 1);
          changed = true;
          i--;
        }
      }
    }
    rings.push(ring);
  }
  // 2D coordinates by local index (position in `all`).
  const all = rings.flat();
  const xy = new Float64Array(2 * all.length);
  all.forEach((v, i) => {
    xy[2 * i] = ux * p[3 * v] + uy * p[3 * v + 1] + uz * p[3 * v + 2];
    xy[2 * i + 1] = wx * p[3 * v] + wy * p[3 * v + 1] + wz * p[3 * v + 2];
  });
  const localRings: number[][] = [];
  let at = 0;
  for (const ring of rings) {
    localRings.push(ring.map((_, i) => at + i));
    at += ring.length;
  }
  const areas = localRings.map((r) => ringArea(xy, r));
  let outer = 0;
  for (let k = 1; k < areas.length; k++) if (Math.abs(areas[k]) > Math.abs(areas[outer])) outer = k;
  if (areas.some((a, k) => k !== outer && Math.sign(a) === Math.sign(areas[outer]))) return undefined;
  // The region's own area (flat: its area in the plane, to within 1 - cos(angle)).
  const area = surfaceArea(p, tris);
  const holes = localRings.filter((_, k) => k !== outer);
  const local = flipToWiden(xy, triangulatePolygon(xy, localRings[outer], holes));
  let covered = 0;
  const result: number[] = [];
  for (let t = 0; t < local.length; t += 3) {
    const [a, b, c] = [local[t], local[t + 1], local[t + 2]];
    const cr = cross2(xy, a, b, c);
    covered += Math.abs(cr) / 2;
    if (cr === 0) continue;
    // Counter-clockwise in (u, w) faces +n: keep the region's facing.
    if (cr > 0) result.push(all[a], all[b], all[c]);
    else result.push(all[a], all[c], all[b]);
  }
  if (Math.abs(covered - area) > 1e-6 * Math.max(area, 1e-30) + eps * eps) return undefined;
  return result;
}

/** (b - a) x (c - a) of 2D points (xy pairs by index): twice the signed area, positive counter-clockwise. */
function cross2(xy: Float64Array, a: number, b: number, c: number): number {
  return (
    (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
    (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a])
  );
}

/** Most passes of flipToWiden over a region's edges. */
const FLIP_PASSES = 8;

/** 1 / the triangle's width (2 x area / longest edge: its smallest altitude); Infinity when flat. */
function inverseWidth(xy: Float64Array, a: number, b: number, c: number): number {
  const cross = cross2(xy, a, b, c);
  const e = (i: number, j: number) => Math.hypot(xy[2 * j] - xy[2 * i], xy[2 * j + 1] - xy[2 * i + 1]);
  const longest = Math.max(e(a, b), e(b, c), e(c, a));
  return cross === 0 ? Infinity : longest / Math.abs(cross);
}

/**
 * Flips the diagonal of each convex quad two triangles form where that lowers the sum of their
 * inverse widths: a triangle mesh's physics weight is K x that sum (the harmonic mean's
 * definition; spec section 6), and ear clipping leaves fans of slivers. Each flip lowers the sum,
 * so it ends; the triangles keep their winding and cover the same polygon.
 */
function flipToWiden(xy: Float64Array, tris: number[]): number[] {
  const t = [...tris];
  for (let pass = 0; pass < FLIP_PASSES; pass++) {
    // Directed edge a -> b to its triangle (the neighbour has b -> a).
    const edge = new Map<string, number>();
    for (let f = 0; f < t.length; f += 3)
      for (let k = 0; k < 3; k++) edge.set(`${t[f + k]},${t[f + ((k + 1) % 3)]}`, f);
    let flipped = false;
    for (let f = 0; f < t.length; f += 3) {
      for (let k = 0; k < 3; k++) {
        const a = t[f + k],
          b = t[f + ((k + 1) % 3)],
          c = t[f + ((k + 2) % 3)];
        const g = edge.get(`${b},${a}`);
        if (g === undefined || g === f) continue;
        // The neighbour (b, a, d).
        let d = -1;
        for (let q = 0; q < 3; q++) if (t[g + q] !== a && t[g + q] !== b) d = t[g + q];
        if (d < 0) continue;
        // Convex quad a-d-b-c: the new diagonal c-d crosses a-b.
        if (!(cross2(xy, c, d, a) * cross2(xy, c, d, b) < 0 && cross2(xy, a, b, c) * cross2(xy, a, b, d) < 0)) continue;
        const before = inverseWidth(xy, a, b, c) + inverseWidth(xy, b, a, d);
        const after = inverseWidth(xy, c, a, d) + inverseWidth(xy, c, d, b);
        if (!(after < before * (1 - 1e-9))) continue;
        // Same winding as (a, b, c): (c, a, d) and (c, d, b).
        t.splice(f, 3, c, a, d);
        t.splice(g, 3, c, d, b);
        flipped = true;
        for (const h of [f, g]) for (let q = 0; q < 3; q++) edge.set(`${t[h + q]},${t[h + ((q + 1) % 3)]}`, h);
        break;
      }
    }
    if (!flipped) break;
  }
  return t;
}
