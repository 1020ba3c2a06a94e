/**
 * `slmesh optimize <in> -o <out.glb>`: generates LODs that look right at the distances where
 * Second Life shows them and writes the sibling files the viewer's glTF importer takes them from
 * (`out.glb`, `out_LOD2.glb`, `out_LOD1.glb`, `out_LOD0.glb`, and `out_PHYS.glb` when there is
 * physics), each with the input's node tree, names and transforms, and every LOD and physics
 * model with high's bounding box and materials. Prints the land impact before and after.
 *
 * Everything is computed before anything is written; the outputs (and --report) are then written
 * all or none. Exit status: 0 done; 1 written, but --target-li could not be reached even at the
 * silhouette floor; 2 unusable input or options (one line, nothing written).
 */

import type { Command } from 'commander';
import {
  AVATAR_PASSAGE_HEIGHT,
  AVATAR_PASSAGE_WIDTH,
  buildPhysics,
  conformObject,
  DecompositionMemo,
  linksetSurroundings,
  nearParts,
  mayHaveOpenings,
  openingCellsPerObject,
  primScale,
  worldBox,
  type Box3,
  costReport,
  convexHullPhysicsCost,
  type Diagnostic,
  type DeflateFn,
  type Vec3,
  lodTriangleCount,
  meshConvexified,
  SlmeshError,
  type PhysicsMode,
  type SlObject,
  LOD_FACTOR_DEFAULT,
} from '@slmesh/core';
import {
  jsonReplacer,
  makeCostReport,
  meshoptSimplifyFn,
  optimizeFile,
  type OptimizeOptions,
  type OptimizeResult,
  type PhysicsHook,
  type SizeRequest,
} from '@slmesh/gltf-plugin/node';
import { EXIT_CHECK_FAILED, EXIT_INTERRUPTED, EXIT_OK } from '../exit-codes.js';
import { PhysicsCancelledError, progressLine, runPhysicsInWorker } from '../physics-worker.js';
import { PhysicsReuse, surroundingsKey, withPhysicsOf } from '../physics-reuse.js';
import { cellName, noWorkflowCommands, printable } from '../format-table.js';
import { writeAllOrNothing } from '../write-atomic.js';
import { refuseOverwritingInputs } from '../fs/output-guard.js';
import { VERSION } from '../version.js';
import { positive } from '../options.js';
import { parseImporter } from './cost.js';
import { createProgress, optimizeProgress, type Progress, type ProgressStream } from '../progress.js';

export interface OptimizeCommandOptions {
  output?: string;
  split?: boolean;
  report?: string;
  lodFactor?: string;
  maxErrorPx?: string;
  strictError?: boolean;
  targetLi?: string;
  size?: string;
  minCoverage?: string;
  keepLods?: boolean;
  siblings?: boolean;
  physics?: string;
  physicsTolerance?: string;
  importer?: string;
  keepHigh?: boolean;
  jobs?: string;
  keepPrecision?: boolean;
  sharpen?: boolean;
  mergeObjects?: boolean;
  highDistance?: string;
  maxTriangles?: string;
  quiet?: boolean;
}

const PHYSICS_MODES: readonly PhysicsMode[] = ['auto', 'hull', 'decompose', 'mesh', 'none'];
/** Objects under this many triangles get their physics built in this thread, larger ones in a worker (but see `small` below: hulls always here). */
const IN_PROCESS_PHYSICS_TRIANGLES = 2000;

/** The least physics weight any shape has: a hull of 4 vertices (a decomposition or mesh weighs more). */
const LIGHTEST_PHYSICS = convexHullPhysicsCost(4);

/**
 * The physics hook of `--physics`: builds each object's physics off the main thread (core
 * buildPhysics in a worker), with a progress line on a terminal; Ctrl-C cancels it.
 * `none` drops any physics shape (no `_PHYS` node; the uploader still makes the single hull).
 */
export function physicsHookFor(
  mode: PhysicsMode,
  tolerance: number | undefined,
  err: (s: string) => void,
  progress?: Progress,
): PhysicsHook {
  // meshoptimizer as core's simplifier for objects built in this thread, made once for all of them.
  let simplify: ReturnType<typeof meshoptSimplifyFn> | undefined;
  // Copies of one part (same geometry, scale and up axis) get the physics built for the first.
  // `judged`: what its opening test saw of the linkset around it: nothing asked (undefined), no
  // part near ('none'), or the parts near it (their surroundingsKey); `fitAllowance`: the
  // allowance it was built with.
  const built = new PhysicsReuse<{
    object: SlObject;
    diagnostics: readonly Diagnostic[];
    judged: string | undefined;
    fitAllowance: number | undefined;
  }>();
  // Copies built each on their own (their surroundings differ) share the decomposition: 800
  // icospheres of 1,280 triangles were cut 800 times.
  const decompositions = new DecompositionMemo();
  // Each warning once (a part built again on the second pass may repeat its first's).
  const said = new Set<string>();
  const report = (diagnostics: readonly Diagnostic[], rename?: { from: string; to: string }) => {
    const lines = diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d) =>
        rename && d.message.startsWith(`${rename.from}: `)
          ? `${rename.to}: ${d.message.slice(rename.from.length + 2)}`
          : d.message,
      )
      .filter((m) => !said.has(m));
    if (lines.length > 0) progress?.clear();
    for (const message of lines) {
      said.add(message);
      err(`slmesh: ${printable(message)}\n`);
    }
  };
  // Auto judges shapes by land impact: it needs each object's download weight, and on a linkset
  // (whose land impact is the largest of the summed download, physics and server weights, so a
  // part's closer physics fit is held to what the rest leaves: fitAllowance) the sums. They are
  // priced once per model (the objects' LODs are final when physics starts), as written: without
  // physics, each lower LOD given high's box (what the writer does next).
  const priceAsWritten = (objects: readonly SlObject[], deflate: DeflateFn, f: Vec3) => {
    const bare = objects.map((o) =>
      conformObject({ ...o, hull: undefined, decomposition: undefined, physicsMesh: undefined }),
    );
    const r = costReport({ objects: bare }, { deflate, scaleFactors: f });
    return {
      objects,
      floor: Math.max(r.linkset.streaming, r.linkset.server),
      downloads: r.objects.map((o) => o.streaming),
    };
  };
  // The objects' world boxes, once per model: nearParts compares each part with all.
  let boxes: { objects: readonly SlObject[]; boxes: Box3[] } | undefined;
  const worldBoxes = (objects: readonly SlObject[]) => {
    if (boxes?.objects !== objects) boxes = { objects, boxes: objects.map(worldBox) };
    return boxes.boxes;
  };
  let linkset: ReturnType<typeof priceAsWritten> | undefined;
  const pricedAsWritten = (objects: readonly SlObject[], deflate: DeflateFn, f: Vec3) => {
    if (linkset?.objects !== objects) linkset = priceAsWritten(objects, deflate, f);
    return linkset;
  };
  // The parts before this one weigh what they chose. Each after it weighs at least the lightest
  // shape (a 4-vertex hull) on the first pass, and on the second at least the lightest its first
  // pass offered (the box only when chosen: whether it fits is not kept).
  const allowanceFor = (index: number, objects: readonly SlObject[], deflate: DeflateFn, f: Vec3, pass: 1 | 2) => {
    let spent = 0;
    for (let j = 0; j < objects.length; j++)
      if (j !== index)
        spent +=
          j < index && objects[j].physicsChoice
            ? chosenWeight(objects[j])
            : j > index && pass === 2
              ? lightest(objects[j])
              : LIGHTEST_PHYSICS;
    return pricedAsWritten(objects, deflate, f).floor - spent;
  };
  // Built per object in turn, the first pass can leave a linkset's summed physics over its download
  // or server weight when the parts that had ample allowance early kept heavier fits, or a later
  // part has no shape light enough. Then a second pass holds each part to what the rest leaves,
  // knowing their choices (assimp's 2-cylinder engine at 2 m, 67 parts: physics 43.76 over its
  // download weight 41.67 after the first pass, 41.20 after the second).
  // Each part as the first pass was given it (a second pass builds from that, not from its result).
  const firstGiven = new Map<number, SlObject>();
  const hook: PhysicsHook = async (built1: SlObject, ctx) => {
    let object = built1;
    if (mode === 'none') return { ...object, physicsMesh: undefined, decomposition: undefined, hull: undefined };
    if (ctx.pass === 2) {
      // Only a part that now weighs more than the rest leaves is built again, and only if it can
      // get lighter: it chose a heavier fit than its lightest shape, or it is small enough to be
      // charged as its hull, which can lose vertices (core buildPhysics, the reduced hull).
      const given = firstGiven.get(ctx.index);
      if (!object.physicsChoice || given?.name !== object.name) return object;
      const allowance = allowanceFor(ctx.index, ctx.model.objects, ctx.deflate, ctx.scaleFactors, 2);
      const worldSize = primScale(object).map((v, k) => v * ctx.scaleFactors[k]);
      if (
        chosenWeight(object) <= allowance * (1 + 1e-9) + 1e-12 ||
        (chosenWeight(object) <= lightest(object) && !meshConvexified(worldSize))
      )
        return object;
      object = given;
    } else firstGiven.set(ctx.index, object);
    const label = `optimize: physics ${printable(object.name)}`;
    const line = progress
      ? { update: (f: number) => progress.fraction(label, f), done: () => {} }
      : progressLine(`physics ${object.name}`);
    try {
      // The object's download weight as written (its entry in the model's, when the context's model
      // holds it: a caller may pass another).
      const downloadWeight =
        mode !== 'auto'
          ? undefined
          : ctx.model.objects[ctx.index]?.lods === object.lods
            ? pricedAsWritten(ctx.model.objects, ctx.deflate, ctx.scaleFactors).downloads[ctx.index]
            : priceAsWritten([object], ctx.deflate, ctx.scaleFactors).downloads[0];
      // The decomposition and the opening test follow the authored surface, not the planned high.
      const surface = ctx.input && ctx.input.lods.high !== object.lods.high ? ctx.input.lods.high : undefined;
      // Auto judges openings in the linkset: the other objects overhead close this one's spaces
      // from above. An object too small for any opening, or with nothing overhead, is judged
      // alone (and its copies keep sharing one build). Authored-size bounds, on the safe side:
      // the reach as long, the height as short as any axis' factor makes them.
      // The surroundings are made only when the opening test builds its grid (a closed convex
      // solid needs none): `asked` says whether the build depended on them.
      const worldSize = primScale(object).map((v, k) => v * ctx.scaleFactors[k]);
      const { model, index, scaleFactors } = ctx;
      let asked = false;
      const reach = (AVATAR_PASSAGE_HEIGHT + AVATAR_PASSAGE_WIDTH) / Math.min(...scaleFactors);
      const overhead = AVATAR_PASSAGE_HEIGHT / Math.max(...scaleFactors);
      // The parts near it, found once (for the soup and for the key).
      let near: number[] | undefined;
      const nearIndices = () => (near ??= nearParts(model.objects, index, reach, overhead, worldBoxes(model.objects)));
      // Made once: undefined until then, null when no part is near.
      let made: ReturnType<typeof linksetSurroundings> | null | undefined;
      const nearby = () => {
        if (made === undefined) made = linksetSurroundings(model.objects, index, nearIndices()) ?? null;
        return made ?? undefined;
      };
      // What the opening test would see around it, without making it (once, and only when a
      // build to share judged its own).
      let seen: string | undefined;
      const nearbyKey = () =>
        (seen ??= nearIndices().length > 0 ? surroundingsKey(model.objects, index, nearIndices()) : 'none');
      const surroundings =
        mode === 'auto' && model.objects.length > 1 && mayHaveOpenings(worldSize)
          ? () => {
              asked = true;
              return nearby();
            }
          : undefined;
      const fitAllowance =
        mode === 'auto' && ctx.model.objects.length > 1
          ? allowanceFor(ctx.index, ctx.model.objects, ctx.deflate, ctx.scaleFactors, ctx.pass ?? 1)
          : undefined;
      const physicsOptions = {
        mode,
        scale: ctx.scaleFactors,
        ...(fitAllowance !== undefined ? { fitAllowance } : {}),
        ...(surface ? { surface } : {}),
        ...(tolerance !== undefined ? { tolerance } : {}),
        ...(downloadWeight !== undefined ? { downloadWeight } : {}),
        // The opening test's voxels are shared out over the linkset (bounded time for many big parts).
        openings: { maxCells: openingCellsPerObject(ctx.model.objects.length) },
      };
      // Copies share a build that never looked at its surroundings (a build that needed no voxel
      // grid is the same for every copy) or saw the same around it as this copy does (none, or
      // parts near in the same places: the copies inside a stack or a row); and only while its
      // choice fits this copy's allowance.
      const same = built.find(
        object,
        ctx.scaleFactors,
        downloadWeight,
        surface,
        (b) =>
          (fitAllowance === undefined ||
            chosenWeight(b.object) <= fitAllowance ||
            // buildPhysics reads the allowance as at least 0: any two at most 0 build the same.
            (b.fitAllowance !== undefined && b.fitAllowance <= 0 && fitAllowance <= 0)) &&
          (b.judged === undefined || (surroundings ? nearbyKey() : 'none') === b.judged),
      );
      if (same) {
        report(same.built.diagnostics, { from: same.name, to: object.name });
        return withPhysicsOf(object, same.built.object);
      }
      // Small objects, and the single hull of any object (one quickhull of its points: milliseconds
      // for a planned high, under a second for a million points), are done in this thread:
      // starting a worker (about 0.2 s of CPU to load its modules) costs more than their build.
      const small =
        mode === 'hull' || lodTriangleCount(object.physicsMesh ?? object.lods.high) < IN_PROCESS_PHYSICS_TRIANGLES;
      // In this thread the simplifier is injected here (the worker injects its own: functions cannot be sent).
      // A worker is sent the surroundings made (a function cannot be posted).
      const sent = surroundings && !small ? surroundings() : undefined;
      const result = small
        ? buildPhysics(object, {
            ...physicsOptions,
            ...(surroundings ? { surroundings } : {}),
            decompose: { simplify: await (simplify ??= meshoptSimplifyFn()) },
            decompositions,
          })
        : await runPhysicsInWorker(
            object,
            { ...physicsOptions, ...(sent ? { surroundings: sent } : {}) },
            {
              onProgress: (f) => line.update(f),
            },
          );
      // Kept for copies, with what it saw around it.
      built.add(object, ctx.scaleFactors, downloadWeight, surface, {
        object: result.object,
        diagnostics: result.diagnostics,
        judged: asked ? nearbyKey() : undefined,
        fitAllowance,
      });
      report(result.diagnostics);
      // core returns exactly what the writer puts in `_PHYS`, priced as a re-read of the output.
      return result.object;
    } finally {
      line.done();
    }
  };
  if (mode === 'auto')
    hook.again = (model) =>
      model.objects.length > 1 &&
      linkset?.objects === model.objects &&
      model.objects.reduce((a, o) => a + chosenWeight(o), 0) > linkset.floor * (1 + 1e-9);
  return hook;
}

/** The physics weight of the shape auto chose for `o` (0 when it made no choice). */
function chosenWeight(o: SlObject): number {
  const c = o.physicsChoice;
  return c?.candidates.find((x) => x.shape === c.shape)?.weight ?? 0;
}

/** The least physics weight auto found for `o` among shapes that keep its openings (the box only when chosen). */
function lightest(o: SlObject): number {
  const c = o.physicsChoice;
  if (!c) return LIGHTEST_PHYSICS;
  return Math.min(
    chosenWeight(o),
    ...c.candidates.filter((x) => x.keepsOpenings && x.shape !== 'box').map((x) => x.weight),
  );
}

const LOD_SLOTS = ['high', 'medium', 'low', 'lowest'] as const;

/**
 * `--max-triangles`: comma-separated items, each either `N` (refuse an input with more triangles,
 * as `slmesh cost --max-triangles N` does) or `LOD=N` (a triangle budget for that LOD), e.g.
 * `high=20000,medium=2000` or `2000000,lowest=100`. Anything else is a USAGE error.
 */
export function parseMaxTriangles(text: string): {
  budgets?: Partial<Record<(typeof LOD_SLOTS)[number], number>>;
  inputLimit?: number;
} {
  const budgets: Partial<Record<(typeof LOD_SLOTS)[number], number>> = {};
  let inputLimit: number | undefined;
  for (const part of text.split(',')) {
    const m = /^\s*(?:(high|medium|low|lowest)\s*=\s*)?(\d+)\s*$/.exec(part);
    if (!m || !(Number(m[2]) > 0)) {
      throw new SlmeshError(
        'USAGE',
        `--max-triangles takes a count (the input limit) and/or LOD=count pairs separated by commas (LOD one of ${LOD_SLOTS.join(', ')}; count a whole number > 0), got "${text}"`,
      );
    }
    if (m[1]) budgets[m[1] as (typeof LOD_SLOTS)[number]] = Number(m[2]);
    else inputLimit = Number(m[2]);
  }
  return {
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
    ...(inputLimit !== undefined ? { inputLimit } : {}),
  };
}

/** Command-line options to pipeline options (USAGE errors for bad values). */
export function optimizeOptionsFrom(options: OptimizeCommandOptions): OptimizeOptions {
  if (!options.output) throw new SlmeshError('USAGE', 'optimize needs an output file: -o out.glb');
  if (!/\.glb$/i.test(options.output))
    throw new SlmeshError('USAGE', `output must be a .glb file, got "${options.output}"`);
  if (options.report !== undefined && !/\.json$/i.test(options.report))
    throw new SlmeshError('USAGE', `--report must name a .json file, got "${options.report}"`);
  const minCoverage = options.minCoverage !== undefined ? Number(options.minCoverage) : undefined;
  if (minCoverage !== undefined && !(minCoverage >= 0 && minCoverage <= 1))
    throw new SlmeshError('USAGE', `--min-coverage must be between 0 and 1, got "${options.minCoverage}"`);
  const size: SizeRequest = options.size !== undefined ? { longestSide: positive(options.size, '--size') } : undefined;
  const triangles = options.maxTriangles !== undefined ? parseMaxTriangles(options.maxTriangles) : {};
  if (options.jobs !== undefined && !(/^\s*\d+\s*$/.test(options.jobs) && Number(options.jobs) >= 1))
    throw new SlmeshError('USAGE', `--jobs takes a whole number of threads, 1 or more, got "${options.jobs}"`);
  return {
    output: options.output,
    importer: parseImporter(options.importer),
    siblings: options.siblings !== false,
    keepAuthoredLods: !!options.keepLods,
    lodFactor: options.lodFactor !== undefined ? positive(options.lodFactor, '--lod-factor') : LOD_FACTOR_DEFAULT,
    maxErrorPx: options.maxErrorPx !== undefined ? positive(options.maxErrorPx, '--max-error-px') : 1,
    viewerBound: !options.strictError,
    // Where Generate's LODs set the bounds, the chain planned at the pixel bound too.
    ...(options.strictError || options.targetLi !== undefined ? {} : { strictAlternative: true }),
    ...(options.targetLi !== undefined ? { targetLandImpact: positive(options.targetLi, '--target-li') } : {}),
    ...(size ? { size } : {}),
    ...(minCoverage !== undefined ? { minCoverage } : {}),
    ...(options.keepHigh ? { keepHigh: true } : {}),
    ...(options.keepPrecision ? { keepPrecision: true } : {}),
    ...(options.sharpen === false ? { sharpen: false } : {}),
    mergeObjects: options.mergeObjects === true ? true : options.mergeObjects === false ? 'suggest' : 'auto',
    ...(options.highDistance !== undefined ? { highDistance: positive(options.highDistance, '--high-distance') } : {}),
    ...(triangles.budgets ? { maxTriangles: triangles.budgets } : {}),
    ...(triangles.inputLimit !== undefined ? { inputLimit: triangles.inputLimit } : {}),
    ...(options.jobs !== undefined ? { jobs: Number(options.jobs) } : {}),
  };
}

/** What optimize drops (skins, instancing, morph targets) is said, never silent. */
const DROPPED = new Set(['dropped-skin', 'dropped-instancing', 'dropped-morph-targets']);

const px = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} px` : 'floor');

/** The readable summary: per object its LOD triangles and screen-space errors, then land impact before and after. */
export function formatOptimize(input: string, result: OptimizeResult, options: OptimizeOptions): string {
  const rows: string[][] = [['object', 'input', 'high', 'medium', 'low', 'lowest']];
  for (const p of result.plans) {
    const high =
      p.high.mode === 'kept' && !p.high.fallback
        ? `${p.high.triangles} (kept)`
        : `${p.high.triangles} (${px(p.high.screenErrorPx)})`;
    rows.push([
      cellName(p.name),
      String(p.highTriangles),
      high,
      ...p.levels.map(
        (l) => `${l.triangles} (${px(l.screenErrorPx)})${l.fallback ? '*' : l.mode === 'viewer' ? 'g' : ''}`,
      ),
    ]);
  }
  const notes = result.plans.flatMap((p) => p.diagnostics);
  const widths = rows[0].map((_, c) => rows.reduce((w, r) => Math.max(w, r[c].length), 0));
  const table = rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
    .join('\n');
  const b = result.before,
    a = result.after.linkset;
  const out = [
    `${printable(input)} -> ${result.files.map((f) => printable(f.path)).join(', ')}`,
    '',
    'LOD triangles (screen-space error at the distance each LOD appears; high at the distance where the object fills the view):',
    result.plans.length ? table : '(every object kept its authored LODs)',
    ...(notes.length
      ? [
          '',
          "* made by a fallback, g the viewer's own auto-LOD (the uploader's Generate):",
          ...notes.map((d) => `  ${d.code}: ${printable(d.message)}`),
        ]
      : []),
    '',
    // The uploader's Scale cap: the size the LODs were planned and everything is priced at.
    ...result.after.diagnostics.filter((d) => d.code === 'scale-capped').map((d) => `size: ${printable(d.message)}`),
    `land impact     ${b.landImpact.toFixed(3)} -> ${a.landImpact.toFixed(3)}   (rounded ${b.landImpactRounded} -> ${a.landImpactRounded})`,
    `download weight ${b.download.toFixed(3)} -> ${a.streaming.toFixed(3)}`,
    `physics weight  ${b.physics !== undefined ? b.physics.toFixed(3) : '(not needed)'} -> ${a.physics.toFixed(3)}${a.physicsEstimate ? ' estimate' : ''}`,
    `planned for RenderVolumeLODFactor ${options.lodFactor ?? LOD_FACTOR_DEFAULT}, at most ${result.budget ? px(result.budget.maxErrorPx) : `${options.maxErrorPx ?? 1} px`} of error on a 1080 px tall view at 60 degrees${!result.budget && options.viewerBound !== false ? ", or the viewer's own auto-LOD's (the uploader's Generate) at a level where that is larger; never more than Generate's worst (--strict-error: always the bound)" : ''}`,
  ];
  // Physics: what was chosen per object and why, and the uploader choices the numbers assume.
  const objects = result.after.objects;
  const chosen = objects.filter((o) => o.physics.choice);
  const named = (o: (typeof objects)[number]) => cellName(o.name) + (o.submodelId > 0 ? `#${o.submodelId}` : '');
  if (chosen.length > 0) {
    out.push('', 'physics (chosen by land impact):');
    const prows = chosen.map((o) => [
      named(o),
      o.physics.choice!.shape,
      `${o.physics.weight.toFixed(3)}${o.physics.estimate ? ' estimate' : ''}${o.physics.assumes?.includes('analyze') ? ' assumes Analyze' : ''}`,
      printable(o.physics.choice!.reason),
    ]);
    const pw = [0, 1, 2].map((c) => Math.max(...prows.map((r) => r[c].length)));
    for (const r of prows) out.push(`  ${r[0].padEnd(pw[0])}  ${r[1].padEnd(pw[1])}  ${r[2].padEnd(pw[2])}  ${r[3]}`);
  }
  const analyze = objects.filter((o) => o.physics.assumes?.includes('analyze')).map((o) => cellName(o.name));
  const prim = objects
    .filter((o) => o.physics.shape !== 'convex-hull' || o.physics.convexified || o.physics.mesh)
    .map((o) => cellName(o.name));
  if (prim.length > 0 || analyze.length > 0) {
    // "The rest" only when some object is left to be its Convex Hull (a one-object model has none).
    const primNames = new Set(prim);
    const rest = objects.some((o) => !primNames.has(cellName(o.name))) ? ', Convex Hull for the rest' : '';
    out.push(
      `uploader choices these numbers assume: physics shape type Prim for ${[...primNames].join(', ')} (the uploader's default when a physics model is given)${rest}` +
        (analyze.length > 0
          ? `; click Analyze for ${[...new Set(analyze)].join(', ')} (their _PHYS is closed convex pieces; without Analyze it is priced as a triangle mesh)`
          : ''),
    );
  }
  // Sharper LODs bought with the download weight the server weight leaves unused.
  for (const d of result.after.diagnostics)
    if (d.code === 'lod-sharpened' || d.code === 'lods-strict-taken') out.push(`lods: ${printable(d.message)}`);
  // Joining the objects: written joined (--merge-objects), kept apart and why, or what it would save.
  for (const d of result.after.diagnostics)
    if (d.code === 'objects-merged' || d.code === 'objects-kept' || d.code === 'objects-mergeable')
      out.push(`${d.code === 'objects-mergeable' ? 'tip' : 'objects'}: ${printable(d.message)}`);
  for (const d of result.after.diagnostics)
    if (d.code === 'lods-strict-cheaper') out.push(`tip: ${printable(d.message)}`);
  if (a.landImpact > b.landImpact && result.plans.length > 0) {
    // Physics that keeps an avatar's way open costs more than the single hull that would close it:
    // say so, with what the hull would cost, rather than hint at LODs that did not raise it.
    const opening = chosen.flatMap((o) => {
      const { shape, candidates } = o.physics.choice!;
      const hull = candidates.find((c) => c.shape === 'hull');
      return shape !== 'hull' && hull && !hull.keepsOpenings
        ? [{ o, shape, hull, kept: candidates.find((c) => c.shape === shape) }]
        : [];
    });
    if (a.dominant === 'physics' && opening.length > 0) {
      const each = opening.map(
        ({ o, shape, hull, kept }) =>
          `${named(o)}: ${kept ? `${kept.landImpact.toFixed(3)} with its ${shape}, ` : ''}${hull.landImpact.toFixed(3)} with the single hull`,
      );
      out.push(
        `note: the land impact went up because the physics keeps open an opening an avatar uses, which the single hull would close (${each.join('; ')}); --physics hull is cheaper but closes it`,
      );
    } else out.push(`note: the land impact went up; if the input had its own LODs, --keep-lods keeps them`);
  }
  if (result.budget) {
    const bu = result.budget;
    out.push(
      bu.fits
        ? `target land impact ${bu.targetLandImpact}: met with LODs within ${px(bu.maxErrorPx)}`
        : `target land impact ${bu.targetLandImpact}: NOT met; ${bu.floorLandImpact.toFixed(3)} is the least the LODs can reach without losing the silhouette (land impact set by ${a.dominant} weight)`,
    );
  }
  return out.join('\n') + '\n';
}

export async function runOptimize(
  input: string,
  options: OptimizeCommandOptions,
  out: (s: string) => void,
  err: (s: string) => void,
  physics?: PhysicsHook,
  progressStream: ProgressStream = process.stderr,
): Promise<number> {
  const pipeline = optimizeOptionsFrom(options);
  const mode = (options.physics ?? 'auto') as PhysicsMode;
  if (!PHYSICS_MODES.includes(mode))
    throw new SlmeshError('USAGE', `--physics is one of ${PHYSICS_MODES.join(', ')}, got "${options.physics}"`);
  const tolerance =
    options.physicsTolerance !== undefined ? positive(options.physicsTolerance, '--physics-tolerance') : undefined;
  // Progress on a terminal only (never when piped, never with --quiet).
  const progress = createProgress({ stream: progressStream, quiet: !!options.quiet });
  physics ??= physicsHookFor(mode, tolerance, err, progress);
  // 0. Never write over the input (or its sibling files) or over a read-only file.
  await refuseOverwritingInputs(input, pipeline.output, { split: !!pipeline.split, report: options.report });
  // 1. Everything in memory first: a bad input stops here with nothing written.
  // The CLI prints its own summary and warnings: the pipeline's logger stays quiet.
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  let result: OptimizeResult;
  try {
    result = await optimizeFile(input, { ...pipeline, logger: quiet, physics, onProgress: optimizeProgress(progress) });
  } catch (e) {
    progress.clear();
    if (e instanceof PhysicsCancelledError) {
      err('slmesh: cancelled; nothing was written\n');
      return EXIT_INTERRUPTED;
    }
    throw e;
  }
  for (const d of result.diagnostics) if (DROPPED.has(d.code)) err(`slmesh: warning: ${printable(d.message)}\n`);
  const files: { path: string; data: Uint8Array | string }[] = result.files.map((f) => ({
    path: f.path,
    data: f.data,
  }));
  if (options.report) {
    const report = {
      ...makeCostReport(
        [result.after],
        {
          lodFactor: pipeline.lodFactor ?? LOD_FACTOR_DEFAULT,
          ...(pipeline.size ? { size: pipeline.size } : {}),
          animesh: false,
          linkabilityRule: 'current',
        },
        VERSION,
      ),
      optimize: {
        input,
        inputs: result.inputs,
        before: result.before,
        maxErrorPx: pipeline.maxErrorPx,
        screen: { viewportHeightPx: 1080, verticalFovDegrees: 60 },
        ...(result.budget ? { budget: result.budget } : {}),
        plans: result.plans,
      },
    };
    files.push({ path: options.report, data: JSON.stringify(report, jsonReplacer, 2) + '\n' });
  }
  // 2. Write all or none.
  progress.clear();
  await writeAllOrNothing(files);
  out(noWorkflowCommands(formatOptimize(input, result, pipeline)));
  if (result.budget && !result.budget.fits) {
    err(
      `slmesh: ${input}: land impact ${result.after.linkset.landImpact.toFixed(3)} is over --target-li ${result.budget.targetLandImpact} (set by ${result.after.linkset.dominant} weight; the LODs are at their silhouette floor)\n`,
    );
    return EXIT_CHECK_FAILED;
  }
  return EXIT_OK;
}

export function registerOptimize(program: Command, run: (fn: () => Promise<number>) => Promise<void>): void {
  program
    .command('optimize')
    .description('generate LODs that hold up at the distances Second Life shows them, and write an uploader-ready GLB')
    .argument('<input>', 'glTF or GLB file (sibling _LOD2/_LOD1/_LOD0/_PHYS files are read too)')
    .option(
      '-o, --output <file.glb>',
      'output GLB; its sibling files out_LOD2.glb, out_LOD1.glb, out_LOD0.glb (and out_PHYS.glb) are written next to it',
    )
    .option(
      '--split',
      'deprecated, no effect: sibling files are always written (the only layout the importer takes LODs from)',
    )
    .option(
      '--importer <mode>',
      'price as the current glTF importer (node rotation and scale kept) or the older baked one',
      'current',
    )
    .option('--report <file.json>', 'also write the cost report of the output (docs/cost-report.schema.json)')
    .option('--lod-factor <F>', 'RenderVolumeLODFactor the LODs are planned for', String(LOD_FACTOR_DEFAULT))
    .option(
      '--max-error-px <px>',
      'largest screen-space error of each LOD where it appears (1080 px tall view, 60 degrees)',
      '1',
    )
    .option(
      '--strict-error',
      "hold every LOD to --max-error-px even where the viewer's own auto-LOD (the uploader's Generate) at that level is worse (by default such a LOD may be as coarse as Generate's, and no LOD is coarser than Generate's worst; the chain held to --max-error-px is planned too and written where it costs less with no larger worst error)",
    )
    .option('--target-li <N>', 'lowest-error LODs that keep the land impact at most N')
    .option('--size <metres>', "plan and price with the linkset's longest side at this size")
    .option(
      '--min-coverage <fraction>',
      "silhouette floor: each LOD covers at least this much of the high LOD's outline (within 1/64 of its size)",
      '0.9',
    )
    .option('--keep-lods', 'keep authored LODs (_LOD nodes or sibling files) where an object has them')
    .option(
      '--physics <mode>',
      'physics shape: auto (the lowest land impact of hull, decomposition, triangle mesh and box that keeps open every doorway, arch or room an upright avatar walks through), hull, decompose, mesh, none',
      'auto',
    )
    .option(
      '--physics-tolerance <metres>',
      'how far a decomposition may stray from the solid (default 0.05: avatar-sized gaps stay open)',
    )
    .option(
      '--keep-high',
      'leave the high LOD as it is (by default it is simplified as far as stays within --max-error-px where the object fills the view)',
    )
    .option(
      '--keep-precision',
      "write every vertex at the uploader's full 16-bit precision (by default each LOD's vertices move within half its error bound so their 16-bit values compress better)",
    )
    .option(
      '--no-sharpen',
      'keep the first LOD chain even where physics or server weight sets the land impact (by default, where a LOD went past --max-error-px, the LODs are then planned again to a smaller error, as far as their download weight stays under that land impact)',
    )
    .option(
      '--merge-objects',
      'join the objects into one where that lowers land impact and no LOD looks worse (by default only objects that are more prims than a linkset holds, 256, are joined so; others stay apart and a note gives the joined price when it would be lower)',
    )
    .option('--no-merge-objects', 'keep the objects apart even when they are more prims than a linkset holds')
    .option(
      '--high-distance <metres>',
      'camera distance at which the high LOD is judged (default: where the object fills the view)',
    )
    .option(
      '--max-triangles <limits>',
      'N: refuse inputs with more triangles (default 2,000,000); LOD=N: a triangle budget per LOD, e.g. high=20000,medium=2000,low=500,lowest=100 (comma-separated, both may be given)',
    )
    .option(
      '-j, --jobs <n>',
      "threads planning LODs, each distinct part on one (default: the machine's cores, at most 4, when the parts other than the biggest have 20,000 triangles or more; 1: no threads; the files are the same)",
    )
    .option('-q, --quiet', 'no progress line on the terminal')
    .option('--no-siblings', 'do not read sibling _LOD2/_LOD1/_LOD0/_PHYS files')
    .action(async (input: string, options: OptimizeCommandOptions) => {
      await run(() =>
        runOptimize(
          input,
          options,
          (s) => process.stdout.write(s),
          (s) => process.stderr.write(s),
        ),
      );
    });
}
