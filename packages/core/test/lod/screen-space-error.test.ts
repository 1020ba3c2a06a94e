import fc from 'fast-check';
import { PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { isSlmeshError } from '../../src/errors.js';
import { lodSwitchDistances } from '../../src/cost/lod-distances.js';
import {
  errorForPixels,
  lodErrorBounds,
  lodScreenErrors,
  metresPerPixel,
  screenSpaceError,
  SCREEN_SPACE_DEFAULTS,
} from '../../src/lod/screen-space-error.js';

describe('screen-space error', () => {
  it('gives the pixels a perspective camera (1080 px tall, 60 degrees) really draws an error across', () => {
    // An independent projection: three.js's camera, a segment of length e facing it at distance d.
    const camera = new PerspectiveCamera(SCREEN_SPACE_DEFAULTS.verticalFovDegrees, 16 / 9, 0.01, 1e5);
    camera.updateMatrixWorld();
    const pixelsOf = (e: number, d: number) => {
      const a = new Vector3(0, -e / 2, -d).project(camera);
      const b = new Vector3(0, e / 2, -d).project(camera);
      return ((b.y - a.y) / 2) * SCREEN_SPACE_DEFAULTS.viewportHeightPx;
    };
    fc.assert(
      fc.property(
        fc.double({ min: 1e-3, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 500, noNaN: true }),
        (e, d) => {
          expect(screenSpaceError(e, d)).toBeCloseTo(pixelsOf(e, d), 4);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('scales with the viewport and the field of view', () => {
    expect(screenSpaceError(0.05, 10, { viewportHeightPx: 2160 })).toBeCloseTo(2 * screenSpaceError(0.05, 10), 9);
    // A narrower field of view magnifies.
    expect(screenSpaceError(0.05, 10, { verticalFovDegrees: 30 })).toBeGreaterThan(screenSpaceError(0.05, 10));
  });

  it('errorForPixels inverts screenSpaceError', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        fc.double({ min: 0.1, max: 1000, noNaN: true }),
        (px, d) => {
          expect(screenSpaceError(errorForPixels(px, d), d)).toBeCloseTo(px, 9);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives each lower LOD the error that is maxErrorPx pixels at its switch distance', () => {
    const r = 1.5,
      F = 2;
    const b = lodErrorBounds(r, F, 1);
    const d = lodSwitchDistances(r, F);
    expect(b.distances).toEqual(d);
    for (const n of ['medium', 'low', 'lowest'] as const) expect(b.maxError[n]).toBeCloseTo(metresPerPixel(d[n]), 12);
    // Farther LODs may be coarser.
    expect(b.maxError.medium).toBeLessThan(b.maxError.low);
    expect(b.maxError.low).toBeLessThan(b.maxError.lowest);
    // Two pixels allow twice the error.
    expect(lodErrorBounds(r, F, 2).maxError.lowest).toBeCloseTo(2 * b.maxError.lowest, 12);
  });

  it('beyond the close-range ramp, the allowed error is a fixed fraction of the radius', () => {
    // D = F r / (t pi/3 (1 - 0.1 F)), so error / r = px * 2 tan30 F / (1080 t pi/3 (1 - 0.1F)).
    for (const r of [5, 10, 20]) {
      const b = lodErrorBounds(r, 2, 1);
      expect(b.maxError.lowest / r).toBeCloseTo(
        (2 * Math.tan(Math.PI / 6) * 2) / (1080 * 0.03 * (Math.PI / 3) * 0.8),
        9,
      );
    }
  });

  it('a LOD that never shows (LOD factor 10 or more) has no bound', () => {
    const b = lodErrorBounds(1, 10, 1);
    expect(b.maxError.lowest).toBe(Infinity);
    expect(lodScreenErrors(1, 10, { medium: 1, low: 1, lowest: 1 }).worst).toBe(0);
  });

  it('lodScreenErrors reports the worst LOD', () => {
    const d = lodSwitchDistances(2, 2);
    const e = {
      medium: metresPerPixel(d.medium) * 0.5,
      low: metresPerPixel(d.low) * 3,
      lowest: metresPerPixel(d.lowest) * 1,
    };
    const s = lodScreenErrors(2, 2, e);
    expect(s.px.medium).toBeCloseTo(0.5, 9);
    expect(s.px.low).toBeCloseTo(3, 9);
    expect(s.worst).toBeCloseTo(3, 9);
    expect(s.worstLod).toBe('low');
  });

  it('rejects meaningless settings with a usage error', () => {
    for (const bad of [
      () => metresPerPixel(1, { viewportHeightPx: 0 }),
      () => metresPerPixel(1, { verticalFovDegrees: 180 }),
      () => lodErrorBounds(1, 2, -1),
      () => lodErrorBounds(1, 2, NaN),
    ]) {
      try {
        bad();
        expect.unreachable();
      } catch (e) {
        expect(isSlmeshError(e) && e.code).toBe('USAGE');
      }
    }
  });
});
