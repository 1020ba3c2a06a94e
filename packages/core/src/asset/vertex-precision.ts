/**
 * Vertex precision: a LOD's vertices moved, within a tolerance, so that the uploader quantises
 * them to values whose low bits are zero, which the asset's deflate then codes in fewer bits.
 *
 * Why: the uploader writes every position, normal and texture coordinate as 16 bits
 * (`LLModel::writeModel`, spec section 3), and the low bits of a dense mesh's values are close
 * to noise that zlib cannot shorten. 16 bits of a position are about 1/60 of a pixel where the
 * object fills the view; a LOD seen from its switch distance needs far fewer. Nothing about the
 * format changes: the asset is what the viewer makes of the written floats, and its bytes are
 * priced exactly as before (the same encoder).
 *
 * How a coordinate is moved: the uploader's value is `u = (u16)((p - min) / range * 65535)`
 * (quantizeU16, the same float32 arithmetic). The new float is the one whose scaled value is the
 * centre of the bucket `m * 2^b` nearest it, so the uploader's truncation lands on `m * 2^b`
 * whatever its last bit of float rounding; it is checked by quantising it again, and a value that
 * does not land there keeps its original float. A coordinate on the domain's minimum or maximum
 * is never moved (it makes the box and the domain). Positions are moved in the upload's unit frame
 * (normalizePoints: high's box), against the domain of high's box, which every LOD has once
 * conformed (lod-conform.ts); texture coordinates against their face's own domain; normals, which
 * the uploader renormalises (normalizeNormals), on their two smaller components, the largest one
 * solved so the normal stays of unit length, and the result checked through normalizeNormals.
 * Vertices equal before are equal after (the same value always moves the same way), so seams stay
 * closed and the importer still merges what it merged.
 *
 * Tolerances: a position moves by at most `positionError` (model units, Euclidean: each axis at
 * most positionError / sqrt(3)), a texture coordinate by at most `uvError` (UV units), a normal's
 * component by at most half of 2^normalBits / 32767.5 in the unit frame, and turns by at most
 * normalAngle(normalBits) (8 bits: 0.45 degrees) as given: a box's unequal sides turn angles
 * between the frames, so a long box clears fewer bits (log2 of its sides' ratio fewer), and a
 * normal that would still turn further keeps its value.
 */

import type { Face, MeshLod } from '../types.js';
import type { Vec3 } from '../geometry/object-geometry.js';
import {
  normalizeNormalInto,
  normalizeNormals,
  normalizePoints,
  quantizeNormalU16,
  quantizeU16,
  type UploadNormalization,
} from './mesh-asset.js';

const f = Math.fround;
const QUANT_MAX = 65535;
/** At most this many low bits are cleared: 4 of 16 always stay. */
export const MAX_DROPPED_BITS = 12;

export interface VertexTolerance {
  /** Largest move of a position, model units (Euclidean). 0: positions kept. */
  positionError: number;
  /** Largest move of a texture coordinate, UV units. 0: texture coordinates kept. */
  uvError: number;
  /** Low bits of a normal's two smaller components to clear (0 to 12). 0: normals kept. */
  normalBits: number;
}

/** The domain positions are quantised against, in the unit frame: high's box there. */
export interface PositionDomain {
  min: Vec3;
  max: Vec3;
}

/** What snapLod changed, for tests and reports. */
export interface SnapStats {
  /** Low bits cleared per position axis. */
  positionBits: Vec3;
  /** Coordinates (positions, texture coordinates, normal components) moved. */
  moved: number;
  /** Coordinates that would not land on their bucket and kept their float. */
  kept: number;
}

/** Bits that a move of at most `error` allows for a value spread over `range` in 65535 steps. */
export function bitsFor(error: number, range: number): number {
  if (!(error > 0) || !(range > 0)) return 0;
  // Moving to the centre of the nearest bucket of 2^b steps moves by at most 2^(b-1) steps.
  const steps = (error / range) * QUANT_MAX;
  if (!(steps >= 1)) return 0;
  return Math.min(MAX_DROPPED_BITS, Math.floor(Math.log2(steps)) + 1);
}

/** The domain of high's box in the unit frame (what every conformed LOD's vertices span). */
export function positionDomain(highMin: Vec3, highMax: Vec3, n: UploadNormalization): PositionDomain {
  const p = normalizePoints(new Float32Array([...highMin, ...highMax]), n);
  return { min: [p[0], p[1], p[2]], max: [p[3], p[4], p[5]] };
}

/**
 * The multiple of `step` whose bucket's centre (+ 0.5) is nearest the scaled value `scaled`, at most
 * step / 2 from it; -1 past the last whole bucket under 65535 (the top keeps its value).
 */
function nearestBucket(scaled: number, step: number): number {
  const target = Math.max(Math.round((scaled - 0.5) / step) * step, 0);
  return target + step - 1 <= QUANT_MAX ? target : -1;
}

/**
 * The scaled value `v` lands on when moved to the centre of its nearest bucket of 2^bits (its
 * unit-frame value: bucketValue); -1 when the value is kept (on the domain's edge, or past the
 * last bucket). `bits` > 0 and `range` > 0 (the callers skip an axis without either).
 */
function bucketOf(v: number, min: number, max: number, range: number, bits: number): number {
  if (!(v > min && v < max)) return -1;
  return nearestBucket(f(f(f(v - min) / range) * QUANT_MAX), 2 ** bits);
}

/** The centre of bucket `target` (bucketOf) as a unit-frame value. */
function bucketValue(target: number, min: number, range: number): number {
  return min + ((target + 0.5) / QUANT_MAX) * range;
}

/** Whether `v`, a value as the uploader reads it, quantises to `u` strictly inside the domain (so the domain stays). */
function lands(v: number, u: number, min: number, max: number, range: number): boolean {
  return quantizeU16(v, min, range) === u && v > min && v < max;
}

// The loops below make no array per value: a 1M-triangle LOD has 24M values, and a tuple or a
// Float32Array each was a seventh of snapLod's 2.5 s.

function snapPositions(
  positions: Float32Array,
  n: UploadNormalization,
  domain: PositionDomain,
  bits: Vec3,
  stats: SnapStats,
): Float32Array {
  const unit = normalizePoints(positions, n);
  const out = new Float32Array(positions);
  for (let k = 0; k < 3; k++) {
    const min = domain.min[k],
      max = domain.max[k],
      range = f(max - min),
      b = bits[k];
    if (b <= 0 || !(range > 0)) continue;
    const inverse = n.inverseScale[k],
      t = n.translation[k],
      scale = n.scale[k];
    for (let i = k; i < unit.length; i += 3) {
      const target = bucketOf(unit[i], min, max, range, b);
      if (target < 0) continue;
      // Back to the object's frame as denormalizePoints does, then forward again as the uploader.
      const p = f(f(bucketValue(target, min, range) * inverse) - t);
      if (lands(f(f(p + t) * scale), target, min, max, range)) {
        out[i] = p;
        if (p !== positions[i]) stats.moved++;
      } else stats.kept++;
    }
  }
  return out;
}

function usedBounds(values: Float32Array, indices: Uint32Array, dims: 2): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity];
  const max = [-Infinity, -Infinity];
  for (let t = 0; t < indices.length; t++) {
    const i = indices[t] * dims;
    for (let k = 0; k < dims; k++) {
      const v = values[i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }
  return { min, max };
}

function snapUvs(uvs: Float32Array, indices: Uint32Array, error: number, stats: SnapStats): Float32Array {
  // The face's own domain, as the encoder takes it: over the vertices its triangles use.
  const { min, max } = usedBounds(uvs, indices, 2);
  const out = new Float32Array(uvs);
  for (let k = 0; k < 2; k++) {
    const range = f(max[k] - min[k]),
      b = bitsFor(error, range);
    if (b <= 0 || !(range > 0)) continue;
    for (let i = k; i < uvs.length; i += 2) {
      const target = bucketOf(uvs[i], min[k], max[k], range, b);
      if (target < 0) continue;
      const v = f(bucketValue(target, min[k], range));
      if (lands(v, target, min[k], max[k], range)) {
        out[i] = v;
        if (v !== uvs[i]) stats.moved++;
      } else stats.kept++;
    }
  }
  return out;
}

/** The largest turn of a normal that clearing `bits` low bits allows: one whole bucket, 2^bits / 32767.5 radians. */
export function normalAngle(bits: number): number {
  return 2 ** bits / (QUANT_MAX / 2);
}

function snapNormals(normals: Float32Array, n: UploadNormalization, bits: number, stats: SnapStats): Float32Array {
  const unit = normalizeNormals(normals, n);
  const out = new Float32Array(normals);
  const step = 2 ** bits;
  const minCos = Math.cos(normalAngle(bits));
  const t = [0, 0, 0];
  const targets = [0, 0, 0];
  const one = new Float32Array(3);
  const back = new Float32Array(3);
  for (let i = 0; i + 2 < unit.length; i += 3) {
    const x = unit[i],
      y = unit[i + 1],
      z = unit[i + 2];
    const len = Math.hypot(x, y, z);
    if (!(Math.abs(len - 1) < 1e-3)) continue; // a zero or odd normal stays as it is
    // The largest component is solved from the other two, which land on buckets' centres.
    const a = Math.abs(x) >= Math.abs(y) && Math.abs(x) >= Math.abs(z) ? 0 : Math.abs(y) >= Math.abs(z) ? 1 : 2;
    let sq = 0;
    let onBuckets = true;
    for (let k = 0; k < 3 && onBuckets; k++) {
      if (k === a) continue;
      const u = nearestBucket(f(f(f(unit[i + k] + 1) * 0.5) * QUANT_MAX), step);
      if (u < 0) onBuckets = false;
      else {
        targets[k] = u;
        t[k] = ((u + 0.5) / QUANT_MAX) * 2 - 1;
        sq += t[k] * t[k];
      }
    }
    if (!onBuckets || !(sq < 1)) {
      stats.kept += 3;
      continue;
    }
    t[a] = Math.sign(unit[i + a]) * Math.sqrt(1 - sq);
    // In the object's frame (n' = normalize(n * inverseScale), so n = normalize(n' / inverseScale)), unit length.
    const bx = t[0] / n.inverseScale[0],
      by = t[1] / n.inverseScale[1],
      bz = t[2] / n.inverseScale[2];
    const bl = Math.hypot(bx, by, bz);
    // (back is a Float32Array: what is checked is what is written.)
    back[0] = bx / bl;
    back[1] = by / bl;
    back[2] = bz / bl;
    normalizeNormalInto(back, 0, n.inverseScale, one, 0);
    // The box's scale turns the unit frame's angles: the normal as given moves by at most maxAngle.
    const ol = Math.hypot(normals[i], normals[i + 1], normals[i + 2]);
    let ok = (back[0] * normals[i] + back[1] * normals[i + 1] + back[2] * normals[i + 2]) / ol >= minCos;
    for (let k = 0; k < 3; k++) if (k !== a && quantizeNormalU16(one[k]) !== targets[k]) ok = false;
    if (ok) {
      out.set(back, i);
      stats.moved += 3;
    } else stats.kept += 3;
  }
  return out;
}

/**
 * `lod` with its vertices moved within `tolerance` so that the uploader quantises them to values
 * with cleared low bits (see the file comment). `n` is the upload's normalisation (high's box)
 * and `domain` high's box in the unit frame (positionDomain). Faces, triangles and vertex counts
 * are unchanged.
 */
export function snapLod(
  lod: MeshLod,
  n: UploadNormalization,
  domain: PositionDomain,
  tolerance: VertexTolerance,
): { lod: MeshLod; stats: SnapStats } {
  // Each axis may move by positionError / sqrt(3): together at most positionError.
  const axisError = tolerance.positionError / Math.sqrt(3);
  const positionBits = [0, 1, 2].map((k) => bitsFor(axisError * n.scale[k], f(domain.max[k] - domain.min[k]))) as Vec3;
  // A long box turns the unit frame's angles by up to its sides' ratio: fewer bits for it.
  const sides = n.inverseScale.map(Math.abs);
  const stretch = Math.max(...sides) / Math.max(Math.min(...sides), 1e-30);
  const normalBits = Math.max(0, Math.min(tolerance.normalBits, MAX_DROPPED_BITS) - Math.ceil(Math.log2(stretch)));
  const stats: SnapStats = { positionBits, moved: 0, kept: 0 };
  const faces = lod.faces.map((face): Face => {
    if (face.indices.length < 3) return face;
    const out: Face = { ...face, positions: snapPositions(face.positions, n, domain, positionBits, stats) };
    if (face.uvs && tolerance.uvError > 0) out.uvs = snapUvs(face.uvs, face.indices, tolerance.uvError, stats);
    if (face.normals && normalBits > 0) out.normals = snapNormals(face.normals, n, normalBits, stats);
    return out;
  });
  return { lod: { faces }, stats };
}
