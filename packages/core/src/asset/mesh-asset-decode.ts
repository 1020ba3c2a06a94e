/**
 * The Second Life mesh asset decoder: reads back what mesh-asset.ts (and the viewer) writes.
 *
 * Follows the viewer's readers: LLMeshRepoThread::headerReceived and LLMeshHeader::fromLLSD
 * (indra/newview/llmeshrepository.cpp) for the header, LLUZipHelper::unzip_llsd
 * (indra/llcommon/llsdserialize.cpp) for each block, LLVolume::unpackVolumeFacesInternal
 * (indra/llmath/llvolume.cpp) for LOD blocks and LLModel::Decomposition::fromLLSD
 * (indra/llprimitive/llmodel.cpp) for physics_convex. Dequantisation is done in float32 as there:
 * v / 65535 * range + min.
 *
 * Guarantees: hostile input never gets past a check it should fail. A header that does not parse,
 * a version above MAX_MESH_VERSION, a block outside the file, an inflate failure, a block of the
 * wrong shape or type, a buffer length that does not match its vertex count, or a triangle index
 * beyond the vertex count all throw SlmeshError('ASSET_INVALID', one line naming the block).
 * Things the viewer tolerates (a header longer than MESH_HEADER_MAX_BYTES, an incomplete last
 * triangle, which it drops) are reported in `notes` instead.
 *
 * The inflate function is injected; it is the caller's to bound (zip bombs) if the input is
 * untrusted.
 */

import { MAX_MESH_VERSION, MESH_BLOCK_ORDER, MESH_HEADER_MAX_BYTES, QUANT_MAX } from '../constants.js';
import type { MeshBlockName } from '../constants.js';
import { SlmeshError, isSlmeshError } from '../errors.js';
import { LlsdInteger, isLlsdMap, readLlsdBinary } from './llsd-binary.js';
import type { LlsdMap, LlsdValue } from './llsd-binary.js';
import type { MeshBlockRange } from './mesh-asset.js';
import type { Vec3 } from '../geometry/object-geometry.js';
import type { InflateFn, LodName } from '../types.js';

/** One face of a decoded LOD or physics mesh block. Geometry is in the asset's unit frame. */
export interface DecodedFace {
  /** True for a `{NoGeometry}` placeholder face (fewer than 3 vertices when written). */
  noGeometry: boolean;
  /** xyz per vertex, dequantised against positionDomain. */
  positions?: Float32Array;
  /** xyz per vertex, dequantised from [0, 65535] to [-1, 1] (not renormalised). */
  normals?: Float32Array;
  /** uv per vertex, dequantised against texCoordDomain. */
  uvs?: Float32Array;
  /** Three vertex indices per triangle. */
  indices?: Uint32Array;
  positionDomain?: { min: Vec3; max: Vec3 };
  texCoordDomain?: { min: [number, number]; max: [number, number] };
  /** NormalizedScale, [1, 1, 1] when absent (as the viewer). */
  normalizedScale?: Vec3;
}

/** A decoded physics_convex block (unit frame). */
export interface DecodedPhysicsConvex {
  /** Domain of every point; the viewer's default -0.5 / 0.5 when the block has none. */
  min: Vec3;
  max: Vec3;
  /** Points per decomposition hull (a stored 0 means 256). */
  hullList?: number[];
  /** The decomposition's hulls, flat xyz each. */
  hulls?: Float32Array[];
  /** The single hull, flat xyz. */
  boundingVerts?: Float32Array;
}

/** What the header says, before any block is read. */
export interface MeshAssetHeader {
  /** The header as parsed. */
  header: LlsdValue;
  /** Bytes of the header (including a deprecated `<? LLSD/Binary ?>` line if any). */
  headerLength: number;
  /** `version` from the header, 0 when absent (writeModel writes none). */
  version: number;
  /** The blocks present, offset from the end of the header, size compressed. */
  blocks: Partial<Record<MeshBlockName, MeshBlockRange>>;
  submodelId?: number;
  /** Things the viewer tolerates but that are worth knowing. */
  notes: string[];
}

export interface DecodedMeshAsset extends MeshAssetHeader {
  /** Each present block's LLSD, after inflating. */
  raw: Partial<Record<MeshBlockName, LlsdValue>>;
  /** Each present block's inflated (binary LLSD) length. */
  inflatedSizes: Partial<Record<MeshBlockName, number>>;
  /** The LOD blocks present, faces in order. */
  lods: Partial<Record<LodName, DecodedFace[]>>;
  physicsMesh?: DecodedFace[];
  physicsConvex?: DecodedPhysicsConvex;
}

export interface MeshAssetDecodeOptions {
  /** zlib (RFC 1950) decompression, injected. */
  inflate: InflateFn;
}

const LOD_OF_BLOCK: Partial<Record<MeshBlockName, LodName>> = {
  lowest_lod: 'lowest',
  low_lod: 'low',
  medium_lod: 'medium',
  high_lod: 'high',
};

/** The header LLSDSerialize::toBinary once wrote and strip_deprecated_header still skips. */
const DEPRECATED_HEADER = '<? LLSD/Binary ?>';

const f = Math.fround;

function invalid(message: string, cause?: unknown): never {
  throw new SlmeshError('ASSET_INVALID', `mesh asset: ${message}`, cause === undefined ? undefined : { cause });
}

/** Bytes to skip for a leading `<? LLSD/Binary ?>` (and its newline), else 0. */
function deprecatedHeaderLength(bytes: Uint8Array, offset: number): number {
  const n = DEPRECATED_HEADER.length;
  if (bytes.length - offset <= n) return 0;
  for (let i = 0; i < n; i++) {
    if (bytes[offset + i] !== DEPRECATED_HEADER.charCodeAt(i)) return 0;
  }
  return bytes[offset + n] === 0x0a ? n + 1 : n;
}

// -------------------------------------------------------------------------------------------
// LLSD shape helpers
// -------------------------------------------------------------------------------------------

function asNumber(v: LlsdValue, what: string): number {
  if (typeof v === 'number') return v;
  if (v instanceof LlsdInteger) return v.value;
  return invalid(`${what} is not a number`);
}

function asInteger(v: LlsdValue, what: string): number {
  const n = asNumber(v, what);
  if (!Number.isInteger(n)) invalid(`${what} is not an integer`);
  return n;
}

function asVector<N extends 2 | 3>(v: LlsdValue, n: N, what: string): N extends 3 ? Vec3 : [number, number] {
  if (!Array.isArray(v) || v.length !== n) invalid(`${what} is not an array of ${n} numbers`);
  return v.map((x, i) => asNumber(x, `${what}[${i}]`)) as N extends 3 ? Vec3 : [number, number];
}

function asMap(v: LlsdValue, what: string): LlsdMap {
  if (!isLlsdMap(v)) invalid(`${what} is not a map`);
  return v;
}

function asBinary(v: LlsdValue, what: string): Uint8Array {
  if (!(v instanceof Uint8Array)) invalid(`${what} is not binary`);
  return v;
}

function has(map: LlsdMap, key: string): boolean {
  return Object.hasOwn(map, key);
}

function u16(b: Uint8Array, i: number): number {
  return b[2 * i] | (b[2 * i + 1] << 8);
}

/** u16x3 little-endian points back to float32: v / 65535 * range + min. */
function dequantizePoints(b: Uint8Array, min: Vec3, max: Vec3): Float32Array {
  const range = [f(max[0] - min[0]), f(max[1] - min[1]), f(max[2] - min[2])];
  const out = new Float32Array(b.length / 2);
  for (let i = 0; i < out.length; i++) {
    const k = i % 3;
    out[i] = f(f(u16(b, i) / QUANT_MAX) * range[k]) + min[k];
  }
  return out;
}

// -------------------------------------------------------------------------------------------
// Header
// -------------------------------------------------------------------------------------------

/** Parses and checks the header alone (block ranges must lie inside `bytes`). */
export function readMeshHeader(bytes: Uint8Array): MeshAssetHeader {
  if (!(bytes instanceof Uint8Array)) invalid('input is not a Uint8Array');
  if (bytes.length === 0) invalid('empty input');
  const skip = deprecatedHeaderLength(bytes, 0);
  let header: LlsdValue;
  let headerLength: number;
  try {
    const read = readLlsdBinary(bytes, { offset: skip });
    header = read.value;
    headerLength = skip + read.bytesRead;
  } catch (e) {
    if (isSlmeshError(e)) invalid(`header: ${e.message}`, e);
    throw e;
  }
  const map = asMap(header, 'header');
  const notes: string[] = [];
  if (headerLength > MESH_HEADER_MAX_BYTES) {
    notes.push(`header is ${headerLength} bytes; the viewer reads only the first ${MESH_HEADER_MAX_BYTES}`);
  }
  const version = has(map, 'version') ? asInteger(map.version, 'header version') : 0;
  if (version > MAX_MESH_VERSION) invalid(`header version ${version} is above ${MAX_MESH_VERSION}`);
  if (has(map, '404')) invalid('header marks the asset as missing (404)');

  const blocks: Partial<Record<MeshBlockName, MeshBlockRange>> = {};
  const available = bytes.length - headerLength;
  for (const name of MESH_BLOCK_ORDER) {
    if (!has(map, name)) continue;
    const entry = asMap(map[name], `header ${name}`);
    if (!has(entry, 'offset') || !has(entry, 'size')) invalid(`header ${name} lacks offset or size`);
    const offset = asInteger(entry.offset, `header ${name} offset`);
    const size = asInteger(entry.size, `header ${name} size`);
    if (offset < 0 || size <= 0) invalid(`header ${name} has offset ${offset}, size ${size}`);
    if (offset + size > available) {
      invalid(`block ${name} (offset ${offset}, size ${size}) runs past the ${available} bytes after the header`);
    }
    blocks[name] = { offset, size };
  }
  const result: MeshAssetHeader = { header, headerLength, version, blocks, notes };
  if (has(map, 'submodel_id')) result.submodelId = asInteger(map.submodel_id, 'header submodel_id');
  return result;
}

/** The inflated bytes of one block named in the header (asserted present). */
export function inflateMeshBlock(
  bytes: Uint8Array,
  header: MeshAssetHeader,
  name: MeshBlockName,
  inflate: InflateFn,
): Uint8Array {
  const range = header.blocks[name];
  if (!range) return invalid(`no ${name} block`);
  const start = header.headerLength + range.offset;
  let out: unknown;
  try {
    out = inflate(bytes.subarray(start, start + range.size));
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return invalid(`block ${name} does not inflate: ${why}`, e);
  }
  if (!(out instanceof Uint8Array)) return invalid(`block ${name}: inflate returned no bytes`);
  return out;
}

/** Inflated (binary LLSD) size of one block: what the block costs before compression. */
export function inflatedBlockSize(bytes: Uint8Array, name: MeshBlockName, inflate: InflateFn): number {
  const header = readMeshHeader(bytes);
  return header.blocks[name] ? inflateMeshBlock(bytes, header, name, inflate).length : 0;
}

function parseBlock(data: Uint8Array, name: MeshBlockName): LlsdValue {
  try {
    return readLlsdBinary(data, { offset: deprecatedHeaderLength(data, 0) }).value;
  } catch (e) {
    if (isSlmeshError(e)) invalid(`block ${name}: ${e.message}`, e);
    throw e;
  }
}

// -------------------------------------------------------------------------------------------
// LOD blocks (LLVolume::unpackVolumeFacesInternal)
// -------------------------------------------------------------------------------------------

function decodeFace(v: LlsdValue, what: string, notes: string[]): DecodedFace {
  const face = asMap(v, what);
  if (has(face, 'NoGeometry')) return { noGeometry: true };

  if (!has(face, 'Position')) invalid(`${what} has no Position`);
  const pos = asBinary(face.Position, `${what} Position`);
  if (pos.length % 6 !== 0) invalid(`${what} Position is ${pos.length} bytes, not whole u16x3 vertices`);
  const count = pos.length / 6;

  if (!has(face, 'PositionDomain')) invalid(`${what} has no PositionDomain`);
  const domain = asMap(face.PositionDomain, `${what} PositionDomain`);
  const min = asVector(domain.Min, 3, `${what} PositionDomain Min`);
  const max = asVector(domain.Max, 3, `${what} PositionDomain Max`);
  const normalizedScale: Vec3 = has(face, 'NormalizedScale')
    ? asVector(face.NormalizedScale, 3, `${what} NormalizedScale`)
    : [1, 1, 1];

  if (!has(face, 'TriangleList')) invalid(`${what} has no TriangleList`);
  const tri = asBinary(face.TriangleList, `${what} TriangleList`);
  if (tri.length % 2 !== 0) invalid(`${what} TriangleList is ${tri.length} bytes, not whole u16 indices`);
  let indexCount = tri.length / 2;
  if (indexCount % 3 !== 0) {
    notes.push(`${what}: incomplete last triangle dropped (${indexCount} indices)`);
    indexCount -= indexCount % 3;
  }
  const indices = new Uint32Array(indexCount);
  for (let i = 0; i < indexCount; i++) {
    const index = u16(tri, i);
    if (index >= count) invalid(`${what} index ${index} out of range (${count} vertices)`);
    indices[i] = index;
  }

  const out: DecodedFace = {
    noGeometry: false,
    positions: dequantizePoints(pos, min, max),
    indices,
    positionDomain: { min, max },
    normalizedScale,
  };

  if (has(face, 'Normal')) {
    const nb = asBinary(face.Normal, `${what} Normal`);
    if (nb.length !== count * 6) invalid(`${what} Normal is ${nb.length} bytes for ${count} vertices`);
    const normals = new Float32Array(count * 3);
    for (let i = 0; i < normals.length; i++) normals[i] = f(f(u16(nb, i) / QUANT_MAX) * 2) - 1;
    out.normals = normals;
  }

  if (has(face, 'TexCoord0')) {
    const tb = asBinary(face.TexCoord0, `${what} TexCoord0`);
    if (tb.length !== count * 4) invalid(`${what} TexCoord0 is ${tb.length} bytes for ${count} vertices`);
    if (!has(face, 'TexCoord0Domain')) invalid(`${what} has TexCoord0 but no TexCoord0Domain`);
    const td = asMap(face.TexCoord0Domain, `${what} TexCoord0Domain`);
    const tmin = asVector(td.Min, 2, `${what} TexCoord0Domain Min`);
    const tmax = asVector(td.Max, 2, `${what} TexCoord0Domain Max`);
    const trange = [f(tmax[0] - tmin[0]), f(tmax[1] - tmin[1])];
    const uvs = new Float32Array(count * 2);
    for (let i = 0; i < uvs.length; i++) uvs[i] = f(f(u16(tb, i) / QUANT_MAX) * trange[i & 1]) + tmin[i & 1];
    out.uvs = uvs;
    out.texCoordDomain = { min: tmin, max: tmax };
  }
  return out;
}

/** A LOD or physics_mesh block: one face per array entry (at least one, as the viewer requires). */
export function decodeLodBlock(block: LlsdValue, name: string, notes: string[] = []): DecodedFace[] {
  if (!Array.isArray(block)) return invalid(`block ${name} is not an array of faces`);
  if (block.length === 0) return invalid(`block ${name} has no faces`);
  return block.map((face, i) => decodeFace(face, `block ${name} face ${i}`, notes));
}

// -------------------------------------------------------------------------------------------
// physics_convex (LLModel::Decomposition::fromLLSD)
// -------------------------------------------------------------------------------------------

/** A physics_convex block; LLSD undefined (the empty decomposition of a submodel) gives no hulls. */
export function decodeConvexBlock(block: LlsdValue): DecodedPhysicsConvex {
  const out: DecodedPhysicsConvex = { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] };
  if (block === undefined) return out;
  const map = asMap(block, 'block physics_convex');
  if (has(map, 'Min')) {
    out.min = asVector(map.Min, 3, 'physics_convex Min');
    out.max = asVector(map.Max, 3, 'physics_convex Max');
  }
  if (has(map, 'HullList')) {
    const list = asBinary(map.HullList, 'physics_convex HullList');
    if (!has(map, 'Positions')) invalid('physics_convex has HullList but no Positions');
    const positions = asBinary(map.Positions, 'physics_convex Positions');
    const hullList = Array.from(list, (c) => (c === 0 ? 256 : c));
    const total = hullList.reduce((s, c) => s + c, 0);
    if (positions.length !== total * 6) {
      invalid(
        `physics_convex Positions is ${positions.length} bytes; HullList says ${total} points (${total * 6} bytes)`,
      );
    }
    const hulls: Float32Array[] = [];
    let at = 0;
    for (const c of hullList) {
      hulls.push(dequantizePoints(positions.subarray(at, at + c * 6), out.min, out.max));
      at += c * 6;
    }
    out.hullList = hullList;
    out.hulls = hulls;
  } else if (has(map, 'Positions')) {
    invalid('physics_convex has Positions but no HullList');
  }
  if (has(map, 'BoundingVerts')) {
    const b = asBinary(map.BoundingVerts, 'physics_convex BoundingVerts');
    if (b.length % 6 !== 0) invalid(`physics_convex BoundingVerts is ${b.length} bytes, not whole u16x3 points`);
    out.boundingVerts = dequantizePoints(b, out.min, out.max);
  }
  return out;
}

// -------------------------------------------------------------------------------------------
// The asset
// -------------------------------------------------------------------------------------------

/** Decodes a whole mesh asset: header, every block's LLSD, typed LODs and physics. */
export function decodeMeshAsset(bytes: Uint8Array, options: MeshAssetDecodeOptions): DecodedMeshAsset {
  const header = readMeshHeader(bytes);
  const result: DecodedMeshAsset = { ...header, raw: {}, inflatedSizes: {}, lods: {} };
  for (const name of MESH_BLOCK_ORDER) {
    if (!header.blocks[name]) continue;
    const data = inflateMeshBlock(bytes, header, name, options.inflate);
    result.inflatedSizes[name] = data.length;
    const llsd = parseBlock(data, name);
    result.raw[name] = llsd;
    const lod = LOD_OF_BLOCK[name];
    if (lod) result.lods[lod] = decodeLodBlock(llsd, name, result.notes);
    else if (name === 'physics_mesh') result.physicsMesh = decodeLodBlock(llsd, name, result.notes);
    else if (name === 'physics_convex') result.physicsConvex = decodeConvexBlock(llsd);
  }
  return result;
}
