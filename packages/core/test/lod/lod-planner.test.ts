import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { costReport } from '../../src/cost/cost-report.js';
import { isSlmeshError } from '../../src/errors.js';
import { lodHausdorffDistance, strayVertices, TriangleBvh } from '../../src/lod/hausdorff.js';
import type { MeshSimplifier } from '../../src/lod/lod-generator.js';
import {
  generateChainFits,
  geometryKey,
  geometryKeys,
  planFor,
  lodBlockBytes,
  ObjectLodPlanner,
  planModelLods,
  planObjectLods,
  type LodPlanOptions,
  type ObjectLodPlan,
  VIEWER_BOUND_MARGIN,
} from '../../src/lod/lod-planner.js';
import { planModelForBudget, planModelSharper, type SharperLodOptions } from '../../src/lod/lod-budget.js';
import { viewerAutoLods } from '../../src/lod/viewer-auto-lod.js';
import { conformLod, displayedLod } from '../../src/lod/lod-conform.js';
import { computeUploadNormalization, encodeMeshAsset } from '../../src/asset/mesh-asset.js';
import { splitLargeFaces } from '../../src/asset/submodels.js';
import { MAX_VERTICES_PER_FACE } from '../../src/constants.js';
import {
  boxSize,
  lodTriangleCount,
  lodTriangles,
  lodVertexCount,
  objectBox,
  radiusOfScale,
} from '../../src/geometry/object-geometry.js';
import { fillDistance, lodErrorBounds, screenSpaceError } from '../../src/lod/screen-space-error.js';
import { silhouetteCoverage, silhouetteReference } from '../../src/lod/silhouette.js';
import { zlibNgDeflate } from '../../src/asset/zlib-ng-deflate.js';
import type { DeflateFn, Face, MeshLod, SlObject } from '../../src/types.js';
import {
  faceted,
  facetedSphere,
  materialBox,
  MeshoptSimplifier,
  object,
  openEdges,
  uvSphere,
  vhacdMesh,
} from './lod-fixtures.js';

const deflate: DeflateFn = zlibNgDeflate;
let simplifier: MeshSimplifier;
beforeAll(async () => {
  await MeshoptSimplifier.ready;
  simplifier = MeshoptSimplifier;
});

const LOWER = ['medium', 'low', 'lowest'] as const;

/** Checks a planned object the way a reviewer would, independently of the planner's own numbers. */
function checkChain(
  high: SlObject,
  planned: SlObject,
  opts: { maxErrorPx: number; lodFactor: number; sizeFactor: number; minCoverage: number },
  plan?: ObjectLodPlan,
) {
  const faces = high.lods.high.faces.length;
  const sil = silhouetteReference(lodTriangles(high.lods.high));
  const radius = radiusOfScale(boxSize(objectBox(high))) * opts.sizeFactor;
  const bounds = lodErrorBounds(radius, opts.lodFactor, opts.maxErrorPx);
  let above = planned.lods.high;
  for (const n of LOWER) {
    const lod = planned.lods[n]!;
    // Same face count as high, same materials, never empty.
    expect(lod.faces).toHaveLength(faces);
    expect(lod.faces.map((f) => f.material)).toEqual(high.lods.high.faces.map((f) => f.material));
    expect(lodTriangleCount(lod)).toBeGreaterThan(0);
    // Never larger than the LOD above.
    expect(lodTriangleCount(lod)).toBeLessThanOrEqual(lodTriangleCount(above));
    expect(lodVertexCount(lod)).toBeLessThanOrEqual(lodVertexCount(above));
    // Within the pixel bound at its switch distance (or within the object's size when unbounded),
    // unless the plan says the LOD is a fallback (and carries a diagnostic saying so).
    const err = lodHausdorffDistance(high.lods.high, lod).distance * opts.sizeFactor;
    const level = plan?.levels.find((l) => l.name === n);
    if (level?.fallback)
      expect(plan!.diagnostics.some((d) => d.code === 'lod-fallback' && d.message.includes(n))).toBe(true);
    else expect(err).toBeLessThanOrEqual(Math.min(bounds.maxError[n], 2 * radius) * (1 + 1e-9));
    // Keeps the silhouette.
    expect(silhouetteCoverage(sil, lodTriangles(lod)).coverage).toBeGreaterThanOrEqual(opts.minCoverage);
    above = lod;
  }
}

const sphere = object('Ball', [uvSphere(64)]);
const box3 = object('BevelBox', materialBox(1, 1, 1, 4).faces);

describe('planObjectLods', () => {
  it('plans a smooth sphere: fewer triangles each LOD, within 1 px at each switch distance or a fallback no coarser than Generate that says so, silhouette kept', () => {
    const { object: planned, plan } = planObjectLods(sphere, { simplifier });
    checkChain(sphere, planned, { maxErrorPx: 1, lodFactor: 2, sizeFactor: 1, minCoverage: 0.9 }, plan);
    expect(plan.levels.map((l) => l.name)).toEqual(['medium', 'low', 'lowest']);
    expect(plan.levels[2].triangles).toBeLessThan(plan.levels[0].triangles);
    expect(plan.levels[0].triangles).toBeLessThan(plan.highTriangles);
    // The lowest, measured as written (conformed to high's box), cannot halve the low within 1 px:
    // it is a fallback, no coarser than Generate's lowest (the bound a stuck LOD may relax to).
    const generate = viewerAutoLods(sphere, simplifier).object;
    for (const [i, l] of plan.levels.entries()) {
      if (l.fallback) {
        const own = lodHausdorffDistance(sphere.lods.high, displayedLod(sphere.lods.high, generate.lods[LOWER[i]]!));
        expect(l.error).toBeLessThanOrEqual(own.distance * 1.02);
      } else expect(l.screenErrorPx).toBeLessThanOrEqual(1);
      expect(l.coverage).toBeGreaterThanOrEqual(0.9);
      expect(l.switchDistance).toBeGreaterThan(0);
    }
    expect(plan.levels.filter((l) => !l.fallback).length).toBeGreaterThanOrEqual(2);
  });

  it('holds for any pixel bound, LOD factor and size (property)', () => {
    const shapes = [object('S', [uvSphere(24)]), box3, object('F', [facetedSphere(16)])];
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 2),
        fc.double({ min: 0.25, max: 16, noNaN: true }),
        fc.constantFrom(1, 2, 4),
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        (which, px, F, k) => {
          const high = shapes[which];
          const opts: LodPlanOptions = { simplifier, maxErrorPx: px, lodFactor: F, sizeFactor: k, maxProbes: 4 };
          const { object: planned, plan } = planObjectLods(high, opts);
          checkChain(high, planned, { maxErrorPx: px, lodFactor: F, sizeFactor: k, minCoverage: 0.9 }, plan);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('keeps faces of different materials stitched', () => {
    const { object: planned } = planObjectLods(box3, { simplifier, maxErrorPx: 8 });
    for (const n of LOWER) expect(openEdges(planned.lods[n]!)).toBe(0);
  });

  it('never drops a LOD to nothing, whatever the pixel bound: the silhouette floor holds', () => {
    const high = object('Bunny', [vhacdMesh('bunny.obj')]);
    const { object: planned, plan } = planObjectLods(high, { simplifier, maxErrorPx: 1e6, minCoverage: 0.9 });
    checkChain(high, planned, { maxErrorPx: 1e6, lodFactor: 2, sizeFactor: 1, minCoverage: 0.9 });
    expect(plan.levels[2].triangles).toBeGreaterThan(8);
    // A stricter floor keeps more.
    const strict = planObjectLods(high, { simplifier, maxErrorPx: 1e6, minCoverage: 0.97 }).plan;
    expect(strict.levels[2].triangles).toBeGreaterThanOrEqual(plan.levels[2].triangles);
  });

  it("prices a face over the importer's vertex limit as the importer splits it, so a kept big high plans", () => {
    // A 1.5 m sphere of 364 x 182 segments: 66,795 vertices in one face (the limit is 65,525).
    const big = object('Big', [uvSphere(364, 1.5)]);
    const high = big.lods.high;
    expect(high.faces[0].positions.length / 3).toBeGreaterThan(MAX_VERTICES_PER_FACE);
    const n = computeUploadNormalization(high);
    const split = splitLargeFaces(big).lods.high;
    expect(split.faces.length).toBe(2);
    expect(lodBlockBytes(high, n, deflate)).toBe(
      encodeMeshAsset({ lods: { high: split } }, { deflate }).blocks.high_lod!.size,
    );
    const { object: planned, plan } = planObjectLods(big, { simplifier, deflate, keepHigh: true, viewerBound: true });
    expect(planned.lods.high).toBe(high);
    expect(plan.high.mode).toBe('kept');
    for (const l of LOWER) expect(lodTriangleCount(planned.lods[l]!)).toBeLessThan(lodTriangleCount(high));
  });

  it('with a deflate, prices candidates by the bytes the encoder writes for them', () => {
    const high = sphere.lods.high;
    const n = computeUploadNormalization(high);
    const enc = encodeMeshAsset({ lods: { high } }, { deflate });
    expect(lodBlockBytes(high, n, deflate)).toBe(enc.blocks.high_lod!.size);
    const withBytes = planObjectLods(sphere, { simplifier, deflate });
    checkChain(
      sphere,
      withBytes.object,
      { maxErrorPx: 1, lodFactor: 2, sizeFactor: 1, minCoverage: 0.9 },
      withBytes.plan,
    );
  });

  it('holds the pixel bound under an independent dense measure (65,536 samples, every vertex and centroid)', () => {
    // Bunny, written in its compression order: the search's 4,096 samples alone let the low LOD
    // reach 1.22 px when measured this densely.
    const bunny = object('Bunny', [vhacdMesh('bunny.obj')]);
    const { object: planned, plan } = planObjectLods(bunny, { simplifier, deflate, maxErrorPx: 1 });
    const dense = { samples: 65536, maxVertexSamples: 1 << 20, centroids: true };
    for (const level of plan.levels) {
      if (level.fallback || level.mode === 'copy' || !Number.isFinite(level.switchDistance)) continue;
      const d = lodHausdorffDistance(bunny.lods.high, planned.lods[level.name]!, dense).distance;
      expect(screenSpaceError(d, level.switchDistance)).toBeLessThanOrEqual(1.05);
      // The plan reports the dense figure, not the search's.
      expect(level.screenErrorPx).toBeGreaterThanOrEqual(0.9 * screenSpaceError(d, level.switchDistance));
    }
  });

  it('writes each LOD in the triangle order that compresses smaller (same triangles), never a larger one', () => {
    const bunny = object('Bunny', [vhacdMesh('bunny.obj')]);
    const n = computeUploadNormalization(bunny.lods.high);
    const tris = (f: { indices: Uint32Array }) => {
      const out: string[] = [];
      for (let t = 0; t < f.indices.length; t += 3) out.push(Array.from(f.indices.subarray(t, t + 3)).join(','));
      return out.sort();
    };
    const plain = planObjectLods(bunny, { simplifier, deflate }).object;
    // Reversed triangle order and a sort by first vertex: the planner keeps whichever is smaller.
    const reversed = (idx: Uint32Array) => {
      const out = new Uint32Array(idx.length);
      for (let t = 0; t < idx.length; t += 3) out.set(idx.subarray(t, t + 3), idx.length - 3 - t);
      return out;
    };
    const byFirst = (idx: Uint32Array) => {
      const order = Array.from({ length: idx.length / 3 }, (_, t) => t).sort((a, b) => idx[3 * a] - idx[3 * b]);
      const out = new Uint32Array(idx.length);
      order.forEach((t, i) => out.set(idx.subarray(3 * t, 3 * t + 3), 3 * i));
      return out;
    };
    let changed = 0;
    for (const fn of [reversed, byFirst]) {
      const r = planObjectLods(bunny, { simplifier, deflate, reorderTriangles: fn }).object;
      for (const name of ['high', 'medium', 'low', 'lowest'] as const) {
        const a = plain.lods[name]!,
          b = r.lods[name]!;
        expect(b.faces.map(tris)).toEqual(a.faces.map(tris));
        const before = lodBlockBytes(a, n, deflate),
          after = lodBlockBytes(b, n, deflate);
        expect(after).toBeLessThanOrEqual(before);
        if (after < before) changed++;
        else expect(b.faces.map((f) => Array.from(f.indices))).toEqual(a.faces.map((f) => Array.from(f.indices)));
      }
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('viewerBound: no LOD worse than the viewer chain at its worst, each within 1 px unless its viewer level is worse (independent dense measure)', () => {
    const dense = { samples: 65536, maxVertexSamples: 1 << 20, centroids: true };
    const pxOf = (high: SlObject, lod: MeshLod, distance: number) =>
      Number.isFinite(distance)
        ? screenSpaceError(lodHausdorffDistance(high.lods.high, lod, dense).distance, distance)
        : 0;
    const strictBytes: number[] = [];
    const boundBytes: number[] = [];
    // The teapot: the viewer's chain is better than 1 px (0.4 px) and binds every LOD. Torus1: the
    // viewer's low and lowest are worse than 1 px (2.8 px) and those may follow it.
    for (const name of ['teapot.obj', 'torus1.obj']) {
      const high = object(name, [vhacdMesh(name)]);
      const n = computeUploadNormalization(high.lods.high);
      const radius = radiusOfScale(boxSize(objectBox(high)));
      const { distances } = lodErrorBounds(radius, 2, 1);
      const raw = viewerAutoLods(high, simplifier).lods;
      // As the viewer shows them: stretched onto high's box.
      const viewer = Object.fromEntries(LOWER.map((l) => [l, displayedLod(high.lods.high, raw[l])])) as typeof raw;
      const viewerPx = Object.fromEntries(LOWER.map((l) => [l, pxOf(high, viewer[l], distances[l])]));
      const worst = Math.max(...LOWER.map((l) => viewerPx[l]));
      const { object: planned, plan } = planObjectLods(high, { simplifier, deflate, viewerBound: true });
      // The planner's own (sampled) measure of the viewer's chain, within 10 % of this denser one.
      expect(plan.viewerWorstPx!).toBeGreaterThan(0.9 * worst);
      expect(plan.viewerWorstPx!).toBeLessThanOrEqual(1.1 * worst);
      for (const l of LOWER) {
        const px = pxOf(high, planned.lods[l]!, distances[l]);
        expect(px).toBeLessThanOrEqual(worst);
        expect(px).toBeLessThanOrEqual(Math.max(1, viewerPx[l]) * 1.05);
      }
      const strict = planObjectLods(high, { simplifier, deflate, viewerBound: false });
      const bytes = (o: SlObject) => LOWER.reduce((a, l) => a + lodBlockBytes(o.lods[l]!, n, deflate), 0);
      strictBytes.push(bytes(strict.object));
      boundBytes.push(bytes(planned));
      if (name === 'teapot.obj') {
        expect(worst).toBeLessThan(1);
        expect(plan.high.screenErrorPx).toBeLessThanOrEqual(worst);
      } else {
        expect(worst).toBeGreaterThan(1.5);
        expect(plan.worstScreenErrorPx).toBeGreaterThan(1);
      }
    }
    // Stricter than 1 px costs the teapot bytes; the torus's looser far LODs save some.
    expect(boundBytes[0]).toBeGreaterThan(strictBytes[0]);
    expect(boundBytes[1]).toBeLessThan(strictBytes[1]);
  });

  it("viewerBound: never costlier than Generate: where the planned chain would cost more download weight than the viewer's own (V-HACD's character), Generate's LODs are taken", () => {
    // The hornbug's chain was Generate's too until its stuck lowest LOD could be impostor-like
    // cards (12 triangles within Generate's worst): its planned chain is now the cheaper one.
    for (const name of ['hornbug.obj', 'character.obj', 'teapot.obj', 'torus1.obj']) {
      const high = object(name, [vhacdMesh(name)]);
      const { object: planned, plan } = planObjectLods(high, { simplifier, deflate, viewerBound: true });
      const generate = viewerAutoLods(high, simplifier).object;
      // Priced by the real encoder (the whole asset), independently of the planner's block estimate.
      const weight = (o: SlObject) => costReport({ objects: [o] }, { deflate }).objects[0].streaming;
      expect(weight(planned)).toBeLessThanOrEqual(weight(generate) * 1.01);
      const swapped = plan.diagnostics.some((d) => d.code === 'lod-generate-cheaper');
      expect(swapped).toBe(name === 'character.obj');
      if (swapped) {
        expect(plan.levels.every((l) => l.mode === 'viewer' && !l.fallback)).toBe(true);
        expect(plan.diagnostics.some((d) => d.code === 'lod-fallback')).toBe(false);
        // Generate's own triangles, no more than the LOD above.
        for (const l of LOWER) expect(lodTriangleCount(planned.lods[l]!)).toBe(lodTriangleCount(generate.lods[l]!));
        // --strict-error (no viewer bound) keeps its own chain.
        const strict = planObjectLods(high, { simplifier, deflate, viewerBound: false }).plan;
        expect(strict.diagnostics.some((d) => d.code === 'lod-generate-cheaper')).toBe(false);
      }
    }
  });

  it("viewerBound: a pixel bound at or past Generate's worst still lets its worst level take Generate's LOD (V-HACD's chess table)", () => {
    // The chess table's lowest cannot shrink within its bound (disconnected parts under a
    // 107-triangle low). With maxErrorPx 12, over Generate's worst, every bound is that worst
    // (times the 0.85 margin), so the worst level's bound is exactly Generate's own error there:
    // it must count as following Generate (its LOD a candidate even under the silhouette floor, as
    // at 1 px), not as a small stuck LOD left a copy of the one above (5.2 land impact against 0.5
    // for the table read by the CLI at 1 m).
    const high = object('ob_chess_table.obj', [vhacdMesh('ob_chess_table.obj')]);
    const at = (maxErrorPx: number) => planObjectLods(high, { simplifier, deflate, viewerBound: true, maxErrorPx });
    const strict = at(1),
      loose = at(12);
    const worst = loose.plan.levels.reduce((a, l) => (l.screenErrorPx > a.screenErrorPx ? l : a));
    expect(worst.name).toBe('lowest');
    expect(worst.mode).toBe('viewer');
    expect(worst.fallback).toBe('relaxed-bound');
    expect(worst.triangles).toBeLessThan(loose.plan.levels[1].triangles / 2);
    expect(worst.screenErrorPx).toBeLessThanOrEqual(loose.plan.viewerWorstPx! * (1 + 1e-9));
    // At 1 px the same level is Generate's too.
    expect(strict.plan.levels[2]).toMatchObject({ mode: 'viewer', triangles: worst.triangles });
  });

  it("viewerBound: where Generate's chain is finer than 1 px, the level it is worst at follows it too (V-HACD's lamp: a smaller medium within the same bound)", () => {
    // The lamp's chain is 0.95 px at worst (edge midpoints measured; 0.88 px by area and
    // centroids alone), at its medium: every bound is 0.85 of that, and the medium's bound is
    // exactly its Generate LOD's error. Counted as following Generate, the fallback's candidates
    // compete there: a medium of 2,168 triangles at 0.72 px, where the search alone kept 3,264
    // (Generate's has 2,944); within the bound and the floor, it is no fallback.
    const high = object('lamp.obj', [vhacdMesh('lamp.obj')]);
    const { plan } = planObjectLods(high, { simplifier, deflate, viewerBound: true });
    const generate = viewerAutoLods(high, simplifier).object;
    const medium = plan.levels[0];
    expect(plan.viewerWorstPx!).toBeLessThan(1);
    expect(medium.triangles).toBeLessThan(0.85 * lodTriangleCount(generate.lods.medium!));
    expect(medium.screenErrorPx).toBeLessThanOrEqual(VIEWER_BOUND_MARGIN * plan.viewerWorstPx! * 1.02);
    expect(medium.fallback).toBeUndefined();
  });

  it("generateChainFits: Generate's chain stands under a planned high when no level is empty and vertices never grow; triangles may (0 A.D.'s elm)", () => {
    const top = { vertices: 300 };
    const level = (triangles: number, vertices: number) => ({ triangles, vertices });
    expect(generateChainFits(top, [level(200, 150), level(60, 50), level(20, 20)])).toBe(true);
    // The elm: a 67-triangle lowest under a 54-triangle low, on fewer vertices.
    expect(generateChainFits(top, [level(104, 90), level(54, 60), level(67, 58)])).toBe(true);
    // Vertices growing anywhere, from the high down, or an empty level: not as it is.
    expect(generateChainFits(top, [level(200, 301), level(60, 50), level(20, 20)])).toBe(false);
    expect(generateChainFits(top, [level(200, 150), level(60, 50), level(20, 51)])).toBe(false);
    expect(generateChainFits(top, [level(200, 150), level(0, 0), level(0, 0)])).toBe(false);
  });

  it("viewerBound: level by level, the viewer's own LOD where it is smaller and keeps the floor (V-HACD's cow)", () => {
    const high = object('cow-nonormals.obj', [vhacdMesh('cow-nonormals.obj')]);
    const { object: planned, plan } = planObjectLods(high, { simplifier, deflate, viewerBound: true });
    const generate = viewerAutoLods(high, simplifier).lods;
    const taken = plan.diagnostics.filter((d) => d.code === 'lod-generate-level');
    expect(taken.length).toBeGreaterThan(0);
    expect(plan.diagnostics.some((d) => d.code === 'lod-generate-cheaper')).toBe(false);
    const n = computeUploadNormalization(high.lods.high);
    for (const [i, l] of LOWER.entries()) {
      const level = plan.levels[i];
      const above = i === 0 ? plan.high : plan.levels[i - 1];
      // Monotone whatever each level is made by.
      expect(level.triangles).toBeLessThanOrEqual(above.triangles);
      expect(level.vertices).toBeLessThanOrEqual(above.vertices);
      if (level.mode !== 'viewer') continue;
      expect(taken.some((d) => d.message.startsWith(`cow-nonormals.obj: ${l}: `))).toBe(true);
      // Generate's own LOD: its triangles, its coverage at least the floor, fewer bytes than the
      // planned LOD it replaced (priced by the same block encoder).
      expect(lodTriangleCount(planned.lods[l]!)).toBe(lodTriangleCount(generate[l]));
      expect(level.coverage).toBeGreaterThanOrEqual(0.9);
      expect(level.fallback).toBeUndefined();
      const [, theirs, ours] = /\((\d+) bytes against (\d+)/.exec(
        taken.find((d) => d.message.includes(`: ${l}: `))!.message,
      )!;
      expect(Number(theirs)).toBeLessThan(Number(ours));
      // What is written: that LOD, in the triangle order that compresses best (never larger).
      expect(lodBlockBytes(planned.lods[l]!, n, deflate)).toBeLessThanOrEqual(Number(theirs));
    }
    // --strict-error (no viewer bound) keeps its own chain.
    const strict = planObjectLods(high, { simplifier, deflate, viewerBound: false }).plan;
    expect(strict.diagnostics.some((d) => d.code === 'lod-generate-level')).toBe(false);
  });

  it("viewerBound: a LOD that is Generate's own keeps Generate's triangle order, where reordering would have compressed it smaller", () => {
    // Sorting triangles by their smallest vertex index: a reorder that often compresses smaller.
    const low3 = (idx: Uint32Array, t: number) => Math.min(idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]);
    const byFirst = (idx: Uint32Array) => {
      const order = Array.from({ length: idx.length / 3 }, (_, t) => t).sort((a, b) => low3(idx, a) - low3(idx, b));
      const out = new Uint32Array(idx.length);
      order.forEach((t, i) => out.set(idx.subarray(3 * t, 3 * t + 3), 3 * i));
      return out;
    };
    const reorder = (lod: MeshLod): MeshLod => ({
      faces: lod.faces.map((f) => (f.indices.length >= 6 ? { ...f, indices: byFirst(f.indices) } : f)),
    });
    let kept = 0;
    for (const name of ['hornbug.obj', 'character.obj', 'cow-nonormals.obj']) {
      const high = object(name, [vhacdMesh(name)]);
      const { object: planned, plan } = planObjectLods(high, {
        simplifier,
        deflate,
        viewerBound: true,
        reorderTriangles: byFirst,
      });
      const generate = viewerAutoLods(high, simplifier).lods;
      const n = computeUploadNormalization(high.lods.high);
      for (const [i, l] of LOWER.entries()) {
        if (plan.levels[i].mode !== 'viewer') continue;
        const theirs = displayedLod(high.lods.high, generate[l]);
        // Generate's triangles in Generate's order, face by face.
        expect(planned.lods[l]!.faces.map((f) => Array.from(f.indices))).toEqual(
          theirs.faces.map((f) => Array.from(f.indices)),
        );
        if (lodBlockBytes(reorder(theirs), n, deflate) < lodBlockBytes(theirs, n, deflate)) kept++;
      }
    }
    // At least one of them would have been written reordered (the test has teeth).
    expect(kept).toBeGreaterThan(0);
  });

  /**
   * A 67,080-triangle sphere (measured through a proxy) with a needle: one vertex 5 cm out, its
   * ring pulled in to a tenth of a millimetre, so the needle's triangles are slivers.
   */
  function needleSphere(): Face {
    const face = uvSphere(260);
    const seg = 260;
    const v = 65 * (seg + 1) + 65;
    const p = face.positions;
    const ring = new Set<number>();
    for (let t = 0; t < face.indices.length; t += 3) {
      const tri = [face.indices[t], face.indices[t + 1], face.indices[t + 2]];
      if (tri.includes(v)) for (const x of tri) if (x !== v) ring.add(x);
    }
    const at = [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
    for (const n of ring) for (let d = 0; d < 3; d++) p[3 * n + d] = at[d] + 0.02 * (p[3 * n + d] - at[d]);
    for (let d = 0; d < 3; d++) p[3 * v + d] = at[d] * 1.05;
    return face;
  }

  it("a big high's proxy keeps a needle meshoptimizer's area-weighted error drops: the claimed error holds at every input vertex", () => {
    const face = needleSphere();
    const { object: planned, plan } = planObjectLods(object('Needle', [face]), {
      simplifier,
      deflate,
      viewerBound: true,
    });
    expect(plan.high.mode).toBe('proxy');
    const bvh = TriangleBvh.build(lodTriangles(planned.lods.high));
    const { max } = strayVertices(face.positions, bvh, Infinity);
    // The tip is kept (it is 5 cm out), and no input vertex is farther than the plan says.
    expect(max).toBeLessThan(0.01);
    expect(max).toBeLessThanOrEqual(plan.high.error * (1 + 1e-6));
  });

  /** `face` as one object, planned (viewerBound): its high must be its proxy, made without its normal seams. */
  function plannedWithoutNormalSeams(name: string, face: Face): { object: SlObject; plan: ObjectLodPlan } {
    const planned = planObjectLods(object(name, [face]), { simplifier, deflate, viewerBound: true });
    expect(planned.plan.high.mode).toBe('proxy');
    expect(planned.plan.high.proxyMode).toBe('no-normals');
    return planned;
  }

  it('a big flat-shaded high (every point on a normal seam) is planned through a proxy without its normal seams: far fewer triangles, flat shading and the UV seam kept, the error true at every input vertex', () => {
    // 67,080 faceted triangles: with its normal seams kept nothing of it can collapse (every point
    // is shared by six vertices), which left such a high whole (a flat-shaded 1M-triangle Suzanne).
    const face = facetedSphere(260);
    const { object: planned, plan } = plannedWithoutNormalSeams('Faceted', face);
    expect(plan.high.triangles).toBeLessThan(plan.highTriangles / 4);
    expect(plan.high.screenErrorPx).toBeLessThanOrEqual(1);
    const high = planned.lods.high;
    const { max } = strayVertices(face.positions, TriangleBvh.build(lodTriangles(high)), Infinity);
    expect(max).toBeLessThanOrEqual(plan.high.error * (1 + 1e-6));
    const [f] = high.faces;
    const p = f.positions,
      n = f.normals!,
      uv = f.uvs!;
    // Area of triangles whose corners all take a normal within 20 degrees of the triangle's, and in all.
    let flatArea = 0,
      area = 0,
      widestU = 0;
    const cos20 = Math.cos((20 * Math.PI) / 180);
    for (let t = 0; t < f.indices.length; t += 3) {
      const c = [f.indices[t], f.indices[t + 1], f.indices[t + 2]];
      const e1 = [0, 1, 2].map((d) => p[c[1] * 3 + d] - p[c[0] * 3 + d]);
      const e2 = [0, 1, 2].map((d) => p[c[2] * 3 + d] - p[c[0] * 3 + d]);
      const fn = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const l = Math.hypot(fn[0], fn[1], fn[2]);
      area += l;
      // Flat shading comes back: each corner's normal is one of the input's facets, close to its triangle's.
      if (c.every((v) => fn[0] * n[v * 3] + fn[1] * n[v * 3 + 1] + fn[2] * n[v * 3 + 2] > cos20 * l)) flatArea += l;
      // No triangle is textured across the sphere's UV seam (u = 0 on one side, 1 on the other).
      const us = c.map((v) => uv[v * 2]);
      widestU = Math.max(widestU, Math.max(...us) - Math.min(...us));
    }
    // (Not every triangle: meshoptimizer leaves a few slivers folded over at the poles' fans.)
    expect(flatArea / area).toBeGreaterThan(0.999);
    expect(widestU).toBeLessThan(0.5);
  });

  it('a big high whose proxy shrinks with its seams kept keeps them: one simplification, no second one without normal seams', () => {
    // 67,080 smooth triangles with a normal seam along the UV seam's meridian (a hard edge, its two
    // sides' normals 30 degrees apart): the seam costs the proxy a few triangles, not its shrinking.
    const face = uvSphere(260);
    const seg = 260;
    const n = face.normals!;
    for (let v = seg; v < face.positions.length / 3; v += seg + 1) {
      const [x, y, z] = [n[v * 3], n[v * 3 + 1], n[v * 3 + 2]];
      const c = Math.cos(Math.PI / 6),
        sn = Math.sin(Math.PI / 6);
      n[v * 3] = c * x - sn * y;
      n[v * 3 + 1] = sn * x + c * y;
      n[v * 3 + 2] = z;
    }
    let calls = 0;
    const counting: MeshSimplifier = {
      ...simplifier,
      simplify: (...a: Parameters<MeshSimplifier['simplify']>) => (calls++, simplifier.simplify(...a)),
      simplifyWithAttributes: (...a: Parameters<MeshSimplifier['simplifyWithAttributes']>) => (
        calls++, simplifier.simplifyWithAttributes(...a)
      ),
    };
    const planner = new ObjectLodPlanner(object('Seam', [face]), { simplifier: counting, deflate, viewerBound: true });
    expect(calls).toBe(1);
    const { plan } = planner.plan();
    expect(plan.high.mode).toBe('proxy');
    expect(plan.high.proxyMode).toBe('attributes');
    expect(plan.high.triangles).toBeLessThan(plan.highTriangles / 2);
  });

  it("a big flat-shaded high's proxy keeps a needle too: a lock holds in the proxy's no-normals mode", () => {
    // Flat-shaded, the needle's tip is six vertices, one per triangle; the proxy, made without its
    // normal seams, merges them. A lock on any of them locks the merged point (a lock given to a
    // fallback mode was ignored: the needle went, and the high was kept whole).
    const face = faceted(needleSphere());
    const { object: planned, plan } = plannedWithoutNormalSeams('Needle', face);
    const { max } = strayVertices(face.positions, TriangleBvh.build(lodTriangles(planned.lods.high)), Infinity);
    expect(max).toBeLessThan(0.01);
    expect(max).toBeLessThanOrEqual(plan.high.error * (1 + 1e-6));
  });

  it("viewerBound: a big high (over the proxy threshold) is planned without Generate's LODs where they bind nothing, within the pixel bound", () => {
    const big = object('Big', [uvSphere(260)]); // 67,080 triangles: measured through a proxy
    // Every simplification's target, to see whether Generate's chain (a third of high first) was made.
    const targets: number[] = [];
    const counting: MeshSimplifier = {
      ...simplifier,
      simplify: (...a: Parameters<MeshSimplifier['simplify']>) => {
        targets.push(a[3]);
        return simplifier.simplify(...a);
      },
    };
    const { object: planned, plan } = planObjectLods(big, { simplifier: counting, deflate, viewerBound: true });
    expect(plan.highTriangles).toBeGreaterThan(60_000);
    expect(plan.high.mode).toBe('proxy');
    expect(plan.high.triangles).toBeLessThan(plan.highTriangles / 2);
    // Generate's medium (a third of high's indices) was never asked for, and its worst is not reported.
    const generateMedium = Math.floor(Math.floor((3 * plan.highTriangles) / 3) / 3) * 3;
    expect(targets.length).toBeGreaterThan(0);
    expect(targets).not.toContain(generateMedium);
    expect(plan.viewerWorstPx).toBeUndefined();
    // The bounds are then the pixel bound (1 px, or the proxy's error at the near distance): every
    // LOD within it, measured here independently against the input's high.
    const radius = radiusOfScale(boxSize(objectBox(big)));
    const { distances } = lodErrorBounds(radius, 2, 1);
    for (const l of LOWER) {
      const px = screenSpaceError(lodHausdorffDistance(big.lods.high, planned.lods[l]!).distance, distances[l]);
      expect(px).toBeLessThanOrEqual(1.05);
    }
    // Generate's own errors there are finer still: the bound it would have given is no looser.
    const generate = viewerAutoLods(big, simplifier).lods;
    for (const l of LOWER) {
      const shown = displayedLod(big.lods.high, generate[l]);
      const px = screenSpaceError(lodHausdorffDistance(big.lods.high, shown).distance, distances[l]);
      expect(px).toBeLessThan(plan.high.screenErrorPx);
    }
  });

  it('a high with UV seams is never made by a mode that merges them: a tiled floor stays tiled, one without seams still shrinks', () => {
    // A flat 1 m floor of 16 x 16 quads. Tiled, each quad maps the whole texture (its own four
    // vertices: every inner point is a UV seam); 'no-uvs' then collapses it to 2 triangles at no
    // geometric error, whose corners' uvs show the texture once, stretched over the floor. Seen
    // from where the object fills the view, that would be the high.
    const floor = (tiled: boolean): Face => {
      const n = 16;
      const p: number[] = [],
        uv: number[] = [],
        ix: number[] = [];
      for (let j = 0; j < n; j++)
        for (let i = 0; i < n; i++) {
          const v = p.length / 3;
          for (const [a, b] of [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ]) {
            p.push((i + a) / n, (j + b) / n, 0);
            uv.push(tiled ? a : (i + a) / n, tiled ? b : (j + b) / n);
          }
          ix.push(v, v + 1, v + 2, v, v + 2, v + 3);
        }
      const normals = new Float32Array(p.length);
      for (let k = 2; k < normals.length; k += 3) normals[k] = 1;
      return {
        material: 'Floor',
        positions: Float32Array.from(p),
        normals,
        uvs: Float32Array.from(uv),
        indices: Uint32Array.from(ix),
      };
    };
    /** Texture area over surface area of each triangle of a LOD (the texture's scale there). */
    const uvScales = (lod: MeshLod): number[] =>
      lod.faces.flatMap((f) => {
        const out: number[] = [];
        for (let t = 0; t < f.indices.length; t += 3) {
          const [a, b, c] = [f.indices[t], f.indices[t + 1], f.indices[t + 2]];
          const P = f.positions,
            U = f.uvs!;
          const area = Math.abs(
            (P[3 * b] - P[3 * a]) * (P[3 * c + 1] - P[3 * a + 1]) -
              (P[3 * b + 1] - P[3 * a + 1]) * (P[3 * c] - P[3 * a]),
          );
          const uvArea = Math.abs(
            (U[2 * b] - U[2 * a]) * (U[2 * c + 1] - U[2 * a + 1]) -
              (U[2 * b + 1] - U[2 * a + 1]) * (U[2 * c] - U[2 * a]),
          );
          out.push(uvArea / area);
        }
        return out;
      });
    const tiled = planObjectLods(object('Tiled', [floor(true)]), { simplifier });
    expect(['no-uvs', 'sloppy']).not.toContain(tiled.plan.high.mode);
    // Every triangle of the high shows the texture at the input's scale: 256 tiles on 1 m^2.
    for (const s of uvScales(tiled.object.lods.high)) expect(s).toBeCloseTo(256, 3);
    // Without seams the same floor still becomes 2 triangles, its texture where it was.
    const plain = planObjectLods(object('Plain', [floor(false)]), { simplifier });
    expect(plain.plan.high.triangles).toBe(2);
    for (const s of uvScales(plain.object.lods.high)) expect(s).toBeCloseTo(1, 3);
  });

  it('uses the LOD above as the source for a high over 50,000 triangles, still measured against high', () => {
    const big = object('Big', [uvSphere(230)]); // 52,440 triangles
    const planner = new ObjectLodPlanner(big, { simplifier, sizeFactor: 3 });
    const { object: planned, plan } = planner.plan();
    expect(plan.highTriangles).toBeGreaterThan(50_000);
    for (const l of plan.levels) expect(l.screenErrorPx).toBeLessThanOrEqual(1);
    expect(plan.levels[0].triangles).toBeLessThan(plan.highTriangles / 4);
    expect(lodTriangleCount(planned.lods.lowest!)).toBeLessThanOrEqual(lodTriangleCount(planned.lods.low!));
  });

  it('needs a simplifier and sane settings', () => {
    for (const bad of [
      {},
      { simplifier: MeshoptSimplifier, sizeFactor: 0 },
      { simplifier: MeshoptSimplifier, minCoverage: 2 },
    ]) {
      try {
        planObjectLods(sphere, bad as LodPlanOptions);
        expect.unreachable();
      } catch (e) {
        expect(isSlmeshError(e) && e.code).toBe('USAGE');
      }
    }
  });
});

describe('planObjectLods with quantize', () => {
  it('moves vertices within each bound (measured independently) and writes fewer bytes, the same triangles', () => {
    const ball = object('Ball', [uvSphere(96)]); // with normals and UVs
    const base: LodPlanOptions = { simplifier, deflate, sizeFactor: 2 };
    const full = planObjectLods(ball, base);
    const snapped = planObjectLods(ball, { ...base, quantize: true });
    checkChain(ball, snapped.object, { maxErrorPx: 1, lodFactor: 2, sizeFactor: 2, minCoverage: 0.9 }, snapped.plan);
    // The high: within 1 px at the fill distance, measured independently.
    const radius = radiusOfScale(boxSize(objectBox(ball))) * 2;
    const highErr = lodHausdorffDistance(ball.lods.high, snapped.object.lods.high).distance * 2;
    expect(screenSpaceError(highErr, fillDistance(radius))).toBeLessThanOrEqual(1);
    const n = computeUploadNormalization(ball.lods.high);
    let before = 0,
      after = 0;
    for (const l of ['high', ...LOWER] as const) {
      // Step 4 moves vertices only: the same triangles, the same vertex count.
      expect(snapped.object.lods[l]!.faces[0].indices).toEqual(full.object.lods[l]!.faces[0].indices);
      expect(lodVertexCount(snapped.object.lods[l]!)).toBe(lodVertexCount(full.object.lods[l]!));
      const [b, a] = [
        lodBlockBytes(full.object.lods[l]!, n, deflate),
        lodBlockBytes(snapped.object.lods[l]!, n, deflate),
      ];
      expect(a, l).toBeLessThan(b);
      before += b;
      after += a;
    }
    expect(after).toBeLessThan(0.95 * before); // 52,822 -> 48,822 bytes here
    // The plan reports what was written: each level's error within its bound.
    for (const l of snapped.plan.levels) expect(l.error).toBeLessThanOrEqual(l.maxError);
  });

  /** The farthest any vertex of `b` lies from the same vertex of `a` (the same LOD, moved), model units. */
  const farthestMove = (a: MeshLod, b: MeshLod) => {
    let m = 0;
    a.faces.forEach((f, i) => {
      const p = b.faces[i].positions;
      for (let v = 0; v < f.positions.length; v += 3)
        m = Math.max(
          m,
          Math.hypot(p[v] - f.positions[v], p[v + 1] - f.positions[v + 1], p[v + 2] - f.positions[v + 2]),
        );
    });
    return m;
  };
  /** Each LOD's move (metres at the planned size) and what its bound less its error before the move left. */
  const moves = (o: SlObject, options: LodPlanOptions, k: number) => {
    const full = planObjectLods(o, options);
    const snapped = planObjectLods(o, { ...options, quantize: true });
    return [full.plan.high, ...full.plan.levels].map((l, i) => {
      const name = (['high', ...LOWER] as const)[i];
      return {
        name,
        move: farthestMove(full.object.lods[name]!, snapped.object.lods[name]!) * k,
        room: Math.max(0, l.maxError - l.error),
      };
    });
  };

  it('under the pixel bound, moves positions past what the bound less the error leaves (held by the dense measure)', () => {
    // checkChain (above) measures the same sphere's moved chain independently against each bound.
    const m = moves(object('Ball', [uvSphere(96)]), { simplifier, deflate, sizeFactor: 2 }, 2);
    expect(m.some((l) => l.move > l.room * 1.5 + 1e-9)).toBe(true);
  });

  it('under a bound taken from Generate, moves no vertex further than the bound less the error (the triangle inequality)', () => {
    // V-HACD's bunny: Generate's worst is under 1 px, so with viewerBound every bound comes from it.
    const bunny = object('Bunny', [vhacdMesh('bunny.obj')]);
    const plan = planObjectLods(bunny, { simplifier, viewerBound: true }).plan;
    expect(VIEWER_BOUND_MARGIN * plan.viewerWorstPx!).toBeLessThan(1);
    const m = moves(bunny, { simplifier, deflate, viewerBound: true }, 1);
    expect(m.some((l) => l.move > 0)).toBe(true);
    for (const l of m) expect(l.move, l.name).toBeLessThanOrEqual(l.room * (1 + 1e-6) + 1e-9);
  });

  it("gives a linked duplicate its source's written high when the high is kept but moved for precision", () => {
    // V-HACD's torus (its high is kept: simplifying it saves under 5 %) and a recoloured copy (in
    // place: a translation by a float would change the key of a mesh of arbitrary floats).
    const torus = object('Torus', [vhacdMesh('torus1.obj')]);
    const copy = object('Copy', [{ ...torus.lods.high.faces[0], material: 'Red' }]);
    expect(geometryKeys([torus, copy]).map((x) => x.key)).toEqual(Array(2).fill(geometryKey(torus).key));
    const { model, plans } = planModelLods({ objects: [torus, copy] }, { simplifier, deflate, quantize: true });
    expect(plans[0].high.mode).toBe('kept');
    const [a, b] = model.objects;
    // Written otherwise than read (moved, reordered).
    expect(a.lods.high).not.toBe(torus.lods.high);
    const bytes = (o: SlObject) => lodBlockBytes(o.lods.high, computeUploadNormalization(o.lods.high), deflate);
    expect(bytes(b)).toBe(bytes(a));
    expect(bytes(b)).toBeLessThan(lodBlockBytes(copy.lods.high, computeUploadNormalization(copy.lods.high), deflate));
  });

  it('moves a plan onto a copy once: asked again, the copy gets the same LOD objects (their prices remembered by object)', () => {
    const torus = object('Torus', [vhacdMesh('torus1.obj')]);
    const f = torus.lods.high.faces[0];
    const moved = object('Moved', [
      { ...f, material: 'Red', positions: f.positions.map((v, i) => (i % 3 === 0 ? v + 2 : v)) },
    ]);
    const [from, to] = geometryKeys([torus, moved]).map((k) => k.origin);
    const planned = planObjectLods(torus, { simplifier, deflate });
    const again = () => planFor(moved, to, torus, planned.object, from, planned.plan).object;
    const a = again();
    const b = again();
    for (const name of ['medium', 'low', 'lowest'] as const) {
      const lod = a.lods[name]!;
      expect(b.lods[name]).toBe(lod);
      expect(lod.faces[0].material).toBe('Red');
      expect(lod.faces[0].positions[0] - planned.object.lods[name]!.faces[0].positions[0]).toBeCloseTo(
        to[0] - from[0],
        5,
      );
    }
    // Another renaming of the same move is another copy.
    const recoloured = object('Blue', [{ ...moved.lods.high.faces[0], material: 'Blue' }]);
    const c = planFor(recoloured, to, torus, planned.object, from, planned.plan).object;
    expect(c.lods.medium).not.toBe(a.lods.medium);
    expect(c.lods.medium!.faces[0].material).toBe('Blue');
  });

  it("moves a kept high's positions though its silhouette coverage drops below 1 (it is the reference), not below the floor", () => {
    // V-HACD's cylinder: kept as it is (every triangle shows), its vertices moved cover 0.9996.
    const cylinder = object('Cylinder', [vhacdMesh('cylinder.obj')]);
    const options: LodPlanOptions = { simplifier, deflate, viewerBound: true };
    const full = planObjectLods(cylinder, options);
    const snapped = planObjectLods(cylinder, { ...options, quantize: true });
    expect(snapped.plan.high.mode).toBe('kept');
    expect(farthestMove(full.object.lods.high, snapped.object.lods.high)).toBeGreaterThan(0);
    expect(snapped.plan.high.coverage).toBeLessThan(1);
    expect(snapped.plan.high.coverage).toBeGreaterThanOrEqual(0.9);
    const n = computeUploadNormalization(cylinder.lods.high);
    expect(lodBlockBytes(snapped.object.lods.high, n, deflate)).toBeLessThan(
      lodBlockBytes(full.object.lods.high, n, deflate),
    );
  });

  it('leaves a kept high alone and moves nothing without a deflate', () => {
    const bunny = object('Bunny', [vhacdMesh('bunny.obj')]);
    const kept = planObjectLods(bunny, { simplifier, deflate, quantize: true, keepHigh: true });
    expect(kept.object.lods.high.faces[0].positions).toEqual(bunny.lods.high.faces[0].positions);
    const plain = planObjectLods(bunny, { simplifier });
    const noDeflate = planObjectLods(bunny, { simplifier, quantize: true });
    for (const l of LOWER)
      expect(noDeflate.object.lods[l]!.faces[0].positions).toEqual(plain.object.lods[l]!.faces[0].positions);
  });
});

describe('planModelLods', () => {
  it('plans every object with the same bound', () => {
    const { model, plans } = planModelLods({ objects: [sphere, box3] }, { simplifier });
    expect(model.objects.map((o) => o.name)).toEqual(['Ball', 'BevelBox']);
    expect(plans).toHaveLength(2);
    for (const o of model.objects) expect(o.lods.lowest).toBeDefined();
  });

  it('plans linked duplicates once: moved, recoloured, normals an ulp apart; each keeps its own materials', () => {
    // The box's copy: moved 3 m, its faces renamed, one normal nudged by an ulp (as an importer
    // that turns normals by a node's rotation and back leaves them).
    const copy: SlObject = {
      name: 'Copy',
      lods: {
        high: {
          faces: box3.lods.high.faces.map((f, i) => {
            const positions = Float32Array.from(f.positions, (x, k) => (k % 3 === 0 ? x + 3 : x));
            const normals = f.normals!.slice();
            if (i === 0) normals[0] = Math.fround(normals[0] + 2 ** -24 * Math.max(1, Math.abs(normals[0])));
            return { ...f, material: `${f.material}-red`, positions, normals };
          }),
        },
      },
    };
    expect(geometryKey(copy).key).toBe(geometryKey(box3).key);
    // A copy with one vertex moved is another geometry.
    const bent: SlObject = {
      name: 'Bent',
      lods: {
        high: {
          faces: box3.lods.high.faces.map((f, i) => ({
            ...f,
            positions: Float32Array.from(f.positions, (x, k) => (i === 0 && k === 1 ? x + 0.01 : x)),
          })),
        },
      },
    };
    expect(geometryKey(bent).key).not.toBe(geometryKey(box3).key);
    // geometryKeys hashes only where face counts are shared: the copy keys as the box, the bent
    // box (same counts) apart from both, and a box alone with its counts gets a key of its own.
    const keys = geometryKeys([box3, copy, bent]).map((k) => k.key);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(2);
    const [alone] = geometryKeys([box3]);
    expect(alone.key).not.toBe(keys[0]);
    expect(alone.origin).toEqual(geometryKey(box3).origin);
    const { model, plans } = planModelLods({ objects: [box3, copy] }, { simplifier });
    const [a, b] = model.objects;
    for (const name of ['medium', 'low', 'lowest'] as const) {
      const la = a.lods[name]!,
        lb = b.lods[name]!;
      expect(lb.faces.map((f) => f.material)).toEqual(la.faces.map((f) => `${f.material}-red`));
      expect(lb.faces.map((f) => f.indices.length)).toEqual(la.faces.map((f) => f.indices.length));
      // Moved with its object.
      expect(lb.faces[0].positions[0]).toBeCloseTo(la.faces[0].positions[0] + 3, 5);
    }
    expect(plans[1].name).toBe('Copy');
    expect(plans[1].levels.map((l) => l.triangles)).toEqual(plans[0].levels.map((l) => l.triangles));
  });
});

describe('planModelForBudget', () => {
  const model = { objects: [object('Bunny', [vhacdMesh('bunny.obj')])] };

  it('finds a chain within a reachable land impact, priced with the real encoder', () => {
    const floor = planModelForBudget(model, {
      simplifier,
      deflate,
      targetLandImpact: 1e6,
      iterations: 3,
      maxProbes: 4,
    });
    expect(floor.fits).toBe(true);
    const target = 2 * floor.floorLandImpact + 0.5;
    const r = planModelForBudget(model, { simplifier, deflate, targetLandImpact: target, iterations: 3, maxProbes: 4 });
    expect(r.fits).toBe(true);
    const priced = costReport(r.model, { deflate }).linkset.landImpact;
    expect(priced).toBeCloseTo(r.landImpact, 9);
    expect(priced).toBeLessThanOrEqual(target);
    expect(r.maxErrorPx).toBeGreaterThan(0);
  });

  it('says when even the silhouette floor is over the target, and keeps the floor chain', () => {
    const r = planModelForBudget(model, { simplifier, deflate, targetLandImpact: 0.01, iterations: 3, maxProbes: 4 });
    expect(r.fits).toBe(false);
    expect(r.maxErrorPx).toBe(Infinity);
    expect(r.landImpact).toBe(r.floorLandImpact);
    expect(r.landImpact).toBeGreaterThan(0.01);
    for (const n of LOWER) expect(lodTriangleCount(r.model.objects[0].lods[n]!)).toBeGreaterThan(0);
  });

  it('rejects a non-positive target', () => {
    expect(() => planModelForBudget(model, { simplifier, deflate, targetLandImpact: 0 })).toThrow(/target land impact/);
  });
});

describe('planModelSharper', () => {
  const model = { objects: [object('Bunny', [vhacdMesh('bunny.obj')])] };
  /** A sharper chain from `minErrorPx`, under limits nothing reaches unless `more` sets them (the simplifier is ready only once beforeAll has run). */
  const sharper = (minErrorPx: number, more: Partial<SharperLodOptions> = {}) =>
    planModelSharper(model, {
      simplifier,
      deflate,
      maxProbes: 4,
      minErrorPx,
      maxDownloadWeight: 1e6,
      maxLandImpact: 1e6,
      current: { errorPx: 16, downloadWeight: 1 },
      ...more,
    });
  /** The worst error of a chain, high included, and its download weight priced afresh. */
  const check = (r: { model: typeof model; plans: ObjectLodPlan[] }) => ({
    worst: Math.max(...r.plans.map((p) => Math.max(p.worstScreenErrorPx, p.high.screenErrorPx))),
    download: costReport(r.model, { deflate }).linkset.streaming,
  });

  it('holds every LOD to the bound it returns, and its download weight to the limit', () => {
    // A limit nothing reaches: the finest bound is taken at once.
    const fine = sharper(0.25)!;
    expect(fine.maxErrorPx).toBe(0.25);
    const coarse = sharper(4)!;
    const f = check(fine);
    const c = check(coarse);
    expect(f.worst).toBeLessThanOrEqual(0.25 * 1.05);
    expect(c.worst).toBeLessThanOrEqual(4 * 1.05);
    expect(f.download).toBeCloseTo(fine.downloadWeight, 9);
    expect(c.download).toBeLessThan(f.download);
    // A limit between the two: a bound between them, within the limit.
    const limit = Math.sqrt(f.download * c.download);
    const mid = sharper(0.25, { maxDownloadWeight: limit, current: { errorPx: 4, downloadWeight: c.download } });
    expect(mid).toBeDefined();
    const m = check(mid!);
    expect(m.download).toBeLessThanOrEqual(limit);
    expect(mid!.maxErrorPx).toBeGreaterThan(0.25);
    expect(mid!.maxErrorPx).toBeLessThanOrEqual(4 * 0.9);
    // Each LOD is chosen within the bound and then measured as written (conformed to the planned
    // high's box), which can add a little: here the lowest, 0.712 px under a 0.701 px bound.
    expect(m.worst).toBeLessThanOrEqual(mid!.maxErrorPx * 1.05);
    expect(m.worst).toBeLessThan(4 * 0.9);
  });

  it('holds the land impact too: priced with the physics given, or the single hull of the low LOD', () => {
    const coarse = sharper(4)!;
    const fine = sharper(0.25)!;
    // Without physics the object is its low LOD's hull, which a finer low makes heavier.
    const hullOf = (r: typeof fine) => costReport(r.model, { deflate }).linkset.physics;
    expect(hullOf(fine)).toBeGreaterThan(hullOf(coarse));
    expect(fine.landImpact).toBeCloseTo(costReport(fine.model, { deflate }).linkset.landImpact, 9);
    // A land impact the finer chain passes by its physics alone: the chain returned keeps under it.
    const cap = (costReport(fine.model, { deflate }).linkset.landImpact + coarse.landImpact) / 2;
    const r = sharper(0.25, { maxLandImpact: cap, current: { errorPx: 4, downloadWeight: coarse.downloadWeight } });
    expect(r).toBeDefined();
    expect(costReport(r!.model, { deflate }).linkset.landImpact).toBeLessThanOrEqual(cap);
    expect(r!.maxErrorPx).toBeGreaterThan(0.25);
    // Given a fixed physics shape (a one-hull box of 8 corners), the low's hull no longer counts.
    const box = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1]);
    const fixed = sharper(0.25, { physics: [{ decomposition: [box] }] })!;
    expect(fixed.model.objects[0].decomposition).toEqual([box]);
    expect(costReport(fixed.model, { deflate }).linkset.physics).toBeLessThan(hullOf(fine));
  });

  it('returns nothing when no bound under the error in hand fits, or none is worth trying', () => {
    expect(sharper(0.5, { maxDownloadWeight: 1e-6, current: { errorPx: 4, downloadWeight: 1e-6 } })).toBeUndefined();
    // The error in hand is already within a tenth of the finest bound.
    expect(sharper(1, { current: { errorPx: 1.05, downloadWeight: 1 } })).toBeUndefined();
    expect(() => sharper(1, { maxDownloadWeight: 0, current: { errorPx: 4, downloadWeight: 1 } })).toThrow(
      /download weight/,
    );
  });
});

describe('ObjectLodPlanner.measure remembers', () => {
  it('answers a LOD measured before, against any limit, as a planner measuring it afresh does', async () => {
    const { prepareLodSource, simplifyLodSource } = await import('../../src/lod/lod-generator.js');
    const ball = object('Ball', [uvSphere(32)]);
    const source = prepareLodSource(ball.lods.high);
    const lods = [0.002, 0.01, 0.05, 0.2].map((t) => simplifyLodSource(source, 'attributes', 0, t, { simplifier }).lod);
    const opts = { simplifier, sizeFactor: 2 };
    // Each LOD's exact errors, from planners that measure it once.
    const exact = lods.map((lod) =>
      [false, true].map((dense) => new ObjectLodPlanner(ball, opts).measure(lod, dense).error),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            k: fc.integer({ min: 0, max: lods.length - 1 }),
            dense: fc.boolean(),
            scale: fc.constantFrom(0.5, 0.999, 1, 1.001, 2, Infinity),
            floor: fc.option(fc.constantFrom(0.5, 0.99, 1), { nil: undefined }),
          }),
          { minLength: 2, maxLength: 8 },
        ),
        (calls) => {
          const remembering = new ObjectLodPlanner(ball, opts);
          for (const { k, dense, scale, floor } of calls) {
            const limit = exact[k][+dense] * scale;
            const got = remembering.measure(lods[k], dense, limit, floor);
            const fresh = new ObjectLodPlanner(ball, opts).measure(lods[k], dense, limit, floor);
            expect(got.coverage).toBe(fresh.coverage);
            // Within the limit the error is exact; over it, only known to be over.
            expect(got.error <= limit).toBe(fresh.error <= limit);
            if (fresh.error <= limit) expect(got.error).toBe(fresh.error);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('planObjectLods: what it says of each LOD', () => {
  it("every planned lower LOD's stated error is at least the planner's dense measure of the LOD written, however it was found", () => {
    // With viewerBound (optimize's default) a level whose bound is Generate's own error takes the
    // fallback's candidates when cheaper, measured with the search's samples; the pick is then
    // measured densely too (V-HACD's bunny at 2 m: its lowest said 98.0 mm before, 99.6 mm now;
    // CGAL's elephant at 2 m: a medium said 0.89 px, densely 1.03 px, is no longer taken).
    for (const [name, size] of [
      ['bunny.obj', 2],
      ['hornbug.obj', 2],
      ['teddy.obj', 4],
    ] as const) {
      const high = object(name, [vhacdMesh(name)]);
      const k = size / Math.max(...boxSize(objectBox(high)));
      const opts: LodPlanOptions = { simplifier, deflate, sizeFactor: k, viewerBound: true, quantize: true };
      const { object: planned, plan } = planObjectLods(high, opts);
      const judge = new ObjectLodPlanner(high, opts);
      plan.levels.forEach((level, i) => {
        if (level.mode === 'viewer' || level.mode === 'copy') return;
        const dense = judge.measure(planned.lods[LOWER[i]]!, true).error * k;
        expect(level.error, `${name} ${level.name}`).toBeGreaterThanOrEqual(dense * (1 - 1e-9));
      });
    }
  });

  it('returns its LODs as written: the writer conforming them to the written high changes nothing', () => {
    for (const high of [object('Ball', [uvSphere(64)]), object('bunny', [vhacdMesh('bunny.obj')])]) {
      const opts: LodPlanOptions = { simplifier, deflate, viewerBound: true, quantize: true, sizeFactor: 2 };
      const { object: planned } = planObjectLods(high, opts);
      const written = conformLod(high.lods.high, planned.lods.high);
      const same = (a: MeshLod, b: MeshLod) =>
        a.faces.forEach((f, i) => {
          expect(Array.from(f.positions)).toEqual(Array.from(b.faces[i].positions));
          expect(Array.from(f.indices)).toEqual(Array.from(b.faces[i].indices));
        });
      same(written, planned.lods.high);
      for (const n of LOWER) same(conformLod(written, planned.lods[n]!), planned.lods[n]!);
    }
  });

  it("each LOD's stated error holds for it as written: conformed to the written high's box, which can move vertices a simplifier pushed past it (independent dense measure)", () => {
    // A coarse sphere's lowest can stick out of high's box on some sides and miss others; the
    // conformance pass clamps and snaps it, and is what the uploader gets. Measured as made, a
    // 32-segment sphere's lowest at 2 m was said to be 0.92 m off and written 1.47 m off.
    for (const seg of [16, 32, 64]) {
      const ball = object('Ball', [uvSphere(seg)]);
      const { object: planned, plan } = planObjectLods(ball, { simplifier, sizeFactor: 2, viewerBound: true });
      const high = conformLod(ball.lods.high, planned.lods.high);
      const measure = { samples: 32768, maxVertexSamples: 1 << 20, centroids: true };
      const written = (lod: MeshLod) => lodHausdorffDistance(ball.lods.high, lod, measure).distance * 2;
      expect(written(high), `${seg} high`).toBeLessThanOrEqual(plan.high.error * 1.05 + 1e-6);
      for (const level of plan.levels) {
        const lod = conformLod(high, planned.lods[level.name]!);
        expect(written(lod), `${seg} ${level.name}`).toBeLessThanOrEqual(level.error * 1.05 + 1e-6);
      }
    }
  });
});
