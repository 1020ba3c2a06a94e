import type { Document, Transform } from '@gltf-transform/core';
import { createTransform } from './gltf-utils.js';
import {
  conformLod,
  conformObject,
  writtenHull,
  worldBox,
  LOD_PLAN_DEFAULTS,
  planModelLods,
  boxSize,
  emptyBox,
  lodTriangleCount,
  planModelForBudget,
  type LodBudgetOptions,
  type LodBudgetResult,
  planModelSharper,
  SHARPER_LOD_DEFAULTS,
  type PhysicsFields,
  unionBox,
  uploadScale,
  type DeflateFn,
  type LodPlanOptions,
  type MeshSimplifier,
  type ObjectLodPlan,
  type ScreenSpaceSettings,
  type SharperLodOptions,
  type SharperLodResult,
  type SlModel,
  type SlObject,
  type Vec3,
} from '@slmesh/core';
import { deflateOrDefault, scaleFactorsFor, type SizeRequest } from './report.js';
import { documentToModel } from './to-model.js';
import { siblingSource, uploadSlots, writeUploadSlot, type UploadSlot } from './upload-writer.js';
import type { ImporterMode } from './importer-frame.js';
import { assignDefaults } from '@slmesh/core';

const NAME = 'slLods';

/** Options for the {@link slLods} transform. */
export interface SlLodsOptions {
  /** meshoptimizer's `MeshoptSimplifier` (it is awaited `ready`). Required. */
  simplifier: unknown;
  /** RenderVolumeLODFactor the LODs are planned for. Default: 2 (Firestorm's default). */
  lodFactor?: number;
  /** Screen-space error bound, pixels at each LOD's switch distance (1080 px tall viewport, 60 degree field of view). Default: 1. */
  maxErrorPx?: number;
  /**
   * Let a LOD follow the viewer's own auto-LOD (the uploader's Generate) at its level where that is
   * worse than `maxErrorPx`, never past the viewer chain's worst; where the viewer's chain is
   * better than `maxErrorPx`, every LOD stays within its worst (core LodPlanOptions.viewerBound).
   * So no LOD is worse than Generate's worst. False: every LOD within `maxErrorPx`. Default: true
   * (not used in budget mode).
   */
  viewerBound?: boolean;
  /** Land impact budget for the linkset: the lowest-error chain that fits (budget mode). Default: none (error-bound mode). */
  targetLandImpact?: number;
  /** Plan (and, in budget mode, price) the linkset at this size. Default: the model's own size. */
  size?: SizeRequest;
  /** Silhouette floor: every LOD covers at least this fraction of high's silhouette from each view. Default: 0.9. */
  minCoverage?: number;
  /** Reference screen for screen-space errors. Default: 1080 px tall, 60 degrees. */
  screen?: Partial<ScreenSpaceSettings>;
  /** Keep the LODs of objects that already have some (authored `_LOD` nodes); generate the others'. Default: false. */
  keepAuthoredLods?: boolean;
  /** zlib deflate: candidates are compared by the compressed bytes download weight charges (and budget mode prices chains). Default: core's zlibNgDeflate (the viewer's zlib-ng level 9, byte for byte; pure TypeScript, browser-safe). */
  deflate?: DeflateFn;
  /** Leave every object's high LOD as it is. Default: false (high is simplified as far as stays within `maxErrorPx` at the fill distance, where the object fills the view). */
  keepHigh?: boolean;
  /**
   * Write every vertex at the uploader's full 16-bit precision. Default: false (each LOD's vertices
   * move within half its error bound, measured, so the uploader's values end in zero bits that
   * compress: core LodPlanOptions.quantize).
   */
  keepPrecision?: boolean;
  /** Camera distance, metres at the planned size, at which the high LOD is judged. Default: the fill distance (each object's). */
  highDistance?: number;
  /** Most triangles per LOD of each object, e.g. `{ high: 20000, medium: 2000 }`; over-budget LODs are reduced whatever their error. Default: none. */
  maxTriangles?: LodPlanOptions['maxTriangles'];
  /** Called after each object's LODs are planned: objects done, objects in all. Default: none. */
  onObjectPlanned?: (done: number, total: number) => void;
  /** A triangle order tried on every LOD, kept where its block compresses smaller (`meshoptTriangleOrder()`). Default: none. */
  reorderTriangles?: LodPlanOptions['reorderTriangles'];
  /** Further planner settings (attribute weights, samples, probes). Default: none. */
  planner?: Partial<Omit<LodPlanOptions, 'simplifier'>>;
  /** Receives the plan of every object once the LODs are made. Default: none. */
  onPlans?: (plans: ObjectLodPlan[], budget: LodBudgetSummary | undefined) => void;
  /** The importer the model is read and priced as: `current` (node transforms kept) or `baked`. Default: `current`. */
  importer?: ImporterMode;
  /** Receives the sibling files' documents (`_LOD2`, `_LOD1`, `_LOD0`, `_PHYS`); the transformed document is the high file. Default: none. */
  onSiblings?: (siblings: Partial<Record<Exclude<UploadSlot, 'high'>, Document>>) => void;
}

export const SL_LODS_DEFAULTS = {
  lodFactor: LOD_PLAN_DEFAULTS.lodFactor,
  maxErrorPx: LOD_PLAN_DEFAULTS.maxErrorPx,
  minCoverage: LOD_PLAN_DEFAULTS.minCoverage,
  keepAuthoredLods: false,
  viewerBound: true,
};

/** What optimize's sharpening (sharpenModelLods) did. */
export interface LodSharpening {
  /** The pixel bound every LOD of the sharper chain was planned for. */
  maxErrorPx: number;
  /** Worst screen-space error of the chain planned first (every object's high and lower LODs). */
  worstBeforePx: number;
  /** Worst screen-space error of the sharper chain. */
  worstPx: number;
  /** The linkset's download weight with the first chain and with the sharper one. */
  downloadBefore: number;
  download: number;
  /** The land impact both give, and the weight that sets it. */
  landImpact: number;
  setBy: 'physics' | 'server';
}

/** The worst screen-space error of a chain: every object's high and lower LODs. */
export function worstPlanError(plans: readonly ObjectLodPlan[]): number {
  return Math.max(0, ...plans.map((p) => Math.max(p.worstScreenErrorPx, p.high.screenErrorPx)));
}

/** What budget mode decided. */
export interface LodBudgetSummary {
  targetLandImpact: number;
  fits: boolean;
  /** Pixel bound of the chain chosen (Infinity: only the silhouette floor limits it). */
  maxErrorPx: number;
  landImpact: number;
  /** Land impact of the floor chain: the least LODs can reach. */
  floorLandImpact: number;
}

/**
 * Per-axis factors from the linkset's size to the size it is uploaded at: the size asked for, or
 * the uploader's largest Scale where that takes an object over 63.9 m or the model over 240 m
 * (core uploadScale; the cost report says so with `scale-capped`).
 */
export function modelScaleFactors(model: SlModel, size: SizeRequest): Vec3 {
  const box = model.objects.reduce((b, o) => unionBox(b, worldBox(o)), emptyBox());
  return uploadScale(model, scaleFactorsFor(boxSize(box), size)).factors;
}

/**
 * Every object's high as written: a planned (reduced) high keeps the input high's box and
 * materials (core conformLod), so the prim keeps its size and place. conformModel does it when
 * given the input; optimize does it before physics (which is priced conformed to this high) and
 * then calls conformModel without the input.
 */
export function conformHighs(model: SlModel, input?: SlModel): SlModel {
  const inputHigh = new Map((input?.objects ?? []).map((o) => [o.name, o.lods.high]));
  return {
    ...model,
    objects: model.objects.map((o) => {
      const before = inputHigh.get(o.name);
      return before && before !== o.lods.high && before.faces.length === o.lods.high.faces.length
        ? { ...o, lods: { ...o.lods, high: conformLod(before, o.lods.high) } }
        : o;
    }),
  };
}

/**
 * Every object with high's box and materials on every LOD and physics model (core lod-conform.ts);
 * a hull that grew past 256 vertices is reduced again.
 */
export function conformModel(model: SlModel, input?: SlModel): SlModel {
  // High as written (conformHighs); then every lower LOD and the physics get its box.
  const highs = conformHighs(model, input);
  return { ...highs, objects: highs.objects.map((o) => conformObject(o, writtenHull)) };
}

function hasAuthoredLods(o: SlObject): boolean {
  return !!(o.lods.medium || o.lods.low || o.lods.lowest);
}

/** The planner settings generateModelLods and sharpenModelLods use for a model and options. */
function lodPlanSettings(
  model: SlModel,
  o: Omit<SlLodsOptions, 'onPlans'> & typeof SL_LODS_DEFAULTS,
): { scale: Vec3; planOptions: LodPlanOptions } {
  const scale = modelScaleFactors(model, o.size);
  const planOptions: LodPlanOptions = {
    ...o.planner,
    simplifier: o.simplifier as MeshSimplifier,
    lodFactor: o.lodFactor,
    maxErrorPx: o.maxErrorPx,
    minCoverage: o.minCoverage,
    viewerBound: o.viewerBound,
    quantize: !o.keepPrecision,
    sizeFactor: Math.max(...scale),
    deflate: deflateOrDefault(o.deflate),
    ...(o.screen ? { screen: o.screen } : {}),
    ...(o.keepHigh !== undefined ? { keepHigh: o.keepHigh } : {}),
    ...(o.highDistance !== undefined ? { highDistance: o.highDistance } : {}),
    ...(o.maxTriangles ? { maxTriangles: o.maxTriangles } : {}),
    ...(o.onObjectPlanned ? { onObjectPlanned: o.onObjectPlanned } : {}),
    ...(o.reorderTriangles ? { reorderTriangles: o.reorderTriangles } : {}),
  };
  return { scale, planOptions };
}

type ModelLods = { model: SlModel; plans: ObjectLodPlan[]; budget?: LodBudgetSummary };

/**
 * What plans the objects generateModelLods has to plan: core planModelLods, or one that plans
 * them elsewhere and gives the same result (lod-workers.ts: worker threads).
 */
export type ModelPlanner = (
  model: SlModel,
  options: LodPlanOptions,
) => Promise<{ model: SlModel; plans: ObjectLodPlan[] }>;

/** What runs the budget mode's search for generateModelLods: core planModelForBudget, or one that gives its result elsewhere (lod-workers.ts). */
export type BudgetPlanner = (model: SlModel, options: LodBudgetOptions) => Promise<LodBudgetResult>;

/**
 * generateModelLods in two halves around the planning itself: the model and options to plan (the
 * budget mode's search, or the plan) and what makes the result from it.
 */
function lodRun(
  model: SlModel,
  options: Omit<SlLodsOptions, 'onPlans'>,
):
  | { budget: { options: LodBudgetOptions; finish: (r: LodBudgetResult) => ModelLods } }
  | {
      plan: { model: SlModel; options: LodPlanOptions };
      finish: (planned: { model: SlModel; plans: ObjectLodPlan[] }) => ModelLods;
    } {
  const o = assignDefaults(SL_LODS_DEFAULTS, options);
  const { scale, planOptions } = lodPlanSettings(model, o);
  const keep = (obj: SlObject) => o.keepAuthoredLods && hasAuthoredLods(obj);
  if (o.targetLandImpact !== undefined) {
    // Budget mode plans the whole linkset together, priced at the size asked for.
    const targetLandImpact = o.targetLandImpact;
    return {
      budget: {
        options: {
          ...planOptions,
          viewerBound: false,
          targetLandImpact,
          deflate: deflateOrDefault(o.deflate),
          scaleFactors: scale,
        },
        finish: (r) => {
          const objects = model.objects.map((obj, i) => (keep(obj) ? obj : r.model.objects[i]));
          return {
            model: { ...model, objects },
            plans: r.plans.filter((_, i) => !keep(model.objects[i])),
            budget: {
              targetLandImpact,
              fits: r.fits,
              maxErrorPx: r.maxErrorPx,
              landImpact: r.landImpact,
              floorLandImpact: r.floorLandImpact,
            },
          };
        },
      },
    };
  }
  return {
    plan: { model: { objects: model.objects.filter((obj) => !keep(obj)) }, options: planOptions },
    finish: (planned) => {
      if (planned.plans.length === 0) o.onObjectPlanned?.(0, 0);
      let next = 0;
      const objects = model.objects.map((obj) => (keep(obj) ? obj : planned.model.objects[next++]));
      return { model: { ...model, objects }, plans: planned.plans };
    },
  };
}

/**
 * Generates LODs for every object of a model (see {@link slLods}); objects with authored LODs
 * are kept as they are with `keepAuthoredLods`. Exposed for pipelines that hold a model already.
 * @hidden
 */
export function generateModelLods(model: SlModel, options: Omit<SlLodsOptions, 'onPlans'>): ModelLods {
  const run = lodRun(model, options);
  if ('budget' in run) return run.budget.finish(planModelForBudget(model, run.budget.options));
  return run.finish(planModelLods(run.plan.model, run.plan.options));
}

/**
 * {@link generateModelLods} with the objects planned by `planner` and the budget mode's search run
 * by `budget` (optimize's worker threads; default core planModelForBudget). @hidden
 */
export async function generateModelLodsWith(
  model: SlModel,
  options: Omit<SlLodsOptions, 'onPlans'>,
  planner: ModelPlanner,
  budget: BudgetPlanner = async (m, budgetOptions) => planModelForBudget(m, budgetOptions),
): Promise<ModelLods> {
  const run = lodRun(model, options);
  if ('budget' in run) return run.budget.finish(await budget(model, run.budget.options));
  return run.finish(await planner(run.plan.model, run.plan.options));
}

/** The first plan's chain as sharpenModelLods is given it: its plans, download weight and land impact. */
type FirstChain = { plans: readonly ObjectLodPlan[]; downloadWeight: number; landImpact: number };

/**
 * Sharper LODs for a land impact the LODs do not set (optimize's `sharpen`): where physics or
 * server weight sets the land impact and a LOD of the first plan went past `maxErrorPx`
 * (following the viewer's own LOD, or made by a fallback) by more than a tenth, the objects are
 * planned again with every LOD held to one bound, from `maxErrorPx` up, the smallest tried whose
 * linkset land impact, priced with `physics` (each object's as written; one without any is the
 * single hull of its low LOD), is no higher than `first.landImpact`, and whose download weight
 * stays under it with a 2 % margin (core planModelSharper). Not for a model with authored LODs
 * kept. Undefined when no such chain is at least a tenth sharper. The caller prices the result as
 * written.
 */
export function sharpenModelLods(
  model: SlModel,
  options: Omit<SlLodsOptions, 'onPlans' | 'targetLandImpact'>,
  first: FirstChain,
  physics: readonly PhysicsFields[],
): Sharpened | undefined {
  const run = sharpenRun(model, options, first, physics);
  return run?.finish(planModelSharper(model, run.options));
}

/** {@link sharpenModelLods} with the search run by `sharper` (optimize's worker threads). @hidden */
export async function sharpenModelLodsWith(
  model: SlModel,
  options: Omit<SlLodsOptions, 'onPlans' | 'targetLandImpact'>,
  first: FirstChain,
  physics: readonly PhysicsFields[],
  sharper: (model: SlModel, options: SharperLodOptions) => Promise<SharperLodResult | undefined>,
): Promise<Sharpened | undefined> {
  const run = sharpenRun(model, options, first, physics);
  return run?.finish(await sharper(model, run.options));
}

type Sharpened = {
  model: SlModel;
  plans: ObjectLodPlan[];
  sharpening: Omit<LodSharpening, 'download' | 'landImpact' | 'setBy'>;
};

/** sharpenModelLods around the search: its options (undefined: not tried), and what makes the result. */
function sharpenRun(
  model: SlModel,
  options: Omit<SlLodsOptions, 'onPlans' | 'targetLandImpact'>,
  first: FirstChain,
  physics: readonly PhysicsFields[],
): { options: SharperLodOptions; finish: (sharp: SharperLodResult | undefined) => Sharpened | undefined } | undefined {
  const o = assignDefaults(SL_LODS_DEFAULTS, options);
  const worstBeforePx = worstPlanError(first.plans);
  if (o.keepAuthoredLods && model.objects.some(hasAuthoredLods)) return undefined;
  const { scale, planOptions } = lodPlanSettings(model, o);
  const { onObjectPlanned: _progress, ...quiet } = planOptions;
  return {
    options: {
      ...quiet,
      deflate: deflateOrDefault(o.deflate),
      scaleFactors: scale,
      // Finer than the pixel bound is not seen: a chain within it is not planned again.
      minErrorPx: o.maxErrorPx,
      maxLandImpact: first.landImpact * (1 + 1e-9),
      // A margin for the bytes that change when the LODs are conformed on writing.
      maxDownloadWeight: first.landImpact * 0.98,
      physics,
      current: { errorPx: worstBeforePx, downloadWeight: first.downloadWeight },
    },
    finish: (sharp) => {
      if (!sharp) return undefined;
      const worstPx = worstPlanError(sharp.plans);
      if (!(worstPx <= worstBeforePx * SHARPER_LOD_DEFAULTS.minGain)) return undefined;
      return {
        model: sharp.model,
        plans: sharp.plans,
        sharpening: { maxErrorPx: sharp.maxErrorPx, worstBeforePx, worstPx, downloadBefore: first.downloadWeight },
      };
    },
  };
}

/**
 * Generates Second Life LODs for every mesh object of a Document and rewrites it as the viewer's
 * uploader wants it: nodes `Name`, `Name_LOD2`, `Name_LOD1`, `Name_LOD0` (and `Name_PHYS` where
 * the document had physics), world frame, materials kept.
 *
 * Each LOD is as small as it can be while its measured geometric error (sampled Hausdorff distance
 * to high) stays within `maxErrorPx` pixels at the distance where Second Life starts to show it,
 * for the object's radius and `lodFactor`, and while it still covers `minCoverage` of high's
 * silhouette (see @slmesh/core lod-planner.ts). With `targetLandImpact`, the smallest pixel bound
 * whose chain fits the budget is used instead; LODs never drop below the silhouette floor. The
 * high LOD is simplified too, only as far as stays within the bound where the object fills the
 * view (`keepHigh` leaves it); LODs that cannot shrink within the bound are made by a fallback and
 * logged (`lod-fallback`).
 *
 * Example:
 *
 * ```javascript
 * import { NodeIO } from '@gltf-transform/core';
 * import { MeshoptSimplifier } from 'meshoptimizer';
 * import { slLods } from '@slmesh/gltf-plugin/node'; // in a browser: '@slmesh/gltf-plugin', with `deflate`
 *
 * const document = await new NodeIO().read('chair.glb');
 * await document.transform(slLods({ simplifier: MeshoptSimplifier, maxErrorPx: 1 }));
 * await new NodeIO().write('chair-sl.glb', document);
 * ```
 */
export function slLods(_options: SlLodsOptions): Transform {
  const options = assignDefaults(SL_LODS_DEFAULTS, _options);
  const simplifier = options.simplifier as (MeshSimplifier & { ready?: Promise<void> }) | undefined;
  if (!simplifier) throw new Error(`${NAME}: simplifier dependency required — install "meshoptimizer".`);

  return createTransform(NAME, async (document: Document): Promise<void> => {
    const logger = document.getLogger();
    await simplifier.ready;

    // 1. The document's objects, as the viewer's importer reads them.
    const { model, diagnostics, nodes, slotNodes } = documentToModel(document, {
      source: NAME,
      lodNodes: 'lods',
      importer: options.importer,
    });
    for (const d of diagnostics) logger.warn(`${NAME}: ${d.message}`);
    if (model.objects.length === 0) {
      logger.warn(`${NAME}: no triangle meshes in the default scene; nothing to do.`);
      return;
    }

    // 2. LOD chains (error-bound or budget mode).
    const result = generateModelLods(model, options);
    for (const plan of result.plans) {
      logger.debug(
        `${NAME}: ${plan.name}: ${plan.highTriangles} -> ${[plan.high, ...plan.levels].map((l) => `${l.triangles} (${l.screenErrorPx.toFixed(2)} px)`).join(' / ')} triangles.`,
      );
    }
    for (const plan of result.plans) for (const d of plan.diagnostics) logger.warn(`${NAME}: ${d.code}: ${d.message}`);
    if (result.budget && !result.budget.fits) {
      logger.warn(
        `${NAME}: land impact ${result.budget.floorLandImpact.toFixed(2)} even at the silhouette floor; over the target ${result.budget.targetLandImpact}.`,
      );
    }

    // 3. The sibling files' documents (copies), then the high file in place: same node tree.
    const model2 = conformModel(result.model, model);
    if (options.onSiblings) {
      const siblings: Partial<Record<Exclude<UploadSlot, 'high'>, Document>> = {};
      const slots = uploadSlots(model2);
      const meshless = siblingSource(document, slots);
      for (const slot of slots)
        if (slot !== 'high')
          siblings[slot] = await writeUploadSlot(document, model2, nodes, slot, { slotNodes, meshless });
      options.onSiblings(siblings);
    }
    await writeUploadSlot(document, model2, nodes, 'high', { slotNodes, inPlace: true });
    options.onPlans?.(result.plans, result.budget);

    const before = model.objects.reduce((a, o) => a + lodTriangleCount(o.lods.high), 0);
    logger.debug(`${NAME}: ${result.model.objects.length} objects, ${before} high triangles. Complete.`);
  });
}
