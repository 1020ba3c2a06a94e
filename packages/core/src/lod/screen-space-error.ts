/**
 * Screen-space error: how many pixels a geometric error covers when the object is seen from a
 * given distance, and, inversely, how much geometric error a LOD may have so that it stays under
 * a pixel bound at the distance where Second Life starts to show it.
 *
 * Model: a pinhole camera with a viewport `viewportHeightPx` pixels tall and a vertical field of
 * view `verticalFovDegrees`. At distance d one pixel spans 2 d tan(fov / 2) / height metres, so a
 * geometric error e (metres) covers e * height / (2 d tan(fov / 2)) pixels. Reference: a 1080 px
 * tall viewport and 60 degrees, Second Life's default camera field of view
 * (DEFAULT_FIELD_OF_VIEW = 60 degrees [viewer] indra/newview/llviewercamera.h).
 *
 * Why the field of view hardly matters: when the user zooms, the viewer scales the LOD factor by
 * DEFAULT_FIELD_OF_VIEW / current FOV (LLVOVolume::calcLOD), so switch distances grow as pixels
 * shrink, and the error in pixels at a switch distance is the same at every zoom (to first order
 * in tan). Only the viewport height and RenderVolumeLODFactor change it.
 *
 * A LOD is shown from its switch distance outward (lod-distances.ts), so its worst screen-space
 * error is at that distance: the bound for LOD i is maxErrorPx pixels at switchDistance(i).
 *
 * The high LOD is shown from the camera outward, so it has no switch distance: it is judged at a
 * near distance, by default the **fill distance**, where the object's bounding sphere just fills
 * the view's height (radius / sin(fov / 2), twice the radius at 60 degrees). Closer than that the
 * creator sees only part of the object.
 */

import { lodSwitchDistances, type LodDistanceOptions, type LodSwitchDistances } from '../cost/lod-distances.js';
import { SlmeshError } from '../errors.js';
import { assignDefaults } from '../options.js';

/** Second Life's default camera field of view, degrees. [viewer] llviewercamera.h DEFAULT_FIELD_OF_VIEW */
export const SL_DEFAULT_FIELD_OF_VIEW_DEGREES = 60;
/** Reference viewport height for screen-space errors, pixels (a 1080p screen). [slmesh] */
export const REFERENCE_VIEWPORT_HEIGHT_PX = 1080;

export interface ScreenSpaceSettings {
  /** Viewport height, pixels. Default 1080. */
  viewportHeightPx: number;
  /** Vertical field of view, degrees. Default 60 (Second Life's default camera). */
  verticalFovDegrees: number;
}

export const SCREEN_SPACE_DEFAULTS: Readonly<ScreenSpaceSettings> = Object.freeze({
  viewportHeightPx: REFERENCE_VIEWPORT_HEIGHT_PX,
  verticalFovDegrees: SL_DEFAULT_FIELD_OF_VIEW_DEGREES,
});

function settingsOf(s: Partial<ScreenSpaceSettings> = {}): ScreenSpaceSettings {
  const out = assignDefaults(SCREEN_SPACE_DEFAULTS, s);
  if (!(out.viewportHeightPx > 0) || !(out.verticalFovDegrees > 0 && out.verticalFovDegrees < 180)) {
    throw new SlmeshError(
      'USAGE',
      `screen-space settings: viewport height must be > 0 and field of view in (0, 180) degrees (got ${out.viewportHeightPx} px, ${out.verticalFovDegrees} degrees)`,
    );
  }
  return out;
}

/** Metres one pixel spans at `distance` metres from the camera. */
export function metresPerPixel(distance: number, settings: Partial<ScreenSpaceSettings> = {}): number {
  const s = settingsOf(settings);
  return (2 * distance * Math.tan((s.verticalFovDegrees * Math.PI) / 360)) / s.viewportHeightPx;
}

/** Pixels covered by a geometric error of `error` metres seen from `distance` metres (Infinity at distance 0 unless error is 0). */
export function screenSpaceError(error: number, distance: number, settings: Partial<ScreenSpaceSettings> = {}): number {
  if (error === 0) return 0;
  const m = metresPerPixel(distance, settings);
  return m > 0 ? error / m : Infinity;
}

/** Camera distance, metres, at which a bounding sphere of `radius` metres just fills the view's height (radius / sin(fov / 2)). */
export function fillDistance(radius: number, settings: Partial<ScreenSpaceSettings> = {}): number {
  const s = settingsOf(settings);
  return radius / Math.sin((s.verticalFovDegrees * Math.PI) / 360);
}

/** Geometric error, metres, that covers `pixels` pixels at `distance` metres. */
export function errorForPixels(pixels: number, distance: number, settings: Partial<ScreenSpaceSettings> = {}): number {
  return pixels * metresPerPixel(distance, settings);
}

/** Per lower LOD: a number (metres or pixels). */
export interface PerLowerLod {
  medium: number;
  low: number;
  lowest: number;
}

export const LOWER_LODS = ['medium', 'low', 'lowest'] as const;
export type LowerLodName = (typeof LOWER_LODS)[number];

export interface LodErrorBounds {
  /** Camera distances, metres, at which each lower LOD starts to show. */
  distances: LodSwitchDistances;
  /** Largest geometric error, metres, each LOD may have to stay within the pixel bound at its switch distance (Infinity when it never shows). */
  maxError: PerLowerLod;
}

/**
 * Geometric error bounds for the lower LODs of an object of `radius` metres (0.5 * |scale|) seen
 * by a viewer with RenderVolumeLODFactor `lodFactor`, for a screen-space bound of `maxErrorPx`.
 */
export function lodErrorBounds(
  radius: number,
  lodFactor: number,
  maxErrorPx: number,
  settings: Partial<ScreenSpaceSettings> = {},
  distanceOptions: LodDistanceOptions = {},
): LodErrorBounds {
  if (!(maxErrorPx >= 0) || !Number.isFinite(maxErrorPx))
    throw new SlmeshError('USAGE', `maximum screen-space error must be a number >= 0 pixels (got ${maxErrorPx})`);
  const distances = lodSwitchDistances(radius, lodFactor, distanceOptions);
  const bound = (d: number) => (Number.isFinite(d) ? errorForPixels(maxErrorPx, d, settings) : Infinity);
  return {
    distances,
    maxError: { medium: bound(distances.medium), low: bound(distances.low), lowest: bound(distances.lowest) },
  };
}

/** The screen-space error of each lower LOD at its switch distance, and the worst of them. */
export function lodScreenErrors(
  radius: number,
  lodFactor: number,
  errors: PerLowerLod,
  settings: Partial<ScreenSpaceSettings> = {},
  distanceOptions: LodDistanceOptions = {},
): { px: PerLowerLod; worst: number; worstLod: LowerLodName } {
  const d = lodSwitchDistances(radius, lodFactor, distanceOptions);
  const px: PerLowerLod = {
    medium: Number.isFinite(d.medium) ? screenSpaceError(errors.medium, d.medium, settings) : 0,
    low: Number.isFinite(d.low) ? screenSpaceError(errors.low, d.low, settings) : 0,
    lowest: Number.isFinite(d.lowest) ? screenSpaceError(errors.lowest, d.lowest, settings) : 0,
  };
  let worstLod: LowerLodName = 'medium';
  for (const n of LOWER_LODS) if (px[n] > px[worstLod]) worstLod = n;
  return { px, worst: px[worstLod], worstLod };
}
