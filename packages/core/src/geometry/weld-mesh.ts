/**
 * Welds a triangle soup: vertices that fall in the same cell of a grid of side `cell` become one
 * (the first one seen keeps its position, or, with `snap`, the cell centre is used), then
 * triangles that lost an edge (two corners welded together) are dropped, and so are exact
 * duplicate triangles (same three corners in any order) when asked.
 *
 * Guarantees: deterministic (first-seen order); output indices reference only used vertices;
 * never moves a vertex by more than half a cell diagonal. Used by the decomposition (glTF exports
 * split vertices along UV and normal seams, which would break the mesh into pieces) and by the
 * physics-mesh snapping.
 */
import type { IndexedMesh } from './indexed-mesh.js';

export interface WeldedMesh extends IndexedMesh<Float64Array> {
  /** Triangles dropped because two corners welded together (or a corner was not finite). */
  degenerate: number;
  /** Duplicate triangles dropped (only with `dropDuplicates`). */
  duplicates: number;
  /** Edges used by exactly one kept triangle (0 for a closed mesh). */
  boundaryEdges: number;
}

export interface WeldOptions {
  /** Move each vertex to its grid point (round(p / cell) * cell) instead of keeping the first one's position. Default false. */
  snap?: boolean;
  /** Drop triangles with the same three corners as an earlier one. Default false. */
  dropDuplicates?: boolean;
}

export function weldMesh(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  cell: number,
  options: WeldOptions = {},
): WeldedMesh {
  const inv = cell > 0 ? 1 / cell : 0;
  const vertexCount = Math.floor(positions.length / 3);
  // 1. Map every input vertex to a welded one (-1 for non-finite vertices).
  const keyToId = new Map<string, number>();
  const map = new Int32Array(vertexCount).fill(-1);
  const out: number[] = [];
  for (let i = 0; i < vertexCount; i++) {
    const x = positions[3 * i],
      y = positions[3 * i + 1],
      z = positions[3 * i + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    const gx = Math.round(x * inv),
      gy = Math.round(y * inv),
      gz = Math.round(z * inv);
    const key = inv > 0 ? `${gx},${gy},${gz}` : `${x},${y},${z}`;
    let id = keyToId.get(key);
    if (id === undefined) {
      id = out.length / 3;
      keyToId.set(key, id);
      if (options.snap && inv > 0) out.push(gx * cell, gy * cell, gz * cell);
      else out.push(x, y, z);
    }
    map[i] = id;
  }
  // 2. Re-index triangles; drop the ones that collapsed.
  const tris: number[] = [];
  const seen = options.dropDuplicates ? new Set<string>() : undefined;
  let degenerate = 0,
    duplicates = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const ia = indices[t],
      ib = indices[t + 1],
      ic = indices[t + 2];
    const a = ia < vertexCount ? map[ia] : -1,
      b = ib < vertexCount ? map[ib] : -1,
      c = ic < vertexCount ? map[ic] : -1;
    if (a < 0 || b < 0 || c < 0 || a === b || b === c || a === c) {
      degenerate++;
      continue;
    }
    if (seen) {
      const s = [a, b, c].sort((u, v) => u - v).join(',');
      if (seen.has(s)) {
        duplicates++;
        continue;
      }
      seen.add(s);
    }
    tris.push(a, b, c);
  }
  // 3. Keep only used vertices, in first-use order.
  const used = new Int32Array(out.length / 3).fill(-1);
  const compact: number[] = [];
  const idx = new Uint32Array(tris.length);
  for (let i = 0; i < tris.length; i++) {
    const v = tris[i];
    if (used[v] < 0) {
      used[v] = compact.length / 3;
      compact.push(out[3 * v], out[3 * v + 1], out[3 * v + 2]);
    }
    idx[i] = used[v];
  }
  // 4. Open edges: an undirected edge used by one triangle only.
  const uses = new Map<number, number>();
  const nv = compact.length / 3;
  for (let t = 0; t < idx.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = idx[t + k],
        b = idx[t + ((k + 1) % 3)];
      const key = a < b ? a * nv + b : b * nv + a;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  let boundaryEdges = 0;
  for (const n of uses.values()) if (n === 1) boundaryEdges++;
  return { positions: Float64Array.from(compact), indices: idx, degenerate, duplicates, boundaryEdges };
}
