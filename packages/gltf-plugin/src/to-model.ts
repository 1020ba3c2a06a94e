/**
 * glTF-Transform Document -> slmesh objects, the way the viewer's glTF importer reads a file
 * (indra/newview/gltf/llgltfloader.cpp):
 *
 * 1. Every node of the default scene that has a mesh is one prim; its name is the node's name.
 * 2. Its vertices go into the prim frame the importer uses (importer-frame.ts): by default, the
 *    current importer's (mesh-local vertices times the node's scale; the node's rotation and
 *    translation after Y-up -> Z-up are the object's `placement`); with `importer: 'baked'` (and
 *    for skinned nodes) the world matrix and Y-up -> Z-up, (x, y, z) -> (x, -z, y), are applied
 *    to the vertices. Normals use the inverse transpose; a mirrored node (negative determinant)
 *    gets its winding flipped. V of the UVs is negated, as the importer does.
 * 3. Each triangle primitive is one face, named by its material (`mat<i>` when unnamed,
 *    `mat_default` without a material). Strips and fans become lists; points and lines are
 *    skipped with a diagnostic.
 * 4. Nodes named `X_LOD2` / `_LOD1` / `_LOD0` / `_PHYS` fill the LOD / physics slots of object
 *    `X` (from sibling files; inside the high file only with `lodNodes: 'lods'`, see
 *    lod-naming.ts `highFileSlots`); their faces are lined up with X's high LOD by material (a
 *    material the LOD does not use becomes an empty face). The importer ignores a LOD node's own
 *    transform (it is normalised into high's box), so under the current importer its faces are
 *    scaled by high's node scale.
 *
 * Bounded by the file's real size: the node tree is walked without recursion (node-walk.ts),
 * names are made unique in linear time, the triangle limit counts triangles (a strip or fan of
 * n indices is n - 2) before any vertex is read, and a NaN or infinite position, normal or UV
 * is an error rather than a silently dropped object. What the upload cannot carry (skins, GPU
 * instancing, morph targets) is reported as a diagnostic, never dropped without a word.
 */

import type { Accessor, Document, Mesh, Node, Primitive } from '@gltf-transform/core';
import {
  convexPieces,
  emptyFace,
  isEmptyBox,
  lodBox,
  placePoint,
  type Placement,
  SlmeshError,
  type Diagnostic,
  type Face,
  type LodName,
  type MeshLod,
  type SlModel,
  type SlObject,
} from '@slmesh/core';
import { framePoint, frameNormal, nodeFrame, type ImporterMode, type NodeFrame } from './importer-frame.js';
import { highFileSlots, type LodNodesMode, type LodSlot } from './lod-naming.js';
import { walkSceneNodes } from './node-walk.js';

const MODE_POINTS = 0,
  MODE_LINES = 1,
  MODE_LINE_LOOP = 2,
  MODE_LINE_STRIP = 3,
  MODE_TRIANGLES = 4,
  MODE_TRIANGLE_STRIP = 5,
  MODE_TRIANGLE_FAN = 6;

/** A mesh node read from a file, before LODs are matched into objects. */
export interface MeshNodeGeometry {
  name: string;
  faces: Face[];
  /** Index of the node in the document's node list. */
  index: number;
  /** How its vertices were taken into the prim frame (the writer inverts it). */
  frame: NodeFrame;
}

export interface ToModelOptions {
  /** Label for messages (the file name). */
  source?: string;
  /** Most triangles accepted in one file; more is an INPUT_LIMIT error. Default 5,000,000 (a 2M-triangle model works). */
  maxTriangles?: number;
  /** The importer to read as: `current` (node transforms kept as prim rotation and scale) or `baked`. Default `current`. */
  importer?: ImporterMode;
  /** `_LODn` / `_PHYS` nodes inside the high file: `objects` (the uploader's extra objects) or `lods` (slots). Default `objects`. */
  lodNodes?: LodNodesMode;
}

export const TO_MODEL_DEFAULTS = {
  maxTriangles: 5_000_000,
  importer: 'current' as ImporterMode,
  lodNodes: 'objects' as LodNodesMode,
};

/** An accessor's elements as floats (normalized and quantized ones decoded); the array itself when it already is. */
export function readVec(accessor: Accessor, size: number): Float32Array {
  const n = accessor.getCount();
  const arr = accessor.getArray();
  if (arr instanceof Float32Array && !accessor.getNormalized() && accessor.getElementSize() === size) return arr;
  const out = new Float32Array(n * size);
  const el: number[] = [];
  for (let i = 0; i < n; i++) {
    accessor.getElement(i, el);
    for (let k = 0; k < size; k++) out[i * size + k] = el[k];
  }
  return out;
}

function triangleIndices(prim: Primitive, vertexCount: number): Uint32Array {
  const idx = prim.getIndices();
  const src = idx
    ? Uint32Array.from(idx.getArray() as ArrayLike<number>)
    : Uint32Array.from({ length: vertexCount }, (_, i) => i);
  const mode = prim.getMode();
  if (mode === MODE_TRIANGLES) return src.length % 3 === 0 ? src : src.subarray(0, src.length - (src.length % 3));
  const out: number[] = [];
  if (mode === MODE_TRIANGLE_STRIP) {
    for (let i = 0; i + 2 < src.length; i++) {
      if (i % 2 === 0) out.push(src[i], src[i + 1], src[i + 2]);
      else out.push(src[i + 1], src[i], src[i + 2]);
    }
  } else if (mode === MODE_TRIANGLE_FAN) {
    for (let i = 1; i + 1 < src.length; i++) out.push(src[0], src[i], src[i + 1]);
  }
  return Uint32Array.from(out);
}

const materialIndex = new WeakMap<Document, Map<unknown, number>>();

function materialName(doc: Document, prim: Primitive): string {
  const mat = prim.getMaterial();
  if (!mat) return 'mat_default';
  const name = mat.getName();
  if (name) return name;
  // Indexed once per document: indexOf per primitive is quadratic on a file of many materials.
  let index = materialIndex.get(doc);
  if (!index)
    materialIndex.set(
      doc,
      (index = new Map(
        doc
          .getRoot()
          .listMaterials()
          .map((m, i) => [m, i]),
      )),
    );
  return `mat${index.get(mat) ?? -1}`;
}

function assertFinite(a: Float32Array, source: string, label: string, pi: number, what: string): void {
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]))
      throw new SlmeshError(
        'INPUT_INVALID',
        `${source}: node ${JSON.stringify(label)} primitive ${pi}: ${what} is NaN or infinite`,
      );
  }
}

/**
 * Whether every corner of the faces' box, placed in the world, is a finite 32-bit float: what the
 * viewer (F32 matrices and vertices) can place. The baked importer's vertices are checked as read.
 */
function placedInFloat32(faces: Face[], placement: Placement): boolean {
  const box = lodBox({ faces });
  if (isEmptyBox(box)) return true;
  const { min, max } = box;
  for (let c = 0; c < 8; c++) {
    const p = placePoint(placement, [c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]]);
    if (!p.every((x) => Number.isFinite(Math.fround(x)))) return false;
  }
  return true;
}

/** Triangles a primitive draws: a list of n indices n/3, a strip or fan n - 2. */
export function primitiveTriangles(prim: Primitive): number {
  const idx = prim.getIndices();
  const n = idx ? idx.getCount() : (prim.getAttribute('POSITION')?.getCount() ?? 0);
  const mode = prim.getMode();
  if (mode === MODE_TRIANGLE_STRIP || mode === MODE_TRIANGLE_FAN) return Math.max(0, n - 2);
  if (mode === MODE_TRIANGLES) return Math.floor(n / 3);
  return 0;
}

/** Reads one mesh node's primitives as faces in its prim frame (see importer-frame.ts). */
function readMeshNode(
  doc: Document,
  node: Node,
  mesh: Mesh,
  diagnostics: Diagnostic[],
  label: string,
  source: string,
  frame: NodeFrame,
): Face[] {
  const m = frame.matrix;
  const toFrame = (x: number, y: number, z: number, out: Float32Array, o: number) => framePoint(m, x, y, z, out, o);
  const nt = { det: frame.det, apply: frameNormal(m) };
  const faces: Face[] = [];
  mesh.listPrimitives().forEach((prim, pi) => {
    const mode = prim.getMode();
    if (mode === MODE_POINTS || mode === MODE_LINES || mode === MODE_LINE_LOOP || mode === MODE_LINE_STRIP) {
      diagnostics.push({
        severity: 'warning',
        code: 'non-triangle-primitive',
        object: label,
        message: `${label}: primitive ${pi} draws ${mode === MODE_POINTS ? 'points' : 'lines'}; skipped (Second Life meshes are triangles)`,
      });
      return;
    }
    const posAcc = prim.getAttribute('POSITION');
    if (!posAcc) {
      diagnostics.push({
        severity: 'warning',
        code: 'no-positions',
        object: label,
        message: `${label}: primitive ${pi} has no POSITION; skipped`,
      });
      return;
    }
    const src = readVec(posAcc, 3);
    const n = posAcc.getCount();
    const positions = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) toFrame(src[v * 3], src[v * 3 + 1], src[v * 3 + 2], positions, v * 3);
    for (let i = 0; i < positions.length; i++) {
      if (!Number.isFinite(positions[i])) {
        const what = Number.isFinite(src[i])
          ? 'its transform makes a vertex position infinite or NaN'
          : 'a vertex position is NaN or infinite';
        throw new SlmeshError('INPUT_INVALID', `${source}: node ${JSON.stringify(label)} primitive ${pi}: ${what}`);
      }
    }
    // The glTF importer always has normals: missing ones default to +Z in model space.
    const normAcc = prim.getAttribute('NORMAL');
    const nsrc = normAcc && normAcc.getCount() === n ? readVec(normAcc, 3) : undefined;
    if (nsrc) assertFinite(nsrc, source, label, pi, 'a vertex normal');
    const normals = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) {
      if (nsrc) nt.apply(nsrc[v * 3], nsrc[v * 3 + 1], nsrc[v * 3 + 2], normals, v * 3);
      else nt.apply(0, 0, 1, normals, v * 3);
    }
    const uvAcc = prim.getAttribute('TEXCOORD_0');
    let uvs: Float32Array | undefined;
    if (uvAcc && uvAcc.getCount() === n) {
      const usrc = readVec(uvAcc, 2);
      assertFinite(usrc, source, label, pi, 'a texture coordinate (TEXCOORD_0)');
      uvs = new Float32Array(n * 2);
      for (let v = 0; v < n; v++) {
        uvs[v * 2] = usrc[v * 2];
        uvs[v * 2 + 1] = -usrc[v * 2 + 1];
      }
    }
    const indices = triangleIndices(prim, n);
    for (let i = 0; i < indices.length; i++) {
      if (indices[i] >= n)
        throw new SlmeshError(
          'INPUT_INVALID',
          `${source}: node ${JSON.stringify(label)} primitive ${pi} has index ${indices[i]} but only ${n} vertices`,
        );
    }
    if (nt.det < 0) {
      for (let t = 0; t + 2 < indices.length; t += 3) {
        const tmp = indices[t + 1];
        indices[t + 1] = indices[t + 2];
        indices[t + 2] = tmp;
      }
    }
    faces.push({ material: materialName(doc, prim), positions, normals, uvs, indices });
  });
  return faces;
}

/** Every mesh node of the default scene, in scene order, as named faces in their prim frames. */
export function readMeshNodes(
  doc: Document,
  options: ToModelOptions = {},
): { nodes: MeshNodeGeometry[]; diagnostics: Diagnostic[] } {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const diagnostics: Diagnostic[] = [];
  const nodes: MeshNodeGeometry[] = [];
  const source = options.source ?? 'file';
  const maxTriangles = options.maxTriangles ?? TO_MODEL_DEFAULTS.maxTriangles;
  let triangles = 0;
  const indexOf = new Map(root.listNodes().map((n, i) => [n, i]));
  const dropped = { skin: 0, instancing: 0, morph: 0 };
  const visit = (node: Node, world: ArrayLike<number>) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    // 1. Refuse absurd sizes before reading any vertex.
    for (const prim of mesh.listPrimitives()) triangles += primitiveTriangles(prim);
    if (triangles > maxTriangles) {
      throw new SlmeshError(
        'INPUT_LIMIT',
        `${source}: more than ${maxTriangles.toLocaleString('en-US')} triangles (the limit; raise it with --max-triangles)`,
      );
    }
    if (node.getSkin()) dropped.skin++;
    if (node.getExtension('EXT_mesh_gpu_instancing')) dropped.instancing++;
    if (mesh.listPrimitives().some((p) => p.listTargets().length > 0)) dropped.morph++;
    const index = indexOf.get(node) ?? 0;
    const name = node.getName() || mesh.getName() || `node${index}`;
    const frame = nodeFrame(world, options.importer ?? TO_MODEL_DEFAULTS.importer, !!node.getSkin());
    const faces = readMeshNode(doc, node, mesh, diagnostics, name, source, frame);
    if (frame.placement && !placedInFloat32(faces, frame.placement)) {
      throw new SlmeshError(
        'INPUT_INVALID',
        `${source}: node ${JSON.stringify(name)}: its transform places the mesh at infinite or NaN coordinates (beyond the viewer's 32-bit floats)`,
      );
    }
    if (faces.length > 0) nodes.push({ name, faces, index, frame });
  };
  if (scene) walkSceneNodes(scene.listChildren(), visit);
  else
    walkSceneNodes(
      root.listNodes().filter((n) => !n.getParentNode()),
      visit,
    );
  const said = (n: number, what: string, code: string, why: string) => {
    if (n)
      diagnostics.push({
        severity: 'warning',
        code,
        message: `${source}: ${n} mesh node${n === 1 ? '' : 's'} ${n === 1 ? 'has' : 'have'} ${what}; dropped (${why})`,
      });
  };
  said(
    dropped.skin,
    'a skin (rig)',
    'dropped-skin',
    'slmesh prices and writes static meshes; upload rigged meshes with their skin from the original file',
  );
  said(
    dropped.instancing,
    'GPU instances (EXT_mesh_gpu_instancing)',
    'dropped-instancing',
    'only the node itself is read; the uploader does not take instances either',
  );
  said(
    dropped.morph,
    'morph targets',
    'dropped-morph-targets',
    'Second Life meshes have no morph targets; the base shape is used',
  );
  if (scene === null && root.listNodes().length === 0 && root.listMeshes().length > 0) {
    diagnostics.push({
      severity: 'warning',
      code: 'no-scene',
      message: `${options.source ?? 'file'}: meshes are not placed in any scene; nothing to upload`,
    });
  }
  return { nodes, diagnostics };
}

/** Merges faces of the same material into one face (the viewer keeps one face per material). */
function mergeByMaterial(faces: Face[]): Face[] {
  const groups = new Map<string, Face[]>();
  for (const f of faces) {
    const g = groups.get(f.material);
    if (g) g.push(f);
    else groups.set(f.material, [f]);
  }
  return [...groups.entries()].map(([material, group]) =>
    group.length === 1 ? group[0] : concatFaces(material, group),
  );
}

function concatFaces(material: string, faces: Face[]): Face {
  let nv = 0,
    ni = 0;
  for (const f of faces) {
    nv += f.positions.length / 3;
    ni += f.indices.length;
  }
  const hasNormals = faces.every((f) => f.normals),
    hasUvs = faces.every((f) => f.uvs);
  const positions = new Float32Array(nv * 3),
    indices = new Uint32Array(ni);
  const normals = hasNormals ? new Float32Array(nv * 3) : undefined,
    uvs = hasUvs ? new Float32Array(nv * 2) : undefined;
  let v = 0,
    i = 0;
  for (const f of faces) {
    positions.set(f.positions, v * 3);
    if (normals) normals.set(f.normals!, v * 3);
    if (uvs) uvs.set(f.uvs!, v * 2);
    for (let k = 0; k < f.indices.length; k++) indices[i++] = f.indices[k] + v;
    v += f.positions.length / 3;
  }
  return { material, positions, normals, uvs, indices };
}

/** Lines a LOD's faces up with high's materials; returns the LOD and materials high does not have. */
export function alignFaces(highFaces: Face[], faces: Face[]): { lod: MeshLod; extraMaterials: string[] } {
  const byMat = new Map(mergeByMaterial(faces).map((f) => [f.material, f]));
  const lod: MeshLod = { faces: highFaces.map((h) => byMat.get(h.material) ?? emptyFace(h.material)) };
  const extraMaterials = [...byMat.keys()].filter((m) => !highFaces.some((h) => h.material === m));
  return { lod, extraMaterials };
}

/** A node filling a slot of an object, from this file or a sibling file. */
export interface SlotNode {
  base: string;
  slot: LodSlot;
  node: MeshNodeGeometry;
  /** The file it came from, for messages. */
  source: string;
}

/** Groups mesh nodes into objects by the viewer's naming and lines their LODs up with high. */
export function assembleModel(slotNodes: SlotNode[]): {
  model: SlModel;
  diagnostics: Diagnostic[];
  nodes: Map<string, MeshNodeGeometry>;
} {
  const diagnostics: Diagnostic[] = [];
  const objects: SlObject[] = [];
  const byBase = new Map<string, SlObject>();
  const highNode = new Map<SlObject, MeshNodeGeometry>();
  const nodeOf = new Map<string, MeshNodeGeometry>();
  const nextCopy = new Map<string, number>();
  // 1. High LODs make the objects (duplicate names get the viewer-style `_copy_N`); the next
  //    free N is remembered per name, so n equal names take linear time, not quadratic.
  for (const sn of slotNodes) {
    if (sn.slot !== 'high') continue;
    let name = sn.base;
    let k = nextCopy.get(sn.base) ?? 1;
    if (byBase.has(name)) {
      for (name = `${sn.base}_copy_${k}`; byBase.has(name); ) name = `${sn.base}_copy_${++k}`;
      nextCopy.set(sn.base, k + 1);
    }
    const object: SlObject = {
      name,
      lods: { high: { faces: mergeByMaterial(sn.node.faces) } },
      ...(sn.node.frame.placement ? { placement: sn.node.frame.placement } : {}),
    };
    highNode.set(object, sn.node);
    nodeOf.set(name, sn.node);
    objects.push(object);
    byBase.set(name, object);
  }
  // 2. Lower LODs and physics by base name; a single-object model takes a lone unmatched LOD.
  //    Each (object, LOD) is aligned once, with all its nodes' faces (linear in the nodes).
  const gathered = new Map<SlObject, Map<Exclude<LodName, 'high'>, Face[]>>();
  for (const sn of slotNodes) {
    if (sn.slot === 'high') continue;
    const object = byBase.get(sn.base) ?? (objects.length === 1 ? objects[0] : undefined);
    if (!object) {
      diagnostics.push({
        severity: 'warning',
        code: 'orphan-lod',
        message: `${sn.source}: node ${sn.node.name} has no high-LOD node named ${sn.base}; ignored`,
      });
      continue;
    }
    // The importer places every model with high's transform: a LOD node's own is not used.
    const nodeFaces = inHighFrame(sn.node, highNode.get(object)!);
    if (sn.slot === 'physics') {
      // Physics faces stay one per primitive: they need no material alignment, and a
      // decomposition written as one primitive per hull stays recognisable (step 3).
      if (!object.physicsMesh) object.physicsMesh = { faces: [] };
      for (const f of nodeFaces) object.physicsMesh.faces.push(f);
      continue;
    }
    const highMaterials = new Set(object.lods.high.faces.map((f) => f.material));
    for (const m of new Set(nodeFaces.map((f) => f.material))) {
      if (!highMaterials.has(m))
        diagnostics.push({
          severity: 'error',
          code: 'lod-material',
          object: object.name,
          message: `${object.name}: ${sn.slot} LOD (${sn.node.name}) uses material ${m}, which the high LOD does not have`,
        });
    }
    let slots = gathered.get(object);
    if (!slots) gathered.set(object, (slots = new Map()));
    const slot = sn.slot as Exclude<LodName, 'high'>;
    const list = slots.get(slot) ?? [];
    for (const f of nodeFaces) list.push(f);
    slots.set(slot, list);
  }
  for (const [object, slots] of gathered) {
    for (const [slot, faces] of slots) object.lods[slot] = alignFaces(object.lods.high.faces, faces).lod;
  }
  // 3. A physics mesh made wholly of closed convex pieces is what the uploader's Analyze step
  //    keeps as hulls (slmesh optimize writes its decompositions so): price it as those hulls.
  for (const object of objects) {
    if (!object.physicsMesh || object.decomposition) continue;
    const hulls = convexPieces(object.physicsMesh);
    if (!hulls) continue;
    object.decomposition = hulls;
    diagnostics.push({
      severity: 'info',
      code: 'physics-as-hulls',
      object: object.name,
      message: `${object.name}: the physics mesh is ${hulls.length} closed convex piece${hulls.length === 1 ? '' : 's'}; priced as the hulls the uploader's Analyze step keeps (an estimate); uploaded without Analyze it is a triangle mesh (physics.mesh in the report)`,
    });
  }
  return { model: { objects }, diagnostics, nodes: nodeOf };
}

/**
 * A LOD node's faces in its high node's prim frame: under the current importer its mesh-local
 * vertices times high's node scale (its own transform is ignored); baked, as read.
 */
function inHighFrame(lod: MeshNodeGeometry, high: MeshNodeGeometry): Face[] {
  const s = lod.frame.scale,
    h = high.frame.scale;
  if (!s || !h || (s[0] === h[0] && s[1] === h[1] && s[2] === h[2])) return lod.faces;
  const f = [h[0] / s[0], h[1] / s[1], h[2] / s[2]];
  const flip = Math.sign(f[0] * f[1] * f[2]) < 0;
  return lod.faces.map((face) => {
    const positions = face.positions.slice();
    for (let i = 0; i + 2 < positions.length; i += 3) for (let k = 0; k < 3; k++) positions[i + k] *= f[k];
    let normals = face.normals;
    if (normals) {
      normals = normals.slice();
      for (let i = 0; i + 2 < normals.length; i += 3) {
        const x = normals[i] / f[0],
          y = normals[i + 1] / f[1],
          z = normals[i + 2] / f[2];
        const l = Math.hypot(x, y, z) || 1;
        normals[i] = x / l;
        normals[i + 1] = y / l;
        normals[i + 2] = z / l;
      }
    }
    let indices = face.indices;
    if (flip) {
      indices = indices.slice();
      for (let t = 0; t + 2 < indices.length; t += 3)
        [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
    }
    return { ...face, positions, ...(normals ? { normals } : {}), indices };
  });
}

/** One Document (no sibling files) into a model. */
export function documentToModel(
  doc: Document,
  options: ToModelOptions = {},
): { model: SlModel; diagnostics: Diagnostic[]; nodes: Map<string, MeshNodeGeometry>; slotNodes: number[] } {
  const source = options.source ?? 'file';
  const { nodes, diagnostics } = readMeshNodes(doc, options);
  const high = highFileSlots(nodes, source, options.lodNodes ?? TO_MODEL_DEFAULTS.lodNodes);
  const assembled = assembleModel(high.slotNodes);
  const slotNodes = high.slotNodes.filter((sn) => sn.slot !== 'high').map((sn) => sn.node.index);
  return {
    model: assembled.model,
    diagnostics: [...diagnostics, ...high.diagnostics, ...assembled.diagnostics],
    nodes: assembled.nodes,
    slotNodes,
  };
}
