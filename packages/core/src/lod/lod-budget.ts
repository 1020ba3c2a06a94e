/**
 * Budget mode of the LOD planner: the lowest-error LOD chain (the smallest pixel bound) whose
 * linkset land impact stays within a target, found by bisection on log2(pixels) between the
 * finest bound tried and the silhouette floor. Each distinct geometry is planned by one
 * ObjectLodPlanner (lod-planner.ts), re-used at every bound; every chain is priced by the cost
 * report at the planned size. Guarantee: the LODs are never emptied to meet a budget; when even
 * the floor chain is over the target, it is returned with `fits: false`.
 */

import { memoizeDeflate } from '../asset/deflate-cache.js';
import { costReport, type CostReportOptions } from '../cost/cost-report.js';
import { SlmeshError } from '../errors.js';
import { assignDefaults } from '../options.js';
import type { DeflateFn, SlModel, SlObject } from '../types.js';
import {
  assembleModelPlans,
  LOD_PLAN_DEFAULTS,
  type LodPlanOptions,
  modelGeometries,
  type ObjectLodPlan,
  ObjectLodPlanner,
} from './lod-planner.js';

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

/** The physics an object is written with, which a chain of other LODs keeps. */
export type PhysicsFields = Pick<SlObject, 'hull' | 'decomposition' | 'physicsMesh' | 'physicsChoice'>;

/** `object` with the physics of `physics` instead of its own. */
function withPhysics(object: SlObject, physics: PhysicsFields): SlObject {
  const { hull: _h, decomposition: _d, physicsMesh: _m, physicsChoice: _c, ...rest } = object;
  return { ...rest, ...physics };
}

interface BudgetChain {
  model: SlModel;
  plans: ObjectLodPlan[];
  /** The linkset's exact land impact with this chain. */
  landImpact: number;
  /** The linkset's download (streaming) weight with this chain. */
  downloadWeight: number;
  /** The pixel bound the chain was planned for. */
  px: number;
}

/** A distinct geometry's plan at a bound: core ObjectLodPlanner.plan's result. */
export type PlannedObject = { object: SlObject; plan: ObjectLodPlan };

/**
 * Plans a model's distinct geometries at a pixel bound: for the index of each geometry's first
 * object (`firsts`), its plan. In this thread, one ObjectLodPlanner per geometry re-used at every
 * bound (localBoundPlanner); elsewhere (worker threads keeping theirs), the same results.
 */
export type BoundPlanner = (px: number) => Map<number, PlannedObject> | Promise<Map<number, PlannedObject>>;

/** Makes a model's BoundPlanner from the options every geometry's planner gets and the geometries' first objects. */
export type BoundPlannerMaker = (planOptions: LodPlanOptions, firsts: readonly number[]) => BoundPlanner;

/**
 * A search over pixel bounds (the budget mode's, the sharper-LOD search's): each bound to plan
 * yielded, its priced chain taken back, ending with the result; with what its bounds are planned
 * from and what prices a bound's plans.
 */
interface BoundSearch<R> {
  firsts: number[];
  planOptions: LodPlanOptions;
  price: (byFirst: Map<number, PlannedObject>, px: number) => BudgetChain;
  steps: Generator<number, R, BudgetChain>;
}

/** Runs `search` with this thread's planners (localBoundPlanner). */
function searchHere<R>(model: SlModel, search: BoundSearch<R>): R {
  const plan = localBoundPlanner(model, search.firsts, search.planOptions);
  let step = search.steps.next();
  while (!step.done) step = search.steps.next(search.price(plan(step.value), step.value));
  return step.value;
}

/** Runs `search` with the BoundPlanner `planner` makes (worker threads, for example). */
async function searchWith<R>(search: BoundSearch<R>, planner: BoundPlannerMaker): Promise<R> {
  const plan = planner(search.planOptions, search.firsts);
  let step = search.steps.next();
  while (!step.done) step = search.steps.next(search.price(await plan(step.value), step.value));
  return step.value;
}

/** One ObjectLodPlanner per distinct geometry of `model` (`firsts`), re-used at every bound. */
export function localBoundPlanner(
  model: SlModel,
  firsts: readonly number[],
  options: LodPlanOptions,
): (px: number) => Map<number, PlannedObject> {
  const planners = firsts.map((i) => [i, new ObjectLodPlanner(model.objects[i], options)] as const);
  return (px) => new Map(planners.map(([i, p]) => [i, p.plan(px)]));
}

/**
 * The chain for a pixel bound from its distinct geometries' plans, priced: copies placed from
 * their geometry's plan (assembleModelPlans), the linkset priced by the cost report at the
 * planned size.
 */
function chainPricer(
  model: SlModel,
  o: Omit<LodBudgetOptions, 'targetLandImpact'>,
  physics?: readonly PhysicsFields[],
): { firsts: number[]; price: (byFirst: Map<number, PlannedObject>, px: number) => BudgetChain } {
  const deflate = memoizeDeflate(o.deflate);
  const k = o.sizeFactor ?? LOD_PLAN_DEFAULTS.sizeFactor;
  const geometries = modelGeometries(model.objects);
  const price = (byFirst: Map<number, PlannedObject>, px: number): BudgetChain => {
    const chain = assembleModelPlans(model, geometries, (i) => byFirst.get(i)!);
    const planned: SlModel = physics
      ? { ...chain.model, objects: chain.model.objects.map((obj, i) => withPhysics(obj, physics[i])) }
      : chain.model;
    const cost = costReport(planned, {
      ...o.cost,
      deflate,
      scaleFactors: o.scaleFactors ?? [k, k, k],
      lodFactor: o.lodFactor ?? LOD_PLAN_DEFAULTS.lodFactor,
    });
    return {
      model: planned,
      plans: chain.plans,
      landImpact: cost.linkset.landImpact,
      downloadWeight: cost.linkset.streaming,
      px,
    };
  };
  return { firsts: geometries.firsts, price };
}

/**
 * Budget mode: the lowest-error chain (smallest pixel bound) whose linkset land impact is at most
 * `targetLandImpact`, at the planned size. When even the floor chain is over, returns the floor
 * chain with `fits: false`: the LODs are never emptied to meet a budget. Each distinct geometry is
 * planned by one ObjectLodPlanner (linked duplicates share theirs), re-used at every bound; every
 * chain is priced by the cost report at the planned size.
 */
export function planModelForBudget(model: SlModel, options: LodBudgetOptions): LodBudgetResult {
  return searchHere(model, budgetSearch(model, options));
}

/**
 * planModelForBudget with each bound's distinct geometries planned by the BoundPlanner `planner`
 * makes (as planModelSharperWith): worker threads keeping one planner per geometry give the same
 * chain as this thread.
 */
export async function planModelForBudgetWith(
  model: SlModel,
  options: LodBudgetOptions,
  planner: BoundPlannerMaker,
): Promise<LodBudgetResult> {
  return searchWith(budgetSearch(model, options), planner);
}

/**
 * planModelForBudget's search: the options checked, then each bound to plan yielded and its
 * priced chain taken back, ending with the result.
 */
function budgetSearch(model: SlModel, options: LodBudgetOptions): BoundSearch<LodBudgetResult> {
  const o = assignDefaults(LOD_BUDGET_DEFAULTS, options);
  if (!(o.targetLandImpact > 0) || !Number.isFinite(o.targetLandImpact))
    throw new SlmeshError('USAGE', `target land impact must be a positive number (got ${o.targetLandImpact})`);
  const { firsts, price } = chainPricer(model, o);
  function* steps(): Generator<number, LodBudgetResult, BudgetChain> {
    // 1. The floor chain: if even it is over, say so.
    const floor = yield FLOOR_ERROR_PX;
    const floorResult = (fits: boolean): LodBudgetResult => ({
      model: floor.model,
      plans: floor.plans,
      fits,
      maxErrorPx: Infinity,
      landImpact: floor.landImpact,
      floorLandImpact: floor.landImpact,
    });
    if (floor.landImpact > o.targetLandImpact) return floorResult(false);
    // 2. The finest bound tried; if it fits, nothing better is needed.
    /** A chain that fits, as the result. */
    const fitting = (c: BudgetChain): LodBudgetResult => ({
      model: c.model,
      plans: c.plans,
      fits: true,
      maxErrorPx: c.px,
      landImpact: c.landImpact,
      floorLandImpact: floor.landImpact,
    });
    const fine = yield o.minErrorPx;
    if (fine.landImpact <= o.targetLandImpact) return fitting(fine);
    // 3. Bisection on log2(pixels) between a failing bound and a fitting one.
    let lo = Math.log2(o.minErrorPx);
    let hi = Math.log2(1024);
    let best = yield 2 ** hi;
    if (best.landImpact > o.targetLandImpact) {
      best = floor;
      hi = Math.log2(FLOOR_ERROR_PX);
    }
    for (let i = 0; i < o.iterations; i++) {
      const mid = (lo + hi) / 2;
      const r = yield 2 ** mid;
      if (r.landImpact <= o.targetLandImpact) {
        best = r;
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return best === floor ? floorResult(true) : fitting(best);
  }
  return { firsts, planOptions: { ...o, viewerBound: false }, price, steps: steps() };
}

export interface SharperLodOptions extends Omit<LodBudgetOptions, 'targetLandImpact' | 'iterations'> {
  /** The linkset's land impact the chain must not raise (the chain in hand's, set by physics or server weight). */
  maxLandImpact: number;
  /** The linkset's download weight the chain must stay within (under maxLandImpact, for a margin). */
  maxDownloadWeight: number;
  /**
   * Each object's physics as it will be written (aligned with the model's objects), the chains
   * priced with it; an object without any is priced as the uploader makes it, the single hull of
   * its low LOD (spec sections 5 and 6), which grows with a sharper low. Default: each object's own.
   */
  physics?: readonly PhysicsFields[];
  /**
   * The chain in hand: its worst error and download weight (which fits). Only a chain planned for
   * a bound under `SHARPER_LOD_DEFAULTS.minGain` times its error is returned; its download weight
   * steers the search.
   */
  current: { errorPx: number; downloadWeight: number };
  /** Chains planned after the finest (each a plan of every object). Default 2. */
  iterations?: number;
}

/**
 * minErrorPx: the finest bound tried (set it to the pixel bound the chain in hand was planned
 * for: finer than that is not seen). minGain: a chain is worth taking when its bound is at most
 * this fraction of the error in hand. iterations: tries after the finest.
 */
export const SHARPER_LOD_DEFAULTS = { minErrorPx: 1, iterations: 2, minGain: 0.9 };

export interface SharperLodResult {
  model: SlModel;
  plans: ObjectLodPlan[];
  /** The pixel bound every LOD of the chain was planned for. */
  maxErrorPx: number;
  /** The linkset's download weight with the chain. */
  downloadWeight: number;
  /** The linkset's land impact with the chain (and `physics`). */
  landImpact: number;
}

/**
 * A lower-error chain whose linkset land impact stays within `maxLandImpact` and download weight
 * within `maxDownloadWeight`: where physics or server weight sets the land impact, the LODs may
 * use the download weight up to it without raising the land impact. Every LOD is held to one
 * pixel bound: no allowance from the viewer's own LODs and no fallback (a LOD that cannot shrink
 * within the bound stays a copy of the one above), so the chain's worst error is the bound or
 * under it, except where a triangle budget (`maxTriangles`) forces a LOD coarser.
 *
 * The bound is searched on log(pixels) against log(download weight), which fall together about
 * along a line: the finest bound first (`minErrorPx`, usually the pixel bound the chain in hand
 * was planned for and went past by following the viewer's own LODs or by fallbacks), then at
 * most `iterations` bounds placed by false position between the finest that failed and the
 * coarsest known to fit (at first the chain in hand), aiming a little under the limit. Each try
 * is a plan of every object, so few are made. Undefined when none fits, or when no bound under
 * `minGain` times the error in hand is finer than `minErrorPx`.
 */
export function planModelSharper(model: SlModel, options: SharperLodOptions): SharperLodResult | undefined {
  const search = sharperSearch(model, options);
  return search && searchHere(model, search);
}

/**
 * planModelSharper with each bound's distinct geometries planned by the BoundPlanner `planner`
 * makes (from the options every geometry's ObjectLodPlanner gets, and the geometries' first
 * objects): worker threads keeping one planner per geometry give the same chain as this thread.
 */
export async function planModelSharperWith(
  model: SlModel,
  options: SharperLodOptions,
  planner: BoundPlannerMaker,
): Promise<SharperLodResult | undefined> {
  const search = sharperSearch(model, options);
  return search && searchWith(search, planner);
}

/**
 * planModelSharper's search: the options checked, then each bound to plan yielded and its priced
 * chain taken back, ending with the result. Undefined when no bound under minGain times the error
 * in hand is finer than minErrorPx.
 */
function sharperSearch(
  model: SlModel,
  options: SharperLodOptions,
): BoundSearch<SharperLodResult | undefined> | undefined {
  const o = assignDefaults(SHARPER_LOD_DEFAULTS, options);
  const limit = o.maxDownloadWeight;
  if (!(limit > 0) || !Number.isFinite(limit) || !(o.maxLandImpact > 0))
    throw new SlmeshError(
      'USAGE',
      `download weight and land impact must be positive numbers (got ${limit}, ${o.maxLandImpact})`,
    );
  const ceiling = o.current.errorPx * o.minGain;
  if (!(ceiling > o.minErrorPx)) return undefined;
  const { firsts, price } = chainPricer(model, o, o.physics);
  const fits = (c: BudgetChain) => c.downloadWeight <= limit && c.landImpact <= o.maxLandImpact;
  const result = (c: BudgetChain): SharperLodResult => ({
    model: c.model,
    plans: c.plans,
    maxErrorPx: c.px,
    downloadWeight: c.downloadWeight,
    landImpact: c.landImpact,
  });
  function* steps(): Generator<number, SharperLodResult | undefined, BudgetChain> {
    // 1. The finest bound.
    const fine = yield o.minErrorPx;
    if (fits(fine)) return result(fine);
    // 2. False position on (log2 px, log download weight), aiming at 0.9 of the limit.
    const point = (px: number, w: number) => ({ x: Math.log2(px), y: Math.log(Math.max(w, 1e-9)) });
    // A bound that failed by land impact alone (its physics grew) counts as just over the limit.
    const failed = (c: BudgetChain) => point(c.px, Math.max(c.downloadWeight, limit * 1.01));
    let lo = failed(fine);
    let hi = point(o.current.errorPx, Math.min(o.current.downloadWeight, limit));
    const aim = Math.log(0.9 * limit);
    const top = Math.log2(ceiling);
    let best: BudgetChain | undefined;
    for (let i = 0; i < o.iterations; i++) {
      const span = Math.min(hi.x, top) - lo.x;
      if (!(span > 0.05)) break;
      const t = hi.y < lo.y ? (lo.y - aim) / (lo.y - hi.y) : 0.5;
      // Kept inside the bracket (a tenth of it from each end), and never past the ceiling.
      const x = lo.x + span * Math.min(0.9, Math.max(0.1, t * ((hi.x - lo.x) / span)));
      const r = yield 2 ** x;
      if (fits(r)) {
        best = r;
        hi = point(r.px, r.downloadWeight);
        // Within a third of an octave of a failing bound: close enough.
        if (hi.x - lo.x < 1 / 3) break;
      } else {
        lo = failed(r);
      }
    }
    return best && result(best);
  }
  return { firsts, planOptions: { ...o, viewerBound: false, fallback: false }, price, steps: steps() };
}
