import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANIMATED_OBJECT_BASE_COST,
  STREAMING_COST_DEFAULTS,
  STREAMING_COST_SEED_2010,
  type StreamingCostSettings,
} from '../../src/constants.js';
import { animeshStreamingCost, radiusFromScale, streamingCost, type LodBytes } from '../../src/cost/streaming-cost.js';

/** Independent double-precision version of the viewer's formula (spec section 1), for comparison. */
function referenceCost(bytes: LodBytes, radius: number, s: StreamingCostSettings = STREAMING_COST_DEFAULTS): number {
  const high = bytes.high;
  const medium = bytes.medium || high;
  const low = bytes.low || medium;
  const lowest = bytes.lowest || low;
  const tris = [lowest, low, medium, high].map(
    (b) => Math.max(b - s.metadataDiscount, s.minimumByteSize) / s.bytesPerTriangle,
  );
  const dLowest = Math.min(radius / 0.03, s.maxDistance);
  const dLow = Math.min(radius / 0.06, s.maxDistance);
  const dMid = Math.min(radius / 0.24, s.maxDistance);
  const H = Math.min(Math.PI * dMid * dMid, s.maxArea);
  const M = Math.min(Math.PI * dLow * dLow, s.maxArea);
  const L = Math.min(Math.PI * dLowest * dLowest, s.maxArea);
  const clamp = (a: number) => Math.min(Math.max(a, s.minArea), s.maxArea);
  const areas = [clamp(s.maxArea - L), clamp(L - M), clamp(M - H), clamp(H)];
  const total = areas[0] + areas[1] + areas[2] + areas[3];
  let weighted = 0;
  for (let i = 0; i < 4; i++) weighted += (tris[i] * areas[i]) / total;
  return (weighted / s.triangleBudget) * 15000;
}

const isFloat32 = (x: number) => Math.fround(x) === x;

describe('streamingCost', () => {
  it('hand-worked example: bytes 10000/3000/1000/500, radius 2.5 m', () => {
    // Estimated triangles, (bytes - 384) / 16: high 9616/16 = 601, medium 2616/16 = 163.5,
    // low 616/16 = 38.5, lowest 116/16 = 7.25 (all exact in float32).
    // Circles: dmid = 2.5/0.24 = 10.41667, dlow = 2.5/0.06 = 41.66667, dlowest = 2.5/0.03 = 83.33333.
    // pi r^2 = pi * 6.25 = 19.634954:
    //   high area   = 19.634954 / 0.0576                 =   340.8846
    //   mid area    = 19.634954 * (1/0.0036 - 1/0.0576)  =  5113.2693
    //   low area    = 19.634954 * (1/0.0009 - 1/0.0036)  = 16362.4617
    //   lowest area = 102944 - 19.634954 / 0.0009        = 81127.3844
    // No clamp applies, so the areas add up to 102944: weights 0.0033114, 0.0496704, 0.1589453, 0.7880729.
    // weighted = (601*340.8846 + 163.5*5113.2693 + 38.5*16362.4617 + 7.25*81127.3844) / 102944 = 21.944159
    // streaming = 21.944159 / 250000 * 15000 = 1.3166495
    const r = streamingCost({ high: 10000, medium: 3000, low: 1000, lowest: 500 }, 2.5);
    expect(r.valid).toBe(true);
    expect(r.estimatedTriangles).toEqual({ high: 601, medium: 163.5, low: 38.5, lowest: 7.25 });
    expect(r.distances.medium).toBeCloseTo(10.41667, 4);
    expect(r.distances.low).toBeCloseTo(41.66667, 4);
    expect(r.distances.lowest).toBeCloseTo(83.33333, 4);
    expect(r.areaWeights.high).toBeCloseTo(340.8846 / 102944, 7);
    expect(r.areaWeights.medium).toBeCloseTo(5113.2693 / 102944, 7);
    expect(r.areaWeights.low).toBeCloseTo(16362.4617 / 102944, 7);
    expect(r.areaWeights.lowest).toBeCloseTo(81127.3844 / 102944, 6);
    expect(r.weightedTriangles).toBeCloseTo(21.944159, 5);
    expect(r.streaming).toBeCloseTo(1.3166495, 6);
    expect(r.viewerStreaming).toBe(r.streaming);
  });

  it('computes in float32: every output is a float32 value', () => {
    const r = streamingCost({ high: 12345, medium: 4321, low: 987, lowest: 432 }, 1.7);
    for (const x of [
      r.streaming,
      r.weightedTriangles,
      ...Object.values(r.areaWeights),
      ...Object.values(r.distances),
      ...Object.values(r.estimatedTriangles),
    ]) {
      expect(isFloat32(x)).toBe(true);
    }
  });

  it('agrees with an independent double-precision computation (relative 1e-5)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.005, max: 200, noNaN: true }),
        (high, fm, fl, fw, radius) => {
          const medium = Math.floor(high * fm);
          const low = Math.floor(medium * fl);
          const lowest = Math.floor(low * fw);
          const bytes = { high, medium, low, lowest };
          const got = streamingCost(bytes, radius).streaming;
          const want = referenceCost(bytes, radius);
          expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-5 * want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a missing LOD (0 or undefined) takes the next higher LOD's bytes", () => {
    const radius = 3;
    expect(streamingCost({ high: 5000 }, radius)).toEqual(
      streamingCost({ high: 5000, medium: 5000, low: 5000, lowest: 5000 }, radius),
    );
    const onlyLow = streamingCost({ high: 5000, medium: 0, low: 1000 }, radius);
    expect(onlyLow.effectiveBytes).toEqual({ high: 5000, medium: 5000, low: 1000, lowest: 1000 });
    expect(onlyLow.streaming).toBe(
      streamingCost({ high: 5000, medium: 5000, low: 1000, lowest: 1000 }, radius).streaming,
    );
  });

  it('rejects a negative or non-finite radius', () => {
    expect(() => streamingCost({ high: 1000 }, -1)).toThrow(/radius/);
    expect(() => streamingCost({ high: 1000 }, Number.NaN)).toThrow(/radius/);
    expect(streamingCost({ high: 1000 }, 0).valid).toBe(true);
  });

  it('high missing: cost 0 and the asset is invalid', () => {
    const r = streamingCost({ high: 0, medium: 3000 }, 2);
    expect(r.valid).toBe(false);
    expect(r.streaming).toBe(0);
  });

  it("uses the current viewer's max area 102944 by default; the seed's 2010 values are a setting", () => {
    expect(STREAMING_COST_DEFAULTS.maxArea).toBe(102944);
    expect(STREAMING_COST_SEED_2010.maxArea).toBe(102932);
    const bytes = { high: 10000, medium: 3000, low: 1000, lowest: 500 };
    const now = streamingCost(bytes, 2.5);
    const seed = streamingCost(bytes, 2.5, STREAMING_COST_SEED_2010);
    // Seed: metadata discount 128: (10000 - 128) / 16 = 617 triangles in high.
    expect(seed.estimatedTriangles.high).toBe(617);
    expect(seed.streaming).not.toBe(now.streaming);
    expect(Math.abs(seed.streaming - referenceCost(bytes, 2.5, STREAMING_COST_SEED_2010))).toBeLessThan(
      1e-5 * seed.streaming,
    );
    // Only the area changed: the high LOD's share scales with 1 / max area (no clamp here).
    const area = streamingCost(bytes, 2.5, { maxArea: 102932 });
    expect(area.areaWeights.high / now.areaWeights.high).toBeCloseTo(102944 / 102932, 6);
  });

  it('clamps far circles at 512 m and every LOD area to at least 1 m^2', () => {
    // Radius 200 m: every circle exceeds the region, high gets max_area, the others 1 each.
    const r = streamingCost({ high: 16384, medium: 384 + 16 * 10, low: 0, lowest: 0 }, 200);
    expect(r.distances).toEqual({ medium: 512, low: 512, lowest: 512 });
    expect(r.areaWeights.high).toBeCloseTo(102944 / 102947, 7);
    expect(r.areaWeights.lowest).toBeCloseTo(1 / 102947, 9);
  });

  it('more bytes in any present LOD never lower the cost (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000 })), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0.005, max: 300, noNaN: true }),
        ([h, m, l, w], which, extra, radius) => {
          const bytes = [h || 1, m, l, w];
          if (bytes[which] === 0) return;
          const more = [...bytes];
          more[which] += extra;
          const asLod = (b: number[]) => ({ high: b[0], medium: b[1], low: b[2], lowest: b[3] });
          expect(streamingCost(asLod(more), radius).streaming).toBeGreaterThanOrEqual(
            streamingCost(asLod(bytes), radius).streaming,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("applies the opt-in static mesh discount factor after the viewer's value", () => {
    const bytes = { high: 20000, medium: 5000 };
    const base = streamingCost(bytes, 4);
    const discounted = streamingCost(bytes, 4, { staticMeshDiscountFactor: 0.85 });
    expect(discounted.viewerStreaming).toBe(base.streaming);
    expect(discounted.streaming).toBeCloseTo(base.streaming * 0.85, 12);
  });
});

describe('radiusFromScale', () => {
  it('is half the diagonal of the scale box, in float32', () => {
    expect(radiusFromScale([1, 2, 3])).toBeCloseTo(0.5 * Math.hypot(1, 2, 3), 6);
    expect(isFloat32(radiusFromScale([1, 2, 3]))).toBe(true);
    expect(radiusFromScale([10, 10, 10])).toBeCloseTo(8.660254, 5);
  });
});

describe('animeshStreamingCost', () => {
  it("charges high plus each lower LOD's excess over half the previous allowance", () => {
    // 1000 estimated triangles in every LOD: (16384 - 384) / 16 = 1000.
    // medium: allowed 500, excess 500; low: allowed 250, excess 750; lowest: allowed 125, excess 875.
    // charged = 1000 + 500 + 750 + 875 = 3125; cost = 1.5 * 0.001 * 3125 = 4.6875.
    const r = animeshStreamingCost({ high: 16384, medium: 16384, low: 16384, lowest: 16384 });
    expect(r.chargedTriangles).toBe(3125);
    expect(r.streaming).toBeCloseTo(4.6875, 5);
  });

  it('charges nothing extra for LODs that halve, and never asks for fewer than 64 triangles', () => {
    // tris 6226 / 1851 / 288.5 / 38.5: each within its allowance.
    const r = animeshStreamingCost({ high: 100000, medium: 30000, low: 5000, lowest: 1000 });
    expect(r.chargedTriangles).toBe(6226);
    expect(r.streaming).toBeCloseTo(9.339, 4);
    // 100 triangles in every LOD: allowance 64 after the floor, excess 36 each.
    const small = animeshStreamingCost({ high: 384 + 1600, medium: 384 + 1600, low: 384 + 1600, lowest: 384 + 1600 });
    expect(small.chargedTriangles).toBe(100 + 36 + 36 + 36);
  });

  it("does not include the animated root's base cost (the caller adds it once)", () => {
    const r = animeshStreamingCost({ high: 384 + 16 * 1000 });
    expect(ANIMATED_OBJECT_BASE_COST).toBe(15);
    expect(r.streaming).toBeLessThan(ANIMATED_OBJECT_BASE_COST);
    expect(animeshStreamingCost({ high: 0 }).valid).toBe(false);
  });
});
