/**
 * The LOD planner: chooses each LOD of an object from what a viewer sees, not from a triangle
 * ratio.
 *
 * For an object of radius r (0.5 * |scale|, at the size it is planned for) and a
 * RenderVolumeLODFactor F, LOD i (medium, low, lowest) starts to show at switch distance D_i
 * (lod-distances.ts). Its screen-space error is its geometric error there in pixels
 * (screen-space-error.ts: 1080 px tall viewport, 60 degree vertical field of view). The planner
 * makes each LOD as small as it can while
 *
 *   1. its measured geometric error, the sampled two-sided Hausdorff distance to high
 *      (hausdorff.ts, not meshoptimizer's estimate), stays within maxErrorPx pixels at D_i, and
 *   2. it keeps the silhouette: from every one of 7 directions it covers at least `minCoverage`
 *      of high's silhouette (silhouette.ts). This floor holds whatever the pixel bound or budget,
 *      so no LOD ever collapses to nothing to win a budget.
 *
 * Search: for each LOD, simplifier error targets t are tried on a ladder (grown while both tests
 * pass, shrunk when one fails, then bisected) and each candidate is measured. With a `deflate`,
 * the passing candidate whose LOD block costs the fewest charged bytes wins (encoded as the
 * uploader does; among equally cheap ones the most accurate), and low and lowest may take their
 * lean variant (one vertex per point and face); without one, the fewest triangles. Each LOD is
 * simplified from high; a high over 50,000 triangles is first reduced position-only to a fifth
 * of the medium bound, and each lower LOD is made from the one above (`chain`), which is much
 * faster; errors are always measured against high. In this error mode the fallback cascade keeps
 * the attribute-aware result unless it has more than `maxRatioDrift` (1.25) times the triangles
 * position-only simplification needs for the same error. Then the chain is made monotone: a LOD
 * with more triangles or vertices than the one above is replaced by a copy of it (which passes the
 * tighter bound above, so it passes here too). Every LOD has high's face count (empty faces
 * become NoGeometry placeholders when encoded). Objects of identical geometry up to a translation
 * are planned once (planModelLods, planModelForBudget).
 *
 * Budget mode (planModelForBudget): the smallest pixel bound whose chain keeps the linkset's land
 * impact within a target, found by bisection on log(pixels); each chain is priced with the real
 * encoder (costReport: encodeMeshAsset + streamingCost), since download weight depends on
 * compressed bytes. When even the floor chain does not fit, the result says so (`fits: false`).
 */

import { REPORT_LOD_FACTOR_DEFAULT, costReport, type CostReportOptions } from '../cost/cost-report.js';
import { memoizeDeflate } from '../asset/deflate-cache.js';
import { SlmeshError } from '../errors.js';
import { prepareHausdorffSide, hausdorffBetween, type HausdorffSide } from './hausdorff.js';
import { prepareLodSource, simplifyLodSource, simplifyToError, weldByPosition, type CascadeOptions, type LodSource, type LodSourceOptions, type MeshSimplifier, type SimplifiedLod, type SimplifyMode } from './lod-generator.js';
import { writeLlsdBinary } from '../asset/llsd-binary.js';
import { computeUploadNormalization, encodeLodBlock, normalizeNormals, normalizePoints, type UploadNormalization } from '../asset/mesh-asset.js';
import { MESH_ZLIB_LEVEL, STREAMING_COST_DEFAULTS } from '../constants.js';
import { boxSize, lodTriangleCount, lodTriangles, lodVertexCount, objectBox, radiusOfScale } from '../geometry/object-geometry.js';
import { LOWER_LODS, lodErrorBounds, screenSpaceError, type LowerLodName, type ScreenSpaceSettings } from './screen-space-error.js';
import { silhouetteCoverage, silhouetteReference, type SilhouetteReference } from './silhouette.js';
import type { DeflateFn, MeshLod, SlModel, SlObject } from '../types.js';
import { assignDefaults } from '../options.js';

export interface LodPlanOptions extends CascadeOptions, LodSourceOptions {
  /** meshoptimizer's MeshoptSimplifier, ready. Required. */
  simplifier: MeshSimplifier;
  /** RenderVolumeLODFactor the chain is planned for. Default 2 (Firestorm's default). */
  lodFactor?: number;
  /** Screen-space error bound, pixels, at each LOD's switch distance. Default 1. */
  maxErrorPx?: number;
  /** Reference screen. Default 1080 px tall, 60 degrees vertical field of view. */
  screen?: Partial<ScreenSpaceSettings>;
  /** Uniform factor from the model's size to the size it is planned for. Default 1. */
  sizeFactor?: number;
  /** Silhouette floor: from every view, each LOD covers at least this fraction of high's silhouette (within 1/64 of the object's size). Default 0.9. */
  minCoverage?: number;
  /** Grid cells per side of each silhouette view. Default 64. */
  silhouetteResolution?: number;
  /** Area samples per surface for the Hausdorff distance (fewer for small meshes: 32 per high triangle, at least 256). Default 4096. */
  samples?: number;
  /** Most vertices per surface used as Hausdorff samples. Default 16384. */
  maxVertexSamples?: number;
  /** Candidates tried per LOD (at most 5 for sources over 20k triangles, 3 over 100k). Default 8. */
  maxProbes?: number;
  /**
   * zlib deflate. With it, candidates are compared by the bytes download weight charges for them
   * (their LOD block encoded as the uploader does, less the 384-byte allowance): the cheapest
   * passing candidate wins, and among equally cheap ones the most accurate. Without it, the one
   * with the fewest triangles. Default: none.
   */
  deflate?: DeflateFn;
  /** Let low and lowest use the lean variant (one vertex per point and face; weldByPosition) when it costs fewer bytes. Default true. */
  leanFarLods?: boolean;
  /** Simplify each LOD from the LOD above instead of from high: 'auto' does so when high has more than 50,000 triangles (fast), else each LOD comes from high (more accurate). Default 'auto'. */
  chain?: boolean | 'auto';
}

export const LOD_PLAN_DEFAULTS = {
  lodFactor: REPORT_LOD_FACTOR_DEFAULT,
  maxErrorPx: 1,
  sizeFactor: 1,
  minCoverage: 0.9,
  silhouetteResolution: 64,
  samples: 4096,
  maxVertexSamples: 16384,
  maxProbes: 8,
  chain: 'auto' as boolean | 'auto',
  maxRatioDrift: 1.25,
  leanFarLods: true,
};

/** What the planner decided for one lower LOD. */
export interface LodLevelPlan {
  name: LowerLodName;
  triangles: number;
  vertices: number;
  /** Measured two-sided Hausdorff distance to high, metres at the planned size. */
  error: number;
  /** `error` in pixels at `switchDistance`. */
  screenErrorPx: number;
  /** The error allowed by the pixel bound, metres at the planned size (Infinity when the LOD never shows). */
  maxError: number;
  /** Camera distance, metres, from which this LOD shows. */
  switchDistance: number;
  /** Smallest silhouette coverage of high over the views, 0..1. */
  coverage: number;
  /** How it was made: a simplification mode, or a copy of the LOD above. */
  mode: SimplifyMode | 'copy';
  /** meshoptimizer's target error for the accepted candidate, metres at the model's size. */
  simplifierTarget: number;
}

export interface ObjectLodPlan {
  name: string;
  /** 0.5 * |scale| at the planned size. */
  radius: number;
  lodFactor: number;
  maxErrorPx: number;
  highTriangles: number;
  levels: LodLevelPlan[];
  /** Largest screenErrorPx over the levels. */
  worstScreenErrorPx: number;
}

interface Candidate {
  result: SimplifiedLod;
  error: number;
  coverage: number;
  target: number;
  /** What the candidate costs: charged bytes with a deflate, else triangles. */
  cost: number;
}

/** Bytes download weight charges for a LOD block: max(bytes - MeshMetaDataDiscount, MeshMinimumByteSize). */
function chargedBytes(bytes: number): number {
  return Math.max(bytes - STREAMING_COST_DEFAULTS.metadataDiscount, STREAMING_COST_DEFAULTS.minimumByteSize);
}

/** Compressed size of a LOD's block as the uploader writes it, in the high LOD's unit frame. */
export function lodBlockBytes(lod: MeshLod, normalization: UploadNormalization, deflate: DeflateFn): number {
  const unit: MeshLod = {
    faces: lod.faces.map((f) => ({ ...f, positions: normalizePoints(f.positions, normalization), normals: f.normals ? normalizeNormals(f.normals, normalization) : undefined })),
  };
  return deflate(writeLlsdBinary(encodeLodBlock(unit, normalization.inverseScale)), MESH_ZLIB_LEVEL).length;
}

const TINY = 1e-12;
/** Sources above this many triangles get the fast search (see search()). */
const BIG_SOURCE_TRIANGLES = 50_000;
/** A heavy high is first simplified position-only to this fraction of the medium bound. */
const PREPASS_FRACTION = 0.2;
/** First candidate's error target at most this fraction of the object's largest side. */
const LOOSE_START = 0.03;

/**
 * Everything about one object the planner reuses across plans (the budget search plans the same
 * object many times): its welded high LOD, high's Hausdorff samples and BVH, its silhouettes.
 */
export class ObjectLodPlanner {
  readonly object: SlObject;
  private readonly options: LodPlanOptions & typeof LOD_PLAN_DEFAULTS;
  private readonly highSource: LodSource;
  private readonly highSide: HausdorffSide;
  private readonly silhouette: SilhouetteReference;
  private readonly modelRadius: number;
  private readonly maxSide: number;
  private readonly normalization: UploadNormalization;

  constructor(object: SlObject, options: LodPlanOptions) {
    if (!options?.simplifier) throw new SlmeshError('USAGE', 'LOD planner: a meshoptimizer simplifier is required (options.simplifier = MeshoptSimplifier)');
    this.object = object;
    this.options = assignDefaults(LOD_PLAN_DEFAULTS, options);
    const o = this.options;
    if (!(o.sizeFactor > 0) || !Number.isFinite(o.sizeFactor)) throw new SlmeshError('USAGE', `LOD planner: size factor must be a positive number (got ${o.sizeFactor})`);
    if (!(o.minCoverage >= 0 && o.minCoverage <= 1)) throw new SlmeshError('USAGE', `LOD planner: silhouette coverage floor must be between 0 and 1 (got ${o.minCoverage})`);
    const high = object.lods.high;
    this.highSource = prepareLodSource(high, o);
    const mesh = lodTriangles(high);
    this.highSide = prepareHausdorffSide(mesh, { samples: this.sampleCount(mesh.indices.length / 3), maxVertexSamples: o.maxVertexSamples });
    this.silhouette = silhouetteReference(mesh, { resolution: o.silhouetteResolution });
    this.modelRadius = radiusOfScale(boxSize(objectBox(object)));
    this.maxSide = this.highSource.maxSide;
    this.normalization = computeUploadNormalization(high);
  }

  /** Area samples per surface: `samples`, fewer for small meshes (32 per high triangle, at least 256). */
  private sampleCount(highTriangles: number): number {
    return Math.min(this.options.samples, Math.max(256, 32 * highTriangles));
  }

  /** Measured error (metres at the model's size) and silhouette coverage of a candidate LOD. */
  measure(lod: MeshLod): { error: number; coverage: number } {
    const mesh = lodTriangles(lod);
    if (mesh.indices.length === 0) return { error: Infinity, coverage: 0 };
    const coverage = silhouetteCoverage(this.silhouette, mesh).coverage;
    const side = prepareHausdorffSide(mesh, { samples: this.sampleCount(this.highSide.triangles), maxVertexSamples: this.options.maxVertexSamples });
    return { error: hausdorffBetween(this.highSide, side).distance, coverage };
  }

  /** The chain for a pixel bound: the object with generated medium, low and lowest LODs, and the plan. */
  plan(maxErrorPx = this.options.maxErrorPx): { object: SlObject; plan: ObjectLodPlan } {
    const o = this.options;
    const k = o.sizeFactor;
    const radius = this.modelRadius * k;
    const bounds = lodErrorBounds(radius, o.lodFactor, maxErrorPx, o.screen);
    const high = this.object.lods.high;
    const highTriangles = lodTriangleCount(high);

    let above = { lod: high, triangles: highTriangles, vertices: lodVertexCount(high), error: 0, coverage: 1, source: this.highSource as LodSource | undefined, target: 0 };
    const levels: LodLevelPlan[] = [];
    const lods: Partial<Record<LowerLodName, MeshLod>> = {};
    for (const name of LOWER_LODS) {
      // 1. The bound in model metres; an error beyond the object's own size means nothing.
      const bound = Math.min(bounds.maxError[name] / k, this.maxSide);
      // 2. Search, from high or from the LOD above.
      const fast = this.highSource.triangles > BIG_SOURCE_TRIANGLES;
      const chain = o.chain === 'auto' ? fast : o.chain;
      let source = chain ? (above.source ??= prepareLodSource(above.lod, o)) : this.highSource;
      let spent = chain ? above.error : 0;
      if (source === this.highSource && fast) {
        // A heavy high: one position-only pass to a fifth of the bound (seams kept), then the
        // attribute-aware search runs on that much smaller mesh.
        const pre = simplifyLodSource(this.highSource, 'attributes', 0, PREPASS_FRACTION * bound, { ...o, normalWeight: 0, uvWeight: 0, updatePositions: false });
        source = prepareLodSource(pre.lod, o);
        spent = PREPASS_FRACTION * bound;
      }
      const found = this.search(source, bound, spent, name !== 'medium' && o.leanFarLods, fast && name === 'medium');
      // 3. Monotone: never more triangles or vertices than the LOD above.
      let level: LodLevelPlan;
      if (!found || found.result.triangles > above.triangles || found.result.vertices > above.vertices || found.result.triangles === 0) {
        lods[name] = above.lod;
        level = this.level(name, bounds.distances[name], bounds.maxError[name], above.triangles, above.vertices, above.error, above.coverage, 'copy', above.target);
      } else {
        lods[name] = found.result.lod;
        level = this.level(name, bounds.distances[name], bounds.maxError[name], found.result.triangles, found.result.vertices, found.error, found.coverage, found.result.mode, found.target);
        above = { lod: found.result.lod, triangles: found.result.triangles, vertices: found.result.vertices, error: found.error, coverage: found.coverage, source: undefined, target: found.target };
      }
      levels.push(level);
    }
    const worst = Math.max(0, ...levels.map((l) => l.screenErrorPx));
    return {
      object: { ...this.object, lods: { high, medium: lods.medium!, low: lods.low!, lowest: lods.lowest! } },
      plan: { name: this.object.name, radius, lodFactor: o.lodFactor, maxErrorPx, highTriangles, levels, worstScreenErrorPx: worst },
    };
  }

  private level(name: LowerLodName, distance: number, maxError: number, triangles: number, vertices: number, error: number, coverage: number, mode: SimplifyMode | 'copy', target: number): LodLevelPlan {
    const k = this.options.sizeFactor;
    const e = error * k;
    return {
      name,
      triangles,
      vertices,
      error: e,
      screenErrorPx: Number.isFinite(distance) ? screenSpaceError(e, distance, this.options.screen) : 0,
      maxError,
      switchDistance: distance,
      coverage,
      mode,
      simplifierTarget: target,
    };
  }

  /** A passing result as a candidate: its cost, and its lean variant instead when that is cheaper. */
  private priced(result: SimplifiedLod, error: number, coverage: number, target: number, lean: boolean): Candidate {
    const deflate = this.options.deflate;
    if (!deflate) return { result, error, coverage, target, cost: result.triangles };
    let cost = chargedBytes(lodBlockBytes(result.lod, this.normalization, deflate));
    if (lean && cost > STREAMING_COST_DEFAULTS.minimumByteSize) {
      const leanLod = weldByPosition(result.lod);
      const leanCost = chargedBytes(lodBlockBytes(leanLod, this.normalization, deflate));
      if (leanCost < cost) {
        let vertices = 0;
        for (const f of leanLod.faces) vertices += f.positions.length / 3;
        result = { ...result, lod: leanLod, vertices };
        cost = leanCost;
      }
    }
    return { result, error, coverage, target, cost };
  }

  /**
   * The cheapest candidate from `source` whose measured error is within `bound` and whose
   * silhouette coverage passes the floor; undefined when no candidate passes. Candidates use
   * simplifier targets t = base * sqrt(2)^e on an integer ladder e: galloping up from e = 0 while
   * candidates pass (down while they fail), then bisecting between the last pass and first fail.
   */
  private search(source: LodSource, bound: number, spent: number, lean: boolean, fast: boolean): Candidate | undefined {
    // For a heavy high every candidate costs a measurement against it: start at half the bound,
    // where the first candidate usually passes, and keep the first pass. A big source also leaves
    // vertices in place (moving them costs twice the time; later LODs, made from this one, do).
    const big = source.triangles > BIG_SOURCE_TRIANGLES;
    const o = big ? { ...this.options, updatePositions: false } : this.options;
    let probes = fast ? Math.min(3, o.maxProbes) : source.triangles > 20_000 ? Math.min(5, o.maxProbes) : o.maxProbes;
    // Where the pixel bound is loose, the silhouette floor binds, usually at a few percent of the size.
    const base = (fast ? 0.5 : 1) * Math.max(Math.min(Math.max(bound - spent, 0.5 * bound), LOOSE_START * this.maxSide), TINY);
    const tried = new Map<number, Candidate | null>();
    let best: Candidate | undefined;
    const passes = (e: number): boolean => {
      const seen = tried.get(e);
      if (seen !== undefined) return seen !== null;
      probes--;
      const t = base * Math.SQRT2 ** e;
      const result = simplifyToError(source, t, o);
      let error = Infinity, coverage = 0;
      if (result.triangles > 0) ({ error, coverage } = this.measure(result.lod));
      const ok = error <= bound && coverage >= o.minCoverage;
      const c = ok ? this.priced(result, error, coverage, t, lean) : null;
      tried.set(e, c);
      if (c && (!best || c.cost < best.cost || (c.cost === best.cost && (o.deflate ? c.error < best.error : c.result.triangles < best.result.triangles)))) best = c;
      return ok;
    };
    const maxUp = Math.ceil(2 * Math.log2(Math.max(this.maxSide, TINY) / base)) + 1;
    let lo: number, hi: number;
    if (passes(0)) {
      if (fast) return best;
      // Gallop up: 1, 3, 7 ... steps while passing.
      lo = 0;
      hi = Infinity;
      for (let step = 1; probes > 0 && lo < maxUp; step *= 2) {
        const e = Math.min(lo + step, maxUp);
        if (passes(e)) lo = e;
        else {
          hi = e;
          break;
        }
      }
      if (!Number.isFinite(hi)) return best;
    } else {
      hi = 0;
      lo = -Infinity;
      for (let step = 2; probes > 0 && step <= 64; step *= 2) {
        if (passes(hi - step)) {
          lo = hi - step;
          break;
        }
        hi -= step;
      }
      if (!Number.isFinite(lo)) return best;
    }
    // Bisect (in log t, finer than the ladder) between a passing lo and a failing hi.
    while (probes > 0 && hi - lo > 0.3) {
      const mid = (lo + hi) / 2;
      if (passes(mid)) lo = mid;
      else hi = mid;
    }
    return best;
  }
}

/** Plans one object's LOD chain (see the file comment). */
export function planObjectLods(object: SlObject, options: LodPlanOptions): { object: SlObject; plan: ObjectLodPlan } {
  return new ObjectLodPlanner(object, options).plan();
}

/**
 * Objects with the same high LOD up to a translation (linked duplicates, a very common build)
 * share one plan: the key is the high LOD relative to its box's minimum corner.
 */
export function geometryKey(object: SlObject): { key: string; origin: [number, number, number] } {
  const box = objectBox(object);
  const origin: [number, number, number] = [box.min[0], box.min[1], box.min[2]];
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  const mix = (x: number) => {
    h1 = Math.imul(h1 ^ x, 0x01000193);
    h2 = Math.imul(h2 ^ x, 0x5bd1e995) ^ (h2 >>> 13);
  };
  const f = new Float32Array(1), u = new Uint32Array(f.buffer);
  const bitsOf = (x: number) => {
    f[0] = x + 0;
    return u[0];
  };
  const parts: string[] = [];
  for (const face of object.lods.high.faces) {
    parts.push(`${face.material}:${face.positions.length}:${face.indices.length}:${face.normals ? 1 : 0}${face.uvs ? 1 : 0}`);
    for (let i = 0; i < face.positions.length; i++) mix(bitsOf(Math.fround(face.positions[i] - origin[i % 3])));
    if (face.normals) for (let i = 0; i < face.normals.length; i++) mix(bitsOf(face.normals[i]));
    if (face.uvs) for (let i = 0; i < face.uvs.length; i++) mix(bitsOf(face.uvs[i]));
    for (let i = 0; i < face.indices.length; i++) mix(face.indices[i]);
  }
  return { key: `${parts.join('|')}#${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`, origin };
}

function translatedLod(lod: MeshLod, d: [number, number, number]): MeshLod {
  return {
    faces: lod.faces.map((f) => {
      const positions = new Float32Array(f.positions.length);
      for (let i = 0; i < positions.length; i++) positions[i] = f.positions[i] + d[i % 3];
      return { ...f, positions };
    }),
  };
}

/** A planned object moved onto another object of the same geometry. */
function planFor(target: SlObject, targetOrigin: [number, number, number], planned: SlObject, plannedOrigin: [number, number, number], plan: ObjectLodPlan): { object: SlObject; plan: ObjectLodPlan } {
  const d: [number, number, number] = [targetOrigin[0] - plannedOrigin[0], targetOrigin[1] - plannedOrigin[1], targetOrigin[2] - plannedOrigin[2]];
  const lods = { high: target.lods.high, medium: translatedLod(planned.lods.medium!, d), low: translatedLod(planned.lods.low!, d), lowest: translatedLod(planned.lods.lowest!, d) };
  return { object: { ...target, lods }, plan: { ...plan, name: target.name } };
}

/** Plans every object of a model with the same pixel bound (objects of identical geometry are planned once). */
export function planModelLods(model: SlModel, options: LodPlanOptions): { model: SlModel; plans: ObjectLodPlan[] } {
  const done = new Map<string, { object: SlObject; plan: ObjectLodPlan; origin: [number, number, number] }>();
  const results = model.objects.map((obj) => {
    const { key, origin } = geometryKey(obj);
    const seen = done.get(key);
    if (seen) return planFor(obj, origin, seen.object, seen.origin, seen.plan);
    const r = planObjectLods(obj, options);
    done.set(key, { ...r, origin });
    return r;
  });
  return { model: { ...model, objects: results.map((r) => r.object) }, plans: results.map((r) => r.plan) };
}

export interface LodBudgetOptions extends LodPlanOptions {
  /** Land impact the linkset must not exceed (the exact value, not rounded). */
  targetLandImpact: number;
  /** zlib deflate: the price depends on the compressed LOD sizes. */
  deflate: DeflateFn;
  /** Further cost settings (streaming, physics, linkability, scripts, animesh). */
  cost?: Omit<CostReportOptions, 'deflate' | 'scaleFactors' | 'lodFactor' | 'keepAssets'>;
  /** Smallest pixel bound tried. Default 1/32. */
  minErrorPx?: number;
  /** Bisection steps on log(pixels). Default 6. */
  iterations?: number;
  /** Per-axis factors pricing the linkset at another size. Default [sizeFactor, sizeFactor, sizeFactor]. */
  scaleFactors?: [number, number, number];
}

export const LOD_BUDGET_DEFAULTS = { minErrorPx: 1 / 32, iterations: 6 };

/** A pixel bound so large that only the silhouette floor limits the LODs. */
const FLOOR_ERROR_PX = 1e9;

export interface LodBudgetResult {
  model: SlModel;
  plans: ObjectLodPlan[];
  /** True when the chain keeps the land impact within the target. */
  fits: boolean;
  /** The pixel bound of the returned chain (Infinity for the floor chain). */
  maxErrorPx: number;
  /** The linkset's exact land impact with the returned chain. */
  landImpact: number;
  /** Land impact with only the silhouette floor limiting the LODs: the least the LODs can reach. */
  floorLandImpact: number;
}

/**
 * Budget mode: the lowest-error chain (smallest pixel bound) whose linkset land impact is at most
 * `targetLandImpact`, at the planned size. When even the floor chain is over, returns the floor
 * chain with `fits: false`: the LODs are never emptied to meet a budget.
 */
export function planModelForBudget(model: SlModel, options: LodBudgetOptions): LodBudgetResult {
  const o = assignDefaults(LOD_BUDGET_DEFAULTS, options);
  if (!(o.targetLandImpact > 0) || !Number.isFinite(o.targetLandImpact)) throw new SlmeshError('USAGE', `target land impact must be a positive number (got ${o.targetLandImpact})`);
  const deflate = memoizeDeflate(o.deflate);
  const k = o.sizeFactor ?? LOD_PLAN_DEFAULTS.sizeFactor;
  // One planner per distinct geometry (linked duplicates share theirs).
  const keys = model.objects.map((obj) => geometryKey(obj));
  const planners = new Map<string, { planner: ObjectLodPlanner; origin: [number, number, number] }>();
  model.objects.forEach((obj, i) => {
    if (!planners.has(keys[i].key)) planners.set(keys[i].key, { planner: new ObjectLodPlanner(obj, o), origin: keys[i].origin });
  });
  const evaluate = (px: number) => {
    const byKey = new Map([...planners].map(([key, p]) => [key, { ...p.planner.plan(px), origin: p.origin }]));
    const results = model.objects.map((obj, i) => {
      const r = byKey.get(keys[i].key)!;
      return r.object.name === obj.name && r.origin === keys[i].origin ? r : planFor(obj, keys[i].origin, r.object, r.origin, r.plan);
    });
    const planned: SlModel = { ...model, objects: results.map((r) => r.object) };
    const cost = costReport(planned, { ...o.cost, deflate, scaleFactors: o.scaleFactors ?? [k, k, k], lodFactor: o.lodFactor ?? LOD_PLAN_DEFAULTS.lodFactor });
    return { model: planned, plans: results.map((r) => r.plan), landImpact: cost.linkset.landImpact, px };
  };
  // 1. The floor chain: if even it is over, say so.
  const floor = evaluate(FLOOR_ERROR_PX);
  const floorResult = (fits: boolean): LodBudgetResult => ({ model: floor.model, plans: floor.plans, fits, maxErrorPx: Infinity, landImpact: floor.landImpact, floorLandImpact: floor.landImpact });
  if (floor.landImpact > o.targetLandImpact) return floorResult(false);
  // 2. The finest bound tried; if it fits, nothing better is needed.
  const fine = evaluate(o.minErrorPx);
  if (fine.landImpact <= o.targetLandImpact) return { ...fine, fits: true, maxErrorPx: fine.px, floorLandImpact: floor.landImpact };
  // 3. Bisection on log2(pixels) between a failing bound and a fitting one.
  let lo = Math.log2(o.minErrorPx);
  let hi = Math.log2(1024);
  let best = evaluate(2 ** hi);
  if (best.landImpact > o.targetLandImpact) {
    best = floor;
    hi = Math.log2(FLOOR_ERROR_PX);
  }
  for (let i = 0; i < o.iterations; i++) {
    const mid = (lo + hi) / 2;
    const r = evaluate(2 ** mid);
    if (r.landImpact <= o.targetLandImpact) {
      best = r;
      hi = mid;
    } else {
      lo = mid;
    }
  }
  if (best === floor) return floorResult(true);
  return { model: best.model, plans: best.plans, fits: true, maxErrorPx: best.px, landImpact: best.landImpact, floorLandImpact: floor.landImpact };
}
