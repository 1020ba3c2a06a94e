/**
 * One object instead of many: a copy of a glTF document whose mesh nodes are joined into a single
 * mesh node, its vertices in the scene's frame, one primitive per material.
 *
 * Why: the uploader makes every mesh node its own prim, and each prim costs at least 0.5 of
 * server weight (spec section 2), whatever its size; a linkset of many small parts is charged
 * for its prim count, not its geometry. Joined, the parts cost one prim, and `optimize` keeps the
 * join only where the priced result is lower (optimize.ts).
 *
 * What cannot be joined without changing what the uploader makes, and so is refused (with the
 * reason): skinned or instanced nodes, morph targets, animations (they move nodes), a primitive
 * other than a triangle list, more than 8 materials (one prim has at most 8 faces; more would be
 * split into extra prims again), and a material whose primitives disagree on having normals or
 * texture coordinates (the importer fills missing ones, so mixing would change the look).
 *
 * The joined node takes the first mesh node's name (a name the importer already accepted) and
 * hangs from the scene root with no transform; the old mesh nodes lose their meshes, and those
 * left with no children are removed. Other nodes, materials, textures and extras are kept.
 */

import type { Document, Material, Node, Primitive } from '@gltf-transform/core';
import { walkSceneNodes } from './node-walk.js';
import { cloneDocument, prune } from './gltf-utils.js';
import { det3, frameNormal, framePoint } from './importer-frame.js';
import { readVec } from './to-model.js';

/** glTF primitive mode TRIANGLES. */
const TRIANGLES = 4;
/** Faces per prim (spec section 4). */
const MAX_FACES = 8;

export type MergeOutcome =
  | { merged: true; doc: Document; name: string; objects: number }
  | { merged: false; reason: string };

interface Part {
  prim: Primitive;
  world: ArrayLike<number>;
}

/**
 * Joins the mesh nodes of `source`'s default scene into one (see the file comment). `source` is
 * not changed. Refuses, with the reason, when there are fewer than two mesh nodes or a node cannot
 * be joined.
 */
export async function mergeMeshNodes(source: Document): Promise<MergeOutcome> {
  const root = source.getRoot();
  if (root.listAnimations().length > 0) return { merged: false, reason: 'the file has animations' };
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) return { merged: false, reason: 'no scene' };
  const meshNodes: { node: Node; world: ArrayLike<number> }[] = [];
  walkSceneNodes(scene.listChildren(), (node, world) => {
    if (node.getMesh()) meshNodes.push({ node, world });
  });
  if (meshNodes.length < 2) return { merged: false, reason: 'fewer than two objects' };
  const groups = new Map<Material | null, Part[]>();
  for (const { node, world } of meshNodes) {
    const name = node.getName() || node.getMesh()!.getName();
    if (node.getSkin()) return { merged: false, reason: `${name} is skinned` };
    if (node.getExtension('EXT_mesh_gpu_instancing')) return { merged: false, reason: `${name} is instanced` };
    for (const prim of node.getMesh()!.listPrimitives()) {
      if (prim.listTargets().length > 0) return { merged: false, reason: `${name} has morph targets` };
      if (prim.getMode() !== TRIANGLES)
        return { merged: false, reason: `${name} has a primitive that is not a triangle list` };
      if (!prim.getAttribute('POSITION')) continue;
      const material = prim.getMaterial();
      const list = groups.get(material) ?? [];
      list.push({ prim, world });
      groups.set(material, list);
    }
  }
  if (groups.size > MAX_FACES) return { merged: false, reason: `${groups.size} materials (one prim has at most 8)` };
  for (const parts of groups.values()) {
    for (const { prim } of parts)
      for (const a of ['NORMAL', 'TEXCOORD_0'])
        if (prim.getAttribute(a) && prim.getAttribute(a)!.getCount() !== prim.getAttribute('POSITION')!.getCount())
          return { merged: false, reason: `a primitive's ${a} count differs from its POSITION count` };
    const has = (p: Part, a: string) => !!p.prim.getAttribute(a);
    for (const a of ['NORMAL', 'TEXCOORD_0'])
      if (parts.some((p) => has(p, a) !== has(parts[0], a)))
        return { merged: false, reason: `a material's parts differ in having ${a}` };
  }

  // The copy: the same properties, so the parts are found through the source's indices.
  const doc = cloneDocument(source);
  const droot = doc.getRoot();
  const nodeIndex = new Map(root.listNodes().map((n, i) => [n, i]));
  const materialIndex = new Map(root.listMaterials().map((m, i) => [m, i]));
  const buffer = droot.listBuffers()[0] ?? doc.createBuffer();
  const name = meshNodes[0].node.getName() || meshNodes[0].node.getMesh()!.getName() || 'object';
  const mesh = doc.createMesh(name);
  for (const [material, parts] of groups) {
    let vertices = 0;
    let corners = 0;
    for (const p of parts) {
      const count = p.prim.getAttribute('POSITION')!.getCount();
      vertices += count;
      corners += p.prim.getIndices()?.getCount() ?? count - (count % 3);
    }
    const withNormals = !!parts[0].prim.getAttribute('NORMAL');
    const withUvs = !!parts[0].prim.getAttribute('TEXCOORD_0');
    const positions = new Float32Array(vertices * 3);
    const normals = withNormals ? new Float32Array(vertices * 3) : undefined;
    const uvs = withUvs ? new Float32Array(vertices * 2) : undefined;
    const indices = new Uint32Array(corners);
    let v0 = 0;
    let c0 = 0;
    for (const { prim, world: m } of parts) {
      const pos = readVec(prim.getAttribute('POSITION')!, 3);
      const count = pos.length / 3;
      for (let v = 0; v < count; v++)
        framePoint(m, pos[3 * v], pos[3 * v + 1], pos[3 * v + 2], positions, 3 * (v0 + v));
      const det = det3(m);
      const normalAccessor = prim.getAttribute('NORMAL');
      if (normals && normalAccessor) {
        const nrm = readVec(normalAccessor, 3);
        const mapNormal = frameNormal(m);
        for (let v = 0; v < count; v++) mapNormal(nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2], normals, 3 * (v0 + v));
      }
      const uvAccessor = prim.getAttribute('TEXCOORD_0');
      if (uvs && uvAccessor) uvs.set(readVec(uvAccessor, 2), 2 * v0);
      const idx = prim.getIndices();
      const src = idx ? (idx.getArray() as ArrayLike<number>) : undefined;
      const k = src ? src.length - (src.length % 3) : count - (count % 3);
      // A mirroring transform turns the winding over: swap two corners to keep the front face.
      for (let t = 0; t < k; t += 3) {
        const a = src ? src[t] : t;
        const b = src ? src[t + 1] : t + 1;
        const c = src ? src[t + 2] : t + 2;
        indices[c0 + t] = v0 + a;
        indices[c0 + t + 1] = v0 + (det < 0 ? c : b);
        indices[c0 + t + 2] = v0 + (det < 0 ? b : c);
      }
      v0 += count;
      c0 += k;
    }
    const prim = doc.createPrimitive();
    prim.setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer));
    if (normals) prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer));
    if (uvs) prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uvs).setBuffer(buffer));
    prim.setIndices(doc.createAccessor().setType('SCALAR').setArray(indices.subarray(0, c0)).setBuffer(buffer));
    if (material) prim.setMaterial(droot.listMaterials()[materialIndex.get(material)!]);
    mesh.addPrimitive(prim);
  }
  // The old mesh nodes lose their meshes; leaves are removed (nodes with children keep their place).
  const copies = droot.listNodes();
  for (const { node } of meshNodes) {
    const copy = copies[nodeIndex.get(node)!];
    copy.setMesh(null);
    if (copy.listChildren().length === 0) copy.dispose();
  }
  const dscene = droot.getDefaultScene() ?? droot.listScenes()[0];
  dscene.addChild(doc.createNode(name).setMesh(mesh));
  await doc.transform(prune({ keepLeaves: true }));
  return { merged: true, doc, name, objects: meshNodes.length };
}
