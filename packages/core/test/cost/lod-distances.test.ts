import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSlmeshError } from '../../src/errors.js';
import { lodAtDistance, lodSwitchDistances } from '../../src/cost/lod-distances.js';
import { streamingCost } from '../../src/cost/streaming-cost.js';
import type { LodName } from '../../src/types.js';

const INDEX: Record<LodName, number> = { lowest: 0, low: 1, medium: 2, high: 3 };
const LEVELS = [
  ['medium', 2],
  ['low', 1],
  ['lowest', 0],
] as const;

describe('cost-model circles (seed worked example)', () => {
  it('R = 10 m: medium from ~42 m, low from 166.67 m, lowest from 333.3 m (radius/0.24, /0.06, /0.03)', () => {
    // The seed: "high 0 to 42 m, mid 42 to 166.67 m, low 166.67 to 333.3 m, lowest beyond".
    // 10/0.24 = 41.67 (the seed rounds it to 42 and mislabels 166.67 as 10/0.24).
    const d = streamingCost({ high: 1000 }, 10).distances;
    expect(d.medium).toBeCloseTo(41.667, 2);
    expect(d.low).toBeCloseTo(166.67, 2);
    expect(d.lowest).toBeCloseTo(333.33, 2);
  });

  it('differ from the runtime switch distances, which depend on the LOD factor', () => {
    const cost = streamingCost({ high: 1000 }, 10).distances;
    const f1 = lodSwitchDistances(10, 1);
    // F = 1, beyond the ramp: D = R / t / (0.9 * pi/3), about 6 % farther than the cost circle.
    const k = 1 / (0.9 * (Math.PI / 3));
    expect(f1.medium).toBeCloseTo(cost.medium * k, 3);
    expect(f1.low).toBeCloseTo(cost.low * k, 3);
    expect(f1.lowest).toBeCloseTo(cost.lowest * k, 3);
    expect(f1.medium).toBeCloseTo(44.2097, 3);
  });
});

describe('lodAtDistance', () => {
  it('follows the spec formula', () => {
    // R = 10, F = 1: d = 0.9 D; d >= 2 so no ramp; tan = 10 / (0.9 D pi/3).
    expect(lodAtDistance(10, 10, 1)).toBe('high');
    expect(lodAtDistance(10, 44, 1)).toBe('high'); // tan = 0.2411
    expect(lodAtDistance(10, 44.5, 1)).toBe('medium'); // tan = 0.2384
    expect(lodAtDistance(10, 176, 1)).toBe('medium'); // tan = 0.0603
    expect(lodAtDistance(10, 177, 1)).toBe('low');
    expect(lodAtDistance(10, 353, 1)).toBe('low');
    expect(lodAtDistance(10, 354, 1)).toBe('lowest');
    expect(lodAtDistance(10, 0, 1)).toBe('high');
  });

  it('boosts LOD close to the camera (the ramp below 2F metres)', () => {
    // R = 0.05, F = 2: g = 2*0.05 / (0.24 pi/3) = 0.39789 < ramp 4, so d = sqrt(0.39789 * 4) = 1.26158
    // and D = 1.26158 / 0.8 = 1.57697 m (without the ramp it would be 0.39789 / 0.8 = 0.497 m).
    const d = lodSwitchDistances(0.05, 2);
    expect(d.medium).toBeCloseTo(1.57697, 4);
    expect(lodAtDistance(0.05, 1.55, 2)).toBe('high');
    expect(lodAtDistance(0.05, 1.6, 2)).toBe('medium');
  });

  it('viewer rounding switches a little nearer (tangent rounded to 0.01)', () => {
    // Beyond the ramp, lowest shows once the rounded tangent is 0.03, i.e. tan < 0.035.
    const exact = lodSwitchDistances(10, 1);
    const viewer = lodSwitchDistances(10, 1, { viewerRounding: true });
    expect(viewer.lowest / exact.lowest).toBeCloseTo(0.03 / 0.035, 3);
    expect(viewer.low / exact.low).toBeCloseTo(0.06 / 0.065, 3);
    expect(viewer.medium / exact.medium).toBeCloseTo(0.24 / 0.245, 3);
    expect(lodAtDistance(10, 320, 1)).toBe('low');
    expect(lodAtDistance(10, 320, 1, { viewerRounding: true })).toBe('lowest');
  });

  it('viewer rounding: radii under 0.005 m round to 0 and show lowest', () => {
    // R = 4 mm, F = 1, 0.2 m away: adjusted distance 0.18 -> ramp (0.09^2 * 2 = 0.0162) -> * pi/3 = 0.01696;
    // continuous tan = 0.004 / 0.01696 = 0.236 (medium); the viewer rounds the radius to 0: tan 0 (lowest).
    expect(lodAtDistance(0.004, 0.2, 1)).toBe('medium');
    expect(lodAtDistance(0.004, 0.2, 1, { viewerRounding: true })).toBe('lowest');
  });

  it('F >= 10 never switches', () => {
    expect(lodAtDistance(1, 1e6, 10)).toBe('high');
    expect(lodSwitchDistances(1, 10)).toEqual({ medium: Infinity, low: Infinity, lowest: Infinity });
    expect(lodSwitchDistances(1, 12, { viewerRounding: true })).toEqual({
      medium: Infinity,
      low: Infinity,
      lowest: Infinity,
    });
  });

  it('rejects a non-positive LOD factor or a negative radius', () => {
    for (const call of [
      () => lodAtDistance(1, 1, 0),
      () => lodSwitchDistances(-1, 1),
      () => lodAtDistance(Number.NaN, 1, 1),
    ]) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(isSlmeshError(error) && error.code).toBe('USAGE');
    }
  });
});

describe('lodSwitchDistances', () => {
  it('are ordered: medium <= low <= lowest', () => {
    for (const viewerRounding of [false, true]) {
      const d = lodSwitchDistances(2.5, 1.25, { viewerRounding });
      expect(d.medium).toBeLessThanOrEqual(d.low);
      expect(d.low).toBeLessThanOrEqual(d.lowest);
    }
  });

  it('just below a switch distance shows the higher LOD, just above the lower one (property)', () => {
    for (const viewerRounding of [false, true]) {
      fc.assert(
        fc.property(
          fc.double({ min: 0.001, max: 64, noNaN: true }),
          fc.double({ min: 0.01, max: 9.9, noNaN: true }),
          (radius, lodFactor) => {
            const d = lodSwitchDistances(radius, lodFactor, { viewerRounding });
            for (const [name, level] of LEVELS) {
              const at = d[name];
              expect(Number.isFinite(at)).toBe(true);
              if (at > 0)
                expect(INDEX[lodAtDistance(radius, at * (1 - 1e-9), lodFactor, { viewerRounding })]).toBeGreaterThan(
                  level,
                );
              expect(
                INDEX[lodAtDistance(radius, at * (1 + 1e-9) + 1e-12, lodFactor, { viewerRounding })],
              ).toBeLessThanOrEqual(level);
            }
          },
        ),
        { numRuns: 400 },
      );
    }
  });

  it("viewer rounding: the switch falls on the viewer's 0.01 m distance grid (x.xx5 m)", () => {
    const d = lodSwitchDistances(10, 1, { viewerRounding: true });
    // Up to float32 resolution of the distance (3e-5 m at 300 m).
    for (const at of [d.medium, d.low, d.lowest]) {
      expect(Math.abs(at * 100 - Math.round(at * 100 - 0.5) - 0.5)).toBeLessThan(1e-2);
    }
  });
});
