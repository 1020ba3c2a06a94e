/**
 * Streaming cost (download weight) of one mesh object, from the compressed sizes of its LOD
 * blocks and its radius, exactly as the Second Life viewer computes it.
 *
 * Guarantees: the same IEEE-754 single-precision result as the viewer. Every intermediate is
 * rounded to float32 (Math.fround) in the viewer's evaluation order, with the viewer's float
 * literals (0.03f, 512.f, F_PI, 15000.f ...) and its U32 settings converted to float. This assumes
 * the viewer was compiled without fused multiply-add contraction of these expressions.
 *
 * Source [viewer]: indra/newview/llmeshrepository.cpp LLMeshCostData::init (missing LODs take the
 * next higher LOD's bytes; bytes -> estimated triangles), getRadiusWeightedTris (the LOD circles
 * and their area weights), getRadiusBasedStreamingCost (/ MeshTriangleBudget * 15000),
 * getEstTrisForStreamingCost and getTriangleBasedStreamingCost (animated objects), and
 * indra/newview/llvovolume.cpp LLVOVolume::getStreamingCost (radius = |scale| * 0.5, the
 * ANIMATED_OBJECT_BASE_COST added once on an animated object's root). The seed
 * (mesh-streaming-cost.md) gives the older 2010 version: max area 102932, metadata discount 128
 * (STREAMING_COST_SEED_2010).
 *
 * Note: when the viewer computes the weight of a rezzed object it treats a header whose
 * lowest_lod size is <= 0 as invalid (LLMeshRepository::getCostData -> cost 0). The substitution
 * rule implemented here (spec, seed, LLMeshCostData::init) is what matters for an asset the
 * uploader writes, which always carries all four LOD blocks.
 */

import {
  ANIMATED_OBJECT_COST_PER_KTRI,
  ANIMATED_OBJECT_ENFORCE_FLOOR,
  LOD_THRESHOLD_LOW,
  LOD_THRESHOLD_LOWEST,
  LOD_THRESHOLD_MEDIUM,
  STREAMING_COST_DEFAULTS,
  STREAMING_COST_SCALAR,
  type StreamingCostSettings,
} from '../constants.js';
import { SlmeshError } from '../errors.js';
import { assignDefaults } from '../options.js';

const f32 = Math.fround;

/** F_PI as the viewer's constant: 3.14159265...f. [viewer] llmath.h */
const F_PI = f32(Math.PI);

/** Compressed LOD block sizes in bytes. 0 or undefined = missing: the next higher LOD's size is used. */
export interface LodBytes {
  high: number;
  medium?: number;
  low?: number;
  lowest?: number;
}

/** One number per LOD. */
export interface PerLod {
  high: number;
  medium: number;
  low: number;
  lowest: number;
}

export interface StreamingCostResult {
  /** False when high is missing (0 bytes): the asset is invalid and every number below is 0. */
  valid: boolean;
  /** Download weight: the viewer's value times `staticMeshDiscountFactor`. */
  streaming: number;
  /** Download weight as the viewer shows it (before `staticMeshDiscountFactor`). */
  viewerStreaming: number;
  /** Radius-weighted triangles: sum of estimated triangles times area weight (getRadiusWeightedTris). */
  weightedTriangles: number;
  /** Estimated triangles per LOD: max(bytes - metadataDiscount, minimumByteSize) / bytesPerTriangle. */
  estimatedTriangles: PerLod;
  /** Bytes per LOD after the missing-LOD substitution. */
  effectiveBytes: PerLod;
  /** Share of the region circle in which each LOD is shown (sums to 1). */
  areaWeights: PerLod;
  /**
   * The cost model's LOD circles, metres: medium from radius/0.24, low from radius/0.06, lowest
   * from radius/0.03, each capped at maxDistance (dmid, dlow, dlowest). These are NOT the runtime
   * switch distances (see lod-distances.ts), which also depend on the LOD factor.
   */
  distances: { medium: number; low: number; lowest: number };
}

/** Bytes after the viewer's missing-LOD rule (LLMeshCostData::init): 0 takes the next higher LOD. */
export function effectiveLodBytes(bytes: LodBytes): PerLod {
  const high = bytes.high || 0;
  const medium = bytes.medium || high;
  const low = bytes.low || medium;
  const lowest = bytes.lowest || low;
  return { high, medium, low, lowest };
}

/** LLMeshCostData::init: (F32)size - (F32)discount, floored at (F32)minimum, / (F32)bytesPerTriangle. */
function estimatedTriangles(bytes: number, s: StreamingCostSettings): number {
  const discounted = f32(f32(bytes) - f32(s.metadataDiscount));
  const minimum = f32(s.minimumByteSize);
  return f32((discounted > minimum ? discounted : minimum) / f32(s.bytesPerTriangle));
}

function estimatedTrianglesPerLod(b: PerLod, s: StreamingCostSettings): PerLod {
  return {
    high: estimatedTriangles(b.high, s),
    medium: estimatedTriangles(b.medium, s),
    low: estimatedTriangles(b.low, s),
    lowest: estimatedTriangles(b.lowest, s),
  };
}

/** llmin(a, b) and llclamp(a, lo, hi) with the viewer's comparison order. */
function llmin(a: number, b: number): number {
  return a < b ? a : b;
}
function llclamp(a: number, lo: number, hi: number): number {
  if (a < lo) return lo;
  if (a > hi) return hi;
  return a;
}

/**
 * Half the diagonal of the object's scale box, metres, in the viewer's float arithmetic
 * (LLVOVolume::getStreamingCost: getScale().length() * 0.5f).
 */
export function radiusFromScale(scale: readonly [number, number, number] | readonly number[]): number {
  const x = f32(scale[0]);
  const y = f32(scale[1]);
  const z = f32(scale[2]);
  const lengthSquared = f32(f32(f32(x * x) + f32(y * y)) + f32(z * z));
  return f32(f32(Math.sqrt(lengthSquared)) * 0.5);
}

/**
 * Download weight of a (static) mesh object of the given radius.
 *
 * @param bytes compressed LOD block sizes; high is required (0 => `valid: false`, cost 0).
 * @param radius 0.5 * |scale|, metres (see radiusFromScale); a negative or non-finite radius throws INPUT_INVALID.
 * @param settings overrides of STREAMING_COST_DEFAULTS (STREAMING_COST_SEED_2010 for the seed's 2010 values).
 */
export function streamingCost(
  bytes: LodBytes,
  radius: number,
  settings: Partial<StreamingCostSettings> = {},
): StreamingCostResult {
  const s: StreamingCostSettings = assignDefaults(STREAMING_COST_DEFAULTS, settings);
  if (!(radius >= 0) || !Number.isFinite(radius)) {
    throw new SlmeshError('INPUT_INVALID', `object radius must be a finite number >= 0 (got ${radius})`);
  }
  const r = f32(radius);

  // 1. The LOD circles (dlowest, dlow, dmid), capped at max_distance.
  const maxDistance = f32(s.maxDistance);
  const dlowest = llmin(f32(r / f32(LOD_THRESHOLD_LOWEST)), maxDistance);
  const dlow = llmin(f32(r / f32(LOD_THRESHOLD_LOW)), maxDistance);
  const dmid = llmin(f32(r / f32(LOD_THRESHOLD_MEDIUM)), maxDistance);
  const distances = { medium: dmid, low: dlow, lowest: dlowest };

  // 2. Missing LODs take the next higher LOD's bytes; high missing makes the asset invalid.
  const effectiveBytes = effectiveLodBytes(bytes);
  if (!(effectiveBytes.high > 0)) {
    const zero: PerLod = { high: 0, medium: 0, low: 0, lowest: 0 };
    return {
      valid: false,
      streaming: 0,
      viewerStreaming: 0,
      weightedTriangles: 0,
      estimatedTriangles: zero,
      effectiveBytes: { ...zero },
      areaWeights: { ...zero },
      distances,
    };
  }

  // 3. Bytes -> estimated triangles per LOD.
  const tris = estimatedTrianglesPerLod(effectiveBytes, s);

  // 4. Area of the ring in which each LOD is shown, clamped to [min_area, max_area].
  const maxArea = f32(s.maxArea);
  const minArea = f32(s.minArea);
  let high = llmin(f32(f32(F_PI * dmid) * dmid), maxArea);
  let mid = llmin(f32(f32(F_PI * dlow) * dlow), maxArea);
  let low = llmin(f32(f32(F_PI * dlowest) * dlowest), maxArea);
  let lowest = maxArea;
  lowest = f32(lowest - low);
  low = f32(low - mid);
  mid = f32(mid - high);
  high = llclamp(high, minArea, maxArea);
  mid = llclamp(mid, minArea, maxArea);
  low = llclamp(low, minArea, maxArea);
  lowest = llclamp(lowest, minArea, maxArea);

  // 5. Normalise to weights.
  const total = f32(f32(f32(high + mid) + low) + lowest);
  high = f32(high / total);
  mid = f32(mid / total);
  low = f32(low / total);
  lowest = f32(lowest / total);

  // 6. Weighted triangles, then / MeshTriangleBudget * 15000.
  const weighted = f32(
    f32(f32(f32(tris.high * high) + f32(tris.medium * mid)) + f32(tris.low * low)) + f32(tris.lowest * lowest),
  );
  const viewerStreaming = f32(f32(weighted / f32(s.triangleBudget)) * f32(STREAMING_COST_SCALAR));

  return {
    valid: true,
    streaming: viewerStreaming * s.staticMeshDiscountFactor,
    viewerStreaming,
    weightedTriangles: weighted,
    estimatedTriangles: tris,
    effectiveBytes,
    areaWeights: { high, medium: mid, low, lowest },
    distances,
  };
}

/** Settings of the animated-object (animesh) cost: the streaming settings plus its two coefficients. */
export interface AnimeshCostSettings extends StreamingCostSettings {
  /** Cost per thousand charged triangles. Default ANIMATED_OBJECT_COST_PER_KTRI = 1.5. [viewer] */
  costPerKTri: number;
  /** A LOD may keep this many triangles uncharged however small the previous one. Default 64. [viewer] */
  enforceFloor: number;
}

export const ANIMESH_COST_DEFAULTS: Readonly<AnimeshCostSettings> = Object.freeze({
  ...STREAMING_COST_DEFAULTS,
  costPerKTri: ANIMATED_OBJECT_COST_PER_KTRI,
  enforceFloor: ANIMATED_OBJECT_ENFORCE_FLOOR,
});

export interface AnimeshCostResult {
  /** False when high is missing (0 bytes); the cost is then 0. */
  valid: boolean;
  /**
   * Download weight of this object of an animated object (getTriangleBasedStreamingCost). It does
   * NOT include ANIMATED_OBJECT_BASE_COST (15), which the viewer adds once, on the animated
   * object's root prim: the caller adds it once per animated linkset.
   */
  streaming: number;
  /** Triangles charged: high's plus each lower LOD's excess over its allowance (getEstTrisForStreamingCost). */
  chargedTriangles: number;
  /** Estimated triangles per LOD, as streamingCost. */
  estimatedTriangles: PerLod;
  /** Bytes per LOD after the missing-LOD substitution. */
  effectiveBytes: PerLod;
}

/**
 * Download weight of one mesh of an animated object (animesh): triangle based, independent of
 * the radius. Each lower LOD may hold half the previous allowance (never less than 64 triangles,
 * never more than it has) without charge; the excess is charged. Cost = 1.5 * 0.001 * charged.
 * Add ANIMATED_OBJECT_BASE_COST once for the animated root yourself.
 */
export function animeshStreamingCost(bytes: LodBytes, settings: Partial<AnimeshCostSettings> = {}): AnimeshCostResult {
  const s: AnimeshCostSettings = assignDefaults(ANIMESH_COST_DEFAULTS, settings);
  const effectiveBytes = effectiveLodBytes(bytes);
  if (!(effectiveBytes.high > 0)) {
    const zero: PerLod = { high: 0, medium: 0, low: 0, lowest: 0 };
    return { valid: false, streaming: 0, chargedTriangles: 0, estimatedTriangles: zero, effectiveBytes: { ...zero } };
  }
  const tris = estimatedTrianglesPerLod(effectiveBytes, s);

  // 1. getEstTrisForStreamingCost: walk medium, low, lowest.
  const floor = f32(s.enforceFloor);
  let charged = tris.high;
  let allowed = tris.high;
  for (const lodTris of [tris.medium, tris.low, tris.lowest]) {
    allowed = llclamp(f32(allowed / 2), floor, lodTris);
    const excess = f32(lodTris - allowed);
    if (excess > 0) charged = f32(charged + excess);
  }

  // 2. getTriangleBasedStreamingCost: ANIMATED_OBJECT_COST_PER_KTRI * 0.001f * charged.
  const streaming = f32(f32(f32(s.costPerKTri) * f32(0.001)) * charged);
  return { valid: true, streaming, chargedTriangles: charged, estimatedTriangles: tris, effectiveBytes };
}
