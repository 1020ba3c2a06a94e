/**
 * Which LOD a viewer shows at a given camera distance, and the distances at which each LOD
 * starts to show, for a given RenderVolumeLODFactor F.
 *
 * Model (spec section 2) [viewer: indra/newview/llvovolume.cpp LLVOVolume::calcLOD and
 * computeLODDetail, indra/llmath/llvolumemgr.cpp LLVolumeLODGroup::getDetailFromTan]:
 *
 *     d = distance * (1 - F*0.1)                  (sDistanceFactor)
 *     ramp = 2F; if d < ramp: d = (d/ramp)^2 * ramp   ("boost LOD when you're REALLY close")
 *     d = d * pi/3
 *     tan = F * radius / d
 *     tan <= 0.03 -> lowest; <= 0.06 -> low; <= 0.24 -> medium; else high
 *
 * The default is this formula in exact (double) arithmetic: continuous, and inverted in closed
 * form by lodSwitchDistances. `viewerRounding: true` follows the viewer's float32 arithmetic and its
 * ll_round(x, 0.01) steps: the camera distance is rounded to 0.01 m (LLDrawable::updateDistance,
 * mDistanceWRTCamera) BEFORE the factor and the ramp; then the adjusted distance and the radius are
 * rounded to 0.01 (calcLOD's call to computeLODDetail), and the tangent to 0.01 before the
 * threshold test. Rounding the tangent is what matters: the viewer switches when the rounded
 * tangent reaches the threshold, i.e. when the true tangent falls below threshold + 0.005 (0.035,
 * 0.065, 0.245), so it switches a little nearer than the continuous formula (beyond the close-range
 * ramp: about 14 % nearer for lowest, 8 % for low, 2 % for medium). Radii under 0.005 m round to 0, which the viewer then
 * shows at lowest from any distance.
 *
 * Not modelled: the FOV correction (lod_factor *= DEFAULT_FIELD_OF_VIEW / camera FOV, 1 at the
 * default FOV), rigged meshes (radius from the avatar's animated box), HUDs (always high), and
 * the selection debug override. The viewer clamps F to [0.01, 4] (Firestorm: 8); for F >= 10,
 * 1 - F*0.1 <= 0 and the formula is meaningless: we show high at every distance (switch
 * distances Infinity). At distance 0 (the viewer skips the computation) we answer high.
 *
 * These runtime distances differ from the cost model's circles radius/0.24, /0.06, /0.03
 * (streaming-cost.ts `distances`): at F = 1 the viewer switches about 6 % farther
 * (1 / (0.9 * pi/3)), at F = 2 about 2.39 times farther.
 */

import {
  LOD_DISTANCE_FACTOR_PER_LOD_FACTOR,
  LOD_DISTANCE_PI_FRACTION,
  LOD_RAMP_PER_LOD_FACTOR,
  LOD_ROUNDING_STEP,
  LOD_THRESHOLD_LOW,
  LOD_THRESHOLD_LOWEST,
  LOD_THRESHOLD_MEDIUM,
} from '../constants.js';
import { SlmeshError } from '../errors.js';
import type { LodName } from '../types.js';

export interface LodDistanceOptions {
  /**
   * Follow the viewer's float32 arithmetic and its rounding of distance, radius and tangent to
   * 0.01 (see the file comment). Default false: the continuous formula of the spec.
   */
  viewerRounding?: boolean;
}

/** Camera distance, metres, at which each LOD begins to show; high shows from 0 up to `medium`. */
export interface LodSwitchDistances {
  medium: number;
  low: number;
  lowest: number;
}

const f32 = Math.fround;

/** LOD index as the viewer numbers them: 0 lowest .. 3 high. */
const LOD_BY_INDEX: readonly LodName[] = ['lowest', 'low', 'medium', 'high'];

function checkArguments(radius: number, lodFactor: number): void {
  if (!(radius >= 0) || !Number.isFinite(radius)) {
    throw new SlmeshError('USAGE', `radius must be a finite number >= 0 (got ${radius})`);
  }
  if (!(lodFactor > 0) || !Number.isFinite(lodFactor)) {
    throw new SlmeshError('USAGE', `LOD factor must be a finite number > 0 (got ${lodFactor})`);
  }
}

/** ll_round(F32 val, F32 nearest) = F32(floor(val * (1.0f / nearest) + 0.5f)) * nearest. [viewer] llmath.h */
function llRound(val: number, nearest: number): number {
  const n = f32(nearest);
  return f32(Math.floor(f32(f32(val * f32(1 / n)) + 0.5)) * n);
}

/** LLVolumeLODGroup::getDetailFromTan: first threshold the tangent does not exceed; NaN -> high. */
function detailFromTan(tan: number, thresholds: readonly [number, number, number]): number {
  for (let i = 0; i < 3; i++) {
    if (tan <= thresholds[i]) return i;
  }
  return 3;
}

const CONTINUOUS_THRESHOLDS: readonly [number, number, number] = [
  LOD_THRESHOLD_LOWEST,
  LOD_THRESHOLD_LOW,
  LOD_THRESHOLD_MEDIUM,
];
/** mDetailThresholds as floats: 0.03f, 2*0.03f, 8*0.03f. */
const VIEWER_THRESHOLDS: readonly [number, number, number] = [
  f32(LOD_THRESHOLD_LOWEST),
  f32(LOD_THRESHOLD_LOW),
  f32(LOD_THRESHOLD_MEDIUM),
];

function lodIndexContinuous(radius: number, distance: number, lodFactor: number): number {
  const k = 1 - lodFactor * LOD_DISTANCE_FACTOR_PER_LOD_FACTOR;
  if (!(distance > 0) || k <= 0) return 3;
  // 1. Scale by the distance factor, 2. ramp down close to the camera, 3. times pi/3.
  let d = distance * k;
  const ramp = LOD_RAMP_PER_LOD_FACTOR * lodFactor;
  if (d < ramp) d = (d / ramp) * (d / ramp) * ramp;
  d *= LOD_DISTANCE_PI_FRACTION;
  // 4. The tangent against the thresholds.
  return detailFromTan((lodFactor * radius) / d, CONTINUOUS_THRESHOLDS);
}

function lodIndexViewer(radius: number, distance: number, lodFactor: number): number {
  const factor = f32(lodFactor);
  const distanceFactor = f32(1 - f32(factor * f32(LOD_DISTANCE_FACTOR_PER_LOD_FACTOR)));
  if (distanceFactor <= 0) return 3;
  // 1. LLDrawable::updateDistance: mDistanceWRTCamera = ll_round(|pos|, 0.01).
  let d = llRound(f32(distance), LOD_ROUNDING_STEP);
  if (!(d > 0)) return 3; // calcLOD returns early; we answer high.
  // 2. calcLOD: distance *= sDistanceFactor; the ramp; distance *= F_PI/3.f.
  d = f32(d * distanceFactor);
  const ramp = f32(factor * LOD_RAMP_PER_LOD_FACTOR);
  if (d < ramp) {
    d = f32(d * f32(1 / ramp));
    d = f32(d * d);
    d = f32(d * ramp);
  }
  d = f32(d * f32(f32(Math.PI) / 3));
  // 3. computeLODDetail(ll_round(distance, 0.01f), ll_round(radius, 0.01f), lod_factor).
  const dr = llRound(d, LOD_ROUNDING_STEP);
  const rr = llRound(f32(radius), LOD_ROUNDING_STEP);
  const tan = f32(f32(factor * rr) / dr);
  return detailFromTan(llRound(tan, LOD_ROUNDING_STEP), VIEWER_THRESHOLDS);
}

function lodIndexAt(radius: number, distance: number, lodFactor: number, viewerRounding: boolean): number {
  return viewerRounding ? lodIndexViewer(radius, distance, lodFactor) : lodIndexContinuous(radius, distance, lodFactor);
}

/**
 * The LOD a viewer with RenderVolumeLODFactor `lodFactor` shows for an object of `radius` metres
 * (0.5 * |scale|) seen from `distance` metres.
 */
export function lodAtDistance(
  radius: number,
  distance: number,
  lodFactor: number,
  opts: LodDistanceOptions = {},
): LodName {
  checkArguments(radius, lodFactor);
  return LOD_BY_INDEX[lodIndexAt(radius, distance, lodFactor, opts.viewerRounding ?? false)];
}

/** Continuous model: the distance at which the tangent falls to `threshold` (closed-form inverse). */
function continuousSwitch(radius: number, lodFactor: number, threshold: number): number {
  const k = 1 - lodFactor * LOD_DISTANCE_FACTOR_PER_LOD_FACTOR;
  if (k <= 0) return Infinity;
  // tan <= t  <=>  ramped d >= g, with g the adjusted distance before the pi/3 factor.
  const g = (lodFactor * radius) / (threshold * LOD_DISTANCE_PI_FRACTION);
  const ramp = LOD_RAMP_PER_LOD_FACTOR * lodFactor;
  // Invert the ramp: above it d = g, below it d^2 / ramp = g.
  const d = g >= ramp ? g : Math.sqrt(g * ramp);
  return d / k;
}

/** Viewer-rounding model: smallest distance showing LOD index <= level, by bisection (the LOD never rises with distance). */
function viewerSwitch(radius: number, lodFactor: number, level: number): number {
  if (f32(1 - f32(f32(lodFactor) * f32(LOD_DISTANCE_FACTOR_PER_LOD_FACTOR))) <= 0) return Infinity;
  const lower = (d: number) => lodIndexViewer(radius, d, lodFactor) <= level;
  // 1. An upper bound: start past the continuous switch for threshold + 0.005 and double.
  const t = CONTINUOUS_THRESHOLDS[level];
  let hi = continuousSwitch(radius, lodFactor, t + LOD_ROUNDING_STEP / 2) * 2 + 1;
  for (let i = 0; !lower(hi); i++) {
    if (i > 2000 || !Number.isFinite(hi)) return Infinity;
    hi *= 2;
  }
  // 2. Bisect: lo shows a higher LOD (distance 0 shows high), hi shows this LOD or a lower one.
  let lo = 0;
  for (let i = 0; i < 2000; i++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (lower(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The camera distances at which medium, low and lowest begin to show (high is shown from 0 up
 * to `medium`). Continuous model: exact inverse of the formula (at the returned distance the
 * lower LOD shows). With `viewerRounding`: the distance where the viewer's rounded computation
 * changes LOD, found by bisection to the last bit. A LOD that is skipped gets the distance of the
 * next one. Infinity when the LOD is never reached (F >= 10).
 */
export function lodSwitchDistances(
  radius: number,
  lodFactor: number,
  opts: LodDistanceOptions = {},
): LodSwitchDistances {
  checkArguments(radius, lodFactor);
  if (opts.viewerRounding) {
    return {
      medium: viewerSwitch(radius, lodFactor, 2),
      low: viewerSwitch(radius, lodFactor, 1),
      lowest: viewerSwitch(radius, lodFactor, 0),
    };
  }
  return {
    medium: continuousSwitch(radius, lodFactor, LOD_THRESHOLD_MEDIUM),
    low: continuousSwitch(radius, lodFactor, LOD_THRESHOLD_LOW),
    lowest: continuousSwitch(radius, lodFactor, LOD_THRESHOLD_LOWEST),
  };
}
