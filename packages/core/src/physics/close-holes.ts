/**
 * Closes the holes of an open mesh: each loop of boundary edges (edges one triangle uses) is
 * capped by a triangulation of the loop projected on its best-fit plane (principal axes), wound
 * against the triangles around it so the result is a closed, consistently oriented surface.
 *
 * For the decomposition: cut pieces of a closed mesh are closed too (mesh-clip.ts caps the cuts),
 * so every piece's hull covers its share of the solid and its volume is exact. The caps follow
 * what the six-ray inside test already calls solid: a small hole (the Stanford bunny's base, a
 * teapot's lid seam) is simply closed, an open cup or box becomes solid, a single sheet becomes a
 * two-sided sheet of no volume.
 *
 * Guarantees: no new vertices; loops that do not chain cleanly (boundary vertices used by more
 * than two boundary edges) are left open and counted in `openLoops`. A loop far from planar may
 * get a cap that folds over itself; it still closes the surface.
 */

import type { IndexedMesh } from '../geometry/indexed-mesh.js';
import { triangulatePolygon } from '../geometry/polygon-triangulate.js';
import { principalAxes } from '../geometry/principal-axes.js';

export interface ClosedMesh extends IndexedMesh<Float64Array> {
  /** Loops capped. */
  capped: number;
  /** Boundary loops left open (tangled boundaries). */
  openLoops: number;
}

export function closeHoles(mesh: IndexedMesh<Float64Array>): ClosedMesh {
  const ix = mesh.indices,
    p = mesh.positions;
  const nv = p.length / 3;
  // 1. Directed boundary edges: a -> b used by one triangle, and no triangle uses b -> a.
  const directed = new Map<number, number>();
  const undirected = new Map<number, number>();
  for (let t = 0; t < ix.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = ix[t + k],
        b = ix[t + ((k + 1) % 3)];
      directed.set(a * nv + b, (directed.get(a * nv + b) ?? 0) + 1);
      const key = a < b ? a * nv + b : b * nv + a;
      undirected.set(key, (undirected.get(key) ?? 0) + 1);
    }
  }
  // The cap walks each boundary edge backwards: from b to a.
  const capNext = new Map<number, number[]>();
  for (const [key, n] of directed) {
    const a = Math.floor(key / nv),
      b = key % nv;
    if (n !== 1 || undirected.get(a < b ? key : b * nv + a) !== 1) continue;
    (capNext.get(b) ?? capNext.set(b, []).get(b)!).push(a);
  }
  if (capNext.size === 0) return { positions: mesh.positions, indices: mesh.indices, capped: 0, openLoops: 0 };
  // 2. Chain loops; a vertex with several ways on makes the loop ambiguous: leave it open.
  const used = new Set<number>();
  const loops: number[][] = [];
  let openLoops = 0;
  for (const start of [...capNext.keys()].sort((x, y) => x - y)) {
    if (used.has(start)) continue;
    const loop: number[] = [];
    let cur = start,
      ok = true;
    for (let guard = 0; guard <= capNext.size; guard++) {
      const nexts = capNext.get(cur);
      if (nexts?.length !== 1 || used.has(cur)) {
        ok = false;
        break;
      }
      used.add(cur);
      loop.push(cur);
      cur = nexts[0];
      if (cur === start) break;
    }
    if (ok && cur === start && loop.length >= 3) loops.push(loop);
    else openLoops++;
  }
  // 3. Triangulate each loop on its best-fit plane.
  const caps: number[] = [];
  for (const loop of loops) {
    const pts = new Float64Array(loop.length * 3);
    loop.forEach((v, i) => pts.set(p.subarray(3 * v, 3 * v + 3), 3 * i));
    const pa = principalAxes(pts);
    const [u, w] = [pa.axes[0], pa.axes[1]];
    const xy = new Float64Array(loop.length * 2);
    loop.forEach((v, i) => {
      xy[2 * i] = u[0] * p[3 * v] + u[1] * p[3 * v + 1] + u[2] * p[3 * v + 2];
      xy[2 * i + 1] = w[0] * p[3 * v] + w[1] * p[3 * v + 1] + w[2] * p[3 * v + 2];
    });
    const ring = loop.map((_, i) => i);
    // Triangles come out counter-clockwise; the cap must follow the loop's own direction.
    let area = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
      area += (xy[2 * j] - xy[2 * i]) * (xy[2 * j + 1] + xy[2 * i + 1]);
    const flip = area < 0;
    const tris = triangulatePolygon(xy, ring);
    for (let t = 0; t < tris.length; t += 3) {
      const a = loop[tris[t]],
        b = loop[tris[t + 1]],
        c = loop[tris[t + 2]];
      if (flip) caps.push(a, c, b);
      else caps.push(a, b, c);
    }
  }
  const indices = new Uint32Array(ix.length + caps.length);
  indices.set(ix);
  indices.set(caps, ix.length);
  return { positions: mesh.positions, indices, capped: loops.length, openLoops };
}
