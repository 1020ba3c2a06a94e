/**
 * The planner's answers for models off the tuning set: LODs for geometry no simplification can
 * shrink within the bound (leaf cards), the high LOD planned (and kept with keepHigh), and
 * per-LOD triangle budgets.
 */

import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { lodHausdorffDistance } from '../../src/lod/hausdorff.js';
import type { MeshSimplifier } from '../../src/lod/lod-generator.js';
import { LOD_PLAN_DEFAULTS, ObjectLodPlanner, planModelLods, planObjectLods } from '../../src/lod/lod-planner.js';
import { silhouetteCoverage, silhouetteReference } from '../../src/lod/silhouette.js';
import { viewerAutoLods } from '../../src/lod/viewer-auto-lod.js';
import {
  boxSize,
  lodBox,
  lodTriangleCount,
  lodTriangles,
  objectBox,
  radiusOfScale,
} from '../../src/geometry/object-geometry.js';
import { errorForPixels, fillDistance } from '../../src/lod/screen-space-error.js';
import type { DeflateFn, Face, SlObject } from '../../src/types.js';
import { leafCards, MeshoptSimplifier, object, uvSphere, vhacdMesh } from './lod-fixtures.js';
import { zlibNgDeflate } from '../../src/asset/zlib-ng-deflate.js';

/** High's silhouettes as the planner takes them. */
const highSilhouette = (high: SlObject['lods']['high']) =>
  silhouetteReference(lodTriangles(high), { resolution: LOD_PLAN_DEFAULTS.silhouetteResolution });

const deflate: DeflateFn = (d, level) => new Uint8Array(deflateSync(d, { level }));
let simplifier: MeshSimplifier;
beforeAll(async () => {
  await MeshoptSimplifier.ready;
  simplifier = MeshoptSimplifier;
});

describe('LODs off the tuning set', () => {
  it('leaf cards (many disconnected quads) get LODs smaller than high, and a lod-fallback diagnostic says how', () => {
    const tree = object('Foliage', [leafCards(1500)]);
    const high = lodTriangleCount(tree.lods.high);
    const { object: planned, plan } = planObjectLods(tree, { simplifier, deflate, sizeFactor: 4 });
    // Never a silent copy: every lower LOD is smaller than high, the lowest much smaller.
    for (const n of ['medium', 'low', 'lowest'] as const) expect(lodTriangleCount(planned.lods[n])).toBeLessThan(high);
    expect(lodTriangleCount(planned.lods.lowest)).toBeLessThan(high / 2);
    // Each LOD made by a fallback has its diagnostic, at least one of them made by a relaxed bound.
    expect(plan.levels.some((l) => l.fallback === 'relaxed-bound')).toBe(true);
    const fallbacks = plan.levels.filter((l) => l.fallback);
    expect(plan.diagnostics.filter((d) => d.code === 'lod-fallback' && d.object === 'Foliage')).toHaveLength(
      fallbacks.length,
    );
    for (const l of fallbacks)
      expect(plan.diagnostics.some((d) => d.message.startsWith(`Foliage: ${l.name}:`))).toBe(true);
    // Each fallback keeps the silhouette floor, or says it could not (it then covers no less than
    // the viewer's own LOD, checked in the next test).
    for (const l of plan.levels)
      if (l.coverage < 0.9 && l.mode !== 'copy')
        expect(
          plan.diagnostics.some(
            (d) =>
              d.message.startsWith(`Foliage: ${l.name}:`) && d.message.includes('nothing keeps the silhouette floor'),
          ),
        ).toBe(true);
    // Without the fallback, the planner cannot shrink it within the bound (this is why it exists).
    const strict = planObjectLods(tree, { simplifier, deflate, sizeFactor: 4, fallback: false }).plan;
    expect(strict.levels[0].triangles).toBeGreaterThan(plan.levels[0].triangles);
  });

  it("a fallback's diagnostic says what the search found within the bound: nothing, or a LOD over half the one above", () => {
    // Leaf cards with a sphere: the search's medium keeps most of high (the cards stay), so the
    // fallback's note gives that count, not "no simplification shrinks it" (said of 51 of 172
    // fallbacks on 27 assimp models that the search had shrunk, the Wuson character's medium to
    // 3,726 of 3,732 triangles). Leaf cards alone: nothing within the bound shrinks them.
    const mixed = object('Mixed', [leafCards(300), uvSphere(24)]);
    const high = lodTriangleCount(mixed.lods.high);
    const { plan } = planObjectLods(mixed, { simplifier, deflate, sizeFactor: 1 });
    const medium = plan.diagnostics.find((d) => d.code === 'lod-fallback' && d.message.startsWith('Mixed: medium:'));
    const kept = medium?.message.match(
      /the best simplification within [\d.]+ px keeps (\d+) of (\d+) triangles, more than half/,
    );
    expect(kept).toBeTruthy();
    const [n, of] = [Number(kept![1]), Number(kept![2])];
    expect(of).toBe(high);
    expect(n).toBeGreaterThan(of / 2);
    expect(n).toBeLessThan(of);
    // ... which is the search's LOD, not the fallback's that was written.
    expect(plan.levels[0].fallback).toBe('relaxed-bound');
    expect(plan.levels[0].triangles).toBeLessThan(n);
    const leaves = planObjectLods(object('Foliage', [leafCards(1500)]), { simplifier, deflate, sizeFactor: 1 }).plan;
    for (const d of leaves.diagnostics.filter((x) => x.code === 'lod-fallback' && x.message.includes('made by')))
      expect(d.message).toMatch(/: no simplification within [\d.]+ px shrinks it/);
  });

  it('leaf cards: the lowest LOD is impostor-like cards where no simplification shrinks it and keeps the silhouette', () => {
    // Before cards, this lowest LOD was a copy of low (211 triangles, coverage 0.83: no candidate
    // kept the silhouette floor). Cards: a few crossed quads, far fewer triangles, the floor kept
    // (12 triangles, coverage 0.96, 3.7 px).
    const tree = object('Foliage', [leafCards(1500)]);
    const { object: planned, plan } = planObjectLods(tree, { simplifier, deflate, sizeFactor: 1 });
    const [, low, lowest] = plan.levels;
    expect(lowest.mode).toBe('cards');
    expect(lowest.fallback).toBe('relaxed-bound');
    expect(lowest.triangles).toBeLessThanOrEqual(12);
    expect(lowest.triangles).toBeLessThan(low.triangles / 10);
    expect(lowest.coverage).toBeGreaterThanOrEqual(0.9);
    expect(lodTriangleCount(planned.lods.lowest)).toBe(lowest.triangles);
    // Cards are written as measured: conformed, with high's box on every axis (none flat).
    const [hb, cb] = [lodBox(tree.lods.high), lodBox(planned.lods.lowest!)];
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(cb.min[k] - hb.min[k])).toBeLessThan(1e-5);
      expect(Math.abs(cb.max[k] - hb.max[k])).toBeLessThan(1e-5);
    }
    expect(
      plan.diagnostics.some(
        (d) =>
          d.code === 'lod-fallback' &&
          d.message.startsWith('Foliage: lowest:') &&
          d.message.includes('impostor-like cards'),
      ),
    ).toBe(true);
    // Never over Generate's worst (the ceiling of every fallback), measured here independently.
    const viewer = viewerAutoLods(tree, simplifier).lods;
    const worst = Math.max(
      ...(['medium', 'low', 'lowest'] as const).map(
        (l) =>
          lodHausdorffDistance(tree.lods.high, viewer[l]).distance /
          plan.levels.find((x) => x.name === l)!.switchDistance,
      ),
    );
    const ours = lodHausdorffDistance(tree.lods.high, planned.lods.lowest).distance / lowest.switchDistance;
    expect(ours).toBeLessThanOrEqual(1.1 * worst);
  });

  it("a LOD made by a fallback never looks worse than the viewer's own auto-LOD at that level (the uploader's Generate)", () => {
    // Leaf cards at 4x; V-HACD's caterpillar (282 m long, many thin legs) as authored.
    for (const [model, k] of [
      [object('Foliage', [leafCards(1500)]), 4],
      [object('Caterpillar', [vhacdMesh('caterpillar.obj')]), 1],
    ] as const) {
      const { object: planned, plan } = planObjectLods(model, { simplifier, deflate, sizeFactor: k });
      const viewer = viewerAutoLods(model, simplifier).lods;
      const fallbacks = plan.levels.filter((l) => l.fallback === 'relaxed-bound');
      expect(fallbacks.length).toBeGreaterThan(0);
      for (const l of fallbacks) {
        const ours = lodHausdorffDistance(model.lods.high, planned.lods[l.name]).distance * k;
        const theirs = lodHausdorffDistance(model.lods.high, viewer[l.name]).distance * k;
        // Both measured here the same way (sampled: 10 % slack); within the bound or the viewer's error.
        expect(ours).toBeLessThanOrEqual(1.1 * Math.max(l.maxError, theirs));
        // Under the silhouette floor only where the viewer's own LOD is too, and never below it.
        if (l.coverage < 0.9) {
          const silhouette = highSilhouette(model.lods.high);
          const viewerCoverage = silhouetteCoverage(silhouette, lodTriangles(viewer[l.name])).coverage;
          expect(l.coverage).toBeGreaterThanOrEqual(viewerCoverage - 0.02);
        }
      }
    }
  });

  it("viewerBound: a stuck LOD's fallback is never over Generate's worst, even where no candidate is within the bound (ships of thin oars, masts and ropes)", () => {
    // A ship (a long box) with many thin disconnected parts, as 0 A.D.'s quinquereme: sloppy
    // simplification is the least-error candidate off the bound, 2 % to 23 % over the viewer
    // chain's worst px when nothing caps it (seeds found by a scan of 100 such ships, LODs
    // measured as written; the ceiling is what keeps them to Generate's own LOD).
    const rng = (seed: number) => () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const ship = (seed: number): Face => {
      const r = rng(seed);
      const p: number[] = [];
      const idx: number[] = [];
      const box = (c: number[], h: number[]) => {
        const b = p.length / 3;
        for (let i = 0; i < 8; i++)
          p.push(c[0] + (i & 1 ? h[0] : -h[0]), c[1] + (i & 2 ? h[1] : -h[1]), c[2] + (i & 4 ? h[2] : -h[2]));
        for (const [a, q, c2, d] of [
          [0, 2, 3, 1],
          [4, 5, 7, 6],
          [0, 1, 5, 4],
          [2, 6, 7, 3],
          [0, 4, 6, 2],
          [1, 3, 7, 5],
        ])
          idx.push(b + a, b + q, b + c2, b + a, b + c2, b + d);
      };
      const length = 4 + 8 * r();
      box([0, 0, 0], [length, length / 6, length / 10]);
      const parts = 10 + Math.floor(r() * 80);
      for (let i = 0; i < parts; i++) {
        const kind = r();
        const x = (r() * 2 - 1) * length;
        if (kind < 0.6) box([x, (r() < 0.5 ? -1 : 1) * (length / 6 + 0.5), -0.2], [0.03, 0.6 + r(), 0.03]);
        else if (kind < 0.8) box([x, 0, length / 10 + 1.5], [0.05, 0.05, 1.5 + r() * 2]);
        else box([x, (r() * 2 - 1) * (length / 6), length / 10 + r() * 3], [0.2 + r(), 0.01, 0.01 + r() * 0.3]);
      }
      return { material: 'm', positions: Float32Array.from(p), indices: Uint32Array.from(idx) };
    };
    for (const [seed, sizeFactor] of [
      [4, 3],
      [48, 3],
      [79, 3],
    ]) {
      const { plan } = planObjectLods(object('Ship', [ship(seed)]), {
        simplifier,
        deflate: zlibNgDeflate,
        viewerBound: true,
        sizeFactor,
      });
      // The case is exercised: the medium is stuck and made by a fallback.
      expect(plan.levels[0].fallback).toBe('relaxed-bound');
      const cap = Math.max(plan.maxErrorPx, plan.viewerWorstPx!);
      for (const level of plan.levels)
        if (level.mode !== 'copy') expect(level.screenErrorPx).toBeLessThanOrEqual(cap * 1.02);
    }
  });

  it("viewerBound: a big high (measured on its proxy) whose LOD cannot shrink still has Generate's worst as the fallback's ceiling", () => {
    // 62,000 leaf-card triangles: over the proxy threshold, where Generate's LODs are made only
    // when the plan needs them; a crown of cards is stuck, so its fallback needs Generate's worst.
    const crown = object('Crown', [leafCards(31_000, 0.05)]);
    const { plan } = planObjectLods(crown, { simplifier, deflate: zlibNgDeflate, viewerBound: true });
    expect(plan.highTriangles).toBeGreaterThan(60_000);
    expect(plan.levels.some((l) => l.fallback === 'relaxed-bound')).toBe(true);
    expect(plan.viewerWorstPx).toBeGreaterThan(0);
    const cap = Math.max(plan.maxErrorPx, plan.viewerWorstPx!);
    for (const level of plan.levels)
      if (level.mode !== 'copy') expect(level.screenErrorPx).toBeLessThanOrEqual(cap * 1.02);
  });

  it("viewerBound: a big high whose plan needs Generate's LODs after all is planned with the bounds they give", () => {
    // 400 pebbles of 200 triangles (80,000: over the proxy threshold) scattered over 4 m: Generate's
    // medium loses pebbles (coarser than the proxy's error), so the medium may be as coarse; the
    // lowest is stuck and made by a fallback, which makes Generate's LODs. The plan is then made
    // again with them: its medium follows Generate's coarser error, not the proxy's.
    let seed = 99;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const p: number[] = [];
    const idx: number[] = [];
    for (let k = 0; k < 400; k++) {
      const c = [rnd() * 4, rnd() * 4, rnd()];
      const r = 0.03 + rnd() * 0.05;
      const b = p.length / 3;
      for (let i = 0; i <= 10; i++)
        for (let j = 0; j <= 10; j++) {
          const th = (Math.PI * i) / 10,
            ph = (2 * Math.PI * j) / 10;
          p.push(
            c[0] + r * Math.sin(th) * Math.cos(ph),
            c[1] + r * Math.sin(th) * Math.sin(ph),
            c[2] + r * Math.cos(th),
          );
        }
      for (let i = 0; i < 10; i++)
        for (let j = 0; j < 10; j++) {
          const a = b + i * 11 + j;
          idx.push(a, a + 11, a + 1, a + 1, a + 11, a + 12);
        }
    }
    const pebbles = object('Pebbles', [
      { material: 'm', positions: Float32Array.from(p), indices: Uint32Array.from(idx) },
    ]);
    const { plan } = planObjectLods(pebbles, { simplifier, deflate: zlibNgDeflate, viewerBound: true });
    expect(plan.highTriangles).toBeGreaterThan(60_000);
    expect(plan.high.mode).toBe('proxy');
    expect(plan.viewerWorstPx).toBeGreaterThan(0);
    // The medium is coarser than the proxy's error allows alone, within Generate's own medium.
    expect(plan.levels[0].screenErrorPx).toBeGreaterThan(plan.high.screenErrorPx * 1.1);
    expect(plan.levels[0].screenErrorPx).toBeLessThanOrEqual(plan.viewerWorstPx! * 1.02);
  });

  it("viewerBound: a big high's lazy plan equals the plan made with Generate's LODs from the start", () => {
    // A 97,000-triangle sphere with 600 thin spikes in a second material (101,800 triangles): its
    // proxy is small (Generate's LODs are not made up front), but a level asks for them mid-plan,
    // so the plan is made again with them.
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const ball = uvSphere(300, 1);
    const q: number[] = [];
    const jx: number[] = [];
    for (let k = 0; k < 600; k++) {
      const th = Math.acos(2 * rnd() - 1),
        ph = 2 * Math.PI * rnd();
      const d = [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
      const t = Math.abs(d[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
      const u0 = [d[1] * t[2] - d[2] * t[1], d[2] * t[0] - d[0] * t[2], d[0] * t[1] - d[1] * t[0]];
      const lu = Math.hypot(u0[0], u0[1], u0[2]);
      const u = u0.map((x) => x / lu);
      const v = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]];
      const b = q.length / 3;
      for (const [a, c] of [
        [1, 0],
        [0, 1],
        [-1, 0],
        [0, -1],
      ])
        for (let i = 0; i < 3; i++) q.push(d[i] * 0.98 + 0.01 * (a * u[i] + c * v[i]));
      q.push(d[0] * 1.3, d[1] * 1.3, d[2] * 1.3);
      for (let e = 0; e < 4; e++) jx.push(b + e, b + ((e + 1) % 4), b + 4);
      jx.push(b, b + 2, b + 1, b, b + 3, b + 2);
    }
    const spiky = object('Spiky', [
      ball,
      { material: 'spikes', positions: Float32Array.from(q), indices: Uint32Array.from(jx) },
    ]);
    const opts = { simplifier, deflate: zlibNgDeflate, viewerBound: true };
    const lazy = planObjectLods(spiky, opts);
    // Eager: Generate's LODs made before planning (what a high under the proxy threshold gets).
    const planner = new ObjectLodPlanner(spiky, opts);
    (planner as unknown as { viewerLevel(l: string): unknown }).viewerLevel('medium');
    const eager = planner.plan();
    expect(lazy.plan.highTriangles).toBeGreaterThan(60_000);
    // The case is exercised: a small proxy, yet Generate's LODs were needed.
    expect(lazy.plan.high.triangles * 2.5).toBeLessThan(lazy.plan.highTriangles / 3);
    expect(lazy.plan.viewerWorstPx).toBeGreaterThan(0);
    expect(lazy.plan.levels.map((l) => [l.triangles, l.screenErrorPx])).toEqual(
      eager.plan.levels.map((l) => [l.triangles, l.screenErrorPx]),
    );
    for (const l of ['medium', 'low', 'lowest'] as const)
      expect(lazy.object.lods[l]!.faces.map((f) => Array.from(f.indices))).toEqual(
        eager.object.lods[l]!.faces.map((f) => Array.from(f.indices)),
      );
  });

  it('a dense sphere gets a reduced high LOD by default, within the pixel bound at the fill distance; keepHigh leaves it untouched', () => {
    const ball = object('Ball', [uvSphere(96, 2)]);
    const input = lodTriangleCount(ball.lods.high);
    const { object: planned, plan } = planObjectLods(ball, { simplifier, deflate });
    expect(plan.high.triangles).toBeLessThan(0.75 * input);
    expect(lodTriangleCount(planned.lods.high)).toBe(plan.high.triangles);
    expect(plan.highTriangles).toBe(input);
    // Its error, measured here independently, is within 1 px where the ball fills the view.
    const radius = radiusOfScale(boxSize(objectBox(ball)));
    const allowed = errorForPixels(1, fillDistance(radius));
    expect(plan.high.nearDistance).toBeCloseTo(fillDistance(radius), 9);
    expect(lodHausdorffDistance(ball.lods.high, planned.lods.high).distance).toBeLessThanOrEqual(allowed * 1.05);
    // The lower LODs are never larger than the planned high.
    expect(lodTriangleCount(planned.lods.medium)).toBeLessThanOrEqual(plan.high.triangles);
    const kept = planObjectLods(ball, { simplifier, deflate, keepHigh: true });
    expect(kept.object.lods.high).toBe(ball.lods.high);
    expect(kept.plan.high.mode).toBe('kept');
    expect(kept.plan.high.triangles).toBe(input);
  });

  it('a closer high distance keeps more of the high LOD', () => {
    const ball = object('Ball', [uvSphere(96, 2)]);
    const near = planObjectLods(ball, { simplifier, deflate, highDistance: 1 }).plan.high.triangles;
    const fill = planObjectLods(ball, { simplifier, deflate }).plan.high.triangles;
    expect(near).toBeGreaterThan(fill);
  });

  it('honours per-LOD triangle budgets, and says so', () => {
    const ball = object('Ball', [uvSphere(64)]);
    const max = { high: 3000, medium: 400, low: 120, lowest: 40 };
    const { object: planned, plan } = planObjectLods(ball, { simplifier, deflate, keepHigh: true, maxTriangles: max });
    expect(lodTriangleCount(planned.lods.high)).toBeLessThanOrEqual(max.high);
    expect(lodTriangleCount(planned.lods.medium)).toBeLessThanOrEqual(max.medium);
    expect(lodTriangleCount(planned.lods.low)).toBeLessThanOrEqual(max.low);
    expect(lodTriangleCount(planned.lods.lowest)).toBeLessThanOrEqual(max.lowest);
    expect(lodTriangleCount(planned.lods.lowest)).toBeGreaterThan(0);
    expect(plan.high.fallback).toBe('max-triangles');
    expect(plan.diagnostics.some((d) => d.code === 'lod-max-triangles' && d.message.includes('high'))).toBe(true);
    // A budget the bound already meets changes nothing.
    const loose = planObjectLods(ball, { simplifier, deflate, maxTriangles: { medium: 1e6 } }).plan;
    const free = planObjectLods(ball, { simplifier, deflate }).plan;
    expect(loose.levels.map((l) => l.triangles)).toEqual(free.levels.map((l) => l.triangles));
    expect(loose.diagnostics).toEqual(free.diagnostics);
    expect(loose.diagnostics.some((d) => d.code === 'lod-max-triangles')).toBe(false);
  });

  it('reports each planned object to onObjectPlanned, duplicates included', () => {
    const a: SlObject = object('A', [uvSphere(16)]);
    const b: SlObject = { ...a, name: 'B' };
    const seen: [number, number][] = [];
    planModelLods({ objects: [a, b] }, { simplifier, onObjectPlanned: (done, total) => seen.push([done, total]) });
    expect(seen).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it("a level the search shrank makes none of the stuck level's cascade candidates aimed at as many triangles or more (V-HACD's torus)", () => {
    // The torus's medium follows Generate's error (a fallback may beat the search there) and the
    // search shrank it (152 of 576): the cascade is not asked for a third or half of the high (192,
    // 288 triangles); sloppy simplification to a third is (it merges what the cascade keeps); the
    // low and lowest, smaller, still get their cascade candidates.
    const targets: number[] = [];
    const sloppy: number[] = [];
    const spy = { ...simplifier } as MeshSimplifier;
    spy.simplifyWithAttributes = (...a: Parameters<MeshSimplifier['simplifyWithAttributes']>) => {
      if (a[7] > 0) targets.push(a[7] / 3);
      return simplifier.simplifyWithAttributes(...a);
    };
    spy.simplifyWithUpdate = (...a: Parameters<MeshSimplifier['simplifyWithUpdate']>) => {
      if (a[7] > 0) targets.push(a[7] / 3);
      return simplifier.simplifyWithUpdate(...a);
    };
    spy.simplifySloppy = (...a: Parameters<MeshSimplifier['simplifySloppy']>) => {
      sloppy.push(a[4] / 3);
      return simplifier.simplifySloppy(...a);
    };
    const high = object('torus1.obj', [vhacdMesh('torus1.obj')]);
    const { plan } = planObjectLods(high, { simplifier: spy, deflate: zlibNgDeflate, viewerBound: true });
    const medium = plan.levels[0];
    expect(medium.triangles).toBeLessThanOrEqual(plan.high.triangles / 2);
    expect(medium.fallback).toBeUndefined();
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) expect(t).toBeLessThan(medium.triangles);
    expect(sloppy).toContain(192);
  });
});
