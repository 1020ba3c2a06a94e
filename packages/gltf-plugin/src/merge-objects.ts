/**
 * Fewer objects: a copy of a glTF document whose mesh nodes are joined into as few mesh nodes as
 * prims can hold, their vertices in the scene's frame, one primitive per material.
 *
 * Why: the uploader makes every mesh node its own prim, and each prim costs at least 0.5 of
 * server weight (spec section 2), whatever its size; a linkset of many small parts is charged
 * for its prim count, not its geometry. Joined, the parts cost one prim, and `optimize` keeps the
 * join only where the priced result is lower (optimize.ts).
 *
 * What cannot be joined without changing what the uploader makes, and so is refused (with the
 * reason): skinned or instanced nodes, morph targets, animations (they move nodes), a primitive
 * other than a triangle list, and a material whose primitives disagree on having normals or
 * texture coordinates (the importer fills missing ones, so mixing would change the look).
 *
 * One prim has at most 8 faces (materials; more would be split into extra prims again): a model
 * of more materials is joined into groups of parts that fit, swept along its longest axis so each
 * group stays in one region (a part with more than 8 materials of its own is left alone).
 *
 * Each joined node takes its group's first mesh node's name (a name the importer already
 * accepted) and hangs from the scene root with no transform; the joined mesh nodes lose their
 * meshes, and those left with no children are removed. Other nodes, materials, textures and
 * extras are kept.
 */

import { Primitive, type Buffer, type Document, type Material, type Node } from '@gltf-transform/core';
import { MAX_FACES_PER_OBJECT } from '@slmesh/core';
import { walkSceneNodes } from './node-walk.js';
import { cloneDocument, prune } from './gltf-utils.js';
import { det3, frameNormal, framePoint } from './importer-frame.js';
import { readVec } from './to-model.js';

export type MergeOutcome =
  | {
      merged: true;
      doc: Document;
      /** Each joined object's name, in scene order. */
      names: string[];
      /** Mesh nodes joined (parts left alone not counted). */
      objects: number;
    }
  | { merged: false; reason: string };

interface Part {
  prim: Primitive;
  world: ArrayLike<number>;
}

interface MeshNode {
  node: Node;
  world: ArrayLike<number>;
  materials: Set<Material | null>;
  /** Centre of its box in the scene's frame. */
  centre: number[];
}

const nameOf = (node: Node) => node.getName() || node.getMesh()!.getName();

/**
 * Groups of mesh nodes that one prim can hold: a sweep along the longest axis of the parts'
 * centres, a group closed when the next part would take it over 8 materials. A part with more
 * than 8 materials of its own stays alone (the uploader splits it anyway).
 */
function groupParts(parts: MeshNode[]): MeshNode[][] {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of parts)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p.centre[k]);
      hi[k] = Math.max(hi[k], p.centre[k]);
    }
  const axis = [0, 1, 2].reduce((a, k) => (hi[k] - lo[k] > hi[a] - lo[a] ? k : a), 0);
  const order = parts.map((p, i) => ({ p, i })).sort((a, b) => a.p.centre[axis] - b.p.centre[axis] || a.i - b.i);
  const groups: MeshNode[][] = [];
  let current: MeshNode[] = [];
  let materials = new Set<Material | null>();
  for (const { p } of order) {
    if (p.materials.size > MAX_FACES_PER_OBJECT) {
      groups.push([p]);
      continue;
    }
    const union = new Set([...materials, ...p.materials]);
    if (union.size > MAX_FACES_PER_OBJECT) {
      groups.push(current);
      current = [];
      materials = new Set(p.materials);
    } else {
      materials = union;
    }
    current.push(p);
  }
  if (current.length > 0) groups.push(current);
  // Scene order inside each group and between groups: names and output stay predictable.
  const rank = new Map(parts.map((p, i) => [p, i]));
  for (const g of groups) g.sort((a, b) => rank.get(a)! - rank.get(b)!);
  return groups.sort((a, b) => rank.get(a[0])! - rank.get(b[0])!);
}

/**
 * Joins the mesh nodes of `source`'s default scene into as few nodes as prims can hold (see the
 * file comment; one when the whole model has at most 8 materials). `source` is not changed.
 * Refuses, with the reason, when there are fewer than two mesh nodes, a node cannot be joined, or
 * no two parts fit in one prim.
 */
export async function mergeMeshNodes(source: Document): Promise<MergeOutcome> {
  const root = source.getRoot();
  if (root.listAnimations().length > 0) return { merged: false, reason: 'the file has animations' };
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) return { merged: false, reason: 'no scene' };
  const meshNodes: MeshNode[] = [];
  let refused: string | undefined;
  walkSceneNodes(scene.listChildren(), (node, world) => {
    const mesh = node.getMesh();
    if (!mesh || refused) return;
    const name = nameOf(node);
    if (node.getSkin()) refused = `${name} is skinned`;
    else if (node.getExtension('EXT_mesh_gpu_instancing')) refused = `${name} is instanced`;
    const materials = new Set<Material | null>();
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    const p = new Float32Array(3);
    for (const prim of mesh.listPrimitives()) {
      if (refused) return;
      if (prim.listTargets().length > 0) refused = `${name} has morph targets`;
      else if (prim.getMode() !== Primitive.Mode.TRIANGLES)
        refused = `${name} has a primitive that is not a triangle list`;
      const position = prim.getAttribute('POSITION');
      if (refused || !position) continue;
      for (const a of ['NORMAL', 'TEXCOORD_0'])
        if (prim.getAttribute(a) && prim.getAttribute(a)!.getCount() !== position.getCount())
          refused = `a primitive's ${a} count differs from its POSITION count`;
      materials.add(prim.getMaterial());
      const pos = readVec(position, 3);
      for (let v = 0; v < pos.length; v += 3) {
        framePoint(world, pos[v], pos[v + 1], pos[v + 2], p, 0);
        for (let k = 0; k < 3; k++) {
          lo[k] = Math.min(lo[k], p[k]);
          hi[k] = Math.max(hi[k], p[k]);
        }
      }
    }
    if (materials.size > 0) meshNodes.push({ node, world, materials, centre: lo.map((l, k) => (l + hi[k]) / 2) });
  });
  if (refused) return { merged: false, reason: refused };
  if (meshNodes.length < 2) return { merged: false, reason: 'fewer than two objects' };
  const groups = groupParts(meshNodes).filter((g) => g.length > 1);
  if (groups.length === 0) {
    const all = new Set(meshNodes.flatMap((n) => [...n.materials]));
    return { merged: false, reason: `${all.size} materials and no two objects fit in one prim's 8` };
  }
  // Per group, its parts by material; a material's parts must agree on normals and uvs.
  const byMaterial = groups.map((g) => {
    const map = new Map<Material | null, Part[]>();
    for (const { node, world } of g)
      for (const prim of node.getMesh()!.listPrimitives()) {
        if (!prim.getAttribute('POSITION')) continue;
        const list = map.get(prim.getMaterial()) ?? [];
        list.push({ prim, world });
        map.set(prim.getMaterial(), list);
      }
    return map;
  });
  for (const map of byMaterial)
    for (const parts of map.values()) {
      const has = (q: Part, a: string) => !!q.prim.getAttribute(a);
      for (const a of ['NORMAL', 'TEXCOORD_0'])
        if (parts.some((q) => has(q, a) !== has(parts[0], a)))
          return { merged: false, reason: `a material's parts differ in having ${a}` };
    }

  // The copy: the same properties, so the parts are found through the source's indices.
  const doc = cloneDocument(source);
  const droot = doc.getRoot();
  const nodeIndex = new Map(root.listNodes().map((n, i) => [n, i]));
  const materialIndex = new Map(root.listMaterials().map((m, i) => [m, i]));
  const buffer = droot.listBuffers()[0] ?? doc.createBuffer();
  const dscene = droot.getDefaultScene() ?? droot.listScenes()[0];
  const names = groups.map((g) => nameOf(g[0].node) || 'object');
  groups.forEach((g, gi) => {
    const mesh = doc.createMesh(names[gi]);
    for (const [material, parts] of byMaterial[gi])
      mesh.addPrimitive(
        joinedPrimitive(doc, buffer, parts, material && droot.listMaterials()[materialIndex.get(material)!]),
      );
    dscene.addChild(doc.createNode(names[gi]).setMesh(mesh));
  });
  // The joined mesh nodes lose their meshes; leaves are removed (nodes with children keep their place).
  const copies = droot.listNodes();
  for (const g of groups)
    for (const { node } of g) {
      const copy = copies[nodeIndex.get(node)!];
      copy.setMesh(null);
      if (copy.listChildren().length === 0) copy.dispose();
    }
  await doc.transform(prune({ keepLeaves: true }));
  return { merged: true, doc, names, objects: groups.reduce((a, g) => a + g.length, 0) };
}

/** One primitive of `parts` (one material), their vertices in the scene's frame. */
function joinedPrimitive(doc: Document, buffer: Buffer, parts: Part[], material: Material | null): Primitive {
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
    for (let v = 0; v < count; v++) framePoint(m, pos[3 * v], pos[3 * v + 1], pos[3 * v + 2], positions, 3 * (v0 + v));
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
  if (material) prim.setMaterial(material);
  return prim;
}
