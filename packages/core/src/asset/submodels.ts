/**
 * What the viewer's importer does to geometry that exceeds a mesh object's limits, done the
 * same way so costs are projected for what will really be uploaded:
 *
 * - a face with more than MAX_VERTICES_PER_FACE (65525) vertices is split into several faces of
 *   the same material (indices are u16 in the asset);
 * - an object with more than MAX_FACES_PER_OBJECT (8) faces is split into extra linked objects
 *   ("submodels") of 8 faces each, named like the viewer's glTF importer names them: the base
 *   name followed by a letter, `b` for the first extra object, then `c`, ...
 *   (indra/newview/gltf/llgltfloader.cpp).
 *
 * Splitting a face keeps every triangle once and in order; lower LODs keep one face per high
 * face (extra parts of a split face stay empty in a LOD that did not need splitting).
 */

import { MAX_FACES_PER_OBJECT, MAX_VERTICES_PER_FACE } from '../constants.js';
import { emptyFace, faceVertexCount } from '../geometry/object-geometry.js';
import type { Face, LodName, MeshLod, SlObject } from '../types.js';
import { LOD_NAMES } from '../types.js';

/** Splits one face into faces of at most `maxVertices` vertices each (greedy, in triangle order). */
export function splitFace(face: Face, maxVertices = MAX_VERTICES_PER_FACE): Face[] {
  if (faceVertexCount(face) <= maxVertices) return [face];
  const parts: Face[] = [];
  const remap = new Int32Array(faceVertexCount(face)).fill(-1);
  // Flat buffers reused part after part (a 250k-triangle face makes 750k index writes).
  const used = new Uint32Array(maxVertices);
  const tris = new Uint32Array(face.indices.length);
  let nUsed = 0,
    nTris = 0;
  const flush = () => {
    if (nTris === 0) return;
    const positions = new Float32Array(nUsed * 3);
    const normals = face.normals ? new Float32Array(nUsed * 3) : undefined;
    const uvs = face.uvs ? new Float32Array(nUsed * 2) : undefined;
    for (let i = 0; i < nUsed; i++) {
      const v = used[i];
      positions[i * 3] = face.positions[v * 3];
      positions[i * 3 + 1] = face.positions[v * 3 + 1];
      positions[i * 3 + 2] = face.positions[v * 3 + 2];
      if (normals && face.normals) {
        normals[i * 3] = face.normals[v * 3];
        normals[i * 3 + 1] = face.normals[v * 3 + 1];
        normals[i * 3 + 2] = face.normals[v * 3 + 2];
      }
      if (uvs && face.uvs) {
        uvs[i * 2] = face.uvs[v * 2];
        uvs[i * 2 + 1] = face.uvs[v * 2 + 1];
      }
      remap[v] = -1;
    }
    parts.push({ material: face.material, positions, normals, uvs, indices: tris.slice(0, nTris) });
    nUsed = 0;
    nTris = 0;
  };
  for (let t = 0; t + 2 < face.indices.length; t += 3) {
    let fresh = 0;
    for (let k = 0; k < 3; k++) if (remap[face.indices[t + k]] < 0) fresh++;
    if (nUsed + fresh > maxVertices) flush();
    for (let k = 0; k < 3; k++) {
      const v = face.indices[t + k];
      if (remap[v] < 0) {
        remap[v] = nUsed;
        used[nUsed++] = v;
      }
      tris[nTris++] = remap[v];
    }
  }
  flush();
  return parts;
}

/** Splits every over-size face of every LOD, keeping lower LODs aligned with high's faces. */
export function splitLargeFaces(object: SlObject, maxVertices = MAX_VERTICES_PER_FACE): SlObject {
  const highParts = object.lods.high.faces.map((f) => splitFace(f, maxVertices));
  if (
    highParts.every((p) => p.length === 1) &&
    LOD_NAMES.every((n) => !object.lods[n] || object.lods[n]!.faces.every((f) => faceVertexCount(f) <= maxVertices))
  ) {
    return object;
  }
  const alignLod = (lod: MeshLod): MeshLod => {
    const faces: Face[] = [];
    lod.faces.forEach((face, i) => {
      const want = highParts[i]?.length ?? 1;
      const parts = splitFace(face, maxVertices);
      for (let k = 0; k < Math.max(want, parts.length); k++) faces.push(parts[k] ?? emptyFace(face.material));
    });
    return { faces };
  };
  const lods = { high: { faces: highParts.flat() } } as SlObject['lods'];
  for (const name of LOD_NAMES) {
    if (name === 'high') continue;
    const lod = object.lods[name];
    if (lod) lods[name as Exclude<LodName, 'high'>] = alignLod(lod);
  }
  return { ...object, lods };
}

/** Name of the k-th extra object (k >= 1) split off `base`, as the viewer's glTF importer names it. */
export function submodelName(base: string, k: number): string {
  return base + String.fromCharCode('a'.charCodeAt(0) + k);
}

export interface SubmodelPart {
  object: SlObject;
  /** 0 for the object itself, k >= 1 for the k-th extra object (the asset's submodel_id). */
  submodelId: number;
}

/** Splits an object with more than 8 faces into objects of at most 8 faces each. */
export function splitSubmodels(object: SlObject, maxFaces = MAX_FACES_PER_OBJECT): SubmodelPart[] {
  const n = object.lods.high.faces.length;
  if (n <= maxFaces) return [{ object, submodelId: 0 }];
  const parts: SubmodelPart[] = [];
  for (let k = 0; k * maxFaces < n; k++) {
    const slice = (lod: MeshLod | undefined): MeshLod | undefined =>
      lod ? { faces: lod.faces.slice(k * maxFaces, (k + 1) * maxFaces) } : undefined;
    const lods = { high: slice(object.lods.high)! } as SlObject['lods'];
    for (const name of LOD_NAMES)
      if (name !== 'high' && object.lods[name]) lods[name as Exclude<LodName, 'high'>] = slice(object.lods[name]);
    parts.push({
      submodelId: k,
      object: {
        name: k === 0 ? object.name : submodelName(object.name, k),
        lods,
        // Physics stays with the first object: the viewer gives extra objects an empty physics block.
        ...(k === 0 ? { physicsMesh: object.physicsMesh, hull: object.hull, decomposition: object.decomposition } : {}),
        rigged: object.rigged,
        ...(object.placement ? { placement: object.placement } : {}),
      },
    });
  }
  return parts;
}
