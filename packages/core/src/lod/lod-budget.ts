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
import type { DeflateFn, SlModel } from '../types.js';
import {
  geometryKeys,
  LOD_PLAN_DEFAULTS,
  type LodPlanOptions,
  type ObjectLodPlan,
  ObjectLodPlanner,
  planFor,
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

/**
 * Budget mode: the lowest-error chain (smallest pixel bound) whose linkset land impact is at most
 * `targetLandImpact`, at the planned size. When even the floor chain is over, returns the floor
 * chain with `fits: false`: the LODs are never emptied to meet a budget.
 */
export function planModelForBudget(model: SlModel, options: LodBudgetOptions): LodBudgetResult {
  const o = assignDefaults(LOD_BUDGET_DEFAULTS, options);
  if (!(o.targetLandImpact > 0) || !Number.isFinite(o.targetLandImpact))
    throw new SlmeshError('USAGE', `target land impact must be a positive number (got ${o.targetLandImpact})`);
  const deflate = memoizeDeflate(o.deflate);
  const k = o.sizeFactor ?? LOD_PLAN_DEFAULTS.sizeFactor;
  // One planner per distinct geometry (linked duplicates share theirs).
  const keys = geometryKeys(model.objects);
  const planners = new Map<string, { planner: ObjectLodPlanner; origin: [number, number, number] }>();
  model.objects.forEach((obj, i) => {
    if (!planners.has(keys[i].key))
      planners.set(keys[i].key, {
        planner: new ObjectLodPlanner(obj, { ...o, viewerBound: false }),
        origin: keys[i].origin,
      });
  });
  const evaluate = (px: number) => {
    const byKey = new Map(
      [...planners].map(([key, p]) => [key, { ...p.planner.plan(px), source: p.planner.object, origin: p.origin }]),
    );
    const results = model.objects.map((obj, i) => {
      const r = byKey.get(keys[i].key)!;
      return r.object.name === obj.name && r.origin === keys[i].origin
        ? r
        : planFor(obj, keys[i].origin, r.source, r.object, r.origin, r.plan);
    });
    const planned: SlModel = { ...model, objects: results.map((r) => r.object) };
    const cost = costReport(planned, {
      ...o.cost,
      deflate,
      scaleFactors: o.scaleFactors ?? [k, k, k],
      lodFactor: o.lodFactor ?? LOD_PLAN_DEFAULTS.lodFactor,
    });
    return { model: planned, plans: results.map((r) => r.plan), landImpact: cost.linkset.landImpact, px };
  };
  // 1. The floor chain: if even it is over, say so.
  const floor = evaluate(FLOOR_ERROR_PX);
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
  const fine = evaluate(o.minErrorPx);
  if (fine.landImpact <= o.targetLandImpact)
    return { ...fine, fits: true, maxErrorPx: fine.px, floorLandImpact: floor.landImpact };
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
  return {
    model: best.model,
    plans: best.plans,
    fits: true,
    maxErrorPx: best.px,
    landImpact: best.landImpact,
    floorLandImpact: floor.landImpact,
  };
}
