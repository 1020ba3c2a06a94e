/**
 * The data the preview page embeds: the cost report plus a compact binary of every object's
 * geometry in Second Life's frame (Z up, metres). The reader, and the format's description, is
 * packages/preview/src/payload.ts (docs/preview.md).
 *
 * One entry per object of the report, in its order: the objects the uploader would send (faces
 * over 65,525 vertices and objects over 8 faces split as the importer splits them), so face
 * indices always fit u16 in practice. LOD positions are quantised to u16 over each LOD's box
 * and normals to i8: enough to look at. Everything a cost depends on is exact float32: the
 * physics mesh (its weight depends on triangle widths at the priced size) and the hull points.
 * The page draws whatever LODs and physics shapes an object carries, so generated LODs and
 * decompositions appear without a change here.
 */

import { deflateSync } from 'node:zlib';
import {
  computeUploadNormalization,
  denormalizePoints,
  convexHull,
  decodeConvexBlock,
  emptyBox,
  inflateMeshBlock,
  lodBox,
  lodPositions,
  lodTriangleCount,
  lodTriangles,
  bakePlacement,
  objectBox,
  type Vec3,
  placePositions,
  primPosition,
  primScale,
  worldBox,
  prepareForUpload,
  readLlsdBinary,
  readMeshHeader,
  unionBox,
  type Box3,
  type Face,
  type LodName,
  type MeshLod,
  type SlModel,
  type SlObject,
} from '@slmesh/core';
import { nodeInflate, type CostReport, type FileReport } from '@slmesh/gltf-plugin';

export const PREVIEW_FORMAT = 'slmesh-preview/1';

export interface BlobRef {
  offset: number;
  length: number;
  type: 'f32' | 'u32' | 'u16' | 'i8';
}

export interface PreviewFaceOut {
  material: string;
  vertices: number;
  triangles: number;
  positions: BlobRef;
  normals?: BlobRef;
  indices: BlobRef;
}

export interface PreviewObjectOut {
  box: Box3;
  scale: Vec3;
  position: Vec3;
  lods: Partial<Record<LodName, { box: Box3; faces: PreviewFaceOut[] }>>;
  hull: BlobRef;
  decomposition?: BlobRef[];
  physicsMesh?: { positions: BlobRef; indices: BlobRef };
}

export interface PreviewDataOut {
  format: typeof PREVIEW_FORMAT;
  report: CostReport;
  lodFactor: number;
  linksetBox: Box3;
  objects: PreviewObjectOut[];
  geometryBytes: number;
  live?: { version: number; events: string };
  createdAt: string;
}

/** Appends typed arrays to one buffer, each 4-byte aligned, and hands out references. */
class BlobWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  add(array: Float32Array | Uint32Array | Uint16Array | Int8Array, type: BlobRef['type']): BlobRef {
    const offset = this.size;
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    this.chunks.push(bytes.slice());
    this.size += bytes.length;
    const pad = (4 - (this.size % 4)) % 4;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.size += pad;
    }
    return { offset, length: array.length, type };
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/** u16 per coordinate over `box` (rounded; a flat axis quantises to 0). */
export function quantise(positions: Float32Array, box: Box3): Uint16Array {
  const out = new Uint16Array(positions.length);
  for (let axis = 0; axis < 3; axis++) {
    const min = box.min[axis];
    const extent = box.max[axis] - min;
    const k = extent > 0 ? 65535 / extent : 0;
    for (let i = axis; i < positions.length; i += 3) {
      const q = Math.round((positions[i] - min) * k);
      out[i] = q < 0 ? 0 : q > 65535 ? 65535 : Number.isFinite(q) ? q : 0;
    }
  }
  return out;
}

function quantiseNormals(normals: Float32Array): Int8Array {
  const out = new Int8Array(normals.length);
  for (let i = 0; i < normals.length; i++) {
    const n = normals[i];
    out[i] = Number.isFinite(n) ? Math.max(-127, Math.min(127, Math.round(n * 127))) : 0;
  }
  return out;
}

function plainBox(box: Box3): Box3 {
  // An empty LOD has an empty (infinite) box, which JSON cannot carry: use a zero box.
  const finite = box.min.every(Number.isFinite) && box.max.every(Number.isFinite);
  return finite ? { min: [...box.min], max: [...box.max] } : { min: [0, 0, 0], max: [0, 0, 0] };
}

function writeFace(w: BlobWriter, face: Face, box: Box3): PreviewFaceOut {
  const vertices = Math.floor(face.positions.length / 3);
  const triangles = Math.floor(face.indices.length / 3);
  const indices = face.indices.subarray(0, triangles * 3);
  const out: PreviewFaceOut = {
    material: face.material,
    vertices,
    triangles,
    positions: w.add(quantise(face.positions, box), 'u16'),
    indices: vertices <= 65536 ? w.add(Uint16Array.from(indices), 'u16') : w.add(Uint32Array.from(indices), 'u32'),
  };
  if (face.normals && face.normals.length === face.positions.length) out.normals = w.add(quantiseNormals(face.normals), 'i8');
  return out;
}

function writeLod(w: BlobWriter, lod: MeshLod): { box: Box3; faces: PreviewFaceOut[] } {
  const box = plainBox(lodBox(lod));
  return { box, faces: lod.faces.map((f) => writeFace(w, f, box)) };
}

/**
 * The single hull the report priced. From the encoded asset when there is one (its BoundingVerts,
 * back in the world frame: exactly what the uploader sends, without computing the hull again);
 * else the object's own hull, else core's convexHull of the report's source LOD.
 */
function pricedHull(object: SlObject, source: string, asset: Uint8Array | undefined): Float32Array {
  if (asset) {
    try {
      const header = readMeshHeader(asset);
      if (header.blocks.physics_convex) {
        const block = readLlsdBinary(inflateMeshBlock(asset, header, 'physics_convex', nodeInflate)).value;
        const unit = decodeConvexBlock(block).boundingVerts;
        if (unit && unit.length >= 12) {
          // Back to the world frame: the inverse of the uploader's normalisation.
          return denormalizePoints(unit, computeUploadNormalization(object.lods.high));
        }
      }
    } catch {
      // Fall through: compute the hull as the report did.
    }
  }
  if (object.hull) return object.hull;
  const lod = source === 'physics' ? object.physicsMesh : object.lods[source as LodName];
  return convexHull(lodPositions(lod ?? object.lods.high)).points;
}

/**
 * The preview data for one file's report. `model` is what the report was made from; objects the
 * report left out (blocked by geometry errors) are skipped the same way. `assets` (the report's
 * `keepAssets` output, by object name) saves computing the hulls again.
 */
export function makePreviewPayload(
  model: SlModel,
  report: CostReport,
  lodFactor: number,
  assets?: Map<string, Uint8Array>,
): { data: PreviewDataOut; geometry: Uint8Array } {
  const file: FileReport = report.files[0];
  // Assets are kept by name: only a name used once identifies its asset.
  const seen = new Map<string, number>();
  for (const o of file.objects) seen.set(o.name, (seen.get(o.name) ?? 0) + 1);
  const assetOf = (name: string) => (seen.get(name) === 1 ? assets?.get(name) : undefined);
  const parts = prepareForUpload(model);
  const w = new BlobWriter();

  // 1. The linkset's box over every part, as the report computes it.
  let linksetBox = emptyBox();
  for (const p of parts) linksetBox = unionBox(linksetBox, worldBox(p.object));

  // 2. Match parts to report objects in order (the report skips blocked objects).
  const objects: PreviewObjectOut[] = [];
  let k = 0;
  for (const ro of file.objects) {
    while (k < parts.length && !(parts[k].object.name === ro.name && parts[k].submodelId === ro.submodelId)) k++;
    if (k >= parts.length) throw new Error(`preview: report object ${ro.name} has no geometry`);
    // Geometry is drawn in the world frame (the prim's rotation applied); `box` has the prim's
    // scale around its world position, which is what the page re-prices with.
    const prim = parts[k++].object;
    const object = bakePlacement(prim);
    const size = primScale(prim), at = primPosition(prim);
    const lods: PreviewObjectOut['lods'] = {};
    for (const name of ['high', 'medium', 'low', 'lowest'] as const) {
      const lod = object.lods[name];
      if (lod && ro.lods[name].present) lods[name] = writeLod(w, lod);
    }
    const out: PreviewObjectOut = {
      box: plainBox(objectBox(object)),
      scale: size,
      position: at,
      lods,
      hull: w.add(Float32Array.from(placePositions(prim.placement, pricedHull(prim, ro.physics.convexHull.source, assetOf(ro.name)))), 'f32'),
    };
    if (object.decomposition && object.decomposition.length > 0) out.decomposition = object.decomposition.map((h) => w.add(Float32Array.from(h), 'f32'));
    if (object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0) {
      const tri = lodTriangles(object.physicsMesh);
      out.physicsMesh = { positions: w.add(tri.positions, 'f32'), indices: w.add(tri.indices, 'u32') };
    }
    objects.push(out);
  }

  const geometry = w.bytes();
  const data: PreviewDataOut = {
    format: PREVIEW_FORMAT,
    report,
    lodFactor,
    linksetBox: plainBox(linksetBox),
    objects,
    geometryBytes: geometry.length,
    createdAt: new Date().toISOString(),
  };
  return { data, geometry };
}

/** zlib (RFC 1950) deflate and base64: what the page's DecompressionStream('deflate') reads. */
export function encodeGeometry(geometry: Uint8Array): string {
  return Buffer.from(deflateSync(geometry, { level: 6 })).toString('base64');
}
