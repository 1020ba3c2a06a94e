/**
 * meshoptimizer's vertex-cache strip order (`optimizeVertexCacheStrip`) as core's
 * TriangleOrderFn, for the LOD planner's `reorderTriangles`: the viewer's importer numbers
 * vertices in first-use order (core importer-remap.ts), so the triangle order decides how well a
 * LOD block compresses, and the planner keeps it only where it compresses smaller.
 *
 * Guarantee: returns the same triangles (the same vertex indices, three by three), reordered.
 */

import { MeshoptEncoder } from 'meshoptimizer/encoder';
import type { TriangleOrderFn } from '@slmesh/core';

/** Resolves to a TriangleOrderFn over meshoptimizer's encoder, once its WebAssembly is ready. */
export async function meshoptTriangleOrder(encoder: typeof MeshoptEncoder = MeshoptEncoder): Promise<TriangleOrderFn> {
  await encoder.ready;
  return (indices, vertexCount) => {
    // reorderMesh rewrites its argument in its own vertex numbering: map back to the face's.
    const work = Uint32Array.from(indices);
    const [remap] = encoder.reorderMesh(work, true, true);
    const original = new Uint32Array(Math.max(vertexCount, remap.length));
    for (let v = 0; v < remap.length; v++) if (remap[v] !== 0xffffffff) original[remap[v]] = v;
    return work.map((v) => original[v]);
  };
}
