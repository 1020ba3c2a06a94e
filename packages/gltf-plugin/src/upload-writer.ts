/**
 * Uploader-ready glTF: writes slmesh objects as the sibling files the Second Life viewer's glTF
 * importer fills its LOD slots from (`out.glb`, `out_LOD2.glb`, `out_LOD1.glb`, `out_LOD0.glb`,
 * `out_PHYS.glb`; spec 4 and 4b; indra/newview/gltf/llgltfloader.cpp, `lookupLODModelFiles`).
 *
 * 1. Each file is a copy of the input document: the same scene, node tree, node names and
 *    transforms, materials (with their textures), skins and animations. Only the meshes change.
 * 2. Each object's node gets a new mesh of its own (a mesh shared by several nodes is written
 *    once per node, as the importer makes one model per node) with that slot's faces: one
 *    triangle primitive per non-empty face, with POSITION, NORMAL and TEXCOORD_0 and the
 *    material of that name. The mesh is named as the node (labels are node names on the
 *    viewer's develop branch, mesh names on its main branch). In the LOD and physics files the
 *    node is named `Object_LOD2` / `_LOD1` / `_LOD0` / `_PHYS`, which the importer cuts back to
 *    `Object` (and which keeps the files apart when they are imported together into Blender).
 * 3. Vertices are mesh-local again: the reader's prim frame (importer-frame.ts) is inverted, so
 *    the node transform places them as in the input; V is negated back.
 * 4. Physics (`_PHYS`): a decomposition as one closed convex mesh per hull (core convexHullMesh,
 *    one primitive each), else the triangle physics mesh, else the single hull as a closed mesh.
 *    Its primitives use a plain material with the name of the high LOD's first material (a
 *    subset of high's, and no texture that would need UVs, so the Khronos validator is happy).
 *    An object without physics keeps its node in `out_PHYS.glb` without a mesh.
 * 5. `_LODn` / `_PHYS` nodes of the input's high file that were taken as slots lose their mesh
 *    (the importer would upload them as extra objects); such a node without children goes.
 * 6. Mesh compression extensions (Draco, meshopt, quantization, GPU instancing) are dropped: the
 *    importer reads plain accessors. Buffers are merged into one, unused properties pruned.
 *
 * Normals are written unit length (a zero or non-finite normal gets its triangle's normal), and
 * indices as 16-bit when every index fits below 65535, so the Khronos glTF-Validator reports no
 * errors.
 */

import { Primitive, type Document, type Material, type Mesh, type Node } from '@gltf-transform/core';
import { cloneDocument, prune, unpartition } from './gltf-utils.js';
import { convexHullMesh, LOD_SUFFIXES, type Face, type MeshLod, type SlModel, type SlObject } from '@slmesh/core';
import { framePoint, frameNormal, invertAffine } from './importer-frame.js';
import type { MeshNodeGeometry } from './to-model.js';

/** What a file of the uploader-ready set holds. */
export type UploadSlot = 'high' | 'medium' | 'low' | 'lowest' | 'physics';
export const UPLOAD_SLOTS: readonly UploadSlot[] = ['high', 'medium', 'low', 'lowest', 'physics'];

/** Node name of an object's slot: `Chair`, `Chair_LOD2`, `Chair_LOD1`, `Chair_LOD0`, `Chair_PHYS`. */
export function uploadNodeName(object: string, slot: UploadSlot): string {
  return slot === 'high' ? object : object + LOD_SUFFIXES[slot];
}

const DROPPED_EXTENSIONS = new Set([
  'KHR_draco_mesh_compression',
  'EXT_meshopt_compression',
  'KHR_meshopt_compression',
  'KHR_mesh_quantization',
  'EXT_mesh_gpu_instancing',
]);

/** The physics of an object as triangle meshes (one per `_PHYS` primitive), or none. */
export function physicsMeshes(object: SlObject): { positions: Float32Array; indices: Uint32Array }[] {
  if (object.decomposition && object.decomposition.length > 0) {
    return object.decomposition.map((h) => convexHullMesh(h)).filter((m) => m.indices.length >= 3);
  }
  if (object.physicsMesh?.faces.some((f) => f.indices.length >= 3)) {
    return object.physicsMesh.faces
      .filter((f) => f.indices.length >= 3)
      .map((f) => ({ positions: f.positions, indices: f.indices }));
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
  doc
    .getRoot()
    .listMaterials()
    .forEach((m, i) => {
      const name = m.getName() || `mat${i}`;
      if (!map.has(name)) map.set(name, m);
    });
  return map;
}

/** Prim frame to mesh-local: a copy of flat xyz points through the inverse frame matrix. */
function toLocal(src: Float32Array, inverse: number[]): Float32Array {
  const out = new Float32Array(src.length);
  for (let i = 0; i + 2 < src.length; i += 3) framePoint(inverse, src[i], src[i + 1], src[i + 2], out, i);
  return out;
}

/** Unit normals in mesh-local axes; zero or non-finite ones take the normal of a triangle using them. */
function unitNormals(face: Face, positionsYUp: Float32Array, inverse: number[]): Float32Array | undefined {
  if (!face.normals) return undefined;
  const n = new Float32Array(face.normals.length);
  const apply = frameNormal(inverse);
  for (let i = 0; i + 2 < n.length; i += 3) apply(face.normals[i], face.normals[i + 1], face.normals[i + 2], n, i);
  const bad: number[] = [];
  for (let v = 0; v < n.length / 3; v++) {
    const x = n[v * 3],
      y = n[v * 3 + 1],
      z = n[v * 3 + 2];
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
    const p = positionsYUp,
      idx = face.indices;
    for (let t = 0; t + 2 < idx.length && fix.size; t += 3) {
      const a = idx[t] * 3,
        b = idx[t + 1] * 3,
        c = idx[t + 2] * 3;
      const ux = p[b] - p[a],
        uy = p[b + 1] - p[a + 1],
        uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a],
        vy = p[c + 1] - p[a + 1],
        vz = p[c + 2] - p[a + 2];
      const nx = uy * vz - uz * vy,
        ny = uz * vx - ux * vz,
        nz = ux * vy - uy * vx;
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
  buffer: ReturnType<Document['createBuffer']>;
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

/** One triangle primitive from prim-frame geometry, written mesh-local through `inverse`. */
function primitive(
  w: Writer,
  positionsPrim: Float32Array,
  indicesIn: Uint32Array,
  inverse: number[],
  opts: { normals?: Face; uvs?: Float32Array; material: Material | null },
): Primitive {
  const { doc, buffer } = w;
  const positions = toLocal(positionsPrim, inverse);
  const count = positions.length / 3;
  const prim = doc.createPrimitive().setMode(Primitive.Mode.TRIANGLES);
  prim.setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer));
  const normals = opts.normals ? unitNormals(opts.normals, positions, inverse) : undefined;
  if (normals) prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer));
  if (opts.uvs) {
    const uv = new Float32Array(opts.uvs.length);
    for (let i = 0; i + 1 < uv.length; i += 2) {
      uv[i] = opts.uvs[i];
      uv[i + 1] = -opts.uvs[i + 1];
    }
    prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uv).setBuffer(buffer));
  }
  // A mirrored frame (negative determinant) was flipped on reading: flip back.
  let indices = indicesIn;
  if (det3(inverse) < 0) {
    indices = indicesIn.slice();
    for (let t = 0; t + 2 < indices.length; t += 3) [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
  }
  const idx = count <= 65535 ? Uint16Array.from(indices) : Uint32Array.from(indices);
  prim.setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(buffer));
  if (opts.material) prim.setMaterial(opts.material);
  return prim;
}

function det3(m: ArrayLike<number>): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

function lodMesh(w: Writer, name: string, lod: MeshLod, inverse: number[]): Mesh | undefined {
  const faces = lod.faces.filter((f) => f.indices.length >= 3 && f.positions.length >= 9);
  if (faces.length === 0) return undefined;
  const mesh = w.doc.createMesh(name);
  for (const face of faces) {
    mesh.addPrimitive(
      primitive(w, face.positions, face.indices, inverse, {
        normals: face.normals ? face : undefined,
        uvs: face.uvs,
        material: material(w, face.material),
      }),
    );
  }
  return mesh;
}

function physicsMesh(
  w: Writer,
  name: string,
  object: SlObject,
  inverse: number[],
  physicsMaterial: Material | null,
): Mesh | undefined {
  const parts = physicsMeshes(object);
  if (parts.length === 0) return undefined;
  const mesh = w.doc.createMesh(name);
  for (const p of parts)
    mesh.addPrimitive(primitive(w, p.positions, p.indices, inverse, { material: physicsMaterial }));
  return mesh;
}

/** Which slots a model fills: high always, a LOD when any object has it, physics when any object has some. */
export function uploadSlots(model: SlModel): UploadSlot[] {
  return UPLOAD_SLOTS.filter((slot) =>
    slot === 'high'
      ? true
      : slot === 'physics'
        ? model.objects.some((o) => physicsMeshes(o).length > 0)
        : model.objects.some((o) => o.lods[slot]),
  );
}

export interface WriteUploadOptions {
  /** Indices (in the input's node list) of nodes taken as LOD / physics slots: their meshes go. Default none. */
  slotNodes?: Iterable<number>;
  /** Rewrite `input` itself instead of a copy (the slLods transform does). Default false. */
  inPlace?: boolean;
  /** Copy this instead of `input` for a slot other than high: siblingSource(input, ...), made once for several slots. Default: a copy of `input`. */
  meshless?: Document;
}

/**
 * A copy of `input` without its meshes and the accessors only they used, for writeUploadSlot
 * (which rebuilds every mesh of a slot other than high): several slots copied from it copy a big
 * input's geometry once instead of once each.
 */
export function meshlessCopy(input: Document): Document {
  const doc = cloneDocument(input).setLogger(input.getLogger());
  const root = doc.getRoot();
  for (const mesh of root.listMeshes()) {
    for (const primitive of mesh.listPrimitives()) primitive.dispose();
    mesh.dispose();
  }
  for (const accessor of root.listAccessors()) if (accessor.listParents().every((p) => p === root)) accessor.dispose();
  return doc;
}

/** What the sibling slots (all but high) are copied from: a mesh-less copy when two or more share it, else undefined (each copies `input`). */
export function siblingSource(input: Document, slots: readonly UploadSlot[]): Document | undefined {
  return slots.filter((s) => s !== 'high').length > 1 ? meshlessCopy(input) : undefined;
}

/**
 * One Document for one slot of the sibling set (see the file comment): a copy of `input` whose
 * object nodes carry that slot's meshes. `nodes` maps each object's name to the high node it was
 * read from (documentToModel / assembleModel give it).
 */
export async function writeUploadSlot(
  input: Document,
  model: SlModel,
  nodes: Map<string, MeshNodeGeometry>,
  slot: UploadSlot,
  options: WriteUploadOptions = {},
): Promise<Document> {
  // High keeps the meshes of nodes that are not objects: it never starts from a mesh-less copy.
  const from = slot === 'high' ? input : (options.meshless ?? input);
  const doc = options.inPlace ? input : cloneDocument(from).setLogger(input.getLogger());
  const root = doc.getRoot();
  for (const ext of root.listExtensionsUsed()) if (DROPPED_EXTENSIONS.has(ext.extensionName)) ext.dispose();
  const list = root.listNodes();
  // Every mesh is rebuilt: detach them all first (shared meshes become one per node).
  const oldMeshes = root.listMeshes();
  const w: Writer = { doc, materials: materialsByName(doc), buffer: root.listBuffers()[0] ?? doc.createBuffer() };
  const objectAt = new Map<number, { object: SlObject; frame: MeshNodeGeometry['frame'] }>();
  for (const object of model.objects) {
    const n = nodes.get(object.name);
    if (n) objectAt.set(n.index, { object, frame: n.frame });
  }
  const physicsMaterials = new Map<string, Material | null>();
  const dropped = new Set(options.slotNodes ?? []);
  list.forEach((node: Node, i) => {
    const entry = objectAt.get(i);
    if (!entry) {
      if (dropped.has(i) || slot !== 'high') node.setMesh(null);
      if (dropped.has(i) && node.listChildren().length === 0) node.dispose();
      return;
    }
    const { object, frame } = entry;
    const inverse = invertAffine(frame.matrix);
    const name = slot === 'high' ? node.getName() || object.name : uploadNodeName(object.name, slot);
    let mesh: Mesh | undefined;
    if (slot === 'physics') {
      const first = object.lods.high.faces[0]?.material ?? 'mat_default';
      if (!physicsMaterials.has(first)) {
        const src = w.materials.get(first);
        physicsMaterials.set(
          first,
          first === 'mat_default'
            ? null
            : doc.createMaterial(first).setBaseColorFactor(src ? src.getBaseColorFactor() : [1, 1, 1, 1]),
        );
      }
      mesh = physicsMesh(w, name, object, inverse, physicsMaterials.get(first)!);
    } else {
      const lod = object.lods[slot];
      if (lod) mesh = lodMesh(w, name, lod, inverse);
    }
    node.setName(name).setMesh(mesh ?? null);
  });
  for (const m of oldMeshes) m.dispose();
  await doc.transform(unpartition(), prune({ keepLeaves: true, keepAttributes: true, keepSolidTextures: true }));
  return doc;
}

/** Every slot's Document (see writeUploadSlot): high always, the others when the model fills them. */
export async function writeUploadFiles(
  input: Document,
  model: SlModel,
  nodes: Map<string, MeshNodeGeometry>,
  options: WriteUploadOptions = {},
): Promise<Partial<Record<UploadSlot, Document>>> {
  const out: Partial<Record<UploadSlot, Document>> = {};
  const slots = uploadSlots(model);
  const meshless = options.inPlace ? undefined : siblingSource(input, slots);
  for (const slot of slots) out[slot] = await writeUploadSlot(input, model, nodes, slot, { ...options, meshless });
  return out;
}
