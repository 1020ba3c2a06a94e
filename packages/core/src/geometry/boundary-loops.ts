/**
 * The boundary of a triangle mesh as loops of vertices: the edges one triangle uses (and no
 * triangle uses the other way), chained end to end. Used to cap holes (physics/close-holes.ts)
 * and to re-triangulate flat regions by their outline (planar-remesh.ts). Pure.
 */

/** The boundary loops of a mesh (edges one triangle uses), each in the direction a cap walks it. */
export interface BoundaryLoops {
  /** Vertex loops; a cap triangulated along a loop's order closes the surface consistently oriented. */
  loops: number[][];
  /** Loops that do not chain cleanly (a boundary vertex on more than two boundary edges): left out. */
  openLoops: number;
}

/** The boundary loops of `indices` over `vertexCount` vertices (see BoundaryLoops). */
export function boundaryLoops(indices: ArrayLike<number>, vertexCount: number): BoundaryLoops {
  const ix = indices,
    nv = vertexCount;
  // 1. Directed boundary edges: a -> b used by one triangle, and no triangle uses b -> a.
  const directed = new Map<number, number>();
  const undirected = new Map<number, number>();
  for (let t = 0; t + 2 < ix.length; t += 3) {
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
  return { loops, openLoops };
}
