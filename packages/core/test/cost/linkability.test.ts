import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINKABILITY_DEFAULTS } from '../../src/constants.js';
import {
  legacyMaxLinkSpan,
  legacyPrimRadius,
  linkabilityCurrent,
  linkabilityLegacy,
  type LegacyPrim,
} from '../../src/cost/linkability.js';

const CUBE10 = [10, 10, 10] as const;
/** A prim whose bounding sphere has radius 0.01 m: scale (s, s, s) with s * sqrt(3) / 2 = 0.01. */
const TINY = [0.02 / Math.sqrt(3), 0.02 / Math.sqrt(3), 0.02 / Math.sqrt(3)] as const;
const at = (x: number, scale: readonly number[] = [0.5, 0.5, 0.5], y = 0, z = 0): LegacyPrim => ({
  center: [x, y, z],
  scale,
});

describe('linkabilityCurrent', () => {
  it('two prims 60 m apart cannot be linked (span)', () => {
    const r = linkabilityCurrent([0, 0, 0, 60, 0, 0]);
    expect(r.ok).toBe(false);
    expect(r.span).toBeCloseTo(60, 10);
    expect(r.limit).toBe(54);
    expect(r.reason).toMatch(/span 60\.00 m/);
  });

  it('300 prims within 1 m cannot be linked (count)', () => {
    const centres: number[] = [];
    for (let i = 0; i < 300; i++)
      centres.push((i % 10) * 0.1, (Math.floor(i / 10) % 10) * 0.1, Math.floor(i / 100) * 0.1);
    const r = linkabilityCurrent(centres);
    expect(r.prims).toBe(300);
    expect(r.span).toBeLessThan(2);
    expect(r.ok).toBe(false);
    expect(r.reason).toMatch(/300 prims/);
  });

  it('6 prims within 2 m can be linked', () => {
    const r = linkabilityCurrent([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0.5, 0.5, 0.5]);
    expect(r).toMatchObject({ ok: true, rule: 'current', prims: 6, maxPrims: 256 });
    expect(r.span).toBeCloseTo(Math.sqrt(3), 8); // the points lie on the unit cube's circumsphere
    expect(r.reason).toBeUndefined();
  });

  it('256 prims is the cap (the seed writes N < 256; the viewer links a root and 255 children)', () => {
    const line = (n: number) => Array.from({ length: n }, (_, i) => [i * 0.01, 0, 0]).flat();
    expect(linkabilityCurrent(line(256)).ok).toBe(true);
    expect(linkabilityCurrent(line(257)).ok).toBe(false);
  });

  it('the span must stay strictly below the limit, which is a setting (64 m per the 2023 banner)', () => {
    expect(linkabilityCurrent([0, 0, 0, 54, 0, 0]).ok).toBe(false);
    expect(linkabilityCurrent([0, 0, 0, 53.99, 0, 0]).ok).toBe(true);
    expect(linkabilityCurrent([0, 0, 0, 60, 0, 0], { maxSpan: 64 }).ok).toBe(true);
  });

  it('uses the smallest sphere around the centres, not the box diagonal', () => {
    // Equilateral triangle of side 50: diameter 2 * 50/sqrt(3) = 57.7 m: not linkable although every pair is 50 m apart.
    const h = (50 * Math.sqrt(3)) / 2;
    expect(linkabilityCurrent([0, 0, 0, 50, 0, 0, 25, h, 0]).span).toBeCloseTo(100 / Math.sqrt(3), 8);
  });
});

describe('legacy rule: the seed worked examples', () => {
  it('two very small prims (radius ~0.01): max_link_span 2.06 m', () => {
    expect(legacyPrimRadius(TINY)).toBeCloseTo(0.01, 12);
    expect(legacyMaxLinkSpan(0.01, 0.01)).toBeCloseTo(2.06, 12);
    // span = d + 0.02 <= 2.06: centres up to 2.04 m apart.
    expect(linkabilityLegacy([at(0, TINY), at(2.03, TINY)]).ok).toBe(true);
    expect(linkabilityLegacy([at(0, TINY), at(2.05, TINY)]).ok).toBe(false);
  });

  it('one 10 m prim (radius 8.66) and a small one: 28.01 m', () => {
    expect(legacyPrimRadius(CUBE10)).toBeCloseTo(8.66, 2);
    expect(legacyMaxLinkSpan(legacyPrimRadius(CUBE10), 0.01)).toBeCloseTo(28.01, 2);
  });

  it('two 10 x 10 x 10 m prims: 53.96 m, centres at most 36.64 m apart', () => {
    const r = legacyPrimRadius(CUBE10);
    expect(legacyMaxLinkSpan(r, r)).toBeCloseTo(53.96, 2);
    // Max centre distance = 53.96 - 2 * 8.66 = sqrt(300) + sqrt(300) + 2 = 36.64.
    expect(legacyMaxLinkSpan(r, r) - 2 * r).toBeCloseTo(36.64, 2);
    const near = linkabilityLegacy([at(0, CUBE10), at(36.63, CUBE10)]);
    expect(near).toMatchObject({ ok: true, rule: 'legacy', linkedCount: 2 });
    // The linked object's span is the diameter of its bounding sphere: 36.63 + 17.32 = 53.95.
    expect(near.span).toBeCloseTo(36.63 + 2 * r, 8);
    const far = linkabilityLegacy([at(0, CUBE10), at(36.7, CUBE10)]);
    expect(far.ok).toBe(false);
    expect(far.linkedCount).toBe(1);
    expect(far.groups).toEqual([[1]]);
  });

  it('clamps megaprim sides to 10 m', () => {
    expect(legacyPrimRadius([64, 64, 64])).toBeCloseTo(legacyPrimRadius(CUBE10), 12);
    expect(legacyPrimRadius([64, 0.5, 0.5])).toBeCloseTo(Math.hypot(10, 0.5, 0.5) / 2, 12);
    // Two 64 m megaprims link like two 10 m cubes.
    expect(linkabilityLegacy([at(0, [64, 64, 64]), at(36.63, [64, 64, 64])]).ok).toBe(true);
  });
});

describe('legacy rule: multi-prim objects', () => {
  it("grows the root's sphere as prims link, so a chain of small prims links step by step", () => {
    // 0.5 m cubes (radius 0.433): a pair may span 3 * 0.866 + 2 = 4.6 m, centres up to 3.73 m apart.
    const chain = [0, 3, 6, 9].map((x) => at(x));
    const r = linkabilityLegacy(chain);
    expect(r.ok).toBe(true);
    expect(r.linkedCount).toBe(4);
    expect(r.span).toBeCloseTo(9 + 2 * legacyPrimRadius([0.5, 0.5, 0.5]), 8);
  });

  it('links candidates among themselves, then the root to the grown group', () => {
    // 2 m cubes (radius 1.732): a pair links with centres up to 2 * 3.464 + 2 = 8.93 m apart.
    const cube2 = [2, 2, 2];
    expect(linkabilityLegacy([at(0, cube2), at(9, cube2)]).ok).toBe(false);
    // Prims 1 and 2 (3 m apart) merge into a group of radius (3 + 3.464) / 2 = 3.232 centred at 10.5,
    // which the root reaches: 10.5 + 1.732 + 3.232 = 15.46 <= 3 * 4.964 + 2 = 16.89.
    const r = linkabilityLegacy([at(0, cube2), at(9, cube2), at(12, cube2)]);
    expect(r).toMatchObject({ ok: true, linkedCount: 3, linked: [0, 1, 2] });
    // Farther away the merged pair still forms its own group.
    const apart = linkabilityLegacy([at(0, cube2), at(20, cube2), at(23, cube2)]);
    expect(apart.ok).toBe(false);
    expect(apart.groups).toEqual([[1, 2]]);
    expect(apart.reason).toMatch(/2 of 3 prims/);
  });

  it('is order dependent on unlinkable sets: the first prim is the root', () => {
    // A row of 0.5 m cubes every 3 m over 90 m cannot all link (54 m cap); which ones do depends on the root.
    const row = Array.from({ length: 31 }, (_, i) => at(3 * i));
    const fromEnd = linkabilityLegacy(row);
    const fromMiddle = linkabilityLegacy([row[15], ...row.slice(0, 15), ...row.slice(16)]);
    expect(fromEnd.ok).toBe(false);
    expect(fromMiddle.ok).toBe(false);
    const spread = (ids: number[], prims: LegacyPrim[]) => ids.map((i) => prims[i].center[0]);
    expect(Math.min(...spread(fromEnd.linked, row))).toBe(0);
    const middlePrims = [row[15], ...row.slice(0, 15), ...row.slice(16)];
    expect(Math.min(...spread(fromMiddle.linked, middlePrims))).toBeGreaterThan(0);
    for (const r of [fromEnd, fromMiddle]) expect(r.span).toBeLessThanOrEqual(LINKABILITY_DEFAULTS.legacyLargestMax);
  });

  it('no linked object exceeds the 54 m span (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            x: fc.double({ min: -60, max: 60, noNaN: true }),
            y: fc.double({ min: -60, max: 60, noNaN: true }),
            s: fc.double({ min: 0.01, max: 20, noNaN: true }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (ps) => {
          const r = linkabilityLegacy(ps.map((p) => at(p.x, [p.s, p.s, p.s], p.y)));
          expect(r.span).toBeLessThanOrEqual(54 + 1e-9);
          expect(r.linkedCount + (r.groups ?? []).reduce((a, g) => a + g.length, 0)).toBe(ps.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
