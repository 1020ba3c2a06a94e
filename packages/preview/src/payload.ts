/**
 * The data `slmesh preview` embeds in its page, and its decoder.
 *
 * Two elements carry it: `<script type="application/json" id="slmesh-data">` holds PreviewData
 * (the cost report exactly as `slmesh cost --json` prints it for the model at its own size, plus
 * what the page needs to draw and re-price it), and `<script type="application/octet-stream"
 * id="slmesh-geometry">` holds one binary blob, zlib-deflated (RFC 1950) and base64-encoded, that
 * the `BlobRef`s of PreviewData point into. This module owns the format: its types and version,
 * the geometry encoder (BlobWriter, encodeLod, encodeGeometry) and the decoder. It is exported as
 * `@slmesh/preview/payload`; `slmesh preview` (packages/cli/src/preview/payload.ts) uses it to
 * write the page's data. The format is documented in docs/preview.md.
 *
 * Geometry is in Second Life's frame (metres, Z up, every node transform applied), one entry
 * per object of the report (after the uploader's splits), in the report's order. LOD positions
 * are quantised to u16 over each LOD's box (display only); everything a cost depends on (the
 * physics mesh, the hull points) is exact float32, so the page prices exactly as the CLI does.
 * The page draws whatever LODs and physics shapes an object carries: a generated LOD or a convex
 * decomposition needs no change here.
 */

import {
  lodBox,
  type Box3,
  type DeflateFn,
  type Diagnostic,
  type Face,
  type LinksetCost,
  type LodCost,
  type LodName,
  type MeshLod,
  type ObjectCost,
} from '@slmesh/core';

export const PREVIEW_FORMAT = 'slmesh-preview/1';

/** A typed array inside the geometry blob: `length` elements of `type` from byte `offset` (4-aligned). */
export interface BlobRef {
  offset: number;
  length: number;
  type: 'f32' | 'u32' | 'u16' | 'i8';
}

export interface PreviewFace {
  /** Material name (faces of every LOD line up with high's by index). */
  material: string;
  vertices: number;
  triangles: number;
  /** u16 x3 per vertex, over the LOD's `box`: p = min + q / 65535 * (max - min). */
  positions: BlobRef;
  /** i8 x3 per vertex (n * 127), absent when the source has no normals. */
  normals?: BlobRef;
  /** Three vertex indices per triangle (u16, or u32 when a face has more than 65536 vertices). */
  indices: BlobRef;
}

export interface PreviewLod {
  /** Quantisation box of the LOD's positions (its own bounding box), metres. */
  box: Box3;
  faces: PreviewFace[];
}

export interface PreviewObject {
  /** The object's box at its own size (its high LOD's): the prim's scale and position come from it. */
  box: Box3;
  /** The LODs the asset has its own block for. A missing one shows the next higher, as the viewer does. */
  lods: Partial<Record<LodName, PreviewLod>>;
  /** Single convex hull the object is priced with (the asset's BoundingVerts), f32 xyz. */
  hull: BlobRef;
  /** Convex decomposition, f32 xyz per hull, when the object has one. */
  decomposition?: BlobRef[];
  /** Triangle physics mesh (`_PHYS`), exact: f32 xyz positions and u32 indices. */
  physicsMesh?: { positions: BlobRef; indices: BlobRef };
}

/**
 * Report shapes the page reads: core's own types (cost-report.ts), as JSON holds them (a LOD that
 * never shows has a switch distance of null in JSON, Infinity in core).
 */
export type ReportLod = LodCost;

export interface ReportObject extends Omit<ObjectCost, 'switchDistances'> {
  switchDistances: { lodFactor: number; medium: number | null; low: number | null; lowest: number | null };
}

/** The linkset and diagnostics are core's own types: the JSON holds them as they are. */
export type ReportLinkset = LinksetCost;
export type ReportDiagnostic = Diagnostic;

export interface ReportFile {
  path: string;
  siblings: string[];
  objects: ReportObject[];
  linkset: ReportLinkset;
  diagnostics: ReportDiagnostic[];
}

export interface CostReportJson {
  schemaVersion: number;
  generator: { name: string; version: string };
  settings: { lodFactor: number; animesh: boolean; linkabilityRule: 'current' | 'legacy'; size?: unknown };
  files: ReportFile[];
}

export interface PreviewData {
  format: typeof PREVIEW_FORMAT;
  /** `slmesh cost --json` for this one file at its own size. */
  report: CostReportJson;
  /** RenderVolumeLODFactor the page starts with. */
  lodFactor: number;
  /** Box of the whole linkset at its own size: sizes are asked about its longest side, scaled about its centre. */
  linksetBox: Box3;
  /** One per report object, same order. */
  objects: PreviewObject[];
  /** Byte length of the inflated geometry blob. */
  geometryBytes: number;
  /** Set when the page is served by `slmesh preview --serve`: the page reloads when the version changes. */
  live?: { version: number; events: string };
  /** When the page was made (ISO 8601). */
  createdAt: string;
}

/** A decoded face, ready to draw: world positions (metres, Z up), normals or undefined, indices. */
export interface DecodedFace {
  material: string;
  positions: Float32Array;
  normals?: Float32Array;
  indices: Uint16Array | Uint32Array;
}

export interface DecodedObject {
  lods: Partial<Record<LodName, DecodedFace[]>>;
  hull: Float32Array;
  decomposition?: Float32Array[];
  physicsMesh?: { positions: Float32Array; indices: Uint32Array };
}

export interface DecodedPreview {
  data: PreviewData;
  objects: DecodedObject[];
}

/** Base64 to bytes (atob, in chunks: fine for tens of megabytes). */
export function base64ToBytes(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  const binary = atob(clean);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** zlib (RFC 1950) inflate with the platform's DecompressionStream (browsers and Node 18+). */
export async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function view(buffer: ArrayBuffer, ref: BlobRef): Float32Array | Uint32Array | Uint16Array | Int8Array {
  const size = ref.type === 'i8' ? 1 : ref.type === 'u16' ? 2 : 4;
  if (!(ref.offset >= 0) || ref.offset % size !== 0 || ref.offset + ref.length * size > buffer.byteLength) {
    throw new Error(`geometry reference out of range (offset ${ref.offset}, ${ref.length} x ${ref.type})`);
  }
  switch (ref.type) {
    case 'f32':
      return new Float32Array(buffer, ref.offset, ref.length);
    case 'u32':
      return new Uint32Array(buffer, ref.offset, ref.length);
    case 'u16':
      return new Uint16Array(buffer, ref.offset, ref.length);
    case 'i8':
      return new Int8Array(buffer, ref.offset, ref.length);
  }
}

/** Positions back from u16 over `box` to metres. */
export function dequantise(q: Uint16Array, box: Box3): Float32Array {
  const out = new Float32Array(q.length);
  for (let axis = 0; axis < 3; axis++) {
    const min = box.min[axis];
    const step = (box.max[axis] - min) / 65535;
    for (let i = axis; i < q.length; i += 3) out[i] = min + q[i] * step;
  }
  return out;
}

function decodeNormals(q: Int8Array): Float32Array {
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) out[i] = q[i] / 127;
  return out;
}

/** Decodes the geometry blob against PreviewData. */
export function decodeGeometry(data: PreviewData, blob: Uint8Array): DecodedObject[] {
  if (blob.byteLength !== data.geometryBytes)
    throw new Error(`geometry is ${blob.byteLength} bytes, expected ${data.geometryBytes}`);
  const buffer =
    blob.byteOffset === 0 && blob.byteLength === blob.buffer.byteLength
      ? (blob.buffer as ArrayBuffer)
      : (blob.slice().buffer as ArrayBuffer);
  return data.objects.map((o) => {
    const lods: Partial<Record<LodName, DecodedFace[]>> = {};
    for (const [name, lod] of Object.entries(o.lods) as [LodName, PreviewLod][]) {
      lods[name] = lod.faces.map((f) => ({
        material: f.material,
        positions: dequantise(view(buffer, f.positions) as Uint16Array, lod.box),
        ...(f.normals ? { normals: decodeNormals(view(buffer, f.normals) as Int8Array) } : {}),
        indices: view(buffer, f.indices) as Uint16Array | Uint32Array,
      }));
    }
    const out: DecodedObject = { lods, hull: view(buffer, o.hull) as Float32Array };
    if (o.decomposition) out.decomposition = o.decomposition.map((h) => view(buffer, h) as Float32Array);
    if (o.physicsMesh)
      out.physicsMesh = {
        positions: view(buffer, o.physicsMesh.positions) as Float32Array,
        indices: view(buffer, o.physicsMesh.indices) as Uint32Array,
      };
    return out;
  });
}

/** Parses the JSON and decodes the geometry (base64, inflate, typed arrays). */
export async function decodePreview(json: string, geometryBase64: string): Promise<DecodedPreview> {
  const data = JSON.parse(json) as PreviewData;
  if (data.format !== PREVIEW_FORMAT) throw new Error(`unknown preview format ${String(data.format)}`);
  const blob = await inflate(base64ToBytes(geometryBase64));
  return { data, objects: decodeGeometry(data, blob) };
}

// ─── Encoder ─────────────────────────────────────────────────────────────────────────────────

/** Appends typed arrays to one buffer, each 4-byte aligned, and hands out references. */
export class BlobWriter {
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

/** u16 per coordinate over `box` (rounded; a flat axis quantises to 0). The inverse of dequantise. */
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

/** A box JSON can carry: an empty LOD has an empty (infinite) box, written as a zero box. */
export function plainBox(box: Box3): Box3 {
  const finite = box.min.every(Number.isFinite) && box.max.every(Number.isFinite);
  return finite ? { min: [...box.min], max: [...box.max] } : { min: [0, 0, 0], max: [0, 0, 0] };
}

/** One face: u16 positions over the LOD's box, u16 (or u32) indices, i8 normals when it has them. */
export function encodeFace(w: BlobWriter, face: Face, box: Box3): PreviewFace {
  const vertices = Math.floor(face.positions.length / 3);
  const triangles = Math.floor(face.indices.length / 3);
  const indices = face.indices.subarray(0, triangles * 3);
  const out: PreviewFace = {
    material: face.material,
    vertices,
    triangles,
    positions: w.add(quantise(face.positions, box), 'u16'),
    indices: vertices <= 65536 ? w.add(Uint16Array.from(indices), 'u16') : w.add(Uint32Array.from(indices), 'u32'),
  };
  if (face.normals && face.normals.length === face.positions.length)
    out.normals = w.add(quantiseNormals(face.normals), 'i8');
  return out;
}

/** One LOD, quantised over its own box. */
export function encodeLod(w: BlobWriter, lod: MeshLod): PreviewLod {
  const box = plainBox(lodBox(lod));
  return { box, faces: lod.faces.map((f) => encodeFace(w, f, box)) };
}

/** Bytes to base64 (btoa, in chunks). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The geometry element's text: zlib (RFC 1950, `deflate` injected) then base64, what decodePreview reads. */
export function encodeGeometry(geometry: Uint8Array, deflate: DeflateFn): string {
  return bytesToBase64(deflate(geometry, 6));
}
