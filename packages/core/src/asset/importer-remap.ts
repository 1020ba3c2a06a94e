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
import { firstOfEqualKeys } from '../geometry/equal-keys.js';

/**
 * The remap of a face with triangles: `order[k]` is the old vertex that becomes vertex k (first
 * use), `remap[v]` the new index of old vertex v (-1 when unused), `count` the vertices kept.
 */
export function importerRemapOrder(face: Face): { order: Int32Array; remap: Int32Array; count: number } {
  const { positions, normals, uvs, indices } = face;
  const n = Math.floor(positions.length / 3);
  // Each vertex's words side by side (3 position, then 3 normal, then 2 uv): equal words, one vertex.
  const width = 3 + (normals ? 3 : 0) + (uvs ? 2 : 0);
  // (Each loop is its own function: V8 optimises each once with its own type feedback.)
  const words = new Uint32Array(n * width);
  packWords(words, width, 0, new Uint32Array(positions.buffer, positions.byteOffset, n * 3), 3);
  if (normals) packWords(words, width, 3, new Uint32Array(normals.buffer, normals.byteOffset, n * 3), 3);
  if (uvs) packWords(words, width, normals ? 6 : 3, new Uint32Array(uvs.buffer, uvs.byteOffset, n * 2), 2);
  const first = firstOfEqualKeys(words, width, n);
  // Numbered by first use: every vertex of a group takes the number its group got first.
  const remap = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const count = numberGroupsByFirstUse(indices, first, remap, order);
  return { order: order.subarray(0, count), remap, count };
}

/** Vertex v's `k` words of `src` into words[v * width + at ..]. */
function packWords(words: Uint32Array, width: number, at: number, src: Uint32Array, k: number): void {
  const n = src.length / k;
  for (let v = 0; v < n; v++) for (let d = 0; d < k; d++) words[v * width + at + d] = src[v * k + d];
}

/**
 * In first-use order of `indices`, each group of equal vertices (`first`: a vertex's group) gets
 * the next number: remap[v] = its group's number, order[number] = the group's first-used vertex.
 * Returns how many groups are used.
 */
function numberGroupsByFirstUse(
  indices: ArrayLike<number>,
  first: Uint32Array,
  remap: Int32Array,
  order: Int32Array,
): number {
  const groupIndex = new Int32Array(first.length).fill(-1);
  let count = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (remap[v] >= 0) continue;
    const g = first[v];
    if (groupIndex[g] < 0) {
      groupIndex[g] = count;
      order[count++] = v;
    }
    remap[v] = groupIndex[g];
  }
  return count;
}

/** `face` with vertex k taken from old vertex `order[k]` and every index v made `remap[v]`. */
export function remapFace(face: Face, order: Int32Array, remap: Int32Array): Face {
  const pick = (a: Float32Array, k: number) => {
    const out = new Float32Array(order.length * k);
    for (let j = 0; j < order.length; j++) for (let d = 0; d < k; d++) out[k * j + d] = a[k * order[j] + d];
    return out;
  };
  const out: Face = {
    material: face.material,
    positions: pick(face.positions, 3),
    indices: face.indices.map((v) => remap[v]),
  };
  if (face.normals) out.normals = pick(face.normals, 3);
  if (face.uvs) out.uvs = pick(face.uvs, 2);
  return out;
}

/** The face as the importer leaves it (see the file comment). Returns `face` itself when nothing changes. */
export function importerRemap(face: Face): Face {
  const n = Math.floor(face.positions.length / 3);
  // A face without triangles is left as it is: the importer never makes one (the writer turns a
  // face of under 3 vertices into NoGeometry, and a placeholder keeps its vertex in the domain).
  if (n === 0 || face.indices.length === 0) return face;
  const { order, remap, count } = importerRemapOrder(face);
  let identity = count === n;
  for (let k = 0; identity && k < count; k++) identity = order[k] === k;
  return identity ? face : remapFace(face, order, remap);
}
