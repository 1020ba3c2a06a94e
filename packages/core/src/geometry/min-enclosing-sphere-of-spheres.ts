/**
 * Smallest sphere enclosing a set of spheres (balls), used by the legacy linkability rule (the
 * bounding sphere of a multi-prim object is the smallest sphere enclosing its prims' bounding
 * spheres).
 *
 * Exact up to floating-point rounding. The problem is LP-type with combinatorial dimension 4
 * (Fischer & Gaertner, "The smallest enclosing ball of balls: combinatorial structure and
 * algorithms", 2004): the optimum is fixed by at most 4 balls it touches from inside, with its
 * centre in the convex hull of their centres. We pivot: keep a basis (at most 4 balls) and its
 * smallest enclosing sphere; while some ball sticks out, add the one sticking out most and
 * solve the at most 5 balls exactly by trying every subset of them: for a subset, the sphere
 * internally tangent to all its balls with its centre in the affine hull of their centres (a
 * linear system plus one quadratic), keeping the smallest that encloses all 5. The radius grows
 * strictly at every step, so it ends (an iteration cap guards against rounding), and when nothing sticks out the basis sphere is the optimum.
 * The input is first moved and scaled to unit size by a power of two (undone exactly at the end);
 * the containment tolerance is 1e-10 of that size.
 * (Welzl's move-to-front recursion does not carry over to balls as is, see the paper; pivoting
 * does.) The returned radius is finally max |centre - c_i| + r_i, so every sphere is enclosed.
 */

import { SlmeshError } from '../errors.js';
import type { Sphere } from './min-enclosing-sphere.js';

/** Containment tolerance relative to the size of the input. */
const CONTAINMENT_RELATIVE = 1e-10;
/** Pivot of the Gram-matrix elimination below which the centres count as affinely dependent. */
const SINGULAR_RELATIVE = 1e-12;

interface Candidate {
  x: number;
  y: number;
  z: number;
  r: number;
}

/** Solve the k x k system G X = [a b] (two right-hand sides) by Gaussian elimination with partial pivoting. */
function solve2(G: number[][], a: number[], b: number[]): { p: number[]; q: number[] } | undefined {
  const k = a.length;
  const M = G.map((row, i) => [...row, a[i], b[i]]);
  let scale = 0;
  for (let i = 0; i < k; i++) scale = Math.max(scale, Math.abs(G[i][i]));
  for (let col = 0; col < k; col++) {
    let piv = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(M[r][col]) > Math.abs(M[piv][col])) piv = r;
    if (!(Math.abs(M[piv][col]) > SINGULAR_RELATIVE * scale)) return undefined;
    [M[col], M[piv]] = [M[piv], M[col]];
    for (let r = col + 1; r < k; r++) {
      const f = M[r][col] / M[col][col];
      for (let c = col; c < k + 2; c++) M[r][c] -= f * M[col][c];
    }
  }
  const p = new Array<number>(k).fill(0);
  const q = new Array<number>(k).fill(0);
  for (let r = k - 1; r >= 0; r--) {
    let sp = M[r][k];
    let sq = M[r][k + 1];
    for (let c = r + 1; c < k; c++) {
      sp -= M[r][c] * p[c];
      sq -= M[r][c] * q[c];
    }
    p[r] = sp / M[r][r];
    q[r] = sq / M[r][r];
  }
  return { p, q };
}

/**
 * Spheres internally tangent to every ball of `ids` (|x - c_i| = R - r_i, R >= r_i) whose centre
 * lies in the affine hull of the balls' centres: 0, 1 or 2 of them.
 */
function tangentSpheres(c: Float64Array, rad: Float64Array, ids: readonly number[], tol: number): Candidate[] {
  const i0 = ids[0];
  if (ids.length === 1) return [{ x: c[3 * i0], y: c[3 * i0 + 1], z: c[3 * i0 + 2], r: rad[i0] }];
  const r0 = rad[i0];
  // 1. u_j = c_j - c_0; the unknown centre is c_0 + sum lambda_j u_j.
  const u = ids
    .slice(1)
    .map((id) => [c[3 * id] - c[3 * i0], c[3 * id + 1] - c[3 * i0 + 1], c[3 * id + 2] - c[3 * i0 + 2]]);
  const k = u.length;
  const dot = (p: number[], q: number[]) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  // 2. Subtracting the tangency equations: G lambda = a + R b, G the Gram matrix of the u_j.
  const G = u.map((ui) => u.map((uj) => dot(ui, uj)));
  const a = u.map((uj, j) => (dot(uj, uj) - rad[ids[j + 1]] ** 2 + r0 * r0) / 2);
  const b = u.map((_, j) => rad[ids[j + 1]] - r0);
  const sol = solve2(G, a, b);
  if (!sol) return [];
  // 3. y = x - c_0 = y0 + R y1.
  const y0 = [0, 0, 0];
  const y1 = [0, 0, 0];
  for (let j = 0; j < k; j++) {
    for (let d = 0; d < 3; d++) {
      y0[d] += sol.p[j] * u[j][d];
      y1[d] += sol.q[j] * u[j][d];
    }
  }
  // 4. |y|^2 = (R - r_0)^2: A R^2 + B R + C = 0.
  const A = dot(y1, y1) - 1;
  const B = 2 * (dot(y0, y1) + r0);
  const C = dot(y0, y0) - r0 * r0;
  const roots: number[] = [];
  if (Math.abs(A) <= 1e-14) {
    if (B !== 0) roots.push(-C / B);
  } else {
    const disc = B * B - 4 * A * C;
    if (disc >= 0) {
      const sq = Math.sqrt(disc);
      // Numerically stable pair of roots.
      const qq = -0.5 * (B + (B >= 0 ? sq : -sq));
      if (qq !== 0) roots.push(qq / A, C / qq);
      else roots.push(0);
    }
  }
  const out: Candidate[] = [];
  let maxR = 0;
  for (const id of ids) maxR = Math.max(maxR, rad[id]);
  for (const R of roots) {
    if (!Number.isFinite(R) || R < maxR - tol) continue;
    out.push({
      x: c[3 * i0] + y0[0] + R * y1[0],
      y: c[3 * i0 + 1] + y0[1] + R * y1[1],
      z: c[3 * i0 + 2] + y0[2] + R * y1[2],
      r: R,
    });
  }
  return out;
}

function excess(c: Float64Array, rad: Float64Array, i: number, s: Candidate): number {
  const dx = c[3 * i] - s.x,
    dy = c[3 * i + 1] - s.y,
    dz = c[3 * i + 2] - s.z;
  return Math.sqrt(dx * dx + dy * dy + dz * dz) + rad[i] - s.r;
}

/** Smallest sphere enclosing the balls `ids` (at most 5), with the subset of them it touches. */
function smallBall(
  c: Float64Array,
  rad: Float64Array,
  ids: readonly number[],
  tol: number,
): { sphere: Candidate; basis: number[] } {
  let best: { sphere: Candidate; basis: number[] } | undefined;
  for (let mask = 1; mask < 1 << ids.length; mask++) {
    const subset = ids.filter((_, i) => mask & (1 << i));
    if (subset.length > 4) continue;
    for (const s of tangentSpheres(c, rad, subset, tol)) {
      if (best && s.r >= best.sphere.r) continue;
      if (ids.every((i) => excess(c, rad, i, s) <= tol)) best = { sphere: s, basis: subset };
    }
  }
  if (best) return best;
  // Numerical dead end (cannot happen in exact arithmetic): enclose around the first centre.
  const s: Candidate = { x: c[3 * ids[0]], y: c[3 * ids[0] + 1], z: c[3 * ids[0] + 2], r: 0 };
  for (const i of ids) s.r = Math.max(s.r, excess(c, rad, i, s) + s.r);
  return { sphere: s, basis: [...ids] };
}

/**
 * Smallest sphere enclosing the spheres with centres `centers` (flat xyz) and radii `radii`.
 * Empty input gives radius 0 at the origin.
 */
export function minEnclosingSphereOfSpheres(
  centers: Float64Array | Float32Array | readonly number[],
  radii: Float64Array | Float32Array | readonly number[],
): Sphere {
  const n = radii.length;
  if (centers.length !== 3 * n) {
    throw new SlmeshError('INPUT_INVALID', `${centers.length / 3} sphere centres for ${n} radii`);
  }
  const c = Float64Array.from(centers);
  const rad = Float64Array.from(radii);
  for (let i = 0; i < n; i++) {
    if (
      !Number.isFinite(c[3 * i]) ||
      !Number.isFinite(c[3 * i + 1]) ||
      !Number.isFinite(c[3 * i + 2]) ||
      !(rad[i] >= 0) ||
      !Number.isFinite(rad[i])
    ) {
      throw new SlmeshError('INPUT_INVALID', `sphere ${i} has a non-finite centre or a negative radius`);
    }
  }
  if (n === 0) return { center: [0, 0, 0], radius: 0 };

  // 1. Work near the origin at unit size: move to the centres' box centre and divide by a power
  //    of two near the input's extent (exact to undo; no underflow or overflow).
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity,
    maxR = 0;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, c[3 * i]);
    maxX = Math.max(maxX, c[3 * i]);
    minY = Math.min(minY, c[3 * i + 1]);
    maxY = Math.max(maxY, c[3 * i + 1]);
    minZ = Math.min(minZ, c[3 * i + 2]);
    maxZ = Math.max(maxZ, c[3 * i + 2]);
    maxR = Math.max(maxR, rad[i]);
  }
  const origin: [number, number, number] = [
    minX + (maxX - minX) / 2,
    minY + (maxY - minY) / 2,
    minZ + (maxZ - minZ) / 2,
  ];
  const extent = Math.max(maxX - minX, maxY - minY, maxZ - minZ, 2 * maxR);
  const scale = extent > 0 ? 2 ** Math.round(Math.log2(extent)) : 1;
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < 3; d++) c[3 * i + d] = (c[3 * i + d] - origin[d]) / scale;
    rad[i] /= scale;
  }
  const tol = CONTAINMENT_RELATIVE;

  // 2. Start from the largest ball.
  let first = 0;
  for (let i = 1; i < n; i++) if (rad[i] > rad[first]) first = i;
  let basis = [first];
  let sphere: Candidate = { x: c[3 * first], y: c[3 * first + 1], z: c[3 * first + 2], r: rad[first] };

  // 3. Pivot on the ball sticking out most until none does.
  for (let iteration = 0; iteration < 100 + 10 * n; iteration++) {
    let worst = -1;
    let worstExcess = tol;
    for (let i = 0; i < n; i++) {
      const e = excess(c, rad, i, sphere);
      if (e > worstExcess) {
        worstExcess = e;
        worst = i;
      }
    }
    if (worst < 0) break;
    const next = smallBall(c, rad, [...basis, worst], tol);
    // In exact arithmetic the radius grows; it may stay equal in floating point (a near-right
    // triangle's circumcircle and its hypotenuse sphere), so only a shrink means a numerical dead end.
    if (next.sphere.r < sphere.r - tol) break; // step 4 still encloses everything
    sphere = next.sphere;
    basis = next.basis;
  }

  // 4. The radius that encloses every ball, back in the caller's frame.
  let radius = 0;
  for (let i = 0; i < n; i++) radius = Math.max(radius, excess(c, rad, i, { ...sphere, r: 0 }));
  return {
    center: [origin[0] + sphere.x * scale, origin[1] + sphere.y * scale, origin[2] + sphere.z * scale],
    radius: radius * scale,
  };
}
