/**
 * The Second Life mesh asset encoder: the bytes the viewer uploads for one mesh object.
 *
 * Follows the viewer (indra/llprimitive/llmodel.cpp): LLModel::normalizeVolumeFaces for the
 * unit-box normalisation, LLModel::writeModel for the LOD blocks, LLModel::Decomposition::asLLSD
 * for the physics_convex block, LLModel::writeModelToStream for the header and block layout, and
 * zip_llsd (indra/llcommon/llsdserialize.cpp) for the zlib wrapping of each block.
 *
 * Guarantees:
 * - every number the viewer computes in F32 is computed here in float32 (Math.fround at each
 *   step), so quantised positions, texture coordinates and domains match the viewer's bit for bit
 *   (normals only to within the viewer's approximate _mm_rsqrt_ps normalisation, see below);
 * - the header is binary LLSD as LLSDSerialize::toBinary writes it, with each block's offset
 *   (from the end of the header) and compressed size, blocks in the order skin, physics_convex,
 *   lowest_lod, low_lod, medium_lod, high_lod, physics_mesh;
 * - all LODs, the physics mesh, the hull and the decomposition share the high LOD's normalisation
 *   frame, returned as `normalization` (world = unit * size + center).
 *
 * - with `deflate` = zlibNgDeflate (zlib-ng 2.2.2 level 9, what the viewer links) each block is
 *   the viewer's byte for byte, so are the sizes; another zlib (node:zlib) gives other sizes.
 *
 * Not bit-exact by nature: normals go through the viewer's LLVector4a::normalize3, an SSE
 * reciprocal-square-root estimate refined once, which is replaced here by the exact float32
 * reciprocal square root, so a normal component can differ by one quantisation step.
 */

import { importerRemap } from './importer-remap.js';
import {
  F_APPROXIMATELY_ZERO,
  MAX_HULL_VERTICES,
  MAX_HULLS,
  MESH_BLOCK_ORDER,
  MESH_ZLIB_LEVEL,
  MIN_FACE_VERTICES,
  QUANT_MAX,
} from '../constants.js';
import type { MeshBlockName } from '../constants.js';
import { SlmeshError } from '../errors.js';
import { llsdInt, writeLlsdBinary } from './llsd-binary.js';
import { deflatedLength } from './deflate-cache.js';
import type { LlsdMap, LlsdValue } from './llsd-binary.js';
import { lodBox, type Vec3 } from '../geometry/object-geometry.js';
import type { DeflateFn, Face, Hull, LodName, MeshLod, SlObject } from '../types.js';

export interface MeshAssetInput {
  /** The LODs, world frame, metres. high is required; absent lower LODs are not written. */
  lods: SlObject['lods'];
  /** Triangle-mesh physics shape; not written when a decomposition is given (as the viewer). */
  physicsMesh?: MeshLod;
  /** Single convex hull (BoundingVerts), at most 256 points. */
  hull?: Hull;
  /** Convex decomposition (HullList + Positions), at most 256 hulls of at most 256 points. */
  decomposition?: Hull[];
  /**
   * Submodel id of an object split off a model with more than 8 faces. As in writeModel it is
   * written to the header only when there is neither hull nor decomposition; then an empty
   * physics_convex block is written and the physics mesh dropped.
   */
  submodelId?: number;
  /**
   * The node scale folded into the positions (SlObject.placement.scale, current importer): the
   * importer normalises mesh-local vertices, so NormalizedScale is the box size divided by it.
   */
  frameScale?: Vec3;
}

export interface MeshAssetOptions {
  /** zlib (RFC 1950) compression, injected. */
  deflate: DeflateFn;
  /** zlib level. Default MESH_ZLIB_LEVEL (9, Z_BEST_COMPRESSION). */
  level?: number;
}

export interface MeshBlockRange {
  /** Offset from the end of the header. */
  offset: number;
  /** Compressed length. */
  size: number;
}

/** An encoded mesh asset's layout: what pricing reads (measureMeshAsset gives it without the bytes). */
export interface MeshAssetLayout {
  /** Length of the whole asset (header + blocks), bytes. */
  length: number;
  /** Bytes of the binary-LLSD header. */
  headerLength: number;
  /** Present blocks and where they are; size = compressed length. */
  blocks: Partial<Record<MeshBlockName, MeshBlockRange>>;
  /** World -> unit box: unit = (world - center) / size; `size` is the NormalizedScale written. */
  normalization: { center: Vec3; size: Vec3 };
}

export interface EncodedMeshAsset extends MeshAssetLayout {
  /** Header + blocks: the .llmesh file. */
  bytes: Uint8Array;
}

/** The normalisation of LLModel::normalizeVolumeFaces, every value a float32. */
export interface UploadNormalization {
  /** -(min + max) / 2 of the high LOD's box: added to every point. */
  translation: Vec3;
  /** 1 / size per axis (size < F_APPROXIMATELY_ZERO treated as 1): points are multiplied by it. */
  scale: Vec3;
  /** 1 / scale per axis: normals are multiplied by it before renormalising; written as NormalizedScale. */
  inverseScale: Vec3;
  /** Centre of the high LOD's box (= -translation). */
  center: Vec3;
}

/** LOD names and their block names, in header order (lowest first). */
const LOD_BLOCKS: readonly [LodName, MeshBlockName][] = [
  ['lowest', 'lowest_lod'],
  ['low', 'low_lod'],
  ['medium', 'medium_lod'],
  ['high', 'high_lod'],
];

const f = Math.fround;

// -------------------------------------------------------------------------------------------
// 1. Normalisation (LLModel::normalizeVolumeFaces)
// -------------------------------------------------------------------------------------------

function checkFinite(points: Float32Array, what: string): void {
  for (let i = 0; i < points.length; i++) {
    if (!Number.isFinite(points[i])) {
      throw new SlmeshError('INPUT_INVALID', `mesh asset: ${what} has a non-finite coordinate at index ${i}`);
    }
  }
}

/** The normalisation the viewer derives from the high LOD's bounding box over all its faces. */
export function computeUploadNormalization(high: MeshLod): UploadNormalization {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const [fi, face] of high.faces.entries()) {
    const p = face.positions;
    checkFinite(p, `high LOD face ${fi}`);
    for (let i = 0; i + 2 < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = p[i + k];
        if (v < min[k]) min[k] = v;
        if (v > max[k]) max[k] = v;
      }
    }
  }
  const translation: Vec3 = [0, 0, 0];
  const scale: Vec3 = [1, 1, 1];
  const inverseScale: Vec3 = [1, 1, 1];
  for (let k = 0; k < 3; k++) {
    if (min[k] > max[k]) min[k] = max[k] = 0; // no vertices at all
    translation[k] = f(f(min[k] + max[k]) * -0.5);
    let size = f(max[k] - min[k]);
    if (Math.abs(size) < F_APPROXIMATELY_ZERO) size = 1;
    scale[k] = f(1 / size);
    inverseScale[k] = f(1 / scale[k]);
  }
  const center: Vec3 = [0 - translation[0], 0 - translation[1], 0 - translation[2]];
  return { translation, scale, inverseScale, center };
}

/** Points (flat xyz) into the unit frame: p' = (p + translation) * scale, in float32. */
export function normalizePoints(points: Float32Array, n: UploadNormalization): Float32Array {
  const out = new Float32Array(points.length);
  const [tx, ty, tz] = n.translation;
  const [sx, sy, sz] = n.scale;
  for (let i = 0; i + 2 < points.length; i += 3) {
    out[i] = f(points[i] + tx) * sx;
    out[i + 1] = f(points[i + 1] + ty) * sy;
    out[i + 2] = f(points[i + 2] + tz) * sz;
  }
  return out;
}

/**
 * Points (flat xyz) back from the unit frame to the object's frame: p = p' * inverseScale - translation,
 * in float32. The inverse of normalizePoints up to float32 rounding (e.g. a decoded BoundingVerts
 * or hull, after dequantisation, back in metres).
 */
export function denormalizePoints(points: Float32Array, n: UploadNormalization): Float32Array {
  const out = new Float32Array(points.length);
  const [tx, ty, tz] = n.translation;
  const [ix, iy, iz] = n.inverseScale;
  for (let i = 0; i + 2 < points.length; i += 3) {
    out[i] = f(points[i] * ix) - tx;
    out[i + 1] = f(points[i + 1] * iy) - ty;
    out[i + 2] = f(points[i + 2] * iz) - tz;
  }
  return out;
}

/** Normals (flat xyz) into the unit frame: n' = normalize(n * inverseScale); (near-)zero normals kept. */
export function normalizeNormals(normals: Float32Array, n: UploadNormalization): Float32Array {
  const out = new Float32Array(normals.length);
  for (let i = 0; i + 2 < normals.length; i += 3) normalizeNormalInto(normals, i, n.inverseScale, out, i);
  return out;
}

/** One normal of `normals` at `i` as normalizeNormals makes it, into `out` at `o` (no array made: vertex-precision.ts calls it per normal). */
export function normalizeNormalInto(
  normals: ArrayLike<number>,
  i: number,
  inverseScale: Vec3,
  out: Float32Array,
  o: number,
): void {
  const x0 = normals[i];
  const y0 = normals[i + 1];
  const z0 = normals[i + 2];
  // LLVector4a::equals3(zero): every component within F_APPROXIMATELY_ZERO of 0.
  if (
    Math.abs(x0) < F_APPROXIMATELY_ZERO &&
    Math.abs(y0) < F_APPROXIMATELY_ZERO &&
    Math.abs(z0) < F_APPROXIMATELY_ZERO
  ) {
    out[o] = x0;
    out[o + 1] = y0;
    out[o + 2] = z0;
    return;
  }
  const x = f(x0 * inverseScale[0]);
  const y = f(y0 * inverseScale[1]);
  const z = f(z0 * inverseScale[2]);
  const lenSq = f(f(f(x * x) + f(y * y)) + f(z * z));
  const r = f(1 / f(Math.sqrt(lenSq)));
  out[o] = x * r;
  out[o + 1] = y * r;
  out[o + 2] = z * r;
}

function normalizeLod(lod: MeshLod, n: UploadNormalization, what: string): MeshLod {
  return {
    faces: lod.faces.map((face, i) => {
      checkFinite(face.positions, `${what} face ${i}`);
      return {
        ...face,
        positions: normalizePoints(face.positions, n),
        normals: face.normals ? normalizeNormals(face.normals, n) : undefined,
      };
    }),
  };
}

// -------------------------------------------------------------------------------------------
// 2. Quantisation
// -------------------------------------------------------------------------------------------

/**
 * C++ `(U16)x` of a float as x86 compilers emit it: truncate to int32 (cvttss2si; NaN and
 * out-of-range give 0x80000000), keep the low 16 bits.
 */
function toU16(x: number): number {
  if (!(x > -2147483649 && x < 2147483648)) return 0; // NaN, +-Infinity, beyond int32
  return Math.trunc(x) & 0xffff;
}

/** `(U16)(((v - min) / range) * 65535)` in float32. A zero range gives 0 (0/0 = NaN). */
export function quantizeU16(v: number, min: number, range: number): number {
  return toU16(f(f(f(v - min) / range) * QUANT_MAX));
}

/** `(U16)((n + 1) * 0.5 * 65535)` in float32. */
export function quantizeNormalU16(n: number): number {
  return toU16(f(f(f(n + 1) * 0.5) * QUANT_MAX));
}

function writeU16(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff;
  out[at + 1] = v >>> 8;
}

/** Flat points (xyz) as u16x3 little-endian against the box min/range. */
function quantizePoints(points: Float32Array, min: Vec3, range: Vec3): Uint8Array {
  const out = new Uint8Array((points.length / 3) * 6);
  for (let i = 0; i < points.length; i++) {
    const k = i % 3;
    writeU16(out, 2 * i, quantizeU16(points[i], min[k], range[k]));
  }
  return out;
}

/** `count` normals as u16x3 little-endian (quantizeNormalU16). */
function quantizeNormals(n: Float32Array, count: number): Uint8Array {
  const out = new Uint8Array(count * 6);
  for (let i = 0; i < count * 3; i++) writeU16(out, 2 * i, quantizeNormalU16(n[i]));
  return out;
}

/** `count` UVs as u16x2 little-endian against their box min/range. */
function quantizeUvs(uvs: Float32Array, count: number, min: number[], range: number[]): Uint8Array {
  const out = new Uint8Array(count * 4);
  for (let i = 0; i < count * 2; i++) writeU16(out, 2 * i, quantizeU16(uvs[i], min[i & 1], range[i & 1]));
  return out;
}

/** Indices as u16 little-endian. */
function indexBytes(indices: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(indices.length * 2);
  for (let i = 0; i < indices.length; i++) writeU16(out, 2 * i, indices[i]);
  return out;
}

function boundsOf(arrays: readonly Float32Array[], dims: 2 | 3): { min: number[]; max: number[] } | undefined {
  let min: number[] | undefined;
  let max: number[] | undefined;
  for (const a of arrays) {
    for (let i = 0; i + dims - 1 < a.length; i += dims) {
      if (!min || !max) {
        min = Array.from(a.subarray(i, i + dims));
        max = min.slice();
      }
      for (let k = 0; k < dims; k++) {
        const v = a[i + k];
        if (v < min[k]) min[k] = v;
        if (v > max[k]) max[k] = v;
      }
    }
  }
  return min && max ? { min, max } : undefined;
}

// -------------------------------------------------------------------------------------------
// 3. LOD blocks (LLModel::writeModel)
// -------------------------------------------------------------------------------------------

function checkFace(face: Face, what: string): number {
  const { positions, normals, uvs, indices } = face;
  if (positions.length % 3 !== 0) {
    throw new SlmeshError(
      'INPUT_INVALID',
      `mesh asset: ${what}: positions length ${positions.length} is not a multiple of 3`,
    );
  }
  const count = positions.length / 3;
  if (count > QUANT_MAX) {
    throw new SlmeshError(
      'INPUT_LIMIT',
      `mesh asset: ${what} has ${count} vertices; at most ${QUANT_MAX} per face (u16 indices; split the face first)`,
    );
  }
  if (normals && normals.length !== positions.length) {
    throw new SlmeshError('INPUT_INVALID', `mesh asset: ${what}: ${normals.length / 3} normals for ${count} vertices`);
  }
  if (uvs && uvs.length !== count * 2) {
    throw new SlmeshError(
      'INPUT_INVALID',
      `mesh asset: ${what}: ${uvs.length / 2} texture coordinates for ${count} vertices`,
    );
  }
  if (count >= 3) {
    if (indices.length % 3 !== 0) {
      throw new SlmeshError('INPUT_INVALID', `mesh asset: ${what}: ${indices.length} indices is not whole triangles`);
    }
    for (let i = 0; i < indices.length; i++) {
      if (indices[i] >= count) {
        throw new SlmeshError(
          'INPUT_INVALID',
          `mesh asset: ${what}: index ${indices[i]} out of range (${count} vertices)`,
        );
      }
    }
  }
  return count;
}

/**
 * One LOD block: an array with one map per face, from a LOD already in the unit frame, each face
 * first remapped as the viewer's importer does (`LLModel::remapVolumeFaces`).
 * `normalizedScale` is written as each face's NormalizedScale.
 */
export function encodeLodBlock(lod: MeshLod, normalizedScale: Vec3, what = 'LOD'): LlsdValue[] {
  lod.faces.forEach((face, i) => checkFace(face, `${what} face ${i}`));
  // The importer's remap (importer-remap.ts): vertices in first-use order, duplicates merged, unused dropped.
  const faces = lod.faces.map(importerRemap);
  // One position domain for the whole LOD, over every face's vertices.
  const bounds = boundsOf(
    faces.map((fc) => fc.positions),
    3,
  );
  const min = (bounds?.min ?? [0, 0, 0]) as Vec3;
  const max = (bounds?.max ?? [0, 0, 0]) as Vec3;
  const range: Vec3 = [f(max[0] - min[0]), f(max[1] - min[1]), f(max[2] - min[2])];

  return faces.map((face): LlsdValue => {
    const count = face.positions.length / 3;
    if (count < MIN_FACE_VERTICES) return { NoGeometry: true };
    const map: LlsdMap = {
      PositionDomain: { Min: [...min], Max: [...max] },
      NormalizedScale: [...normalizedScale],
      Position: quantizePoints(face.positions, min, range),
    };
    // (Each array is quantised by its own function: V8 optimises each loop once, not this closure per loop.)
    if (face.normals) map.Normal = quantizeNormals(face.normals, count);
    if (face.uvs) {
      const tb = boundsOf([face.uvs], 2);
      const tmin = tb?.min ?? [0, 0];
      const tmax = tb?.max ?? [0, 0];
      const trange = [f(tmax[0] - tmin[0]), f(tmax[1] - tmin[1])];
      map.TexCoord0Domain = { Min: tmin, Max: tmax };
      map.TexCoord0 = quantizeUvs(face.uvs, count, tmin, trange);
    }
    map.TriangleList = indexBytes(face.indices);
    return map;
  });
}

// -------------------------------------------------------------------------------------------
// 4. physics_convex block (LLModel::Decomposition::asLLSD)
// -------------------------------------------------------------------------------------------

function checkHull(points: Float32Array, what: string, allowEmpty: boolean): void {
  if (points.length % 3 !== 0) {
    throw new SlmeshError('INPUT_INVALID', `mesh asset: ${what}: length ${points.length} is not a multiple of 3`);
  }
  if (!allowEmpty && points.length === 0) {
    throw new SlmeshError('INPUT_INVALID', `mesh asset: ${what} has no points`);
  }
  if (points.length / 3 > MAX_HULL_VERTICES) {
    throw new SlmeshError(
      'INPUT_LIMIT',
      `mesh asset: ${what} has ${points.length / 3} points; at most ${MAX_HULL_VERTICES}`,
    );
  }
}

/**
 * The physics_convex block from a hull and decomposition already in the unit frame, or
 * undefined (LLSD undefined) when both are empty, as Decomposition::asLLSD.
 */
export function encodeConvexBlock(hull: Hull | undefined, decomposition: readonly Hull[] | undefined): LlsdValue {
  const hulls = decomposition ?? [];
  const base = hull ?? new Float32Array(0);
  if (hulls.length > MAX_HULLS) {
    throw new SlmeshError('INPUT_LIMIT', `mesh asset: decomposition has ${hulls.length} hulls; at most ${MAX_HULLS}`);
  }
  hulls.forEach((h, i) => checkHull(h, `decomposition hull ${i}`, false));
  checkHull(base, 'hull', true);
  if (hulls.length === 0 && base.length === 0) return undefined;

  // Min/Max over the decomposition's points, then the single hull's.
  const bounds = boundsOf([...hulls, base], 3);
  const min = (bounds?.min ?? [0, 0, 0]) as Vec3;
  const max = (bounds?.max ?? [0, 0, 0]) as Vec3;
  const range: Vec3 = [f(max[0] - min[0]), f(max[1] - min[1]), f(max[2] - min[2])];
  const out: LlsdMap = { Min: [...min], Max: [...max] };
  if (hulls.length > 0) {
    // One u8 vertex count per hull: 256 is written as 0 (U8 truncation).
    out.HullList = Uint8Array.from(hulls, (h) => (h.length / 3) & 0xff);
    const total = hulls.reduce((s, h) => s + h.length, 0);
    const positions = new Uint8Array(total * 2);
    let at = 0;
    for (const h of hulls) {
      positions.set(quantizePoints(h, min, range), at);
      at += h.length * 2;
    }
    out.Positions = positions;
  }
  if (base.length > 0) out.BoundingVerts = quantizePoints(base, min, range);
  return out;
}

// -------------------------------------------------------------------------------------------
// 5. The asset (LLModel::writeModel, writeModelToStream, zip_llsd)
// -------------------------------------------------------------------------------------------

/** The uncompressed LLSD of every block writeModel would write, plus the header extras. */
export interface MeshAssetLlsd {
  blocks: Partial<Record<MeshBlockName, LlsdValue>>;
  /** Written to the header when set (see MeshAssetInput.submodelId). */
  submodelId?: number;
  normalization: UploadNormalization;
}

/**
 * Steps 1-3 without the LOD blocks made: each block's LLSD is made when asked for. An LOD or
 * physics-mesh block names its `source` (the LOD as given, world frame): what measureMeshAsset
 * remembers its compressed length by.
 */
interface MeshAssetPlan {
  blocks: Partial<Record<MeshBlockName, { llsd: () => LlsdValue; source?: MeshLod }>>;
  submodelId?: number;
  normalization: UploadNormalization;
  /** Written as each LOD face's NormalizedScale. */
  normalizedScale: Vec3;
}

function planMeshAsset(input: MeshAssetInput): MeshAssetPlan {
  // 1. Everything goes into the high LOD's unit frame (each LOD when its block is made).
  const n = computeUploadNormalization(input.lods.high);
  const blocks: MeshAssetPlan['blocks'] = {};
  let submodelId: number | undefined;
  let physicsMesh = input.physicsMesh;

  // 2. physics_convex; a decomposition replaces the physics mesh.
  if (
    input.submodelId !== undefined &&
    (!Number.isInteger(input.submodelId) || input.submodelId < -0x80000000 || input.submodelId > 0x7fffffff)
  ) {
    throw new SlmeshError('INPUT_INVALID', `mesh asset: submodel id ${input.submodelId} is not a 32-bit integer`);
  }
  const hasHull = (input.hull?.length ?? 0) > 0;
  const hasDecomposition = (input.decomposition?.length ?? 0) > 0;
  if (hasHull || hasDecomposition) {
    let hull: Hull | undefined;
    if (input.hull) {
      checkFinite(input.hull, 'hull');
      hull = normalizePoints(input.hull, n);
    }
    const decomposition = input.decomposition?.map((h, i) => {
      checkFinite(h, `decomposition hull ${i}`);
      return normalizePoints(h, n);
    });
    const convex = encodeConvexBlock(hull, decomposition);
    blocks.physics_convex = { llsd: () => convex };
    if (hasDecomposition) physicsMesh = undefined;
  } else if (input.submodelId) {
    submodelId = input.submodelId;
    // An empty Decomposition: LLSD undefined, still zipped and written.
    blocks.physics_convex = { llsd: () => undefined };
    physicsMesh = undefined;
  }

  // 3. The LODs present, and the physics mesh; a LOD without faces is not written.
  const fs = input.frameScale;
  // The mesh-local size, as the importer normalises it (a flat axis, under F_APPROXIMATELY_ZERO, is 1).
  const hb = fs ? lodBox(input.lods.high) : undefined;
  const normalizedScale: Vec3 =
    fs && hb
      ? ([0, 1, 2].map((k) => {
          const size = Math.fround(Math.fround(hb.max[k] - hb.min[k]) / Math.abs(fs[k] || 1));
          return Math.abs(size) < F_APPROXIMATELY_ZERO ? 1 : Math.fround(1 / Math.fround(1 / size));
        }) as Vec3)
      : n.inverseScale;
  const lodBlock = (source: MeshLod, what: string) => ({
    source,
    llsd: () => encodeLodBlock(normalizeLod(source, n, what), normalizedScale, what),
  });
  for (const [lodName, blockName] of LOD_BLOCKS) {
    const lod = input.lods[lodName];
    if (lod && lod.faces.length > 0) blocks[blockName] = lodBlock(lod, `${lodName} LOD`);
  }
  if (physicsMesh && physicsMesh.faces.length > 0) blocks.physics_mesh = lodBlock(physicsMesh, 'physics mesh');
  const plan: MeshAssetPlan = { blocks, normalization: n, normalizedScale };
  if (submodelId !== undefined) plan.submodelId = submodelId;
  return plan;
}

/** Step 1-4: normalise and build the block LLSD, before compression. */
export function buildMeshAssetLlsd(input: MeshAssetInput): MeshAssetLlsd {
  const plan = planMeshAsset(input);
  const blocks: Partial<Record<MeshBlockName, LlsdValue>> = {};
  for (const name of MESH_BLOCK_ORDER) {
    const block = plan.blocks[name];
    if (block) blocks[name] = block.llsd();
  }
  const result: MeshAssetLlsd = { blocks, normalization: plan.normalization };
  if (plan.submodelId !== undefined) result.submodelId = plan.submodelId;
  return result;
}

/** Encodes one mesh object as the viewer's uploader does (LLModel::writeModel, WRITE_BINARY). */
export function encodeMeshAsset(input: MeshAssetInput, options: MeshAssetOptions): EncodedMeshAsset {
  const zipped: Uint8Array[] = [];
  const { layout, header } = layOutMeshAsset(planMeshAsset(input), options.level ?? MESH_ZLIB_LEVEL, (block, level) => {
    const z = options.deflate(writeLlsdBinary(block.llsd()), level);
    if (z.length > 0) zipped.push(z);
    return z.length;
  });
  // 5. Header, then the blocks.
  const bytes = new Uint8Array(layout.length);
  bytes.set(header, 0);
  let at = layout.headerLength;
  for (const data of zipped) {
    bytes.set(data, at);
    at += data.length;
  }
  return { ...layout, bytes };
}

/**
 * encodeMeshAsset's layout (block sizes and offsets, header length, total length) without making
 * the asset: each block's compressed length comes from core's `deflatedLength` (no bytes when the
 * deflate can count them, as zlibNgDeflate can). The same numbers as encodeMeshAsset's.
 *
 * An LOD or physics-mesh block's length is remembered by the LOD object it was made from (meshes
 * are never changed once made), with what else its bytes depend on: the normalisation, the
 * NormalizedScale, the level and the deflate (one memoizeDeflate wraps counts as the one it
 * wraps). Pricing a model again (the LOD budget's evaluations, the physics step, the report) makes
 * only the blocks it has not made: 800 parts priced a dozen times made every block each time.
 */
export function measureMeshAsset(input: MeshAssetInput, options: MeshAssetOptions): MeshAssetLayout {
  const deflate = options.deflate;
  const level = options.level ?? MESH_ZLIB_LEVEL;
  const plan = planMeshAsset(input);
  const n = plan.normalization;
  const frame = `${level} ${n.translation.join()} ${n.scale.join()} ${plan.normalizedScale.join()}`;
  const base = deflate.same ?? deflate;
  const lengths = BLOCK_LENGTHS.get(base) ?? new WeakMap<MeshLod, Map<string, number>>();
  BLOCK_LENGTHS.set(base, lengths);
  return layOutMeshAsset(plan, level, (block) => {
    const remembered = block.source ? lengths.get(block.source) : undefined;
    const known = remembered?.get(frame);
    if (known !== undefined) return known;
    const size = deflatedLength(deflate, writeLlsdBinary(block.llsd()), level);
    if (block.source) {
      const m = remembered ?? new Map<string, number>();
      if (m.size >= BLOCK_LENGTH_FRAMES) m.delete(m.keys().next().value!);
      m.set(frame, size);
      lengths.set(block.source, m);
    }
    return size;
  }).layout;
}

/** Compressed LOD block lengths by deflate, LOD object and frame (measureMeshAsset). */
const BLOCK_LENGTHS = new WeakMap<DeflateFn, WeakMap<MeshLod, Map<string, number>>>();
/** Frames remembered per LOD object (an object priced at many sizes keeps the latest). */
const BLOCK_LENGTH_FRAMES = 8;

/** Step 4 of writeModel: each block compressed (`zipLength` gives its length), the header laid out and written. */
function layOutMeshAsset(
  plan: MeshAssetPlan,
  level: number,
  zipLength: (block: MeshAssetPlan['blocks'][MeshBlockName] & {}, level: number) => number,
): { layout: MeshAssetLayout; header: Uint8Array } {
  // 4. zip_llsd each block, in file order, and lay out the header.
  const header: LlsdMap = {};
  const ranges: Partial<Record<MeshBlockName, MeshBlockRange>> = {};
  let offset = 0;
  for (const name of MESH_BLOCK_ORDER) {
    const block = plan.blocks[name];
    if (!block) continue;
    const size = zipLength(block, level);
    if (size === 0) continue; // zip_llsd failure: the viewer leaves the block out
    header[name] = { offset: llsdInt(offset), size: llsdInt(size) };
    ranges[name] = { offset, size };
    offset += size;
  }
  if (plan.submodelId !== undefined) header.submodel_id = llsdInt(plan.submodelId);
  const headerBytes = writeLlsdBinary(header);
  const n = plan.normalization;
  return {
    header: headerBytes,
    layout: {
      headerLength: headerBytes.length,
      length: headerBytes.length + offset,
      blocks: ranges,
      normalization: { center: [...n.center], size: [...n.inverseScale] },
    },
  };
}
