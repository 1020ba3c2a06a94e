/**
 * The vertex remap the viewer's importer applies to every face before upload
 * (`LLModel::remapVolumeFaces` -> `LLVolumeFace::remap`, called by the glTF loader for every model
 * since SL-17475, 2022): meshoptimizer's `generateVertexRemapMulti` over the face's positions,
 * normals and texture coordinates, then `remapIndexBuffer` and the vertex buffers remapped.
 *
 * What it does to a face, and so to the bytes the uploader compresses:
 * - vertices are renumbered in order of their first use in the triangle list;
 * - vertices whose position, normal and texture coordinate are bitwise equal become one;
 * - vertices no triangle uses are dropped.
 * Triangles keep their order. (meshoptimizer compares the streams byte for byte: the viewer's
 * LLVector4a positions and normals carry w = 0 for every vertex, so xyz decide.)
 *
 * So the triangle order a writer chooses decides the vertex order the viewer uploads.
 */

import type { Face } from '../types.js';

/** A 32-bit mix of a vertex's words (FNV-style multiply, then avalanche). */
function mix(h: number, w: number): number {
  return Math.imul(h ^ w, 0x01000193) >>> 0;
}

/**
 * The remap of a face with triangles: `order[k]` is the old vertex that becomes vertex k (first
 * use), `remap[v]` the new index of old vertex v (-1 when unused), `count` the vertices kept.
 */
export function importerRemapOrder(face: Face): { order: Int32Array; remap: Int32Array; count: number } {
  const { positions, normals, uvs, indices } = face;
  const n = Math.floor(positions.length / 3);
  // The vertex's words side by side (3 position, then 3 normal, then 2 uv), hashed in one pass.
  const width = 3 + (normals ? 3 : 0) + (uvs ? 2 : 0);
  const words = new Uint32Array(n * width);
  const pw = new Uint32Array(positions.buffer, positions.byteOffset, n * 3);
  const nw = normals ? new Uint32Array(normals.buffer, normals.byteOffset, n * 3) : undefined;
  const uw = uvs ? new Uint32Array(uvs.buffer, uvs.byteOffset, n * 2) : undefined;
  const hashes = new Uint32Array(n);
  for (let v = 0; v < n; v++) {
    let o = v * width;
    words[o++] = pw[3 * v];
    words[o++] = pw[3 * v + 1];
    words[o++] = pw[3 * v + 2];
    if (nw) {
      words[o++] = nw[3 * v];
      words[o++] = nw[3 * v + 1];
      words[o++] = nw[3 * v + 2];
    }
    if (uw) {
      words[o++] = uw[2 * v];
      words[o++] = uw[2 * v + 1];
    }
    let h = 0x811c9dc5;
    for (let k = v * width; k < o; k++) h = mix(h, words[k]);
    h ^= h >>> 16;
    hashes[v] = Math.imul(h, 0x85ebca6b) >>> 0;
  }
  let size = 16;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const remap = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (remap[v] >= 0) continue;
    let slot = hashes[v] & mask;
    for (;;) {
      const u = table[slot];
      if (u < 0) {
        table[slot] = v;
        remap[v] = count;
        order[count++] = v;
        break;
      }
      let same = hashes[u] === hashes[v];
      for (let k = 0; same && k < width; k++) same = words[u * width + k] === words[v * width + k];
      if (same) {
        remap[v] = remap[u];
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return { order: order.subarray(0, count), remap, count };
}

/** The face as the importer leaves it (see the file comment). Returns `face` itself when nothing changes. */
export function importerRemap(face: Face): Face {
  const { positions, normals, uvs, indices } = face;
  const n = Math.floor(positions.length / 3);
  // A face without triangles is left as it is: the importer never makes one (the writer turns a
  // face of under 3 vertices into NoGeometry, and a placeholder keeps its vertex in the domain).
  if (n === 0 || indices.length === 0) return face;
  const { order, remap, count } = importerRemapOrder(face);
  let identity = count === n;
  for (let k = 0; identity && k < count; k++) identity = order[k] === k;
  if (identity) return face;
  const out: Face = {
    material: face.material,
    positions: new Float32Array(count * 3),
    indices: new Uint32Array(indices.length),
  };
  if (normals) out.normals = new Float32Array(count * 3);
  if (uvs) out.uvs = new Float32Array(count * 2);
  for (let k = 0; k < count; k++) {
    const v = order[k];
    out.positions[3 * k] = positions[3 * v];
    out.positions[3 * k + 1] = positions[3 * v + 1];
    out.positions[3 * k + 2] = positions[3 * v + 2];
    if (normals) {
      out.normals![3 * k] = normals[3 * v];
      out.normals![3 * k + 1] = normals[3 * v + 1];
      out.normals![3 * k + 2] = normals[3 * v + 2];
    }
    if (uvs) {
      out.uvs![2 * k] = uvs[2 * v];
      out.uvs![2 * k + 1] = uvs[2 * v + 1];
    }
  }
  for (let i = 0; i < indices.length; i++) out.indices[i] = remap[indices[i]];
  return out;
}
