/**
 * The `slmesh optimize` pipeline as a function, for the CLI and any Node script:
 *
 *   1. read a glTF/GLB and its sibling `_LOD2/_LOD1/_LOD0/_PHYS` files into objects;
 *   2. price the input as it is ("before": what uploading it without LODs would cost);
 *   3. generate every object's LODs (slLods' planner: error-bound or budget mode);
 *   4. run the optional `physics` hook on each object (after its LODs, on the highs as written,
 *      before writing: physics is priced as it will be conformed);
 *   5. give every LOD and physics model high's box and materials (core lod-conform.ts) and write
 *      uploader-ready sibling GLB files (`out.glb`, `out_LOD2.glb`, `out_LOD1.glb`,
 *      `out_LOD0.glb`, `out_PHYS.glb`), each with the input's node tree, names and transforms;
 *   6. price the result ("after", a cost report of docs/cost-report.schema.json).
 *
 * Nothing is written to disk: `files` holds each output path and its bytes, and the caller writes
 * them (the CLI writes them all or none). Every input problem is a SlmeshError naming the file,
 * thrown before any output exists.
 */

import { Logger, type Document, type ILogger, type NodeIO } from '@gltf-transform/core';
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import { meshoptTriangleOrder } from './triangle-order.js';
import {
  SlmeshError,
  checkModel,
  convexHullPhysicsCost,
  MAX_HULL_VERTICES,
  MAX_OBJECT_SCALE,
  measureMeshAsset,
  landImpact,
  lodTriangleCount,
  memoizeDeflate,
  objectBox,
  primScale,
  prepareForUpload,
  radiusOfScale,
  sameLod,
  serverWeight,
  shortNumber,
  streamingCost,
  VIEWER_BOUND_MARGIN,
  type DeflateFn,
  type Diagnostic,
  type LodName,
  type ObjectLodPlan,
  type SlModel,
  type SlObject,
  type Vec3,
  zlibNgDeflate,
} from '@slmesh/core';
import { basename, dirname, join } from 'node:path';
import { highFileSlots, isSiblingFileName, parseLodName, siblingFileName, type LodSlot } from './lod-naming.js';
import type { ImporterMode } from './importer-frame.js';
import { createNodeIO } from './node-io.js';
import { mergeMeshNodes } from './merge-objects.js';
import { readDocument, readSiblingDocument } from './read-file.js';
import { reportModel, type FileReport, type SizeRequest } from './report.js';
import {
  conformHighs,
  conformModel,
  generateModelLodsWith,
  modelScaleFactors,
  SL_LODS_DEFAULTS,
  sharpenModelLodsWith,
  worstPlanError,
  type LodSharpening,
  type LodBudgetSummary,
  type SlLodsOptions,
} from './sl-lods.js';
import { assembleModel, readMeshNodes, type MeshNodeGeometry, type SlotNode } from './to-model.js';
import { writeUploadFiles, type UploadSlot } from './upload-writer.js';
import { planModelForBudgetWithWorkers, planModelLodsWithWorkers, planModelSharperWithWorkers } from './lod-workers.js';
import { assignDefaults } from '@slmesh/core';

/** What the physics hook is told about the object it is given. */
export interface PhysicsHookContext {
  /** Index of the object in the model. */
  index: number;
  /** The model after LOD generation (objects before `index` have been through the hook). */
  model: SlModel;
  /**
   * The object as read, before its LODs were planned. Its high is the authored surface, which a
   * planned high only approximates; physics is best fitted to it (core buildPhysics `surface`).
   */
  input?: SlObject;
  /** The input file. */
  source: string;
  /** RenderVolumeLODFactor the LODs were planned for. */
  lodFactor: number;
  /** Per-axis factors from the model's size to the size asked for ([1, 1, 1] at its own size). */
  scaleFactors: Vec3;
  /** zlib deflate (memoised), for pricing. */
  deflate: DeflateFn;
  /** The pipeline's logger. */
  logger: ILogger;
  /** 1 on the first run through the objects, 2 on the run `PhysicsHook.again` asks for. Default 1. */
  pass?: 1 | 2;
}

/**
 * Physics hook: receives each object once its LODs are made and returns it with its physics:
 * `physicsMesh` (a triangle mesh), `decomposition` (convex hulls) or `hull` (one convex hull).
 * The returned object replaces the given one (same name, same high LOD); its physics is written
 * as the `Name_PHYS` node and priced in the "after" report.
 */
export type PhysicsHook = ((object: SlObject, ctx: PhysicsHookContext) => Promise<SlObject> | SlObject) & {
  /**
   * Asked once every object has been through the hook, with the model as it then is: true sends
   * every object through it once more, in order (`ctx.pass` 2), the others' physics known. A
   * linkset's land impact is the largest of its summed download, physics and server weights, so
   * what one part may weigh depends on what the rest chose. Default: no second pass.
   */
  again?: (model: SlModel) => boolean;
};

/**
 * The phases of the pipeline, in order, as reported to `onProgress`: 'read' (the input and its
 * siblings), 'lods' (per object), 'physics' (per object, with a hook), 'write' (the GLB bytes),
 * 'report' (the output priced), 'price' (the input as it is), and with `mergeObjects` (when
 * tried) 'join' (the objects planned and priced joined into one: steps 3 to 6 again, one object),
 * and with `strictAlternative` (when tried) 'strict' (the LODs planned again at the pixel bound).
 */
export type OptimizePhase = 'read' | 'price' | 'lods' | 'physics' | 'sharpen' | 'write' | 'report' | 'join' | 'strict';

/** Progress callback: `done` of `total` steps of `phase` (each phase starts with done = 0 and ends with done = total). */
export type OptimizeProgress = (phase: OptimizePhase, done: number, total: number) => void;

/** Options for {@link optimizeFile}. */
export interface OptimizeOptions extends Omit<SlLodsOptions, 'simplifier' | 'onPlans' | 'onObjectPlanned'> {
  /** Output GLB path; names the sibling files too (`out_LOD2.glb` ...). Required. */
  output: string;
  /** meshoptimizer's MeshoptSimplifier. Default: the `meshoptimizer` package's. */
  simplifier?: unknown;
  /** @deprecated No effect: the output is always the sibling files (`out.glb`, `out_LOD2.glb`, `out_LOD1.glb`, `out_LOD0.glb`, `out_PHYS.glb`), the only layout the viewer's glTF importer takes LODs from. */
  split?: boolean;
  /** Read the input's sibling `_LOD2/_LOD1/_LOD0/_PHYS` files. Default: true. */
  siblings?: boolean;
  /** Runs on each object after its LODs, before writing (see PhysicsHook). Default: none (physics the input has is kept). */
  physics?: PhysicsHook;
  /** Logger for progress. Default: glTF-Transform's Logger at WARN. */
  logger?: ILogger;
  /** NodeIO for reading and writing. Default: one with every extension and decoder. */
  io?: NodeIO;
  /** Most triangles in the input (all files); more is an INPUT_LIMIT error naming the limit. Default: OPTIMIZE_MAX_TRIANGLES. */
  inputLimit?: number;
  /** Progress of each phase (the pipeline itself never writes to the console). Default: none. */
  onProgress?: OptimizeProgress;
  /**
   * Several objects whose land impact is set by server or physics weight are also planned joined
   * into one (merge-objects.ts). true: the join is written when its land impact is lower and no
   * LOD shows more error than the parts apart (`objects-merged`, or `objects-kept` with the
   * reason). 'suggest': the objects are written apart (the input's node tree) and an
   * `objects-mergeable` note gives the join's price when it would be lower (the CLI's default).
   * false: not tried. 'suggest' skips models over SUGGEST_JOIN_MAX_TRIANGLES. When tried, the
   * physics hook also runs on the joined object (one more call, its name the first part's).
   * 'auto' (the CLI's default): as 'suggest', but parts that are more prims than a linkset holds
   * (256: apart they cannot be one object in-world) are always priced joined, whatever sets their
   * land impact and however many triangles they have, and the join is written when it is better,
   * as with true. Default: false.
   */
  mergeObjects?: boolean | 'suggest' | 'auto';
  /**
   * Where viewerBound's Generate LODs set the bounds (loosened a level to Generate's error there,
   * or held the chain to Generate's worst where that is under `maxErrorPx`), the model is also
   * planned with every bound `maxErrorPx` (viewerBound false, physics through the hook again).
   * That chain is written when its land impact is lower, its worst LOD error no larger and under
   * VIEWER_BOUND_MARGIN times Generate's worst (`lods-strict-taken`); otherwise, when it is only
   * lower once rounded, an `lods-strict-cheaper` note gives its land impact and worst error. Not in budget mode, not where server weight sets
   * the land impact, not over SUGGEST_JOIN_MAX_TRIANGLES input triangles (a second LOD plan and
   * physics build is not worth seconds on a big model). Default: false (the CLI's: true).
   */
  strictAlternative?: boolean;
  /**
   * Worker threads planning LODs, each distinct geometry on one (lod-workers.ts; the same files as
   * planned in this thread). Default: the machine's available parallelism, at most
   * LOD_WORKERS_MAX, when the geometries other than the biggest have LOD_WORKERS_MIN_TRIANGLES or
   * more or number LOD_WORKERS_MIN_PARTS or more, and the simplifier, deflate and triangle order
   * are the defaults; 1: in this thread. The sharper-LOD search and the budget mode (`targetLandImpact`) use the same rule.
   */
  jobs?: number;
  /**
   * Where the land impact is set by physics or server weight, not by the LODs' download weight,
   * and a LOD went past `maxErrorPx` (following the viewer's own LOD, or made by a fallback): plan
   * the LODs again after physics, to the smallest bound tried from `maxErrorPx` up whose download
   * weight stays under that land impact (gltf-plugin sharpenModelLods), and write them when the
   * output, physics kept, prices no higher (`lod-sharpened`). Not in budget mode. Default: true.
   */
  sharpen?: boolean;
}

/**
 * optimize's default triangle limit. LOD planning measures big meshes on a simplified proxy and
 * the decomposition works on one, so time and memory stay bounded (a 1M-triangle Blender export:
 * about 6 s of CPU and 0.5 GB with the default physics); past this a huge export is refused up front
 * with a clear message (raise it with --max-triangles). `cost` and `check` allow 5,000,000.
 */
export const OPTIMIZE_MAX_TRIANGLES = 2_000_000;

/**
 * Most input triangles for which `mergeObjects: 'suggest'` prices the join (a second LOD plan and
 * physics build of the whole model): a tip is not worth seconds on a big model. `true` has no limit.
 */
export const SUGGEST_JOIN_MAX_TRIANGLES = 100_000;

/** Land impact of a linkset, with its parts. */
export interface LandImpactSummary {
  prims: number;
  download: number;
  /** Physics weight; undefined when it cannot change the land impact and was not computed. */
  physics?: number;
  server: number;
  landImpact: number;
  landImpactRounded: number;
}

export interface OptimizeResult {
  /** Output files and their bytes, the main file first. */
  files: { path: string; slot: UploadSlot; data: Uint8Array }[];
  /** The objects written (LODs and physics). */
  model: SlModel;
  /** What the planner decided per object (objects with kept authored LODs have none). */
  plans: ObjectLodPlan[];
  /** Budget mode's outcome, when `targetLandImpact` was given. */
  budget?: LodBudgetSummary;
  /** The input as it is, priced. */
  before: LandImpactSummary;
  /** The output priced: a file report of the cost report schema. */
  after: FileReport;
  /** Findings about the input (the "after" report lists the output's). */
  diagnostics: Diagnostic[];
  /** Files read: the input, then its siblings. */
  inputs: string[];
}

export const OPTIMIZE_DEFAULTS = {
  ...SL_LODS_DEFAULTS,
  siblings: true,
  importer: 'current' as ImporterMode,
  mergeObjects: false as boolean | 'suggest' | 'auto',
};

const BLOCKING = new Set(['no-mesh', 'no-high-lod', 'non-finite-vertex', 'bad-index']);

/** A read input: its document, its objects, and what the uploader would make of it. */
interface InputRead {
  doc: Document;
  model: SlModel;
  asUploaded: SlModel;
  nodes: Map<string, MeshNodeGeometry>;
  slotNodes: number[];
  diagnostics: Diagnostic[];
  files: string[];
}

/**
 * Step 1: the input document (its tree and materials are written back), the model with sibling
 * files (`_LODn` / `_PHYS` nodes inside the input taken as those slots, as the user meant them),
 * and the model as the uploader would take the input (those nodes as extra objects), for "before".
 */
async function readInput(
  path: string,
  io: NodeIO | undefined,
  siblings: boolean,
  importer: ImporterMode,
  maxTriangles = OPTIMIZE_MAX_TRIANGLES,
): Promise<InputRead> {
  // Images are read (safely: inside the model's folder) because the output carries them.
  const doc = await readDocument(path, { io, images: 'read' });
  const main = readMeshNodes(doc, { source: path, importer, maxTriangles });
  const diagnostics = [...main.diagnostics];
  const asLods = highFileSlots(main.nodes, path, 'lods');
  const asObjects = highFileSlots(main.nodes, path, 'objects');
  const slotNodes: SlotNode[] = [...asLods.slotNodes];
  const siblingNodes: SlotNode[] = [];
  const files = [path];
  if (siblings && !isSiblingFileName(basename(path))) {
    for (const slot of ['medium', 'low', 'lowest', 'physics'] as const) {
      const found = await readSiblingDocument(path, slot, { io });
      if (!found) continue;
      const sib = found.path;
      files.push(sib);
      const read = readMeshNodes(found.doc, { source: sib, importer, maxTriangles });
      for (const d of read.diagnostics) diagnostics.push(d);
      for (const node of read.nodes)
        siblingNodes.push({ base: parseLodName(node.name).base, slot: slot as LodSlot, node, source: sib });
    }
  }
  const assembled = assembleModel([...slotNodes, ...siblingNodes]);
  const uploaded = assembleModel([...asObjects.slotNodes, ...siblingNodes]);
  return {
    doc,
    model: assembled.model,
    asUploaded: uploaded.model,
    nodes: assembled.nodes,
    slotNodes: asLods.slotNodes.filter((sn) => sn.slot !== 'high').map((sn) => sn.node.index),
    diagnostics: [...diagnostics, ...asObjects.diagnostics, ...assembled.diagnostics],
    files,
  };
}

/**
 * Step 7's input: the read input's mesh nodes joined into one object (merge-objects.ts), or why
 * they cannot be. Inputs with authored LODs (sibling files or `_LODn` / `_PHYS` nodes) are kept
 * as they are, and so is a join wider than a prim can be.
 */
async function mergedInput(
  read: InputRead,
  path: string,
  importer: ImporterMode,
  maxTriangles: number | undefined,
  f: Vec3,
): Promise<{ read: InputRead; names: string[]; objects: number } | { reason: string }> {
  if (read.files.length > 1) return { reason: 'its LODs come from sibling files' };
  if (read.slotNodes.length > 0) return { reason: 'it has _LOD or _PHYS nodes' };
  const joined = await mergeMeshNodes(read.doc);
  if (!joined.merged) return { reason: joined.reason };
  joined.doc.setLogger(read.doc.getLogger());
  const main = readMeshNodes(joined.doc, {
    source: path,
    importer,
    maxTriangles: maxTriangles ?? OPTIMIZE_MAX_TRIANGLES,
  });
  const assembled = assembleModel(highFileSlots(main.nodes, path, 'lods').slotNodes);
  const model = assembled.model;
  for (const object of model.objects) {
    const size = primScale(object).map((x, i) => x * f[i]);
    if (size.some((x) => x > MAX_OBJECT_SCALE))
      return {
        reason: `joined, ${object.name} would be ${Math.max(...size).toFixed(1)} m across, over the ${MAX_OBJECT_SCALE} m a prim can be`,
      };
  }
  return {
    read: {
      doc: joined.doc,
      model,
      asUploaded: model,
      nodes: assembled.nodes,
      slotNodes: [],
      diagnostics: [...main.diagnostics, ...assembled.diagnostics],
      files: [path],
    },
    names: joined.names,
    objects: joined.objects,
  };
}

/**
 * Step 2: the linkset's land impact as the uploader would charge it. Download weight comes from
 * the encoded LOD blocks; when it is at least the most any single-hull physics could weigh, the
 * land impact is the download weight and the (slow on big meshes) hull is not built; otherwise
 * the full cost report is used.
 */
function priceBefore(
  model: SlModel,
  f: Vec3,
  size: SizeRequest,
  lodFactor: number,
  deflate: DeflateFn,
  path: string,
): LandImpactSummary {
  const parts = prepareForUpload(model);
  let download = 0;
  for (const part of parts) {
    const enc = measureMeshAsset({ lods: part.object.lods, frameScale: part.object.placement?.scale }, { deflate });
    const size = primScale(part.object);
    const radius = radiusOfScale([size[0] * f[0], size[1] * f[1], size[2] * f[2]]);
    const b = (name: string) => enc.blocks[`${name}_lod` as 'high_lod']?.size ?? 0;
    download += streamingCost(
      { high: b('high'), medium: b('medium'), low: b('low'), lowest: b('lowest') },
      radius,
    ).streaming;
  }
  const server = serverWeight(parts.length);
  const maxHullPhysics = convexHullPhysicsCost(MAX_HULL_VERTICES) * parts.length;
  const plainPhysics = model.objects.every((o) => !o.physicsMesh && !o.decomposition && !o.hull);
  if (plainPhysics && download >= maxHullPhysics && download >= server) {
    const li = landImpact({ streaming: download, physics: 0, server });
    return { prims: parts.length, download, server, landImpact: li.exact, landImpactRounded: li.rounded };
  }
  const full = reportModel({ model, diagnostics: [] }, path, { deflate, lodFactor, size }).report.linkset;
  return {
    prims: full.prims,
    download: full.streaming,
    physics: full.physics,
    server: full.server,
    landImpact: full.landImpact,
    landImpactRounded: full.landImpactRounded,
  };
}

/** Reads `input`, generates LODs (and physics through the hook) and returns uploader-ready GLB bytes with before/after prices. */
export async function optimizeFile(input: string, options: OptimizeOptions): Promise<OptimizeResult> {
  const o = assignDefaults(OPTIMIZE_DEFAULTS, options);
  if (!o.output || !/\.glb$/i.test(o.output))
    throw new SlmeshError('USAGE', `output must be a .glb file, got "${o.output ?? ''}"`);
  const logger = o.logger ?? new Logger(Logger.Verbosity.WARN);
  const simplifier = (o.simplifier ?? MeshoptSimplifier) as typeof MeshoptSimplifier;
  await simplifier.ready;
  // Reading makes its own reader per file unless one is given (the Draco decoder, a large WASM
  // module, only for a file that uses it); writing needs no decoder.
  const io = o.io ?? (await createNodeIO({ draco: false }));
  const deflate = memoizeDeflate(o.deflate ?? zlibNgDeflate);
  const progress: OptimizeProgress = o.onProgress ?? (() => {});

  // 1. Read, and refuse what cannot be made into LODs.
  progress('read', 0, 1);
  // (Let: step 7 lets go of the input once the join is made from it.)
  let read: InputRead | undefined = await readInput(input, o.io, o.siblings, o.importer, o.inputLimit);
  const inputs = read.files;
  progress('read', 1, 1);
  read.doc.setLogger(logger);
  for (const d of checkModel(read.model)) {
    if (d.severity === 'error' && BLOCKING.has(d.code))
      throw new SlmeshError('INPUT_INVALID', `${input}: ${d.message}`);
  }
  const scaleFactors = modelScaleFactors(read.model, o.size);

  // 3-6. LODs, physics, files and "after", for the objects as they are.
  const ctx = { simplifier, deflate, io, logger, progress, scaleFactors, input };
  let done = await planAndWrite(read, o, ctx);

  // 2. Before, priced after steps 3-6, whose many small deflates have warmed the deflate's code:
  //    a big input's block is the largest deflate of the run, and run first it went through the
  //    deflate's interpreted and half-optimised code (the 252k-triangle Suzanne: about 0.2 s of
  //    CPU of optimize's 4; the same bytes either way).
  progress('price', 0, 1);
  const before = priceBefore(read.asUploaded, scaleFactors, o.size, o.lodFactor, deflate, input);
  logger.info(`optimize: ${input}: land impact ${before.landImpact.toFixed(2)} before.`);
  progress('price', 1, 1);
  let diagnostics = read.diagnostics;

  // 6b. Where Generate's LODs set the bounds, the chain planned at the pixel bound too.
  const inputTriangles = read.model.objects.reduce((a, x) => a + lodTriangleCount(x.lods.high), 0);
  done = await strictAlternative(done, read, inputTriangles, o, ctx);

  // 7. Many prims, each at least 0.5 of server weight: the same parts joined into one object, its
  //    LODs held to the pixel bound (no Generate allowance and no fallback: the parts' own LODs,
  //    not the joined object's Generate, are what the creator would otherwise get; a LOD that
  //    cannot shrink within the bound stays a copy of the one above). With mergeObjects true it
  //    is written when its land impact is lower and no LOD looks worse than the parts' worst or
  //    the bound; with 'suggest' the parts are written apart and a note gives the price; 'auto'
  //    writes the join too where the parts are more prims than a linkset holds.
  const link = done.after.linkset.linkable;
  const unlinkable = o.mergeObjects === 'auto' && link.prims > link.maxPrims;
  const writeJoin = o.mergeObjects === true || unlinkable;
  if (
    o.mergeObjects !== false &&
    read.model.objects.length > 1 &&
    (unlinkable ||
      (done.after.linkset.dominant !== 'download' &&
        (o.mergeObjects === true || inputTriangles <= SUGGEST_JOIN_MAX_TRIANGLES)))
  ) {
    const apartWhy = unlinkable
      ? `apart they are ${link.prims} prims, and a linkset holds at most ${link.maxPrims}`
      : 'every prim costs at least 0.5 of server weight';
    const joined = await mergedInput(read, input, o.importer, o.inputLimit, scaleFactors);
    // Nothing below reads the input again: its document, objects and nodes (the parts apart, as
    // read) go before the join's plan, the run's largest (the 800 parts: 1.81 -> 1.60 GB peak).
    read = undefined;
    if ('reason' in joined) {
      logger.info(`optimize: ${input}: objects not joined: ${joined.reason}.`);
      if (writeJoin)
        done.after.diagnostics.unshift({
          severity: 'info',
          code: 'objects-kept',
          message: `the objects were kept apart: ${joined.reason}`,
        });
    } else {
      const held = { ...o, viewerBound: false, planner: { ...o.planner, fallback: false } };
      progress('join', 0, 1);
      let other: Awaited<ReturnType<typeof planAndWrite>>;
      try {
        other = await planAndWrite(joined.read, held, {
          ...ctx,
          progress: () => {},
          write: writeJoin,
          // Written only where it can be taken: at a land impact under the parts'.
          writeUnder: done.after.linkset.landImpact,
        });
      } catch (e) {
        // A tip never costs the run its output; a cancel (AbortError) still ends it.
        if (writeJoin || (e as Error)?.name === 'AbortError') throw e;
        logger.warn(`optimize: ${input}: the objects could not be priced joined: ${(e as Error)?.message ?? e}`);
        progress('join', 1, 1);
        return { ...done, before, diagnostics, inputs };
      }
      progress('join', 1, 1);
      const was = done.after.linkset.landImpact;
      const now = other.after.linkset.landImpact;
      const worst = (r: typeof done) => worstPlanError(r.plans);
      const allowed = Math.max(worst(done), o.maxErrorPx);
      const better = now < was && worst(other) <= allowed * (1 + 1e-9);
      const n = joined.objects;
      const k = joined.names.length;
      const quoted =
        joined.names
          .slice(0, 4)
          .map((q) => JSON.stringify(q))
          .join(', ') + (k > 4 ? ', ...' : '');
      const into = k === 1 ? `one, ${quoted}` : `${k}, ${quoted}`;
      const prices = `land impact ${was.toFixed(3)} apart, ${now.toFixed(3)} joined, worst LOD error ${worst(other).toFixed(2)} px joined`;
      if (better && writeJoin) {
        done = other;
        diagnostics = [...joined.read.diagnostics];
        done.after.diagnostics.unshift({
          severity: 'info',
          code: 'objects-merged',
          object: joined.names[0],
          message: `${n} objects joined into ${into} (${apartWhy}): ${prices}`,
        });
      } else if (better) {
        done.after.diagnostics.unshift({
          severity: 'info',
          code: 'objects-mergeable',
          message: `joined into ${k === 1 ? 'one object' : `${k} objects`}, these ${n} objects would cost less (every prim costs at least 0.5 of server weight): ${prices}; --merge-objects joins them`,
        });
      } else if (writeJoin) {
        const why = other.physicsSkipped
          ? `their download weight alone would be ${other.after.linkset.streaming.toFixed(3)}, not lower than the land impact apart, ${was.toFixed(3)} (their physics was not built)`
          : now >= was
            ? `their land impact would be ${now.toFixed(3)}, not lower than ${was.toFixed(3)}`
            : `a LOD would show ${worst(other).toFixed(2)} px of error, over the ${allowed.toFixed(2)} px they show apart`;
        done.after.diagnostics.unshift({
          severity: 'info',
          code: 'objects-kept',
          message: `the ${n} objects were kept apart${unlinkable ? ` (${apartWhy})` : ''}: joined into ${k === 1 ? 'one' : k}, ${why}`,
        });
      }
    }
  }
  return { ...done, before, diagnostics, inputs };
}

/**
 * Step 6b (`strictAlternative`): with viewerBound, Generate's LODs set the bounds: a level may be
 * as coarse as Generate's there, and the chain is held to Generate's worst error, which a dense
 * high makes small (a CC-0 beer glass at 2 m, 0.26 px). Bounds set so do not always lead the
 * search to a cheaper chain. The model is then planned again with every bound the pixel bound
 * (what --strict-error writes, physics built again through the hook). When that costs less land
 * impact with no larger worst error, and that error is under Generate's worst by viewerBound's
 * margin (VIEWER_BOUND_MARGIN), it is the output (`lods-strict-taken`: the bundled vase at
 * 8 m, 11.858 -> 11.270, worst 0.91 -> 0.75 px; a CC-0 electric guitar at 2 m, 29.148 ->
 * 12.754); otherwise, when it only rounds to a lower land impact, an `lods-strict-cheaper` note
 * gives both prices and errors and the output stays the first chain.
 */
async function strictAlternative(
  done: Awaited<ReturnType<typeof planAndWrite>>,
  read: InputRead,
  inputTriangles: number,
  o: OptimizeOptions & typeof OPTIMIZE_DEFAULTS,
  ctx: Parameters<typeof planAndWrite>[2],
): Promise<Awaited<ReturnType<typeof planAndWrite>>> {
  if (!o.strictAlternative || !o.viewerBound || o.targetLandImpact !== undefined) return done;
  // Server weight (0.5 a prim) setting the land impact does not move with the LODs.
  if (done.after.linkset.dominant === 'server') return done;
  if (inputTriangles > SUGGEST_JOIN_MAX_TRIANGLES) return done;
  // Only where Generate's LODs set bounds (a big high's plan without them has the pixel bound's).
  if (!done.plans.some((p) => p.viewerWorstPx !== undefined)) return done;
  ctx.progress('strict', 0, 1);
  let strict: Awaited<ReturnType<typeof planAndWrite>>;
  try {
    strict = await planAndWrite(read, { ...o, viewerBound: false }, { ...ctx, progress: () => {} });
  } catch (e) {
    // The first chain is kept whatever happens here; a cancel (AbortError) still ends the run.
    if ((e as Error)?.name === 'AbortError') throw e;
    ctx.logger.warn(
      `optimize: ${ctx.input}: the LODs could not be planned at the pixel bound: ${(e as Error)?.message ?? e}`,
    );
    return done;
  } finally {
    ctx.progress('strict', 1, 1);
  }
  const was = done.after.linkset;
  const now = strict.after.linkset;
  if (!(now.landImpact < was.landImpact * (1 - 1e-9))) return done;
  const worstWas = worstPlanError(done.plans);
  const worstNow = worstPlanError(strict.plans);
  const errors = `worst LOD error ${worstNow.toFixed(2)} px instead of ${worstWas.toFixed(2)} px`;
  const bound = `with every LOD's bound ${o.maxErrorPx} px where it appears, not the error of the viewer's own auto-LOD (the uploader's Generate)`;
  // Written only where no sampling noise can put it over Generate's worst, the viewer chain's
  // (the margin viewerBound keeps too), or where every LOD over that margin is one the first
  // chain wrote as well. A CC-0 double oven's low, made by a relaxed bound at 2.81 px against
  // Generate's 2.82, keeps the first chain and the tip gives the other; a CC-0 pool table's
  // side keeps Generate's own low at 20.74 px in both chains, and the second is written.
  const generateWorst = Math.max(0, ...done.plans.map((p) => p.viewerWorstPx ?? 0));
  const limit = VIEWER_BOUND_MARGIN * generateWorst;
  if (worstNow <= worstWas * (1 + 1e-9) && (worstNow <= limit || overLimitAsBefore(done, strict, limit))) {
    strict.after.diagnostics.unshift({
      severity: 'info',
      code: 'lods-strict-taken',
      message: `planned ${bound}: land impact ${now.landImpact.toFixed(3)} instead of ${was.landImpact.toFixed(3)}, ${errors}`,
    });
    return strict;
  }
  if (now.landImpactRounded < was.landImpactRounded)
    done.after.diagnostics.unshift({
      severity: 'info',
      code: 'lods-strict-cheaper',
      message: `planned ${bound}, the land impact would be ${now.landImpact.toFixed(3)} instead of ${was.landImpact.toFixed(3)} (rounded ${now.landImpactRounded} against ${was.landImpactRounded}), ${errors}; --strict-error plans so`,
    });
  return done;
}

/**
 * True when every LOD of `strict` whose error is over `limit` px is one `done` wrote too: the same
 * geometry bit for bit, at the same level of an object with the same box (so at the same switch
 * distance). Such a LOD measures the same as the first chain's under any measure.
 * @hidden exported for tests
 */
export function overLimitAsBefore(
  done: Pick<OptimizeResult, 'model' | 'plans'>,
  strict: Pick<OptimizeResult, 'model' | 'plans'>,
  limit: number,
): boolean {
  // Plans line up with objects only where every object was planned (none kept its authored LODs).
  const n = done.model.objects.length;
  if (done.plans.length !== n || strict.plans.length !== n || strict.model.objects.length !== n) return false;
  return strict.plans.every((plan, i) => {
    const over: LodName[] = [
      ...(plan.high.screenErrorPx > limit ? (['high'] as const) : []),
      ...plan.levels.filter((l) => l.screenErrorPx > limit).map((l) => l.name),
    ];
    if (over.length === 0) return true;
    const was = done.model.objects[i];
    const now = strict.model.objects[i];
    if (done.plans[i].name !== plan.name || was.name !== plan.name) return false;
    const [a, b] = [objectBox(was), objectBox(now)];
    if (a.min.some((v, k) => v !== b.min[k]) || a.max.some((v, k) => v !== b.max[k])) return false;
    return over.every((name) => {
      const [x, y] = [was.lods[name], now.lods[name]];
      return x !== undefined && y !== undefined && sameLod(x, y);
    });
  });
}

/** Steps 3 to 6 of optimizeFile on a read input. */
async function planAndWrite(
  read: InputRead,
  o: OptimizeOptions & typeof OPTIMIZE_DEFAULTS,
  ctx: {
    simplifier: typeof MeshoptSimplifier;
    deflate: DeflateFn;
    io: NodeIO;
    logger: ILogger;
    progress: OptimizeProgress;
    scaleFactors: Vec3;
    input: string;
    /** False: plan and price only, no GLB bytes. Default true. */
    write?: boolean;
    /**
     * Sharpen and write only when the land impact as planned is under this (a join the parts are
     * cheaper than is only priced: sharpening keeps the land impact, so it could not be taken).
     */
    writeUnder?: number;
  },
): Promise<
  Pick<OptimizeResult, 'files' | 'model' | 'plans' | 'budget' | 'after'> & {
    /** True when step 4a left the physics out: the land impact is at least `after.linkset.streaming`. */
    physicsSkipped?: boolean;
  }
> {
  const { simplifier, deflate, io, logger, progress, scaleFactors, input } = ctx;
  // 3. LODs.
  progress('lods', 0, read.model.objects.length);
  const reorderTriangles = o.reorderTriangles ?? (await meshoptTriangleOrder());
  // Distinct geometries on worker threads where that pays (lod-workers.ts), the same plans.
  const defaults = { simplifier: !o.simplifier, deflate: !o.deflate, reorderTriangles: !o.reorderTriangles };
  const lods = await generateModelLodsWith(
    read.model,
    { ...o, simplifier, deflate, reorderTriangles, onObjectPlanned: (done, total) => progress('lods', done, total) },
    async (m, planOptions) => planModelLodsWithWorkers(m, planOptions, defaults, o.jobs),
    (m, budgetOptions) => planModelForBudgetWithWorkers(m, budgetOptions, defaults, o.jobs),
  );
  progress('lods', read.model.objects.length, read.model.objects.length);
  for (const p of lods.plans)
    logger.info(
      `optimize: ${p.name}: ${p.highTriangles} -> ${[p.high, ...p.levels].map((l) => l.triangles).join(' / ')} triangles, worst ${p.worstScreenErrorPx.toFixed(2)} px.`,
    );

  // 4. Physics hook, object by object, on the highs as written (physics is conformed to them).
  let model = conformHighs(lods.model, read.model);
  const report = (m: SlModel) =>
    reportModel({ model: m, diagnostics: [] }, o.output, { deflate, lodFactor: o.lodFactor, size: o.size }).report;
  /** The report of `model` as it stands, once made: step 6's "after" (the sibling files' names added). */
  let priced: FileReport | undefined;
  // 4a. A candidate written only under a land impact (a join) whose download weight alone is not
  //     under it cannot be taken whatever its physics: the hook (a 1M-triangle join's physics, a
  //     second of CPU and the run's largest memory) is not run, and the caller is told the land
  //     impact is at least that download weight.
  let physicsSkipped = false;
  if (o.physics && ctx.writeUnder !== undefined) {
    const unphysical = report(conformModel(model));
    if (unphysical.linkset.streaming >= ctx.writeUnder) {
      physicsSkipped = true;
      priced = unphysical;
    }
  }
  if (o.physics && !physicsSkipped) {
    const objects = [...model.objects];
    const hook = o.physics;
    const run = async (pass: 1 | 2) => {
      for (let i = 0; i < objects.length; i++) {
        const given = objects[i];
        const got = await hook(given, {
          index: i,
          model: { ...model, objects },
          input: read.model.objects[i]?.name === given.name ? read.model.objects[i] : given,
          source: input,
          lodFactor: o.lodFactor,
          scaleFactors,
          deflate,
          logger,
          pass,
        });
        if (!got || got.name !== given.name || got.lods?.high?.faces.length !== given.lods.high.faces.length) {
          throw new Error(
            `physics hook returned a different object for ${given.name} (it must keep the name and the high LOD)`,
          );
        }
        objects[i] = got;
        if (pass === 1) progress('physics', i + 1, objects.length);
      }
    };
    progress('physics', 0, objects.length);
    await run(1);
    if (hook.again?.({ ...model, objects })) await run(2);
    model = { ...model, objects };
  }

  // 5. High's box and materials on every LOD and physics model (the highs were conformed in
  //    step 4), then the sibling files.
  model = conformModel(model);
  let plans = lods.plans;

  // 5b. Where physics or server weight sets the land impact, the download weight it leaves buys
  //     sharper LODs (a join only priced for a tip is not sharpened: it would not change its
  //     price). The physics chosen for the first LODs is kept: it was fitted to the input's
  //     surface and high's box, which the sharper LODs share, and both chains are priced with it.
  let sharpened: LodSharpening | undefined;
  let write = ctx.write !== false;
  if (write && ctx.writeUnder !== undefined) {
    priced ??= report(model);
    write = priced.linkset.landImpact < ctx.writeUnder;
  }
  if (o.sharpen !== false && !lods.budget && write && plans.length > 0) {
    priced ??= report(model);
    const now = priced.linkset;
    // Under the land impact, the download weight does not set it (on a tie it is said to).
    if (now.streaming < now.landImpact) {
      progress('sharpen', 0, 1);
      const sharp = await sharpenModelLodsWith(
        read.model,
        { ...o, simplifier, deflate, reorderTriangles },
        { plans, downloadWeight: now.streaming, landImpact: now.landImpact },
        model.objects.map(({ hull, decomposition, physicsMesh, physicsChoice }) => ({
          hull,
          decomposition,
          physicsMesh,
          physicsChoice,
        })),
        // Each bound's distinct parts on worker threads where that pays, as for the first plan.
        (m, sharperOptions) => planModelSharperWithWorkers(m, sharperOptions, defaults, o.jobs),
      );
      progress('sharpen', 1, 1);
      if (sharp) {
        const highs = conformHighs(sharp.model, read.model).objects;
        const candidate = conformModel({
          ...model,
          objects: model.objects.map((obj, i) => ({ ...obj, lods: highs[i].lods })),
        });
        const candidateReport = report(candidate);
        const then = candidateReport.linkset;
        if (then.landImpact <= now.landImpact * (1 + 1e-9) && then.streaming < now.landImpact) {
          model = candidate;
          priced = candidateReport;
          plans = sharp.plans;
          sharpened = {
            ...sharp.sharpening,
            download: then.streaming,
            landImpact: then.landImpact,
            setBy: now.dominant === 'server' ? 'server' : 'physics',
          };
        }
      }
    }
  }
  progress('write', 0, 1);
  // (Not for a join that is only priced: its bytes would never be written.)
  const parts = write ? await writeUploadFiles(read.doc, model, read.nodes, { slotNodes: read.slotNodes }) : {};
  const files: OptimizeResult['files'] = [];
  for (const [slot, part] of Object.entries(parts) as [UploadSlot, Document][]) {
    const path = slot === 'high' ? o.output : join(dirname(o.output), siblingFileName(basename(o.output), slot));
    files.push({ path, slot, data: await io.writeBinary(part) });
  }

  progress('write', 1, 1);

  // 6. After: the output priced as `slmesh cost` would price it, with the planner's fallbacks.
  progress('report', 0, 1);
  const after: FileReport = { ...(priced ?? report(model)), siblings: files.slice(1).map((f) => f.path) };
  for (const p of plans) after.diagnostics.push(...p.diagnostics);
  if (sharpened) {
    const setBy = sharpened.setBy === 'server' ? 'server weight (0.5 a prim)' : 'physics weight';
    after.diagnostics.push({
      severity: 'info',
      code: 'lod-sharpened',
      message: `land impact ${shortNumber(sharpened.landImpact)} is set by ${setBy}, over the download weight the LODs need (${shortNumber(sharpened.downloadBefore)}), so they were planned again to ${sharpened.maxErrorPx.toFixed(2)} px: worst error ${sharpened.worstBeforePx.toFixed(2)} -> ${sharpened.worstPx.toFixed(2)} px, download weight ${shortNumber(sharpened.download)}, land impact the same (--no-sharpen keeps the smaller LODs)`,
    });
  }
  progress('report', 1, 1);
  if (lods.budget && !lods.budget.fits) {
    const message = `land impact ${after.linkset.landImpact.toFixed(3)} is over the target ${lods.budget.targetLandImpact} with every LOD at its silhouette floor (set by ${after.linkset.dominant} weight)`;
    after.diagnostics.push({ severity: 'warning', code: 'lod-budget-unmet', message });
    logger.warn(`optimize: ${message}`);
  }
  logger.info(`optimize: land impact ${after.linkset.landImpact.toFixed(2)} after.`);
  return {
    files,
    model,
    plans,
    ...(lods.budget ? { budget: lods.budget } : {}),
    after,
    ...(physicsSkipped ? { physicsSkipped } : {}),
  };
}
