/**
 * Cutting a triangle mesh by a plane, capping the cut, and splitting a mesh into its connected
 * pieces.
 *
 * `splitByPlane` clips every triangle against n.x = d (Sutherland-Hodgman on the triangle,
 * fanned back into triangles); each crossing edge gets one new vertex shared by both triangles
 * on it, and vertices within `eps` of the plane belong to both sides, so each side stays
 * connected where the input was. Each side is then capped: its open edges in the plane are
 * chained into loops, nested loops become holes, and each region is triangulated (no new
 * vertices), so a closed mesh gives closed pieces, and a ring cut across stays one piece (its
 * inner and outer walls joined by the cap). Each side is then split into connected pieces.
 * Chains that do not close (the cut crosses a hole of an open mesh) are left uncapped.
 *
 * Flat typed arrays in and out; deterministic (pieces ordered by their first triangle).
 */

import { planeBasis, triangulatePolygon } from './polygon-triangulate.js';
import type { IndexedMesh } from './indexed-mesh.js';

/** Union-find root with path halving. */
function root(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/**
 * Each vertex's connected piece, named by one of its vertices (triangles sharing a vertex are
 * connected, and so are the vertex pairs in `links`); a vertex no triangle uses is its own piece.
 */
export function vertexComponents(nv: number, indices: ArrayLike<number>, links: readonly number[] = []): Int32Array {
  const parent = new Int32Array(nv);
  for (let i = 0; i < nv; i++) parent[i] = i;
  for (let l = 0; l + 1 < links.length; l += 2) {
    const a = root(parent, links[l]),
      b = root(parent, links[l + 1]);
    if (a !== b) parent[b] = a;
  }
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = root(parent, indices[t]);
    const b = root(parent, indices[t + 1]);
    const c = root(parent, indices[t + 2]);
    if (b !== a) parent[b] = a;
    const c2 = root(parent, c);
    const a2 = root(parent, a);
    if (c2 !== a2) parent[c2] = a2;
  }
  for (let i = 0; i < nv; i++) parent[i] = root(parent, i);
  return parent;
}

/**
 * The connected pieces of a mesh (triangles sharing a vertex are connected, and so are the vertex
 * pairs in `links`), each re-indexed.
 */
export function connectedComponents(
  part: IndexedMesh<Float64Array>,
  links: readonly number[] = [],
): IndexedMesh<Float64Array>[] {
  const nv = part.positions.length / 3;
  const ix = part.indices;
  const component = vertexComponents(nv, ix, links);
  // Group triangles by component, in order of first appearance.
  const group = new Map<number, number[]>();
  for (let t = 0; t < ix.length; t += 3) {
    const r = component[ix[t]];
    let g = group.get(r);
    if (!g) group.set(r, (g = []));
    g.push(t);
  }
  if (group.size <= 1) return ix.length > 0 ? [part] : [];
  const out: IndexedMesh<Float64Array>[] = [];
  const remap = new Int32Array(nv).fill(-1);
  for (const tris of group.values()) {
    const pos: number[] = [];
    const idx = new Uint32Array(tris.length * 3);
    const touched: number[] = [];
    tris.forEach((t, n) => {
      for (let k = 0; k < 3; k++) {
        const v = ix[t + k];
        if (remap[v] < 0) {
          remap[v] = pos.length / 3;
          touched.push(v);
          pos.push(part.positions[3 * v], part.positions[3 * v + 1], part.positions[3 * v + 2]);
        }
        idx[3 * n + k] = remap[v];
      }
    });
    for (const v of touched) remap[v] = -1;
    out.push({ positions: Float64Array.from(pos), indices: idx });
  }
  return out;
}

/** One side of a cut being built. */
class SideBuilder {
  readonly pos: number[] = [];
  readonly idx: number[] = [];
  /** Local vertices lying in the cut plane. */
  readonly onPlane: boolean[] = [];
  readonly remap: Int32Array;
  constructor(
    readonly src: Float64Array,
    nv: number,
  ) {
    this.remap = new Int32Array(nv).fill(-1);
  }
  vertex(v: number, onPlane: boolean): number {
    let r = this.remap[v];
    if (r < 0) {
      r = this.remap[v] = this.pos.length / 3;
      this.pos.push(this.src[3 * v], this.src[3 * v + 1], this.src[3 * v + 2]);
      this.onPlane.push(onPlane);
    }
    return r;
  }
  point(x: number, y: number, z: number): number {
    const r = this.pos.length / 3;
    this.pos.push(x, y, z);
    this.onPlane.push(true);
    return r;
  }
  part(): IndexedMesh<Float64Array> {
    return { positions: Float64Array.from(this.pos), indices: Uint32Array.from(this.idx) };
  }
}

/**
 * `cap`: each side is closed with cap triangles. `points`: no cap triangles are made (cheaper, for
 * ranking cuts); pieces are still grouped as caps would group them, so each piece has the right
 * points.
 */
export type SplitMode = 'cap' | 'points';

export interface PlaneSplit {
  /** Pieces with n.x <= d. */
  below: IndexedMesh<Float64Array>[];
  /** Pieces with n.x >= d. */
  above: IndexedMesh<Float64Array>[];
}

/**
 * Cuts `part` by the plane n.x = d (n unit) into connected pieces on each side. Vertices within
 * `eps` of the plane go to both sides; a triangle lying in the plane goes to the side its normal
 * points away from (the side its solid is on).
 */
export function splitByPlane(
  part: IndexedMesh<Float64Array>,
  nx: number,
  ny: number,
  nz: number,
  d: number,
  eps: number,
  mode: SplitMode = 'cap',
): PlaneSplit {
  const p = part.positions,
    ix = part.indices;
  const nv = p.length / 3;
  const s = new Float64Array(nv);
  const cls = new Int8Array(nv);
  for (let v = 0; v < nv; v++) {
    s[v] = nx * p[3 * v] + ny * p[3 * v + 1] + nz * p[3 * v + 2] - d;
    cls[v] = s[v] > eps ? 1 : s[v] < -eps ? -1 : 0;
  }
  const below = new SideBuilder(p, nv),
    above = new SideBuilder(p, nv);
  const cut = new Map<number, [number, number]>();
  const crossing = (a: number, b: number): [number, number] => {
    const key = a < b ? a * nv + b : b * nv + a;
    let r = cut.get(key);
    if (!r) {
      const t = s[a] / (s[a] - s[b]);
      const x = p[3 * a] + t * (p[3 * b] - p[3 * a]),
        y = p[3 * a + 1] + t * (p[3 * b + 1] - p[3 * a + 1]),
        z = p[3 * a + 2] + t * (p[3 * b + 2] - p[3 * a + 2]);
      r = [below.point(x, y, z), above.point(x, y, z)];
      cut.set(key, r);
    }
    return r;
  };
  const poly: number[] = [];
  for (let t = 0; t < ix.length; t += 3) {
    const a = ix[t],
      b = ix[t + 1],
      c = ix[t + 2];
    const ca = cls[a],
      cb = cls[b],
      cc = cls[c];
    const lo = Math.min(ca, cb, cc),
      hi = Math.max(ca, cb, cc);
    if (hi <= 0 || lo >= 0) {
      let side: SideBuilder;
      if (hi <= 0 && lo < 0) side = below;
      else if (lo >= 0 && hi > 0) side = above;
      else {
        // In the plane: its outward normal tells which side the solid is on.
        const ux = p[3 * b] - p[3 * a],
          uy = p[3 * b + 1] - p[3 * a + 1],
          uz = p[3 * b + 2] - p[3 * a + 2];
        const vx = p[3 * c] - p[3 * a],
          vy = p[3 * c + 1] - p[3 * a + 1],
          vz = p[3 * c + 2] - p[3 * a + 2];
        const dot = nx * (uy * vz - uz * vy) + ny * (uz * vx - ux * vz) + nz * (ux * vy - uy * vx);
        side = dot >= 0 ? below : above;
      }
      side.idx.push(side.vertex(a, ca === 0), side.vertex(b, cb === 0), side.vertex(c, cc === 0));
      continue;
    }
    // Straddling: clip the triangle for each side and fan the polygon.
    for (const [side, sign, k] of [
      [below, -1, 0],
      [above, 1, 1],
    ] as const) {
      poly.length = 0;
      const tri = [a, b, c];
      for (let e = 0; e < 3; e++) {
        const u = tri[e],
          w = tri[(e + 1) % 3];
        if (cls[u] === sign || cls[u] === 0) poly.push(side.vertex(u, cls[u] === 0));
        if (cls[u] * cls[w] === -1) poly.push(crossing(u, w)[k]);
      }
      for (let i = 1; i + 1 < poly.length; i++) side.idx.push(poly[0], poly[i], poly[i + 1]);
    }
  }
  const linksBelow = capSection(below, nx, ny, nz, false, mode === 'cap');
  const linksAbove = capSection(above, nx, ny, nz, true, mode === 'cap');
  const b0 = below.part(),
    a0 = above.part();
  return { below: connectedComponents(b0, linksBelow), above: connectedComponents(a0, linksAbove) };
}

/**
 * Closes one side of a cut: its open edges lying in the plane are chained into loops, loops
 * nested in loops become holes (even nesting depth = outer ring), and each ring with its holes is
 * triangulated (polygon-triangulate.ts) facing out of the side (+n below the plane, -n above).
 * Chains that do not close (an open mesh) are left open. Without `triangulate`, adds nothing and
 * returns vertex pairs linking each hole to its ring instead (what the cap would connect).
 */
function capSection(
  side: SideBuilder,
  nx: number,
  ny: number,
  nz: number,
  flip: boolean,
  triangulate: boolean,
): number[] {
  const ix = side.idx,
    p = side.pos,
    onPlane = side.onPlane;
  const nv = p.length / 3;
  // 1. Open edges in the plane: used by one triangle of this side.
  const uses = new Map<number, number>();
  for (let t = 0; t < ix.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = ix[t + k],
        b = ix[t + ((k + 1) % 3)];
      if (!onPlane[a] || !onPlane[b]) continue;
      const key = a < b ? a * nv + b : b * nv + a;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const next = new Map<number, number[]>();
  for (const [key, n] of uses) {
    if (n !== 1) continue;
    const a = Math.floor(key / nv),
      b = key % nv;
    (next.get(a) ?? next.set(a, []).get(a)!).push(b);
    (next.get(b) ?? next.set(b, []).get(b)!).push(a);
  }
  if (next.size < 3) return [];
  // 2. Chain them into closed loops.
  const seen = new Set<number>();
  const loops: number[][] = [];
  for (const start of [...next.keys()].sort((x, y) => x - y)) {
    if (seen.has(start)) continue;
    const loop = [start];
    seen.add(start);
    let prev = -1,
      cur = start,
      closed = false;
    for (;;) {
      const nb = next.get(cur)!;
      const step = nb.find((v) => v !== prev && !seen.has(v));
      if (step === undefined) {
        closed = loop.length > 2 && nb.includes(start);
        break;
      }
      loop.push(step);
      seen.add(step);
      prev = cur;
      cur = step;
    }
    if (closed) loops.push(loop);
  }
  if (loops.length === 0) return [];
  // 3. 2D coordinates in the plane (u, w with u x w = n).
  const {
    u: [ux, uy, uz],
    w: [wx, wy, wz],
  } = planeBasis([nx, ny, nz]);
  const local = new Map<number, number>();
  const xy: number[] = [];
  const ids: number[] = [];
  const localLoops = loops.map((l) =>
    l.map((v) => {
      let i = local.get(v);
      if (i === undefined) {
        i = ids.length;
        local.set(v, i);
        ids.push(v);
        xy.push(
          ux * p[3 * v] + uy * p[3 * v + 1] + uz * p[3 * v + 2],
          wx * p[3 * v] + wy * p[3 * v + 1] + wz * p[3 * v + 2],
        );
      }
      return i;
    }),
  );
  // 4. Nesting by even-odd point-in-polygon of each loop's first vertex.
  const inside = (q: number, ring: number[]) => {
    const qx = xy[2 * q],
      qy = xy[2 * q + 1];
    let c = false;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const xi = xy[2 * ring[i]],
        yi = xy[2 * ring[i] + 1],
        xj = xy[2 * ring[j]],
        yj = xy[2 * ring[j] + 1];
      if (yi > qy !== yj > qy && qx < ((xj - xi) * (qy - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  const containers = localLoops.map((ring, i) =>
    localLoops.map((other, j) => (i !== j && inside(ring[0], other) ? j : -1)).filter((j) => j >= 0),
  );
  const holesOf = new Map<number, number[][]>();
  localLoops.forEach((ring, i) => {
    const depth = containers[i].length;
    if (depth % 2 === 0) {
      if (!holesOf.has(i)) holesOf.set(i, []);
      return;
    }
    const parent = containers[i].reduce(
      (best, j) => (containers[j].length > containers[best].length ? j : best),
      containers[i][0],
    );
    (holesOf.get(parent) ?? holesOf.set(parent, []).get(parent)!).push(ring);
  });
  // 5. Without triangles: link each hole to its ring (the cap would join them).
  if (!triangulate) {
    const links: number[] = [];
    for (const [outer, holes] of holesOf) for (const h of holes) links.push(ids[localLoops[outer][0]], ids[h[0]]);
    return links;
  }
  // 6. Triangulate each ring with its holes, facing out of this side.
  for (const [outer, holes] of holesOf) {
    if (containers[outer].length % 2 !== 0) continue;
    const tris = triangulatePolygon(xy, localLoops[outer], holes);
    for (let t = 0; t < tris.length; t += 3) {
      const a = ids[tris[t]],
        b = ids[tris[t + 1]],
        c = ids[tris[t + 2]];
      if (flip) ix.push(a, c, b);
      else ix.push(a, b, c);
    }
  }
  return [];
}
