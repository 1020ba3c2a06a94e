/**
 * Uploader-ready glTF: writes slmesh objects into a glTF-Transform Document the way the Second
 * Life viewer's glTF importer reads them back (indra/newview/gltf/llgltfloader.cpp; spec 4).
 *
 * 1. The document's scenes, nodes, meshes, skins and animations are replaced by one scene with,
 *    per object, the nodes `Name` (high), `Name_LOD2` (medium), `Name_LOD1` (low), `Name_LOD0`
 *    (lowest) and `Name_PHYS` (physics, when the object carries any), in that order.
 * 2. Each non-empty face is one triangle primitive with the object's material (the document's
 *    material of that name, so textures and factors are kept), POSITION, NORMAL and TEXCOORD_0.
 *    A LOD face without triangles is left out: the reader lines LODs up with high by material,
 *    so it comes back as an empty face (a NoGeometry placeholder in the asset).
 * 3. Vertices stay in the world frame with identity node transforms, converted back from Second
 *    Life's Z-up to glTF's Y-up ((x, y, z) -> (x, z, -y), the inverse of the importer's
 *    (x, y, z) -> (x, -z, y)); V is negated back. Reading the output gives the same objects, with
 *    bit-identical positions.
 * 4. Physics (`_PHYS`): a decomposition as one closed convex mesh per hull (core convexHullMesh,
 *    one primitive each), else the triangle physics mesh, else the single hull as a closed mesh.
 *    Physics primitives use the high LOD's first material, so they use a subset of high's.
 * 5. Mesh compression extensions (Draco, meshopt, quantization, GPU instancing) are dropped: the
 *    importer reads plain accessors. Buffers are merged into one, unused properties pruned.
 *
 * Normals are written unit length (a zero or non-finite normal gets its triangle's normal), and
 * indices as 16-bit when every index fits below 65535, so the Khronos glTF-Validator reports no
 * errors.
 */

import { Document, Primitive, type Material, type Mesh, type Node } from '@gltf-transform/core';
import { cloneDocument, prune, unpartition } from './gltf-utils.js';
import { convexHullMesh, LOD_SUFFIXES, type Face, type MeshLod, type SlModel, type SlObject } from '@slmesh/core';

/** What a node of the uploader-ready scene holds. */
export type UploadSlot = 'high' | 'medium' | 'low' | 'lowest' | 'physics';
export const UPLOAD_SLOTS: readonly UploadSlot[] = ['high', 'medium', 'low', 'lowest', 'physics'];

/** Node name of an object's slot: `Chair`, `Chair_LOD2`, `Chair_LOD1`, `Chair_LOD0`, `Chair_PHYS`. */
export function uploadNodeName(object: string, slot: UploadSlot): string {
  return slot === 'high' ? object : object + LOD_SUFFIXES[slot];
}

const DROPPED_EXTENSIONS = new Set(['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_meshopt_compression', 'KHR_mesh_quantization', 'EXT_mesh_gpu_instancing']);

/** The physics of an object as triangle meshes (one per `_PHYS` primitive), or none. */
export function physicsMeshes(object: SlObject): { positions: Float32Array; indices: Uint32Array }[] {
  if (object.decomposition && object.decomposition.length > 0) {
    return object.decomposition.map((h) => convexHullMesh(h)).filter((m) => m.indices.length >= 3);
  }
  if (object.physicsMesh && object.physicsMesh.faces.some((f) => f.indices.length >= 3)) {
    return object.physicsMesh.faces.filter((f) => f.indices.length >= 3).map((f) => ({ positions: f.positions, indices: f.indices }));
  }
  if (object.hull && object.hull.length >= 12) {
    const m = convexHullMesh(object.hull);
    return m.indices.length >= 3 ? [m] : [];
  }
  return [];
}

/** Materials of a document by the names the reader gives faces (its name, else `mat<i>`). */
function materialsByName(doc: Document): Map<string, Material> {
  const map = new Map<string, Material>();
  doc.getRoot().listMaterials().forEach((m, i) => {
    const name = m.getName() || `mat${i}`;
    if (!map.has(name)) map.set(name, m);
  });
  return map;
}

/** Z-up world (Second Life) to Y-up (glTF): (x, y, z) -> (x, z, -y). */
function toYUp(src: Float32Array): Float32Array {
  const out = new Float32Array(src.length);
  for (let i = 0; i + 2 < src.length; i += 3) {
    out[i] = src[i];
    out[i + 1] = src[i + 2];
    out[i + 2] = -src[i + 1];
  }
  return out;
}

/** Unit normals in glTF axes; zero or non-finite ones take the normal of a triangle using them. */
function unitNormals(face: Face, positionsYUp: Float32Array): Float32Array | undefined {
  if (!face.normals) return undefined;
  const n = toYUp(face.normals);
  const bad: number[] = [];
  for (let v = 0; v < n.length / 3; v++) {
    const x = n[v * 3], y = n[v * 3 + 1], z = n[v * 3 + 2];
    const l = Math.hypot(x, y, z);
    if (!(l > 1e-12) || !Number.isFinite(l)) {
      bad.push(v);
      continue;
    }
    n[v * 3] = x / l;
    n[v * 3 + 1] = y / l;
    n[v * 3 + 2] = z / l;
  }
  if (bad.length) {
    const fix = new Set(bad);
    const p = positionsYUp, idx = face.indices;
    for (let t = 0; t + 2 < idx.length && fix.size; t += 3) {
      const a = idx[t] * 3, b = idx[t + 1] * 3, c = idx[t + 2] * 3;
      const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const l = Math.hypot(nx, ny, nz);
      if (!(l > 0)) continue;
      for (let k = 0; k < 3; k++) {
        const v = idx[t + k];
        if (!fix.has(v)) continue;
        n[v * 3] = nx / l;
        n[v * 3 + 1] = ny / l;
        n[v * 3 + 2] = nz / l;
        fix.delete(v);
      }
    }
    for (const v of fix) {
      n[v * 3] = 0;
      n[v * 3 + 1] = 1;
      n[v * 3 + 2] = 0;
    }
  }
  return n;
}

interface Writer {
  doc: Document;
  materials: Map<string, Material>;
}

function material(w: Writer, name: string): Material | null {
  if (name === 'mat_default') return null;
  let m = w.materials.get(name);
  if (!m) {
    m = w.doc.createMaterial(name);
    w.materials.set(name, m);
  }
  return m;
}

function primitive(w: Writer, positionsSl: Float32Array, indices: Uint32Array, opts: { normals?: Face; uvs?: Float32Array; material: Material | null }): Primitive {
  const { doc } = w;
  const buffer = doc.getRoot().listBuffers()[0];
  const positions = toYUp(positionsSl);
  const count = positions.length / 3;
  const prim = doc.createPrimitive().setMode(Primitive.Mode.TRIANGLES);
  prim.setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer));
  const normals = opts.normals ? unitNormals(opts.normals, positions) : undefined;
  if (normals) prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer));
  if (opts.uvs) {
    const uv = new Float32Array(opts.uvs.length);
    for (let i = 0; i + 1 < uv.length; i += 2) {
      uv[i] = opts.uvs[i];
      uv[i + 1] = -opts.uvs[i + 1];
    }
    prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uv).setBuffer(buffer));
  }
  const idx = count <= 65535 ? Uint16Array.from(indices) : Uint32Array.from(indices);
  prim.setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(buffer));
  if (opts.material) prim.setMaterial(opts.material);
  return prim;
}

function lodMesh(w: Writer, name: string, lod: MeshLod): Mesh | undefined {
  const faces = lod.faces.filter((f) => f.indices.length >= 3 && f.positions.length >= 9);
  if (faces.length === 0) return undefined;
  const mesh = w.doc.createMesh(name);
  for (const face of faces) {
    mesh.addPrimitive(primitive(w, face.positions, face.indices, { normals: face.normals ? face : undefined, uvs: face.uvs, material: material(w, face.material) }));
  }
  return mesh;
}

function physicsMesh(w: Writer, name: string, object: SlObject): Mesh | undefined {
  const parts = physicsMeshes(object);
  if (parts.length === 0) return undefined;
  const mat = material(w, object.lods.high.faces[0]?.material ?? 'mat_default');
  const mesh = w.doc.createMesh(name);
  for (const p of parts) mesh.addPrimitive(primitive(w, p.positions, p.indices, { material: mat }));
  return mesh;
}

/**
 * Replaces the document's scene with the uploader-ready nodes of `model` (see the file comment).
 * Materials are taken from the document by name (created when missing). Call `prune` afterwards
 * or use writeUploadDocument, which does.
 */
export function writeUploadScene(doc: Document, model: SlModel): Node[] {
  const root = doc.getRoot();
  // 1. Clear what the importer would read: scenes, nodes, meshes, skins, animations.
  for (const a of root.listAnimations()) a.dispose();
  for (const s of root.listSkins()) s.dispose();
  for (const n of root.listNodes()) n.dispose();
  for (const s of root.listScenes()) s.dispose();
  for (const m of root.listMeshes()) m.dispose();
  for (const ext of root.listExtensionsUsed()) if (DROPPED_EXTENSIONS.has(ext.extensionName)) ext.dispose();
  if (root.listBuffers().length === 0) doc.createBuffer();
  const w: Writer = { doc, materials: materialsByName(doc) };
  // 2. One node per object slot, world frame, identity transforms.
  const scene = doc.createScene('Scene');
  root.setDefaultScene(scene);
  const nodes: Node[] = [];
  for (const object of model.objects) {
    for (const slot of UPLOAD_SLOTS) {
      const name = uploadNodeName(object.name, slot);
      let mesh: Mesh | undefined;
      if (slot === 'physics') mesh = physicsMesh(w, name, object);
      else {
        const lod = object.lods[slot];
        if (lod) mesh = lodMesh(w, name, lod);
      }
      if (!mesh) continue;
      const node = doc.createNode(name).setMesh(mesh);
      scene.addChild(node);
      nodes.push(node);
    }
  }
  return nodes;
}

/** Which slot an uploader-ready node fills, from its name. */
export function uploadSlotOf(name: string): UploadSlot {
  for (const slot of ['medium', 'low', 'lowest', 'physics'] as const) if (name.endsWith(LOD_SUFFIXES[slot])) return slot;
  return 'high';
}

/** writeUploadScene, then one buffer and no unused properties. */
export async function writeUploadDocument(doc: Document, model: SlModel): Promise<Document> {
  writeUploadScene(doc, model);
  await doc.transform(unpartition(), prune({ keepLeaves: false, keepAttributes: true, keepSolidTextures: true }));
  return doc;
}

/**
 * Splits an uploader-ready document into one document per slot present (sibling files: `out.glb`,
 * `out_LOD2.glb`, `out_LOD1.glb`, `out_LOD0.glb`, `out_PHYS.glb`). Node names keep their suffix.
 */
export async function splitUploadDocument(doc: Document): Promise<Partial<Record<UploadSlot, Document>>> {
  const out: Partial<Record<UploadSlot, Document>> = {};
  const present = new Set(doc.getRoot().listNodes().filter((n) => n.getMesh()).map((n) => uploadSlotOf(n.getName())));
  for (const slot of UPLOAD_SLOTS) {
    if (!present.has(slot)) continue;
    const part = cloneDocument(doc).setLogger(doc.getLogger());
    for (const node of part.getRoot().listNodes()) if (uploadSlotOf(node.getName()) !== slot) node.dispose();
    await part.transform(prune({ keepLeaves: false, keepAttributes: true, keepSolidTextures: true }));
    out[slot] = part;
  }
  return out;
}
