/**
 * LOD generation over a whole Second Life object with meshoptimizer: simplifies every face
 * (material) of the object at once and splits the result back into the same faces.
 *
 * Border handling (why faces stay stitched): the faces are simplified together, in one index
 * buffer, with one vertex set per face. Where two faces meet, their vertices share exactly the
 * same position (positions are snapped to one canonical value per `weldTolerance` cell), so
 * meshoptimizer sees the material boundary as an attribute seam, not as an open border: it may
 * collapse edges along the seam (both sides together) but never pulls the two sides apart, and
 * locks seam vertices where more than two faces meet. So material boundaries stay closed without
 * locking them, and small parts can vanish whole (`Prune`). A triangle never mixes faces (an edge
 * collapse keeps a vertex within its face's vertex set), so the result splits back by vertex range.
 *
 * Steps: (1) snap positions to canonical values, (2) weld identical vertices within each face
 * (position, normal, uv), (3) simplify the combined mesh with meshoptimizer's attribute metric
 * (`simplifyWithUpdate`, or `simplifyWithAttributes` when vertices stay put), normals and UVs
 * weighted, absolute error, Prune, (4) split the triangles back into faces and compact each
 * face's vertices. A face left without triangles becomes an empty face, which the encoder
 * writes as a NoGeometry placeholder, so every LOD has exactly as many faces as high.
 *
 * Fallback cascade, like the viewer's genMeshOptimizerLODs (spec section 5): when the
 * attribute-aware result keeps more than `maxRatioDrift` (1.8, the viewer's allowed_ratio_drift)
 * times the triangles wanted, retry with normals ignored (welded by position and uv), then with
 * UVs ignored too (welded by position), then `simplifySloppy`, and keep the first that gets there
 * (else the smallest). In error mode, "wanted" is what position-only simplification reaches at the
 * same error: attributes may cost some triangles, not a multiple. A fallback mode simplifies the
 * merged vertices (compacted: an unused duplicate would lock its point); afterwards each triangle
 * corner takes the original vertex whose normal is closest to its triangle's, so hard edges
 * come back.
 *
 * The meshoptimizer module is injected (`simplifier`): core never imports it and runs in browsers.
 * Kept vertices move to where they best fit the surface they replace (`simplifyWithUpdate`,
 * `updatePositions`, default on): LODs shrink less and their error is lower than with vertices
 * left in place; wedges of one point move together, so seams stay closed.
 *
 * Follows meshoptimizer's documentation (js/README.md, Simplifier) for welding, seams and flags.
 */

import { firstOfEqualKeys } from '../geometry/equal-keys.js';
import { SlmeshError } from '../errors.js';
import { emptyFace, sameLod } from '../geometry/object-geometry.js';
import { triangleComponents } from '../geometry/indexed-mesh.js';
import type { Face, MeshLod } from '../types.js';

/** meshoptimizer's simplifier flags. */
export type SimplifierFlag =
  | 'LockBorder'
  | 'Sparse'
  | 'ErrorAbsolute'
  | 'Prune'
  | 'Regularize'
  | 'Permissive'
  | 'RegularizeLight'
  | 'PreserveFolds'
  | 'ErrorClamped';

/**
 * The part of meshoptimizer's `MeshoptSimplifier` slmesh uses (meshoptimizer >= 0.21; pass
 * `MeshoptSimplifier` after `await MeshoptSimplifier.ready`).
 */
export interface MeshSimplifier {
  simplify(
    indices: Uint32Array,
    positions: Float32Array,
    stride: number,
    targetIndexCount: number,
    targetError: number,
    flags?: SimplifierFlag[],
  ): [Uint32Array, number];
  simplifyWithAttributes(
    indices: Uint32Array,
    positions: Float32Array,
    stride: number,
    attributes: Float32Array,
    attributeStride: number,
    attributeWeights: number[],
    vertexLock: Uint8Array | null,
    targetIndexCount: number,
    targetError: number,
    flags?: SimplifierFlag[],
  ): [Uint32Array, number];
  simplifyWithUpdate(
    indices: Uint32Array,
    positions: Float32Array,
    stride: number,
    attributes: Float32Array,
    attributeStride: number,
    attributeWeights: number[],
    vertexLock: Uint8Array | null,
    targetIndexCount: number,
    targetError: number,
    flags?: SimplifierFlag[],
  ): [number, number];
  simplifySloppy(
    indices: Uint32Array,
    positions: Float32Array,
    stride: number,
    vertexLock: Uint8Array | null,
    targetIndexCount: number,
    targetError: number,
  ): [Uint32Array, number];
}

/** How much of the vertex data the simplifier must respect, most to least. */
export type SimplifyMode = 'attributes' | 'no-normals' | 'no-uvs' | 'sloppy';
export const SIMPLIFY_MODES: readonly SimplifyMode[] = ['attributes', 'no-normals', 'no-uvs', 'sloppy'];
/**
 * The modes that keep UV seams: a triangle of their result takes all its corners from one side of
 * a seam. 'no-uvs' and sloppy merge vertices across seams, so a triangle can take uvs from both
 * sides and show a stretch of texture that belongs elsewhere (the geometric error does not see it).
 */
export const UV_SEAM_MODES: readonly SimplifyMode[] = ['attributes', 'no-normals'];

/** Floats per welded vertex in LodSource.attributes: nx, ny, nz, u, v. */
export const ATTR_STRIDE = 5;

/** An object's faces welded into one mesh, ready to simplify (many times). */
export interface LodSource {
  /** Material of each face, in the object's face order. */
  materials: string[];
  /** Welded vertex positions, flat xyz (canonical: equal points are bit-identical). */
  positions: Float32Array;
  /** Per welded vertex nx, ny, nz, u, v (zeros where a face has none). */
  attributes: Float32Array;
  /** Triangles over the welded vertices, all faces. */
  indices: Uint32Array;
  /** Face f owns welded vertices [faceStart[f], faceStart[f + 1]). */
  faceStart: Uint32Array;
  hasNormals: boolean[];
  hasUvs: boolean[];
  triangles: number;
  /** Largest side of the bounding box (meshoptimizer's scale for relative errors). */
  maxSide: number;
  /** Compacted buffers for the fallback modes, built on first use. */
  fallback: Partial<Record<'no-normals' | 'no-uvs', FallbackBuffers>>;
  /** Whether a point has vertices with different texture coordinates (hasUvSeams), found on first use. */
  uvSeams?: boolean;
  /** The weld joined only points that are equal (the source a weldTolerance of 0 gives); false when not known (checked only with checkExactWeld). */
  exactWeld: boolean;
}

export interface LodSourceOptions {
  /** Points closer than this fraction of the object's largest side are one point (seams close). Default 1e-6. */
  weldTolerance?: number;
  /** Find out whether the weld joined only equal points (LodSource.exactWeld): one more pass over the vertices. Default false. */
  checkExactWeld?: boolean;
}

export const LOD_SOURCE_DEFAULTS: Required<LodSourceOptions> = { weldTolerance: 1e-6, checkExactWeld: false };

// -------------------------------------------------------------------------------------------
// Welding
// -------------------------------------------------------------------------------------------

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** Bits of a float32 with -0 folded into +0. */
function bits(x: number): number {
  f32[0] = x + 0;
  return u32[0];
}

/** Grows min/max by the points of `p` (flat xyz); false when a coordinate is not finite. */
function growFiniteBounds(p: Float32Array, min: number[], max: number[]): boolean {
  for (let i = 0; i + 2 < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = p[i + k];
      if (!Number.isFinite(x)) return false;
      if (x < min[k]) min[k] = x;
      if (x > max[k]) max[k] = x;
    }
  }
  return true;
}

/** keys[i] = the tolerance cell of coordinate all[i] (its value when cell is 0), +0 for -0. */
function positionKeys(all: Float32Array, count: number, cell: number, keys: Float64Array): void {
  for (let i = 0; i < count; i++) keys[i] = cell > 0 ? Math.round(all[i] / cell) + 0 : all[i] + 0;
}

/** A face's weld keys, 6 words per vertex: its canonical position, then its normal's and UV's bits. */
function vertexWords(
  words: Uint32Array,
  posFirst: Uint32Array,
  base: number,
  n: number,
  normals: Float32Array | undefined,
  uvs: Float32Array | undefined,
): void {
  for (let i = 0; i < n; i++) {
    words[i * 6] = posFirst[base + i];
    if (normals) {
      words[i * 6 + 1] = bits(normals[i * 3]);
      words[i * 6 + 2] = bits(normals[i * 3 + 1]);
      words[i * 6 + 3] = bits(normals[i * 3 + 2]);
    }
    if (uvs) {
      words[i * 6 + 4] = bits(uvs[i * 2]);
      words[i * 6 + 5] = bits(uvs[i * 2 + 1]);
    }
  }
}

/**
 * prepareLodSource step 2 for one face: its triangles welded into `indices` from
 * state.indexCount, each welded vertex written once from state.welded. Only vertices that a kept
 * triangle uses become welded vertices (an unused duplicate at a used position would look like an
 * extra seam to the simplifier and lock that position). Returns -1, or the largest index of the
 * first triangle that points past the face's n vertices.
 */
function weldFace(
  idx: ArrayLike<number>,
  n: number,
  first: Uint32Array,
  posFirst: Uint32Array,
  base: number,
  all: Float32Array,
  normals: Float32Array | undefined,
  uvs: Float32Array | undefined,
  positions: Float32Array,
  attributes: Float32Array,
  indices: Uint32Array,
  state: { welded: number; indexCount: number },
): number {
  // local[r]: the welded index of representative r, or -1.
  const local = new Int32Array(n).fill(-1);
  let welded = state.welded,
    indexCount = state.indexCount;
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = idx[t],
      b = idx[t + 1],
      c = idx[t + 2];
    if (a >= n || b >= n || c >= n) return Math.max(a, b, c);
    // Triangles with a repeated vertex are dropped. Ones with distinct vertices at one point
    // (a UV-seamed pole) are kept: meshoptimizer removes them itself, and removing them first
    // leaves many unconnected wedges at that point, which slows it down a lot.
    const fa = first[a],
      fb = first[b],
      fc = first[c];
    if (fa === fb || fb === fc || fa === fc) continue;
    for (let k = 0; k < 3; k++) {
      const r = k === 0 ? fa : k === 1 ? fb : fc;
      let w = local[r];
      if (w < 0) {
        w = welded++;
        local[r] = w;
        const q = posFirst[base + r];
        positions[w * 3] = all[q * 3];
        positions[w * 3 + 1] = all[q * 3 + 1];
        positions[w * 3 + 2] = all[q * 3 + 2];
        const at = w * ATTR_STRIDE;
        if (normals) {
          attributes[at] = normals[r * 3];
          attributes[at + 1] = normals[r * 3 + 1];
          attributes[at + 2] = normals[r * 3 + 2];
        }
        if (uvs) {
          attributes[at + 3] = uvs[r * 2];
          attributes[at + 4] = uvs[r * 2 + 1];
        }
      }
      indices[indexCount++] = w;
    }
  }
  state.welded = welded;
  state.indexCount = indexCount;
  return -1;
}

/** Welds an object's faces into a LodSource (see the file comment, steps 1 and 2). */
export function prepareLodSource(lod: MeshLod, options: LodSourceOptions = {}): LodSource {
  const tolerance = options.weldTolerance ?? LOD_SOURCE_DEFAULTS.weldTolerance;
  const faces = lod.faces;
  // (Each loop is its own function: V8 optimises each once with its own type feedback, instead
  // of recompiling this function and a closure per face as each later loop gets hot.)
  let total = 0;
  let min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (const face of faces) {
    total += face.positions.length / 3;
    if (!growFiniteBounds(face.positions, min, max))
      throw new SlmeshError(
        'INPUT_INVALID',
        `LOD generation: face ${face.material} has a non-finite vertex coordinate`,
      );
  }
  if (total === 0) min = max = [0, 0, 0];
  const maxSide = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const cell = tolerance > 0 && maxSide > 0 ? tolerance * maxSide : 0;

  // 1. Canonical positions: one per tolerance cell (exact bits when the tolerance is 0).
  const posWords = new Uint32Array(total * 6);
  const keyView = new Float64Array(posWords.buffer);
  const all = new Float32Array(total * 3);
  {
    let v = 0;
    for (const face of faces) {
      all.set(face.positions.subarray(0, face.positions.length - (face.positions.length % 3)), v * 3);
      v += Math.floor(face.positions.length / 3);
    }
    positionKeys(all, total * 3, cell, keyView);
  }
  const posFirst = firstOfEqualKeys(posWords, 6, total);
  // Did the tolerance join only points that are equal anyway? Then this source is the one a
  // tolerance of 0 gives (its groups refine these: as many groups means the same groups).
  let exactWeld = cell === 0;
  if (!exactWeld && options.checkExactWeld) {
    const exact = firstOfEqualKeys(new Uint32Array(all.buffer, all.byteOffset, total * 3), 3, total);
    let groups = 0,
      exactGroups = 0;
    for (let i = 0; i < total; i++) {
      if (posFirst[i] === i) groups++;
      if (exact[i] === i) exactGroups++;
    }
    exactWeld = groups === exactGroups;
  }

  // 2. Weld each face's identical vertices (canonical position, normal, uv). Written into
  //    buffers sized for the worst case (every vertex kept), trimmed at the end.
  let indexTotal = 0;
  for (const face of faces) indexTotal += face.indices.length - (face.indices.length % 3);
  const positions = new Float32Array(total * 3);
  const attributes = new Float32Array(total * ATTR_STRIDE);
  const indices = new Uint32Array(indexTotal);
  const faceStart = new Uint32Array(faces.length + 1);
  const hasNormals = faces.map((f) => !!f.normals && f.normals.length === f.positions.length);
  const hasUvs = faces.map((f) => !!f.uvs && f.uvs.length === (f.positions.length / 3) * 2);
  let base = 0;
  const weld = { welded: 0, indexCount: 0 };
  for (let fi = 0; fi < faces.length; fi++) {
    const face = faces[fi];
    faceStart[fi] = weld.welded;
    const n = Math.floor(face.positions.length / 3);
    const normals = hasNormals[fi] ? face.normals! : undefined;
    const uvs = hasUvs[fi] ? face.uvs! : undefined;
    const words = new Uint32Array(n * 6);
    vertexWords(words, posFirst, base, n, normals, uvs);
    const first = firstOfEqualKeys(words, 6, n);
    const bad = weldFace(
      face.indices,
      n,
      first,
      posFirst,
      base,
      all,
      normals,
      uvs,
      positions,
      attributes,
      indices,
      weld,
    );
    if (bad >= 0)
      throw new SlmeshError(
        'INPUT_INVALID',
        `LOD generation: face ${face.material} has index ${bad} but only ${n} vertices`,
      );
    base += n;
  }
  const welded = weld.welded;
  const indexCount = weld.indexCount;
  faceStart[faces.length] = welded;
  return {
    materials: faces.map((f) => f.material),
    positions: positions.slice(0, welded * 3),
    attributes: attributes.slice(0, welded * ATTR_STRIDE),
    indices: indices.slice(0, indexCount),
    faceStart,
    hasNormals,
    hasUvs,
    triangles: indexCount / 3,
    maxSide,
    fallback: {},
    exactWeld,
  };
}

/**
 * Maps every welded vertex to the first vertex with the same position (and the same uv when
 * `uvs`), within its face or, with `acrossFaces`, over the whole object (as the viewer's shadow
 * index buffers do). The fallback modes simplify through these remaps.
 */
export function weldRemap(source: LodSource, uvs: boolean, acrossFaces = false): Uint32Array {
  const n = source.positions.length / 3;
  const remap = new Uint32Array(n);
  const ranges: [number, number][] = [];
  if (acrossFaces) ranges.push([0, n]);
  else
    for (let f = 0; f + 1 < source.faceStart.length; f++) ranges.push([source.faceStart[f], source.faceStart[f + 1]]);
  for (const [s, e] of ranges) {
    const words = new Uint32Array((e - s) * 5);
    for (let i = s; i < e; i++) {
      const o = (i - s) * 5;
      words[o] = bits(source.positions[i * 3]);
      words[o + 1] = bits(source.positions[i * 3 + 1]);
      words[o + 2] = bits(source.positions[i * 3 + 2]);
      if (uvs) {
        words[o + 3] = bits(source.attributes[i * ATTR_STRIDE + 3]);
        words[o + 4] = bits(source.attributes[i * ATTR_STRIDE + 4]);
      }
    }
    const first = firstOfEqualKeys(words, 5, e - s);
    for (let i = s; i < e; i++) remap[i] = s + first[i - s];
  }
  return remap;
}

/**
 * A fallback mode's mesh: the welded vertices merged by `weldRemap` and compacted (no unused
 * duplicates), plus, for each merged vertex, the source vertices it stands for (its wedges).
 */
export interface FallbackBuffers {
  positions: Float32Array;
  attributes: Float32Array;
  indices: Uint32Array;
  /** Wedges of compact vertex k: wedges[wedgeStart[k] .. wedgeStart[k + 1]), source vertex ids. */
  wedgeStart: Uint32Array;
  wedges: Uint32Array;
}

function fallbackBuffers(source: LodSource, mode: 'no-normals' | 'no-uvs'): FallbackBuffers {
  const cached = source.fallback[mode];
  if (cached) return cached;
  const remap = weldRemap(source, mode === 'no-normals');
  const n = remap.length;
  const compact = new Int32Array(n).fill(-1);
  let m = 0;
  for (let v = 0; v < n; v++) if (remap[v] === v) compact[v] = m++;
  const positions = new Float32Array(m * 3);
  const attributes = new Float32Array(m * ATTR_STRIDE);
  const wedgeStart = new Uint32Array(m + 1);
  for (let v = 0; v < n; v++) {
    const k = compact[remap[v]];
    wedgeStart[k + 1]++;
    if (remap[v] === v) {
      positions.set(source.positions.subarray(v * 3, v * 3 + 3), k * 3);
      attributes.set(source.attributes.subarray(v * ATTR_STRIDE, v * ATTR_STRIDE + ATTR_STRIDE), k * ATTR_STRIDE);
    }
  }
  for (let k = 0; k < m; k++) wedgeStart[k + 1] += wedgeStart[k];
  const fill = wedgeStart.slice(0, m);
  const wedges = new Uint32Array(n);
  for (let v = 0; v < n; v++) wedges[fill[compact[remap[v]]]++] = v;
  const indices = new Uint32Array(source.indices.length);
  for (let i = 0; i < indices.length; i++) indices[i] = compact[remap[source.indices[i]]];
  const out = { positions, attributes, indices, wedgeStart, wedges };
  source.fallback[mode] = out;
  return out;
}

/**
 * Whether some point of the source has vertices with different texture coordinates within a face:
 * a UV seam, where 'no-uvs' and sloppy merge what the texture keeps apart. Read from the 'no-uvs'
 * buffers (each point's wedges within a face), which a result of those modes has already made.
 * Found once per source.
 */
export function hasUvSeams(source: LodSource): boolean {
  if (source.uvSeams === undefined) {
    source.uvSeams = false;
    if (source.hasUvs.some(Boolean)) {
      const { wedgeStart, wedges } = fallbackBuffers(source, 'no-uvs');
      const a = source.attributes;
      // A point whose wedges do not all have its first wedge's uv.
      for (let k = 0; k + 1 < wedgeStart.length && !source.uvSeams; k++) {
        const u = wedges[wedgeStart[k]] * ATTR_STRIDE + 3;
        for (let w = wedgeStart[k] + 1; w < wedgeStart[k + 1]; w++) {
          const x = wedges[w] * ATTR_STRIDE + 3;
          if (a[x] !== a[u] || a[x + 1] !== a[u + 1]) {
            source.uvSeams = true;
            break;
          }
        }
      }
    }
  }
  return source.uvSeams;
}

/** A lock over source vertices as one over a fallback mode's merged vertices: locked where any of its wedges is. */
function mergedLock(fb: FallbackBuffers, lock: Uint8Array): Uint8Array {
  const m = fb.wedgeStart.length - 1;
  const out = new Uint8Array(m);
  for (let k = 0; k < m; k++)
    for (let w = fb.wedgeStart[k]; w < fb.wedgeStart[k + 1]; w++)
      if (lock[fb.wedges[w]]) {
        out[k] = 1;
        break;
      }
  return out;
}

/**
 * Back from a fallback mode's merged vertices to source vertices: each corner takes the wedge
 * whose normal is closest to its triangle's normal, so hard edges and flat shading come back.
 */
function restoreWedges(source: LodSource, fb: FallbackBuffers, out: Uint32Array, p: Float32Array): Uint32Array {
  const res = new Uint32Array(out.length);
  const a = source.attributes;
  for (let t = 0; t + 2 < out.length; t += 3) {
    const i0 = out[t] * 3,
      i1 = out[t + 1] * 3,
      i2 = out[t + 2] * 3;
    const ux = p[i1] - p[i0],
      uy = p[i1 + 1] - p[i0 + 1],
      uz = p[i1 + 2] - p[i0 + 2];
    const vx = p[i2] - p[i0],
      vy = p[i2 + 1] - p[i0 + 1],
      vz = p[i2 + 2] - p[i0 + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    for (let c = 0; c < 3; c++) {
      const k = out[t + c];
      const s = fb.wedgeStart[k],
        e = fb.wedgeStart[k + 1];
      let best = fb.wedges[s],
        bestDot = -Infinity;
      if (e - s > 1) {
        for (let w = s; w < e; w++) {
          const v = fb.wedges[w] * ATTR_STRIDE;
          const d = a[v] * nx + a[v + 1] * ny + a[v + 2] * nz;
          if (d > bestDot) {
            bestDot = d;
            best = fb.wedges[w];
          }
        }
      }
      res[t + c] = best;
    }
  }
  return res;
}

// -------------------------------------------------------------------------------------------
// Simplification
// -------------------------------------------------------------------------------------------

export interface SimplifyLodOptions {
  /** meshoptimizer's MeshoptSimplifier (ready). Required. */
  simplifier: MeshSimplifier;
  /** Weight of normals in the attribute metric. Default 0.5. */
  normalWeight?: number;
  /** Weight of UVs in the attribute metric. Default 0.5. */
  uvWeight?: number;
  /** Let meshoptimizer remove small disconnected parts whole (Prune). Default true. */
  prune?: boolean;
  /** Move kept vertices to where they best fit the removed surface (simplifyWithUpdate): less shrinking, lower error. Default true. */
  updatePositions?: boolean;
  /** Vertices (the source's welded ones, 1 = locked) the simplifier must keep where they are; a fallback mode keeps a merged vertex where any of its wedges is locked. Not sloppy. */
  lock?: Uint8Array;
}

export const SIMPLIFY_LOD_DEFAULTS = { normalWeight: 0.5, uvWeight: 0.5, prune: true, updatePositions: true };

export interface SimplifiedLod<M extends string = SimplifyMode | 'viewer' | 'cards'> {
  /** The LOD: as many faces as the source, empty where a face vanished. */
  lod: MeshLod;
  triangles: number;
  vertices: number;
  /** meshoptimizer's own error estimate, metres (the planner measures the real one). */
  simplifierError: number;
  /**
   * How it was made; 'viewer': it is the viewer's own auto-LOD (viewer-auto-lod.ts), taken by a
   * fallback; 'cards': impostor-like cards (lod-cards.ts), the lowest LOD's last resort.
   */
  mode: M;
}

/** The settings of SimplifyLodOptions that decide a simplification, defaults filled in. */
function simplifySettings(options: SimplifyLodOptions): {
  normalWeight: number;
  uvWeight: number;
  prune: boolean;
  updatePositions: boolean;
} {
  return {
    normalWeight: options.normalWeight ?? SIMPLIFY_LOD_DEFAULTS.normalWeight,
    uvWeight: options.uvWeight ?? SIMPLIFY_LOD_DEFAULTS.uvWeight,
    prune: options.prune ?? SIMPLIFY_LOD_DEFAULTS.prune,
    updatePositions: options.updatePositions ?? SIMPLIFY_LOD_DEFAULTS.updatePositions,
  };
}

/**
 * Results of simplifyLodSource per source and simplifier, by everything else that decides them
 * (mode, target count, error, weights, flags; a call with a lock is not kept). A plan asks for the
 * same simplification again and again (each level's search climbs the same ladder of errors from
 * the same source, and a big high is planned twice): meshoptimizer's answer is the same each
 * time, and it is the plan's largest cost after the measures (CGAL's fandisk_large, 31,682
 * triangles: 907 ms of its 2.8 s of simplification were repeats). Results are never modified
 * (every step after the simplifier makes new arrays), so the same object is handed out again.
 */
const SIMPLIFIED = new WeakMap<
  LodSource,
  {
    simplifier: MeshSimplifier;
    results: Map<string, SimplifiedLod<SimplifyMode>>;
    /** Per settings, the largest error (and its target) at which nothing collapsed, and that result. */
    unchanged: Map<string, { error: number; targetIndexCount: number; result: SimplifiedLod<SimplifyMode> }>;
  }
>();

/**
 * One simplification of `source` in `mode`: down to `targetTriangles` (0: as far as the error
 * allows) without exceeding `targetError` metres (meshoptimizer's estimate). The same call on the
 * same source returns the same result (SIMPLIFIED).
 */
export function simplifyLodSource(
  source: LodSource,
  mode: SimplifyMode,
  targetTriangles: number,
  targetError: number,
  options: SimplifyLodOptions,
): SimplifiedLod<SimplifyMode> {
  const s = options.simplifier;
  if (!s)
    throw new SlmeshError(
      'USAGE',
      'LOD generation: a meshoptimizer simplifier is required (options.simplifier = MeshoptSimplifier)',
    );
  // More than the source has is all of it (meshoptimizer asserts on a target past the index
  // count: a planner's count from the input's triangles can exceed the source's, whose weld
  // drops degenerate triangles).
  const targetIndexCount = Math.min(source.indices.length, Math.max(0, Math.floor(targetTriangles)) * 3);
  const error = Math.max(0, targetError);
  if (source.triangles === 0) return splitIntoFaces(source, new Uint32Array(0), 0, mode);
  if (options.lock) return simplifyUncached(source, mode, targetIndexCount, error, options);
  let cache = SIMPLIFIED.get(source);
  if (!cache || cache.simplifier !== s) {
    cache = { simplifier: s, results: new Map(), unchanged: new Map() };
    SIMPLIFIED.set(source, cache);
  }
  const { normalWeight, uvWeight, prune, updatePositions } = simplifySettings(options);
  const settings = [mode, normalWeight, uvWeight, prune, updatePositions].join(' ');
  const key = `${targetIndexCount} ${error} ${settings}`;
  let result = cache.results.get(key);
  // Nothing collapses within an error where nothing collapsed within a larger one (no target
  // stopped it sooner): meshoptimizer collapses, pass after pass, only edges whose error is within
  // the limit, and a pass with none ends it. The search asks a flat-shaded high, whose vertices
  // all sit on seams, the same at every rung (a 1M-triangle Suzanne: 1.5 s a call).
  const none = mode === 'sloppy' ? undefined : cache.unchanged.get(settings);
  const call = { error, targetIndexCount };
  if (!result && none && covers(none, call)) result = none.result;
  if (!result) {
    result = simplifyUncached(source, mode, targetIndexCount, error, options);
    // A result bit for bit equal to an earlier one hands out that one's LOD object: the planner
    // remembers measures and prices by LOD identity, and at errors where nothing can go the search
    // gets the same LOD at every rung (a flat-shaded 1M-triangle Suzanne: four copies of its high,
    // 77 MB each, each measured and priced again).
    const r = result;
    for (const earlier of cache.results.values())
      if (earlier.triangles === r.triangles && earlier.vertices === r.vertices && sameLod(earlier.lod, r.lod)) {
        result = { ...r, lod: earlier.lod };
        break;
      }
    cache.results.set(key, result);
    // Remembered after the sharing above, so the rule hands out the shared LOD; an unchanged
    // result replaces the one kept only where it covers every call that one does.
    if (mode !== 'sloppy' && result.triangles === source.triangles && (!none || covers(call, none)))
      cache.unchanged.set(settings, { ...call, result });
  }
  return result;
}

/**
 * Whether a simplification that removed nothing at `a` answers the call `b` too: `b`'s error is
 * no larger and its target no smaller (see simplifyLodSource).
 */
function covers(
  a: { error: number; targetIndexCount: number },
  b: { error: number; targetIndexCount: number },
): boolean {
  return a.error >= b.error && a.targetIndexCount <= b.targetIndexCount;
}

/** simplifyLodSource's work, for a source with triangles and a clamped target. */
function simplifyUncached(
  source: LodSource,
  mode: SimplifyMode,
  targetIndexCount: number,
  error: number,
  options: SimplifyLodOptions,
): SimplifiedLod<SimplifyMode> {
  const s = options.simplifier;
  const { normalWeight, uvWeight, prune, updatePositions: update } = simplifySettings(options);

  // Fallback modes run on merged, compacted vertices and come back through restoreWedges.
  const fb =
    mode === 'attributes' ? undefined : fallbackBuffers(source, mode === 'no-normals' ? 'no-normals' : 'no-uvs');
  const indices = fb ? fb.indices : source.indices;
  const positions = fb ? fb.positions : source.positions;
  const attributes = fb ? fb.attributes : source.attributes;
  const flags: SimplifierFlag[] = prune ? ['ErrorAbsolute', 'Prune'] : ['ErrorAbsolute'];
  const anyNormals = source.hasNormals.some(Boolean) && normalWeight > 0;
  const anyUvs = source.hasUvs.some(Boolean) && uvWeight > 0;
  const lock = !options.lock || mode === 'sloppy' ? null : fb ? mergedLock(fb, options.lock) : options.lock;
  let out: Uint32Array;
  let err: number;
  let pos = positions;
  let att = attributes;
  let weights: number[];
  if (mode === 'no-uvs' || (!anyNormals && !anyUvs) || (mode === 'no-normals' && !anyUvs)) weights = [];
  else {
    const wn = mode === 'attributes' && anyNormals ? normalWeight : 0;
    const wu = anyUvs ? uvWeight : 0;
    // Attributes of weight 0 (a big high's position-only proxy) would only cost meshoptimizer time.
    weights = wn === 0 && wu === 0 ? [] : [wn, wn, wn, wu, wu];
  }
  if (mode === 'sloppy') {
    // simplifySloppy takes and returns errors relative to the largest side.
    const scale = source.maxSide > 0 ? source.maxSide : 1;
    [out, err] = s.simplifySloppy(indices, positions, 3, null, targetIndexCount, error / scale);
    err *= scale;
  } else if (update) {
    // simplifyWithUpdate rewrites indices, positions and attributes in place: work on copies.
    const idx = indices.slice();
    pos = positions.slice();
    att = weights.length ? attributes.slice() : new Float32Array(0);
    let n: number;
    [n, err] = s.simplifyWithUpdate(
      idx,
      pos,
      3,
      att,
      weights.length ? ATTR_STRIDE : 0,
      weights,
      lock,
      targetIndexCount,
      error,
      flags,
    );
    out = idx.subarray(0, n);
    if (!weights.length) att = attributes;
  } else if (!lock && (!weights.length || (mode === 'attributes' && everyVertexLocked(source)))) {
    [out, err] = s.simplify(indices, positions, 3, targetIndexCount, error, flags);
  } else {
    [out, err] = s.simplifyWithAttributes(
      indices,
      positions,
      3,
      weights.length ? attributes : new Float32Array(0),
      weights.length ? ATTR_STRIDE : 0,
      weights,
      lock,
      targetIndexCount,
      error,
      flags,
    );
  }
  let result = source;
  if (fb) {
    out = restoreWedges(source, fb, out, pos);
    if (pos !== positions || att !== attributes)
      result = moveWedges(source, fb, out, pos, mode === 'no-normals' ? att : undefined);
  } else if (pos !== positions || att !== attributes) {
    result = { ...source, positions: pos, attributes: renormalized(att) };
  }
  return splitIntoFaces(result, out, err, mode);
}

/** Sources with fewer vertices are not checked by everyVertexLocked (the check would cost more than it saves). */
export const LOCKED_CHECK_MIN_VERTICES = 200_000;

/** What lockedPoints found in a source. */
interface LockedPoints {
  /** Every vertex's position is shared by three or more vertices. */
  every: boolean;
  /**
   * Per position-welded component (points joined by triangles) with triangles whose three points
   * three or more vertices share each: half the longest side of the component's box, largest first
   * (none where fewer than LOCKED_SHARE of the triangles are such: the floor is then 0).
   */
  halfSides: Float64Array;
  /** Those triangles, summed over the components in that order (cumulative[i]: components 0 to i). */
  cumulative: Float64Array;
}

const LOCKED_POINTS = new WeakMap<LodSource, LockedPoints>();

/** lockedPoints measures components only where at least this share of the triangles is locked. */
const LOCKED_SHARE = 0.1;

/**
 * The points meshoptimizer locks in `source` (made once per source). meshoptimizer
 * (simplifier.cpp, classifyVertices) classifies a vertex whose position three or more vertices
 * share as Locked, and never collapses a Locked vertex; a triangle of three such points (three
 * different ones) is never made degenerate, so only Prune can remove it, with its whole component
 * (buildComponents: triangles joined through welded positions, as here). -0 is folded into 0 as
 * meshoptimizer does.
 */
function lockedPoints(source: LodSource): LockedPoints {
  let found = LOCKED_POINTS.get(source);
  if (found) return found;
  const n = source.positions.length / 3;
  const p = source.positions;
  const remap = weldRemap(source, false, true);
  const count = new Uint32Array(n);
  for (let i = 0; i < n; i++) count[remap[i]]++;
  let every = true;
  for (let i = 0; i < n && every; i++) if (count[remap[i]] < 3) every = false;
  const idx = source.indices;
  const isLocked = (t: number): boolean => {
    const a = remap[idx[t]],
      b = remap[idx[t + 1]],
      c = remap[idx[t + 2]];
    return a !== b && a !== c && b !== c && count[a] >= 3 && count[b] >= 3 && count[c] >= 3;
  };
  // Under LOCKED_SHARE of the triangles locked, the floor is taken as 0 (always a lower bound):
  // no use of it could defer a call (simplifyToError needs a tenth of a big source), and a smooth
  // mesh is spared the components.
  let lockedTriangles = 0;
  for (let t = 0; t < idx.length; t += 3) if (isLocked(t)) lockedTriangles++;
  if (lockedTriangles < LOCKED_SHARE * (idx.length / 3)) {
    found = { every, halfSides: new Float64Array(0), cumulative: new Float64Array(0) };
    LOCKED_POINTS.set(source, found);
    return found;
  }
  const find = triangleComponents(n, idx.length / 3, (t, k) => remap[idx[t * 3 + k]]);
  // Each component's box (over its triangles' points) and its locked triangles.
  const slot = new Int32Array(n).fill(-1);
  const box: number[] = [];
  const locked: number[] = [];
  for (let t = 0; t < idx.length; t += 3) {
    const a = remap[idx[t]],
      b = remap[idx[t + 1]],
      c = remap[idx[t + 2]];
    const r = find(a);
    let s = slot[r];
    if (s < 0) {
      s = slot[r] = locked.length;
      locked.push(0);
      box.push(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
    }
    for (let j = 0; j < 9; j++) {
      const k = j % 3;
      const x = p[(j < 3 ? a : j < 6 ? b : c) * 3 + k];
      if (x < box[s * 6 + k]) box[s * 6 + k] = x;
      if (x > box[s * 6 + 3 + k]) box[s * 6 + 3 + k] = x;
    }
    if (isLocked(t)) locked[s]++;
  }
  const parts: [number, number][] = [];
  for (let s = 0; s < locked.length; s++)
    if (locked[s] > 0)
      parts.push([
        Math.max(box[s * 6 + 3] - box[s * 6], box[s * 6 + 4] - box[s * 6 + 1], box[s * 6 + 5] - box[s * 6 + 2]) / 2,
        locked[s],
      ]);
  parts.sort((x, y) => y[0] - x[0]);
  const halfSides = Float64Array.from(parts, (x) => x[0]);
  const cumulative = new Float64Array(parts.length);
  parts.forEach((x, i) => {
    cumulative[i] = (i > 0 ? cumulative[i - 1] : 0) + x[1];
  });
  found = { every, halfSides, cumulative };
  LOCKED_POINTS.set(source, found);
  return found;
}

/**
 * True when every vertex of `source` shares its position with at least two others, for sources of
 * at least `minVertices` vertices (false for smaller ones): a triangle soup (STL-like: each corner
 * its own vertex), or a closed mesh exported flat-shaded (each face its own vertices, at least
 * three faces at every point). Every vertex is then Locked (lockedPoints): the attribute-aware
 * simplification (without updated positions) collapses nothing at any error or target, and only
 * Prune removes triangles, by their position-welded components' size. The position-only
 * simplification then returns the same triangles and error, without the attribute quadrics;
 * lod-generator.test.ts checks that on the meshoptimizer installed. 800 flat-shaded icospheres
 * joined (1M triangles, 3M vertices): peak memory 2.95 -> 2.23 GB. A flat-shaded mesh with open
 * borders (Blender's Suzanne: its eyes) has points fewer faces share, which meshoptimizer may
 * collapse: not this case (attributesKeepAtLeast is).
 */
export function everyVertexLocked(source: LodSource, minVertices = LOCKED_CHECK_MIN_VERTICES): boolean {
  return source.positions.length / 3 >= minVertices && lockedPoints(source).every;
}

/** Prune's margin in attributesKeepAtLeast: a component is counted only when half its side is over the error by this share (float rounding in meshoptimizer's measure). */
const PRUNE_MARGIN = 0.01;

/**
 * At least how many triangles the 'attributes' mode keeps of `source` at `error` metres, whatever
 * the target, without simplifying (0 when not known: sources under `minVertices` vertices, or a
 * lock given). The triangles of three Locked points (lockedPoints) stay, unless Prune removes
 * their component: meshoptimizer removes one only when its radius about its centre is within the
 * error, and half its box's longest side is no more than that radius. A big flat-shaded mesh with
 * open borders (a 1M-triangle Suzanne exported flat: its eyes) keeps nearly all its triangles at
 * every error under its size: simplifyToError and simplifyToTriangles then leave the attribute-aware
 * call unmade where no answer of that size could be taken (1 s a call). lod-generator.test.ts
 * checks the bound against the meshoptimizer installed.
 */
export function attributesKeepAtLeast(
  source: LodSource,
  error: number,
  options: SimplifyLodOptions,
  minVertices = LOCKED_CHECK_MIN_VERTICES,
): number {
  if (options.lock || source.positions.length / 3 < minVertices) return 0;
  const { halfSides, cumulative } = lockedPoints(source);
  if (cumulative.length === 0) return 0;
  if (!simplifySettings(options).prune) return cumulative[cumulative.length - 1];
  const limit = Math.max(0, error) * (1 + PRUNE_MARGIN) + 1e-6 * source.maxSide;
  // halfSides is largest first: count those over the limit.
  let lo = 0,
    hi = halfSides.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (halfSides[mid] > limit) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? cumulative[lo - 1] : 0;
}

/** Attributes with each normal scaled back to unit length (simplifyWithUpdate interpolates them). */
function renormalized(att: Float32Array): Float32Array {
  for (let i = 0; i + 2 < att.length; i += ATTR_STRIDE) {
    const l = Math.hypot(att[i], att[i + 1], att[i + 2]);
    if (l > 0) {
      att[i] /= l;
      att[i + 1] /= l;
      att[i + 2] /= l;
    }
  }
  return att;
}

/**
 * A copy of the source whose vertices used by `out` sit where the simplifier moved their merged
 * vertex (and, in 'no-normals' mode, take its updated uv); each keeps its own normal.
 */
function moveWedges(
  source: LodSource,
  fb: FallbackBuffers,
  out: Uint32Array,
  pos: Float32Array,
  att: Float32Array | undefined,
): LodSource {
  const positions = source.positions.slice();
  const attributes = att ? source.attributes.slice() : source.attributes;
  const k = new Int32Array(source.positions.length / 3).fill(-1);
  for (let c = 0; c < fb.wedgeStart.length - 1; c++)
    for (let w = fb.wedgeStart[c]; w < fb.wedgeStart[c + 1]; w++) k[fb.wedges[w]] = c;
  for (let i = 0; i < out.length; i++) {
    const v = out[i],
      c = k[v];
    positions[v * 3] = pos[c * 3];
    positions[v * 3 + 1] = pos[c * 3 + 1];
    positions[v * 3 + 2] = pos[c * 3 + 2];
    if (att) {
      attributes[v * ATTR_STRIDE + 3] = att[c * ATTR_STRIDE + 3];
      attributes[v * ATTR_STRIDE + 4] = att[c * ATTR_STRIDE + 4];
    }
  }
  return { ...source, positions, attributes };
}

/**
 * Step 4: splits triangles over the source's welded vertices back into its faces (a triangle goes
 * to the face of its first vertex) and compacts each face's vertices.
 */
export function splitIntoFaces(
  source: LodSource,
  indices: Uint32Array,
  error: number,
  mode: SimplifyMode,
): SimplifiedLod<SimplifyMode> {
  // Each step is its own function, one loop each: V8 then optimises each loop once with its own
  // type feedback, instead of recompiling one big function as each later loop gets hot.
  const nf = source.materials.length;
  // 1. Each kept triangle's face (that of its first vertex), and the triangles per face.
  const triCount = Math.floor(indices.length / 3);
  const faceOfTri = new Int32Array(triCount);
  const perFace = new Uint32Array(nf);
  assignTriangleFaces(source.faceStart, indices, faceOfTri, perFace);
  // 2. The kept triangles grouped by face, in their order (a counting sort).
  const offset = new Uint32Array(nf + 1);
  for (let f = 0; f < nf; f++) offset[f + 1] = offset[f] + perFace[f];
  const byFace = groupByFace(faceOfTri, offset);
  // 3. Per face, its triangles with vertices numbered in first-use order.
  const local = new Int32Array(source.positions.length / 3).fill(-1);
  const used = new Uint32Array(Math.min(local.length, 3 * byFace.length));
  const faces: Face[] = [];
  let triangles = 0,
    vertices = 0;
  for (let f = 0; f < nf; f++) {
    const count = perFace[f];
    if (count === 0) {
      faces.push(emptyFace(source.materials[f]));
      continue;
    }
    const idx = new Uint32Array(count * 3);
    const n = numberFirstUse(indices, byFace, offset[f], offset[f + 1], local, used, idx);
    const face: Face = {
      material: source.materials[f],
      positions: gatherPositions(source.positions, used, n, local),
      indices: idx,
    };
    if (source.hasNormals[f]) face.normals = gatherAttribute(source.attributes, used, n, 0, 3);
    if (source.hasUvs[f]) face.uvs = gatherAttribute(source.attributes, used, n, 3, 2);
    faces.push(face);
    triangles += count;
    vertices += n;
  }
  return { lod: { faces }, triangles, vertices, simplifierError: error, mode };
}

/** splitIntoFaces step 1: a triangle's face is that of its first vertex (-1 for a degenerate one). */
function assignTriangleFaces(
  faceStart: ArrayLike<number>,
  indices: Uint32Array,
  faceOfTri: Int32Array,
  perFace: Uint32Array,
): void {
  const last = perFace.length - 1;
  for (let t = 0; t < faceOfTri.length; t++) {
    const a = indices[3 * t],
      b = indices[3 * t + 1],
      c = indices[3 * t + 2];
    if (a === b || b === c || a === c) {
      faceOfTri[t] = -1;
      continue;
    }
    // faceStart is sorted: binary search for the face owning welded vertex a.
    let lo = 0,
      hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (faceStart[mid] <= a) lo = mid;
      else hi = mid - 1;
    }
    faceOfTri[t] = lo;
    perFace[lo]++;
  }
}

/** splitIntoFaces step 2: the kept triangles ordered by face, stably. */
function groupByFace(faceOfTri: Int32Array, offset: Uint32Array): Uint32Array {
  const nf = offset.length - 1;
  const byFace = new Uint32Array(offset[nf]);
  const next = offset.slice(0, nf);
  for (let t = 0; t < faceOfTri.length; t++) {
    const f = faceOfTri[t];
    if (f >= 0) byFace[next[f]++] = t;
  }
  return byFace;
}

/**
 * splitIntoFaces step 3: the triangles byFace[from..to) with their vertices numbered in first-use
 * order into `idx`; `used` gets the source vertex of each local one, `local` the reverse (reset by
 * gatherPositions). Returns the vertex count.
 */
function numberFirstUse(
  indices: Uint32Array,
  byFace: Uint32Array,
  from: number,
  to: number,
  local: Int32Array,
  used: Uint32Array,
  idx: Uint32Array,
): number {
  let n = 0,
    k = 0;
  for (let i = from; i < to; i++) {
    const t = byFace[i];
    for (let c = 0; c < 3; c++) {
      const v = indices[3 * t + c];
      let j = local[v];
      if (j < 0) {
        j = local[v] = n;
        used[n++] = v;
      }
      idx[k++] = j;
    }
  }
  return n;
}

/** The positions of used[0..n), and `local` reset for them. */
function gatherPositions(positions: Float32Array, used: Uint32Array, n: number, local: Int32Array): Float32Array {
  const out = new Float32Array(n * 3);
  for (let j = 0; j < n; j++) {
    const v = used[j];
    local[v] = -1;
    out[j * 3] = positions[v * 3];
    out[j * 3 + 1] = positions[v * 3 + 1];
    out[j * 3 + 2] = positions[v * 3 + 2];
  }
  return out;
}

/** `width` interleaved attribute values from `at` of used[0..n) (normals at 0, UVs at 3). */
function gatherAttribute(
  attributes: Float32Array,
  used: Uint32Array,
  n: number,
  at: number,
  width: 2 | 3,
): Float32Array {
  const out = new Float32Array(n * width);
  for (let j = 0; j < n; j++) {
    const o = used[j] * ATTR_STRIDE + at;
    for (let d = 0; d < width; d++) out[j * width + d] = attributes[o + d];
  }
  return out;
}

export interface CascadeOptions extends SimplifyLodOptions {
  /** Accept a mode's result when it keeps at most this many times the triangles wanted. Default 1.8 (the viewer's allowed_ratio_drift). */
  maxRatioDrift?: number;
  /** Modes to try, in order. Default SIMPLIFY_MODES. */
  modes?: readonly SimplifyMode[];
}

export const CASCADE_DEFAULTS = { ...SIMPLIFY_LOD_DEFAULTS, maxRatioDrift: 1.8 };

/**
 * Simplifies to `targetTriangles` (error limit `targetError` metres) with the viewer's fallback
 * cascade: the first mode whose result has at least one triangle and at most maxRatioDrift times
 * the target; else the smallest non-empty result; else the last result.
 */
export function simplifyToTriangles(
  source: LodSource,
  targetTriangles: number,
  targetError: number,
  options: CascadeOptions,
): SimplifiedLod<SimplifyMode> {
  const drift = options.maxRatioDrift ?? CASCADE_DEFAULTS.maxRatioDrift;
  const modes = options.modes ?? SIMPLIFY_MODES;
  let best: SimplifiedLod<SimplifyMode> | undefined;
  let last: SimplifiedLod<SimplifyMode> | undefined;
  // An 'attributes' first known to keep more than the drift allows (attributesKeepAtLeast) is made
  // only if it could still be the smallest result, after the others (it would win a tie, as first).
  const floor = modes.length > 1 && modes[0] === 'attributes' ? attributesKeepAtLeast(source, targetError, options) : 0;
  const deferred = floor > drift * Math.max(1, targetTriangles);
  for (const mode of deferred ? modes.slice(1) : modes) {
    const r = simplifyLodSource(source, mode, targetTriangles, targetError, options);
    last = r;
    if (r.triangles > 0 && r.triangles <= drift * Math.max(1, targetTriangles)) return r;
    if (r.triangles > 0 && (!best || r.triangles < best.triangles)) best = r;
  }
  if (deferred && (!best || best.triangles >= floor)) {
    const r = simplifyLodSource(source, 'attributes', targetTriangles, targetError, options);
    if (!best || r.triangles <= best.triangles) best = r;
  }
  return best ?? last!;
}

/**
 * Whether fallback `mode` hands meshoptimizer exactly what 'attributes' does, so its result has the
 * same triangles: 'attributes' weighs no normal or texture coordinate (none there, or weight 0) and
 * locks nothing, and the fallback's merge joins no two vertices (a mesh without normals and UVs,
 * welded by position already: scans, STL and OFF files). The fallback's buffers, built here when
 * not yet, are the ones its own simplification would build.
 */
function sameAsAttributes(source: LodSource, mode: SimplifyMode, options: SimplifyLodOptions): boolean {
  if (mode === 'attributes') return true;
  if (mode === 'sloppy' || options.lock) return false;
  const { normalWeight, uvWeight } = simplifySettings(options);
  if (normalWeight > 0 && source.hasNormals.some(Boolean)) return false;
  if (uvWeight > 0 && source.hasUvs.some(Boolean)) return false;
  return fallbackBuffers(source, mode).positions.length === source.positions.length;
}

/**
 * Simplifies as far as `targetError` metres (meshoptimizer's estimate) allows, with the cascade:
 * the attribute-aware result unless it keeps more than maxRatioDrift times the triangles that
 * position-only simplification reaches at the same error; then normals are dropped, then UVs;
 * then, when position-only simplification keeps more than maxRatioDrift times what sloppy
 * simplification does, the sloppy result (its error is only an estimate: callers measure it).
 */
export function simplifyToError(
  source: LodSource,
  targetError: number,
  options: CascadeOptions,
): SimplifiedLod<SimplifyMode> {
  const drift = options.maxRatioDrift ?? CASCADE_DEFAULTS.maxRatioDrift;
  const sloppy = (options.modes ?? SIMPLIFY_MODES).includes('sloppy');
  const modes = (options.modes ?? SIMPLIFY_MODES).filter((m) => m !== 'sloppy');
  if (modes.length === 0)
    throw new SlmeshError('USAGE', 'LOD generation: error mode needs at least one of attributes, no-normals, no-uvs');
  const make = () => simplifyLodSource(source, modes[0], 0, targetError, options);
  // A big source that reduced well is not checked against position-only (saves a pass on big meshes).
  const reducedWell = (triangles: number) => source.triangles > 100_000 && triangles < 0.1 * source.triangles;
  // An 'attributes' first known to keep at least `floor` triangles (attributesKeepAtLeast) where
  // neither early return below could take it is made only when the reference leaves it in the running.
  const floor = modes.length > 1 && modes[0] === 'attributes' ? attributesKeepAtLeast(source, targetError, options) : 0;
  let first = floor > 1 && !reducedWell(floor) ? undefined : make();
  if (first && (modes.length === 1 || first.triangles <= 1 || reducedWell(first.triangles))) return first;
  const referenceMode = modes[modes.length - 1];
  // The reference would be the same simplification: same triangles, and first stands.
  if (modes[0] === 'attributes' && drift >= 1 && sameAsAttributes(source, referenceMode, options))
    return first ?? make();
  const reference = simplifyLodSource(source, referenceMode, 0, targetError, options);
  const room = drift * Math.max(1, reference.triangles);
  if (!first && floor <= room) first = make();
  if (first && first.triangles <= room) return first;
  for (const mode of modes.slice(1, -1)) {
    const r = simplifyLodSource(source, mode, 0, targetError, options);
    if (r.triangles <= room) return r;
  }
  // Last, as the viewer does: sloppy, when even position-only simplification is stuck (small
  // closed parts it cannot collapse, like a bevelled box). Its error is an estimate; callers measure.
  if (sloppy && source.triangles <= 100_000) {
    const r = simplifyLodSource(source, 'sloppy', 0, targetError, options);
    if (r.triangles > 0 && reference.triangles > drift * r.triangles) return r;
  }
  return reference;
}

/**
 * The lean variant of a LOD for far LODs: within each face, the vertices at one point become one
 * vertex (normal = the normalised sum of theirs, uv = the first one's). Same triangles, same
 * geometry, fewer vertices and so fewer bytes; hard edges shade smooth and UV seams blur, which
 * does not show at the distances where low and lowest are seen.
 */
export function weldByPosition(lod: MeshLod): MeshLod {
  return {
    faces: lod.faces.map((face) => {
      const n = Math.floor(face.positions.length / 3);
      if (n === 0 || face.indices.length < 3) return face;
      const words = new Uint32Array(n * 3);
      for (let i = 0; i < n * 3; i++) words[i] = bits(face.positions[i]);
      const first = firstOfEqualKeys(words, 3, n);
      const id = new Int32Array(n).fill(-1);
      let m = 0;
      for (let i = 0; i < n; i++) if (first[i] === i) id[i] = m++;
      if (m === n) return face;
      const positions = new Float32Array(m * 3);
      const normals = face.normals ? new Float32Array(m * 3) : undefined;
      const uvs = face.uvs ? new Float32Array(m * 2) : undefined;
      for (let i = 0; i < n; i++) {
        const j = id[first[i]];
        if (first[i] === i) {
          positions.set(face.positions.subarray(i * 3, i * 3 + 3), j * 3);
          if (uvs) uvs.set(face.uvs!.subarray(i * 2, i * 2 + 2), j * 2);
        }
        if (normals) for (let k = 0; k < 3; k++) normals[j * 3 + k] += face.normals![i * 3 + k];
      }
      if (normals) {
        for (let j = 0; j < m; j++) {
          const l = Math.hypot(normals[j * 3], normals[j * 3 + 1], normals[j * 3 + 2]);
          if (l > 0) for (let k = 0; k < 3; k++) normals[j * 3 + k] /= l;
          else normals[j * 3 + 2] = 1;
        }
      }
      const indices: number[] = [];
      for (let t = 0; t + 2 < face.indices.length; t += 3) {
        const a = id[first[face.indices[t]]],
          b = id[first[face.indices[t + 1]]],
          c = id[first[face.indices[t + 2]]];
        if (a !== b && b !== c && a !== c) indices.push(a, b, c);
      }
      const out: Face = { material: face.material, positions, indices: Uint32Array.from(indices) };
      if (normals) out.normals = normals;
      if (uvs) out.uvs = uvs;
      return out;
    }),
  };
}
