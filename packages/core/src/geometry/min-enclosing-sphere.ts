/**
 * Smallest sphere enclosing a set of points (the "minimum enclosing ball"), used by the current
 * linkability rule (the span of a linkset is the diameter of the smallest sphere around its prim
 * centres).
 *
 * Algorithm: Welzl, "Smallest enclosing disks (balls and ellipsoids)", 1991, in its iterative
 * randomized-incremental form: the points are visited in a seeded pseudo-random order (so the
 * result is deterministic), and each point found outside the current sphere is put on the
 * boundary of a new sphere through nested loops over the earlier points (support sets of at most
 * 4 points in 3D; no recursion, expected linear time).
 *
 * Guarantees: handles 0..n points including duplicates, collinear and coplanar sets. The
 * boundary spheres of 2, 3 and 4 points are computed relative to one of them; a (near-)collinear
 * triple or (near-)coplanar quadruple, which exact arithmetic never puts on the boundary, falls
 * back to the smallest sphere enclosing those few points. The points are first moved to their
 * bounding-box centre and scaled by a power of two near their extent (so tiny or huge
 * coordinates neither underflow nor overflow); containment uses a tolerance of 1e-10 of that
 * extent, and the returned radius is finally the largest distance from the centre to any point,
 * so every point is inside the returned sphere up to one rounding of the centre. Empty input
 * gives centre (0, 0, 0) and radius 0.
 */

import { SlmeshError } from '../errors.js';
import { mulberry32 } from './seeded-random.js';

export interface Sphere {
  center: [number, number, number];
  radius: number;
}

export interface MinEnclosingSphereOptions {
  /** Seed of the visiting order (any 32-bit integer). Default 0x5eed. The result does not depend on it beyond rounding. */
  seed?: number;
}

/** Seeded Fisher-Yates shuffle of 0..n-1. */
function shuffledOrder(n: number, seed: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const random = mulberry32(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return order;
}

/** A mutable sphere: centre xyz and radius. */
interface Ball {
  x: number;
  y: number;
  z: number;
  r: number;
}

/** Relative tolerances for degenerate boundary sets (sine of the angle, scaled volume). */
const COLLINEAR_SIN2 = 1e-20;
const COPLANAR_RELATIVE = 1e-12;
const CONTAINMENT_RELATIVE = 1e-10;

function dist(p: Float64Array, i: number, x: number, y: number, z: number): number {
  const dx = p[3 * i] - x,
    dy = p[3 * i + 1] - y,
    dz = p[3 * i + 2] - z;
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

function ballOf1(p: Float64Array, a: number, out: Ball): void {
  out.x = p[3 * a];
  out.y = p[3 * a + 1];
  out.z = p[3 * a + 2];
  out.r = 0;
}

/** Sphere with a and b on its boundary and smallest: the diametral sphere. */
function ballOf2(p: Float64Array, a: number, b: number, out: Ball): void {
  out.x = (p[3 * a] + p[3 * b]) / 2;
  out.y = (p[3 * a + 1] + p[3 * b + 1]) / 2;
  out.z = (p[3 * a + 2] + p[3 * b + 2]) / 2;
  out.r = Math.max(dist(p, a, out.x, out.y, out.z), dist(p, b, out.x, out.y, out.z));
}

/** Smallest sphere enclosing the given few points, by trying every pair and triple (fallback for degenerate support sets). */
function smallestOfFew(p: Float64Array, ids: readonly number[], tol: number, out: Ball): void {
  const cand: Ball = { x: 0, y: 0, z: 0, r: 0 };
  let best = Infinity;
  const consider = () => {
    let r = cand.r;
    for (const i of ids) r = Math.max(r, dist(p, i, cand.x, cand.y, cand.z));
    if (r <= cand.r + tol && r < best) {
      best = r;
      out.x = cand.x;
      out.y = cand.y;
      out.z = cand.z;
      out.r = r;
    }
  };
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      ballOf2(p, ids[i], ids[j], cand);
      consider();
      for (let k = j + 1; k < ids.length; k++) {
        if (circumBall3(p, ids[i], ids[j], ids[k], cand)) consider();
      }
    }
  }
  if (best === Infinity) {
    // Cannot happen for real points; keep a valid enclosing sphere anyway.
    ballOf1(p, ids[0], out);
    for (const i of ids) out.r = Math.max(out.r, dist(p, i, out.x, out.y, out.z));
  }
}

/** Circumscribed sphere of a triangle (centre in its plane). False when the triangle is (near-)degenerate. */
function circumBall3(p: Float64Array, a: number, b: number, c: number, out: Ball): boolean {
  const ax = p[3 * a],
    ay = p[3 * a + 1],
    az = p[3 * a + 2];
  const ux = p[3 * b] - ax,
    uy = p[3 * b + 1] - ay,
    uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax,
    vy = p[3 * c + 1] - ay,
    vz = p[3 * c + 2] - az;
  const wx = uy * vz - uz * vy,
    wy = uz * vx - ux * vz,
    wz = ux * vy - uy * vx;
  const uu = ux * ux + uy * uy + uz * uz;
  const vv = vx * vx + vy * vy + vz * vz;
  const ww = wx * wx + wy * wy + wz * wz;
  if (!(ww > COLLINEAR_SIN2 * uu * vv)) return false;
  // centre - a = (|u|^2 (v x w) + |v|^2 (w x u)) / (2 |w|^2)
  const vwx = vy * wz - vz * wy,
    vwy = vz * wx - vx * wz,
    vwz = vx * wy - vy * wx;
  const wux = wy * uz - wz * uy,
    wuy = wz * ux - wx * uz,
    wuz = wx * uy - wy * ux;
  const s = 1 / (2 * ww);
  const cx = (uu * vwx + vv * wux) * s,
    cy = (uu * vwy + vv * wuy) * s,
    cz = (uu * vwz + vv * wuz) * s;
  out.x = ax + cx;
  out.y = ay + cy;
  out.z = az + cz;
  out.r = Math.max(
    Math.sqrt(cx * cx + cy * cy + cz * cz),
    dist(p, b, out.x, out.y, out.z),
    dist(p, c, out.x, out.y, out.z),
  );
  return true;
}

/** Circumscribed sphere of a tetrahedron. False when it is (near-)flat. */
function circumBall4(p: Float64Array, a: number, b: number, c: number, d: number, out: Ball): boolean {
  const ax = p[3 * a],
    ay = p[3 * a + 1],
    az = p[3 * a + 2];
  const ux = p[3 * b] - ax,
    uy = p[3 * b + 1] - ay,
    uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax,
    vy = p[3 * c + 1] - ay,
    vz = p[3 * c + 2] - az;
  const wx = p[3 * d] - ax,
    wy = p[3 * d + 1] - ay,
    wz = p[3 * d + 2] - az;
  const uu = ux * ux + uy * uy + uz * uz;
  const vv = vx * vx + vy * vy + vz * vz;
  const ww = wx * wx + wy * wy + wz * wz;
  // v x w, w x u, u x v
  const vwx = vy * wz - vz * wy,
    vwy = vz * wx - vx * wz,
    vwz = vx * wy - vy * wx;
  const wux = wy * uz - wz * uy,
    wuy = wz * ux - wx * uz,
    wuz = wx * uy - wy * ux;
  const uvx = uy * vz - uz * vy,
    uvy = uz * vx - ux * vz,
    uvz = ux * vy - uy * vx;
  const det = ux * vwx + uy * vwy + uz * vwz;
  if (!(Math.abs(det) > COPLANAR_RELATIVE * Math.sqrt(uu * vv * ww))) return false;
  // centre - a = (|u|^2 (v x w) + |v|^2 (w x u) + |w|^2 (u x v)) / (2 u.(v x w))
  const s = 1 / (2 * det);
  const cx = (uu * vwx + vv * wux + ww * uvx) * s;
  const cy = (uu * vwy + vv * wuy + ww * uvy) * s;
  const cz = (uu * vwz + vv * wuz + ww * uvz) * s;
  out.x = ax + cx;
  out.y = ay + cy;
  out.z = az + cz;
  out.r = Math.max(
    Math.sqrt(cx * cx + cy * cy + cz * cz),
    dist(p, b, out.x, out.y, out.z),
    dist(p, c, out.x, out.y, out.z),
    dist(p, d, out.x, out.y, out.z),
  );
  return true;
}

function toFloat64(points: Float64Array | Float32Array | readonly number[]): Float64Array {
  if (points.length % 3 !== 0) {
    throw new SlmeshError('INPUT_INVALID', `point list length ${points.length} is not a multiple of 3`);
  }
  const p = Float64Array.from(points);
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i]))
      throw new SlmeshError('INPUT_INVALID', `point ${Math.floor(i / 3)} has a non-finite coordinate`);
  }
  return p;
}

/**
 * Move the points to their bounding-box centre and divide by a power of two near their extent,
 * in place, so the arithmetic works on numbers near 1 (no underflow or overflow for tiny or huge
 * inputs; the power of two scales back exactly). Returns the centre and the scale.
 */
function normalise(p: Float64Array): { origin: [number, number, number]; scale: number } {
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    minX = Math.min(minX, p[i]);
    maxX = Math.max(maxX, p[i]);
    minY = Math.min(minY, p[i + 1]);
    maxY = Math.max(maxY, p[i + 1]);
    minZ = Math.min(minZ, p[i + 2]);
    maxZ = Math.max(maxZ, p[i + 2]);
  }
  const origin: [number, number, number] = [
    minX + (maxX - minX) / 2,
    minY + (maxY - minY) / 2,
    minZ + (maxZ - minZ) / 2,
  ];
  const extent = Math.max(maxX - minX, maxY - minY, maxZ - minZ);
  const scale = extent > 0 ? 2 ** Math.round(Math.log2(extent)) : 1;
  for (let i = 0; i < p.length; i += 3) {
    p[i] = (p[i] - origin[0]) / scale;
    p[i + 1] = (p[i + 1] - origin[1]) / scale;
    p[i + 2] = (p[i + 2] - origin[2]) / scale;
  }
  return { origin, scale };
}

/**
 * Smallest sphere enclosing the points `points` (flat xyz).
 * Returns the centre and radius; empty input gives radius 0 at the origin.
 */
export function minEnclosingSphere(
  points: Float64Array | Float32Array | readonly number[],
  options: MinEnclosingSphereOptions = {},
): Sphere {
  const p = toFloat64(points);
  const n = p.length / 3;
  if (n === 0) return { center: [0, 0, 0], radius: 0 };
  // 0. Work near the origin at unit size; the tolerance is relative to that size (about 1).
  const { origin, scale } = normalise(p);
  const tol = CONTAINMENT_RELATIVE;
  const order = shuffledOrder(n, options.seed ?? 0x5eed);
  const ball: Ball = { x: 0, y: 0, z: 0, r: 0 };
  const inside = (i: number) => dist(p, i, ball.x, ball.y, ball.z) <= ball.r + tol;

  // 1. Visit the points in random order; a point outside the sphere goes on the boundary of the next.
  ballOf1(p, order[0], ball);
  for (let i = 1; i < n; i++) {
    const a = order[i];
    if (inside(a)) continue;
    // 2. Smallest sphere of points 0..i with a on the boundary.
    ballOf1(p, a, ball);
    for (let j = 0; j < i; j++) {
      const b = order[j];
      if (inside(b)) continue;
      // 3. ... with a and b on the boundary.
      ballOf2(p, a, b, ball);
      for (let k = 0; k < j; k++) {
        const c = order[k];
        if (inside(c)) continue;
        // 4. ... with a, b and c on the boundary.
        if (!circumBall3(p, a, b, c, ball)) smallestOfFew(p, [a, b, c], tol, ball);
        for (let l = 0; l < k; l++) {
          const d = order[l];
          if (inside(d)) continue;
          // 5. Four boundary points fix the sphere.
          if (!circumBall4(p, a, b, c, d, ball)) smallestOfFew(p, [a, b, c, d], tol, ball);
        }
      }
    }
  }

  // 6. The radius that reaches every point, then back to the caller's frame.
  let radius = 0;
  for (let i = 0; i < n; i++) radius = Math.max(radius, dist(p, i, ball.x, ball.y, ball.z));
  return {
    center: [origin[0] + ball.x * scale, origin[1] + ball.y * scale, origin[2] + ball.z * scale],
    radius: radius * scale,
  };
}
