/**
 * A 3D convex hull (quickhull: Barber, Dobkin and Huhdanpaa 1996) over flat typed arrays, for
 * the decomposition's inner loops, which hull thousands of small point sets (cut pieces, merge
 * candidates, simplification rounds). quickhull3d allocates objects per vertex, face and edge;
 * this keeps faces, neighbours and conflict lists in typed arrays.
 *
 * 1. Initial tetrahedron from extreme points; every point goes to the conflict list of the face
 *    it lies farthest above.
 * 2. Repeatedly take a face with a non-empty list and its farthest point (the eye): find the faces
 *    the eye sees by a depth-first walk that emits the horizon edges in order, delete them, fan
 *    new faces from the horizon to the eye, and hand the orphaned points to the new faces.
 *
 * Points within `eps` of a face count as on it (not added). No face merging: near-coplanar
 * input can leave slightly non-convex creases within eps. Returns undefined for degenerate
 * input (flat, collinear, fewer than 4 points) or if the result fails its closure and local
 * convexity checks; convex-hull.ts's exactConvexHull (quickhull3d, validated) is the fallback.
 */

import { triangleCross } from '../geometry/indexed-mesh.js';

export interface QuickHullResult {
  /** Flat xyz of the hull's vertices only. */
  points: Float64Array;
  /** Three indices into `points` per triangle, counter-clockwise seen from outside. */
  triangles: Uint32Array;
  /** Outward unit normal and offset per triangle (n.x <= d inside). */
  planes: Float64Array;
  volume: number;
}

/**
 * Scratch buffers reused from call to call (the decomposition hulls thousands of small point
 * sets: allocating them each time made a fifth of its CPU time garbage collection). Calls up to
 * POOL_MAX_FACES faces use them; bigger ones allocate their own, so a million-point hull does not
 * keep hundreds of megabytes alive. quickHull never re-enters itself.
 */
const POOL_MAX_FACES = 1 << 16;
const pool = {
  cap: 0,
  fv: new Int32Array(0),
  fnb: new Int32Array(0),
  fpl: new Float64Array(0),
  alive: new Uint8Array(0),
  head: new Int32Array(0),
  far: new Int32Array(0),
  farD: new Float64Array(0),
  points: new Int32Array(0),
};

function facesOf(cap: number) {
  return {
    fv: new Int32Array(cap * 3),
    fnb: new Int32Array(cap * 3),
    fpl: new Float64Array(cap * 4),
    alive: new Uint8Array(cap),
    head: new Int32Array(cap),
    far: new Int32Array(cap),
    farD: new Float64Array(cap),
  };
}

export function quickHull(p: Float64Array, epsRelative = 1e-10): QuickHullResult | undefined {
  const n = p.length / 3;
  if (n < 4) return undefined;
  // 0. Extent and tolerance.
  let ext = 0;
  {
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = p[i + k];
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
    }
    ext = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    if (!(ext > 0)) return undefined;
  }
  const eps = ext * epsRelative;

  // Face storage (grown on demand). Every field of a face is written when the face is made, and a
  // point's next-in-list when it joins a list, so reused buffers need no clearing.
  let cap = Math.max(64, 4 * n);
  const pooled = cap <= POOL_MAX_FACES;
  if (pooled && pool.cap < cap) Object.assign(pool, facesOf(cap), { cap, points: new Int32Array(cap) });
  let { fv, fnb, fpl, alive, head, far, farD } = pooled ? pool : facesOf(cap);
  if (pooled) cap = pool.cap;
  // fv: vertex indices; fnb: neighbour across edge k (3 * face + edge); fpl: plane nx ny nz d;
  // head: conflict list head; far, farD: farthest conflict point and its distance.
  let nf = 0;
  const nextPt = pooled ? pool.points : new Int32Array(n);

  const grow = () => {
    cap *= 2;
    const g32 = (a: Int32Array, m: number) => {
      const b = new Int32Array(cap * m);
      b.set(a);
      return b;
    };
    fv = g32(fv, 3);
    fnb = g32(fnb, 3);
    const pl = new Float64Array(cap * 4);
    pl.set(fpl);
    fpl = pl;
    const al = new Uint8Array(cap);
    al.set(alive);
    alive = al;
    head = g32(head, 1);
    far = g32(far, 1);
    const fd = new Float64Array(cap);
    fd.set(farD);
    farD = fd;
    if (pooled && cap <= POOL_MAX_FACES) Object.assign(pool, { cap, fv, fnb, fpl, alive, head, far, farD });
  };

  const newFace = (a: number, b: number, c: number): number => {
    if (nf >= cap) grow();
    const f = nf++;
    fv[3 * f] = a;
    fv[3 * f + 1] = b;
    fv[3 * f + 2] = c;
    triangleCross(p, a, b, c, fpl, 4 * f);
    let nx = fpl[4 * f],
      ny = fpl[4 * f + 1],
      nz = fpl[4 * f + 2];
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1e-300;
    nx /= l;
    ny /= l;
    nz /= l;
    fpl[4 * f] = nx;
    fpl[4 * f + 1] = ny;
    fpl[4 * f + 2] = nz;
    // Offset from the centroid of the three corners (steadier than one corner).
    fpl[4 * f + 3] =
      (nx * (p[3 * a] + p[3 * b] + p[3 * c]) +
        ny * (p[3 * a + 1] + p[3 * b + 1] + p[3 * c + 1]) +
        nz * (p[3 * a + 2] + p[3 * b + 2] + p[3 * c + 2])) /
      3;
    alive[f] = 1;
    head[f] = -1;
    far[f] = -1;
    farD[f] = 0;
    return f;
  };
  const dist = (f: number, i: number) =>
    fpl[4 * f] * p[3 * i] + fpl[4 * f + 1] * p[3 * i + 1] + fpl[4 * f + 2] * p[3 * i + 2] - fpl[4 * f + 3];
  const link = (f: number, k: number, g: number, j: number) => {
    fnb[3 * f + k] = 3 * g + j;
    fnb[3 * g + j] = 3 * f + k;
  };
  const addConflict = (f: number, i: number, d: number) => {
    nextPt[i] = head[f];
    head[f] = i;
    if (d > farD[f]) {
      farD[f] = d;
      far[f] = i;
    }
  };

  // 1. Initial tetrahedron: extreme points spanning the most.
  let a = 0;
  for (let i = 1; i < n; i++) if (p[3 * i] < p[3 * a]) a = i;
  let b = -1,
    best = -1;
  for (let i = 0; i < n; i++) {
    const d = (p[3 * i] - p[3 * a]) ** 2 + (p[3 * i + 1] - p[3 * a + 1]) ** 2 + (p[3 * i + 2] - p[3 * a + 2]) ** 2;
    if (d > best) {
      best = d;
      b = i;
    }
  }
  const ux = p[3 * b] - p[3 * a],
    uy = p[3 * b + 1] - p[3 * a + 1],
    uz = p[3 * b + 2] - p[3 * a + 2];
  let c = -1;
  best = -1;
  for (let i = 0; i < n; i++) {
    const dx = p[3 * i] - p[3 * a],
      dy = p[3 * i + 1] - p[3 * a + 1],
      dz = p[3 * i + 2] - p[3 * a + 2];
    const d = (dy * uz - dz * uy) ** 2 + (dz * ux - dx * uz) ** 2 + (dx * uy - dy * ux) ** 2;
    if (d > best) {
      best = d;
      c = i;
    }
  }
  if (best <= eps * eps * (ux * ux + uy * uy + uz * uz)) return undefined;
  const vx = p[3 * c] - p[3 * a],
    vy = p[3 * c + 1] - p[3 * a + 1],
    vz = p[3 * c + 2] - p[3 * a + 2];
  const tnx = uy * vz - uz * vy,
    tny = uz * vx - ux * vz,
    tnz = ux * vy - uy * vx;
  const tl = Math.sqrt(tnx * tnx + tny * tny + tnz * tnz);
  let d4 = -1;
  best = 0;
  for (let i = 0; i < n; i++) {
    const d =
      Math.abs(
        tnx * (p[3 * i] - p[3 * a]) + tny * (p[3 * i + 1] - p[3 * a + 1]) + tnz * (p[3 * i + 2] - p[3 * a + 2]),
      ) / tl;
    if (d > best) {
      best = d;
      d4 = i;
    }
  }
  if (d4 < 0 || best <= eps * 10) return undefined;
  // Orient so that the base (a, b, c) faces away from d4.
  const side =
    tnx * (p[3 * d4] - p[3 * a]) + tny * (p[3 * d4 + 1] - p[3 * a + 1]) + tnz * (p[3 * d4 + 2] - p[3 * a + 2]);
  if (side > 0) [b, c] = [c, b];
  const f0 = newFace(a, b, c);
  const f1 = newFace(a, d4, b);
  const f2 = newFace(b, d4, c);
  const f3 = newFace(c, d4, a);
  link(f0, 0, f1, 2); // a-b
  link(f0, 1, f2, 2); // b-c
  link(f0, 2, f3, 2); // c-a
  link(f1, 0, f3, 1); // a-d4 / d4-a
  link(f1, 1, f2, 0); // d4-b / b-d4
  link(f2, 1, f3, 0); // d4-c / c-d4
  for (let i = 0; i < n; i++) {
    if (i === a || i === b || i === c || i === d4) continue;
    let bf = -1,
      bd = eps;
    for (let f = 0; f < 4; f++) {
      const d = dist(f, i);
      if (d > bd) {
        bd = d;
        bf = f;
      }
    }
    if (bf >= 0) addConflict(bf, i, bd);
  }

  // 2. Grow. Scratch stacks are typed arrays with explicit lengths (cheaper than resizing arrays).
  let work = new Int32Array(64);
  let nWork = 0;
  const pushWork = (f: number) => {
    if (nWork >= work.length) {
      const w2 = new Int32Array(work.length * 2);
      w2.set(work);
      work = w2;
    }
    work[nWork++] = f;
  };
  for (const f of [f0, f1, f2, f3]) pushWork(f);
  let horizon = new Int32Array(64),
    visible = new Int32Array(64),
    orphans = new Int32Array(64);
  let stackF = new Int32Array(64),
    stackStart = new Int32Array(64),
    stackK = new Int32Array(64);
  const bigger = (a: Int32Array) => {
    const b2 = new Int32Array(a.length * 2);
    b2.set(a);
    return b2;
  };
  let guard = 0;
  while (nWork > 0) {
    const f = work[--nWork];
    if (!alive[f] || head[f] < 0) continue;
    if (++guard > 50 * n + 1000) return undefined;
    const eye = far[f];
    // 2a. Horizon by depth-first walk (iterative form of quickhull3d's computeHorizon).
    let nh = 0,
      nv = 0,
      ns = 0;
    alive[f] = 0;
    visible[nv++] = f;
    stackF[0] = f;
    stackStart[0] = 0;
    stackK[0] = 0;
    ns = 1;
    while (ns > 0) {
      const top = ns - 1;
      const face = stackF[top],
        start = stackStart[top],
        step = stackK[top];
      if (step === 3) {
        ns--;
        continue;
      }
      stackK[top] = step + 1;
      const k = (start + step) % 3;
      const opp = fnb[3 * face + k];
      const g = (opp / 3) | 0,
        j = opp % 3;
      if (!alive[g]) continue;
      if (dist(g, eye) > eps) {
        alive[g] = 0;
        if (nv >= visible.length) visible = bigger(visible);
        visible[nv++] = g;
        // Continue in g from the edge after the one we crossed.
        if (ns >= stackF.length) {
          stackF = bigger(stackF);
          stackStart = bigger(stackStart);
          stackK = bigger(stackK);
        }
        stackF[ns] = g;
        stackStart[ns] = (j + 1) % 3;
        stackK[ns] = 0;
        ns++;
      } else {
        if (nh >= horizon.length) horizon = bigger(horizon);
        horizon[nh++] = 3 * face + k;
      }
    }
    // 2b. Orphaned points.
    let no = 0;
    for (let vi = 0; vi < nv; vi++) {
      const v = visible[vi];
      for (let i = head[v]; i >= 0; i = nextPt[i]) {
        if (i === eye) continue;
        if (no >= orphans.length) orphans = bigger(orphans);
        orphans[no++] = i;
      }
      head[v] = -1;
    }
    // 2c. Fan from the horizon to the eye.
    if (nh < 3) return undefined;
    const first = nf;
    for (let e = 0; e < nh; e++) {
      const face = (horizon[e] / 3) | 0,
        k = horizon[e] % 3;
      const va = fv[3 * face + k],
        vb = fv[3 * face + ((k + 1) % 3)];
      const opp = fnb[3 * face + k];
      const nfId = newFace(va, vb, eye);
      link(nfId, 0, (opp / 3) | 0, opp % 3);
    }
    for (let e = 0; e < nh; e++) {
      const cur = first + e,
        nxt = first + ((e + 1) % nh);
      // cur's edge b -> eye is nxt's edge eye -> a (the same vertex when the horizon is a loop).
      if (fv[3 * cur + 1] !== fv[3 * nxt]) return undefined;
      link(cur, 1, nxt, 2);
    }
    // 2d. Hand orphans to the new face they are farthest above.
    for (let oi = 0; oi < no; oi++) {
      const i = orphans[oi];
      let bf = -1,
        bd = eps;
      for (let g = first; g < nf; g++) {
        const d = dist(g, i);
        if (d > bd) {
          bd = d;
          bf = g;
        }
      }
      if (bf >= 0) addConflict(bf, i, bd);
    }
    for (let g = first; g < nf; g++) if (head[g] >= 0) pushWork(g);
  }
  // 3. Collect live faces; check closure and local convexity (each neighbour's far corner behind).
  const remap = new Int32Array(n).fill(-1);
  let live = 0,
    nv = 0;
  for (let f = 0; f < nf; f++) {
    if (!alive[f]) continue;
    live++;
    for (let k = 0; k < 3; k++) {
      const g = (fnb[3 * f + k] / 3) | 0,
        j = fnb[3 * f + k] % 3;
      if (!alive[g]) return undefined;
      const farV = fv[3 * g + ((j + 2) % 3)];
      if (dist(f, farV) > 100 * eps) return undefined;
      const v = fv[3 * f + k];
      if (remap[v] < 0) remap[v] = nv++;
    }
  }
  const points = new Float64Array(nv * 3);
  for (let i = 0; i < n; i++) {
    const r = remap[i];
    if (r < 0) continue;
    points[3 * r] = p[3 * i];
    points[3 * r + 1] = p[3 * i + 1];
    points[3 * r + 2] = p[3 * i + 2];
  }
  const tris = new Uint32Array(live * 3);
  const planes = new Float64Array(live * 4);
  let o = 0;
  let volume6 = 0;
  for (let f = 0; f < nf; f++) {
    if (!alive[f]) continue;
    tris[3 * o] = remap[fv[3 * f]];
    tris[3 * o + 1] = remap[fv[3 * f + 1]];
    tris[3 * o + 2] = remap[fv[3 * f + 2]];
    planes[4 * o] = fpl[4 * f];
    planes[4 * o + 1] = fpl[4 * f + 1];
    planes[4 * o + 2] = fpl[4 * f + 2];
    planes[4 * o + 3] = fpl[4 * f + 3];
    const a = 3 * fv[3 * f],
      b = 3 * fv[3 * f + 1],
      c = 3 * fv[3 * f + 2];
    volume6 +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
    o++;
  }
  if (!(volume6 > 0)) return undefined;
  return { points, triangles: tris, planes, volume: volume6 / 6 };
}
