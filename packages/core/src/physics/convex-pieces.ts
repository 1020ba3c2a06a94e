/**
 * Recognises a physics mesh made of closed convex pieces: what `slmesh optimize` (and many
 * creators) write as the `_PHYS` node so that the uploader's Analyze step keeps each piece as a
 * hull. Returns the pieces' vertices as hulls, or undefined when any piece is open, not convex,
 * or the set breaks Second Life's limits (256 hulls of 256 vertices).
 *
 * 1. Weld vertices by exact position within each face (glTF primitive), never across faces:
 *    neighbouring hulls of a decomposition share positions where they touch, and are written
 *    as separate primitives; a piece with split (flat-shaded) vertices still closes up.
 * 2. Connected components of triangles through shared vertices.
 * 3. A piece qualifies when every edge has exactly two triangles (closed) and no vertex lies in
 *    front of any of its triangles' planes by more than a small tolerance (convex).
 */

import { MAX_HULL_VERTICES, MAX_HULLS } from '../constants.js';
import { triangleComponents } from '../geometry/indexed-mesh.js';
import type { MeshLod } from '../types.js';

/** Relative tolerance of the convexity test (of the piece's size). */
const CONVEX_TOLERANCE = 1e-5;

export function convexPieces(lod: MeshLod): Float32Array[] | undefined {
  // 1. Weld by exact position into one vertex list.
  const pts: number[] = [];
  const tris: number[] = [];
  for (const f of lod.faces) {
    const ids = new Map<string, number>();
    const local: number[] = [];
    for (let v = 0; v * 3 < f.positions.length; v++) {
      const x = f.positions[v * 3],
        y = f.positions[v * 3 + 1],
        z = f.positions[v * 3 + 2];
      const key = `${x},${y},${z}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = pts.length / 3;
        ids.set(key, id);
        pts.push(x, y, z);
      }
      local.push(id);
    }
    for (let t = 0; t + 2 < f.indices.length; t += 3)
      tris.push(local[f.indices[t]], local[f.indices[t + 1]], local[f.indices[t + 2]]);
  }
  const nv = pts.length / 3,
    nt = tris.length / 3;
  if (nt === 0) return undefined;

  // 2. Components by union-find over each triangle's vertices.
  const find = triangleComponents(nv, nt, (t, k) => tris[t * 3 + k]);
  const pieces = new Map<number, number[]>();
  for (let t = 0; t < nt; t++) {
    const r = find(tris[t * 3]);
    const list = pieces.get(r);
    if (list) list.push(t);
    else pieces.set(r, [t]);
  }
  if (pieces.size > MAX_HULLS) return undefined;

  // 3. Each piece closed and convex.
  const hulls: Float32Array[] = [];
  for (const triangles of pieces.values()) {
    const edges = new Map<string, number>();
    const verts = new Set<number>();
    for (const t of triangles) {
      for (let k = 0; k < 3; k++) {
        const a = tris[t * 3 + k],
          b = tris[t * 3 + ((k + 1) % 3)];
        verts.add(a);
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        edges.set(key, (edges.get(key) ?? 0) + 1);
      }
    }
    for (const n of edges.values()) if (n !== 2) return undefined;
    if (verts.size < 4 || verts.size > MAX_HULL_VERTICES) return undefined;
    const vs = [...verts].sort((a, b) => a - b);
    const w = vs[0];
    let size = 0; // the farthest vertex from the first: at least half the piece's diameter
    for (const v of vs)
      size = Math.max(
        size,
        Math.hypot(pts[v * 3] - pts[w * 3], pts[v * 3 + 1] - pts[w * 3 + 1], pts[v * 3 + 2] - pts[w * 3 + 2]),
      );
    const eps = size * CONVEX_TOLERANCE;
    let volume = 0;
    for (const t of triangles) {
      const [a, b, c] = [tris[t * 3], tris[t * 3 + 1], tris[t * 3 + 2]];
      const ux = pts[b * 3] - pts[a * 3],
        uy = pts[b * 3 + 1] - pts[a * 3 + 1],
        uz = pts[b * 3 + 2] - pts[a * 3 + 2];
      const wx = pts[c * 3] - pts[a * 3],
        wy = pts[c * 3 + 1] - pts[a * 3 + 1],
        wz = pts[c * 3 + 2] - pts[a * 3 + 2];
      const nx = uy * wz - uz * wy,
        ny = uz * wx - ux * wz,
        nz = ux * wy - uy * wx;
      const len = Math.hypot(nx, ny, nz);
      volume += (pts[a * 3] * nx + pts[a * 3 + 1] * ny + pts[a * 3 + 2] * nz) / 6;
      if (len === 0) continue;
      for (const v of vs) {
        const d =
          ((pts[v * 3] - pts[a * 3]) * nx +
            (pts[v * 3 + 1] - pts[a * 3 + 1]) * ny +
            (pts[v * 3 + 2] - pts[a * 3 + 2]) * nz) /
          len;
        if (d > eps) return undefined;
      }
    }
    if (!(volume > 0)) return undefined; // inward-facing or flat: not a solid hull
    hulls.push(Float32Array.from(vs.flatMap((v) => [pts[v * 3], pts[v * 3 + 1], pts[v * 3 + 2]])));
  }
  return hulls;
}
