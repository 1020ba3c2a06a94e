/**
 * Plans a model's LODs on worker threads (Node): each distinct geometry of the model (core
 * modelGeometries) is planned by core planObjectLods on one of a few workers, the biggest first,
 * and the copies are placed from them as core planModelLods places them (assembleModelPlans).
 *
 *     const planned = await planModelLodsWithWorkers(model, planOptions, defaults, jobs);
 *
 * The searches that plan every distinct geometry again at bound after bound (the sharper-LOD
 * search, the budget mode) keep each geometry on one worker, which keeps its planner from bound to
 * bound (planModelSharperWithWorkers, planModelForBudgetWithWorkers).
 *
 * - **Same result as in this thread.** A plan depends only on its object and the options; the
 *   worker makes the options' functions itself, the ones optimize uses by default:
 *   meshoptimizer's simplifier, core's zlib-ng deflate (remembered, as optimize's is) and
 *   meshoptimizer's triangle order. Options with any other function are planned in this thread
 *   (`lodWorkersFor` says 0 for them), as is a model with one distinct geometry.
 * - **When it pays.** A worker costs about 0.2 s of CPU to start and its own warm-up, so
 *   `lodWorkersFor` asks for them only when the geometries other than the biggest add up to
 *   LOD_WORKERS_MIN_TRIANGLES or more (what the biggest's planning can overlap), or number
 *   LOD_WORKERS_MIN_PARTS or more (a part's plan costs tens of milliseconds however small it is).
 * - **Memory.** The parts in hand at once add up to at most LOD_WORKERS_MAX_TRIANGLES (or are one
 *   part): a worker waits rather than take a part that would pass it.
 * - **Progress** counts a distinct geometry when its plan is back, and the copies when all are.
 * - **Errors** thrown in a worker come back as themselves (an SlmeshError keeps its code), and
 *   every worker is ended; so are they all when the plans are in. Ctrl-C ends the process and
 *   its workers with it: nothing is written before the plans are in.
 */

import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import {
  assembleModelPlans,
  localBoundPlanner,
  lodTriangleCount,
  memoizeDeflate,
  modelGeometries,
  planModelLods,
  planModelSharperWith,
  planModelForBudgetWith,
  type LodBudgetOptions,
  type LodBudgetResult,
  planObjectLods,
  zlibNgDeflate,
  type BoundPlanner,
  type BoundPlannerMaker,
  type DeflateFn,
  type LodPlanOptions,
  type MeshSimplifier,
  type ModelGeometries,
  type ObjectLodPlan,
  type SharperLodOptions,
  type SharperLodResult,
  type SlModel,
  type SlObject,
  type TriangleOrderFn,
} from '@slmesh/core';
import { meshoptTriangleOrder } from './triangle-order.js';
import { errorFromWorker, hasFunction, workerErrorMessage, type WorkerErrorMessage } from './worker-messages.js';

/** Triangles the geometries other than the biggest must add up to for workers to pay (about 1 to 3 s of planning). */
export const LOD_WORKERS_MIN_TRIANGLES = 20_000;

/**
 * Or how many geometries other than the biggest: a small part's plan still takes tens of
 * milliseconds (200 distinct 100-triangle spheres: 16 s of planning, 80 ms a part), so 32 are
 * about 2 s of it.
 */
export const LOD_WORKERS_MIN_PARTS = 32;

/** Most workers `lodWorkersFor` asks for on its own (each holds its objects' planning memory). */
export const LOD_WORKERS_MAX = 4;

/**
 * Triangles of the parts being planned at once, at most (unless one part alone has more): the
 * planning memory follows the triangles in hand (two flat-shaded 252k-triangle Suzannes at once:
 * 1.43 GB against 1.05 GB one after the other), so workers plan together about what one
 * 600,000-triangle part would take.
 */
export const LOD_WORKERS_MAX_TRIANGLES = 600_000;

/** Which of the options' functions are optimize's defaults (a worker makes those itself; any other keeps the plan in this thread). */
export type DefaultFunctions = { simplifier: boolean; deflate: boolean; reorderTriangles: boolean };

type Planned = { object: SlObject; plan: ObjectLodPlan };

/** The options a worker is sent: LodPlanOptions without functions, and which of the default ones to make. */
type WorkerOptions = Omit<LodPlanOptions, 'simplifier' | 'deflate' | 'reorderTriangles' | 'onObjectPlanned'> & {
  deflate: boolean;
  reorderTriangles: boolean;
};

const WORKER_KIND = 'slmesh-lods';

/**
 * A planned object as a worker sends it back: what it shares with the object it was given is not
 * sent but named, so the main thread puts back the given object's own (the planner hands back the
 * input's fields, and a high it keeps, as the same objects, and later steps tell a kept high by
 * identity: a copy keeps its own high (core planFor), conformHighs and the physics surface).
 */
interface PlannedReply {
  /** The object's keys in order, and those that are the given object's own. */
  keys: string[];
  own: string[];
  /** The LOD slots in order, and for each that is one of the given LODs, which. */
  slots: string[];
  ownLods: Record<string, string>;
  /** The rest of the object (its own fields and LODs left out). */
  object: Partial<SlObject> & { lods: Partial<SlObject['lods']> };
  plan: ObjectLodPlan;
}

type WorkerMessage = { type: 'result'; index: number; reply: PlannedReply } | WorkerErrorMessage;

/** A part to plan once (planObjectLods), or at a bound with the planner kept for it (object and options the first time). */
type WorkerJob =
  | { kind?: 'plan'; index: number; object: SlObject; options: WorkerOptions }
  | { kind: 'bound'; index: number; px: number; object?: SlObject; options?: WorkerOptions };

/** What a worker sends back for `planned`, planned from `given` (see PlannedReply). */
export function plannedReply(given: SlObject, planned: Planned): PlannedReply {
  const got = planned.object as unknown as Record<string, unknown>;
  const mine = given as unknown as Record<string, unknown>;
  const keys = Object.keys(got);
  const own = keys.filter((k) => k !== 'lods' && got[k] === mine[k]);
  const lods = planned.object.lods as Record<string, unknown>;
  const givenLods = Object.entries(given.lods as Record<string, unknown>);
  const slots = Object.keys(lods);
  const ownLods: Record<string, string> = {};
  const sentLods: Record<string, unknown> = {};
  for (const slot of slots) {
    const from = givenLods.find(([, lod]) => lod !== undefined && lod === lods[slot])?.[0];
    if (from !== undefined) ownLods[slot] = from;
    else sentLods[slot] = lods[slot];
  }
  const object: Record<string, unknown> = { lods: sentLods };
  for (const k of keys) if (k !== 'lods' && !own.includes(k)) object[k] = got[k];
  return { keys, own, slots, ownLods, object: object as PlannedReply['object'], plan: planned.plan };
}

/** The planned object from a worker's reply and the object it was given (see PlannedReply). */
export function fromReply(given: SlObject, reply: PlannedReply): Planned {
  const mine = given as unknown as Record<string, unknown>;
  const sent = reply.object as unknown as Record<string, unknown>;
  const givenLods = given.lods as Record<string, unknown>;
  const sentLods = reply.object.lods as Record<string, unknown>;
  const lods: Record<string, unknown> = {};
  for (const slot of reply.slots) lods[slot] = slot in reply.ownLods ? givenLods[reply.ownLods[slot]] : sentLods[slot];
  const object: Record<string, unknown> = {};
  for (const k of reply.keys) object[k] = k === 'lods' ? lods : reply.own.includes(k) ? mine[k] : sent[k];
  return { object: object as unknown as SlObject, plan: reply.plan };
}

/**
 * `options` as a worker is sent them: without their functions (named by whether a default one is
 * to be made) and without the sharper search's own settings, which a planner does not read (the
 * physics of every object among them).
 */
function workerOptions(options: LodPlanOptions): WorkerOptions {
  const {
    simplifier: _simplifier,
    deflate,
    reorderTriangles,
    onObjectPlanned: _progress,
    physics: _physics,
    current: _current,
    cost: _cost,
    maxDownloadWeight: _download,
    maxLandImpact: _landImpact,
    iterations: _iterations,
    minErrorPx: _minErrorPx,
    scaleFactors: _scaleFactors,
    targetLandImpact: _target,
    ...rest
  } = options as LodPlanOptions & Partial<SharperLodOptions> & { targetLandImpact?: number };
  return { ...rest, deflate: !!deflate, reorderTriangles: !!reorderTriangles };
}

function triangles(object: SlObject): number {
  return lodTriangleCount(object.lods.high);
}

/** `parts` (object indices) biggest first, by index among equals. */
function biggestFirst(model: SlModel, parts: readonly number[]): number[] {
  return [...parts].sort((a, b) => triangles(model.objects[b]) - triangles(model.objects[a]) || a - b);
}

/** How many of `sizes` (parts' triangles, in the order given), from the first, add up to `cap` or less (at least one when there are any). */
export function leadingWithinCap(sizes: readonly number[], cap = LOD_WORKERS_MAX_TRIANGLES): number {
  let n = 0;
  for (let sum = 0; n < sizes.length; n++) {
    sum += sizes[n];
    if (n > 0 && sum > cap) break;
  }
  return n;
}

/**
 * How many workers to plan `objects` with: 0 (plan in this thread) unless they have at least two
 * distinct geometries, the ones other than the biggest of LOD_WORKERS_MIN_TRIANGLES or more or
 * LOD_WORKERS_MIN_PARTS or more in number, and `options` carries no function but the defaults
 * named in `defaults`. `jobs` caps it (default: the machine's available parallelism, at most
 * LOD_WORKERS_MAX); 1 or less is 0. An explicit `jobs` of 2 or more skips the triangle and part
 * rules (tests, and a user who knows the model).
 */
export function lodWorkersFor(
  objects: readonly SlObject[],
  options: LodPlanOptions,
  defaults: DefaultFunctions,
  jobs?: number,
  geometries?: () => ModelGeometries,
): number {
  const cap = jobs ?? Math.min(availableParallelism(), LOD_WORKERS_MAX);
  if (!(cap >= 2) || objects.length < 2) return 0;
  if (!defaults.simplifier || (options.deflate && !defaults.deflate)) return 0;
  if (options.reorderTriangles && !defaults.reorderTriangles) return 0;
  if (hasFunction(workerOptions(options))) return 0;
  const firsts = (geometries ? geometries() : modelGeometries(objects)).firsts;
  if (firsts.length < 2) return 0;
  if (jobs === undefined) {
    const sizes = firsts.map((i) => triangles(objects[i]));
    const others = sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes);
    if (others < LOD_WORKERS_MIN_TRIANGLES && firsts.length - 1 < LOD_WORKERS_MIN_PARTS) return 0;
  }
  return Math.min(Math.floor(cap), firsts.length);
}

/**
 * Which of `queue` (parts, biggest first) an idle worker takes: the first whose triangles keep the
 * `inHand` parts' `busy` triangles within `cap` (LOD_WORKERS_MAX_TRIANGLES), the first when none
 * is in hand; -1 for none.
 */
export function nextPart(
  queue: readonly number[],
  size: (part: number) => number,
  inHand: number,
  busy: number,
  cap = LOD_WORKERS_MAX_TRIANGLES,
): number {
  if (queue.length === 0) return -1;
  return inHand === 0 ? 0 : queue.findIndex((i) => busy + size(i) <= cap);
}

/** This module's dist file (tests import the TypeScript source; the worker runs compiled code). */
function workerUrl(): URL {
  const self = new URL(import.meta.url);
  return self.pathname.endsWith('.ts') ? new URL('../dist/lod-workers.js', self) : self;
}

let workerStarts = 0;

/** Workers started so far in this process (tests). */
export function lodWorkerStarts(): number {
  return workerStarts;
}

/**
 * A LOD worker, added to `pool` (which its caller ends), its messages to `onMessage` and any
 * error, undecodable message or exit to `fail`: workers end only when terminated, after the plans
 * are in, so an exit before is a failure (the callers ignore what comes after they settle).
 */
function startWorker(pool: Worker[], onMessage: (msg: WorkerMessage) => void, fail: (e: unknown) => void): Worker {
  workerStarts++;
  const worker = new Worker(workerUrl(), { workerData: { kind: WORKER_KIND } });
  pool.push(worker);
  worker.on('message', onMessage);
  worker.on('error', fail);
  worker.on('messageerror', fail);
  worker.on('exit', (code) => fail(new Error(`a LOD worker stopped (exit code ${code}) before the plans were in`)));
  return worker;
}

/**
 * core planModelLods(model, options), each distinct geometry planned on one of `workers` worker
 * threads (see the file comment; options' functions must be the defaults lodWorkersFor checks).
 */
export async function planModelLodsInWorkers(
  model: SlModel,
  options: LodPlanOptions,
  workers: number,
  geometries: ModelGeometries = modelGeometries(model.objects),
): Promise<{ model: SlModel; plans: ObjectLodPlan[] }> {
  if (!(workers >= 1)) return planModelLods(model, options, geometries);
  const { onObjectPlanned } = options;
  const sent = workerOptions(options);
  // The biggest first: the longest plans start at once and the small ones fill in around them.
  const queue = biggestFirst(model, geometries.firsts);
  const planned = new Map<number, Planned>();
  const total = model.objects.length;
  const pool: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const idle: Worker[] = [];
      const load = new Map<Worker, number>();
      let busy = 0;
      // Settled: every later event is ignored (terminating the workers after it makes them exit).
      let settled = false;
      // Each idle worker takes the biggest part left that keeps the parts in hand within
      // LOD_WORKERS_MAX_TRIANGLES (any part when none is in hand); the rest wait their turn.
      const dispatch = () => {
        while (idle.length > 0) {
          const k = nextPart(queue, (i) => triangles(model.objects[i]), load.size, busy);
          if (k < 0) break;
          const [index] = queue.splice(k, 1);
          const worker = idle.pop()!;
          const t = triangles(model.objects[index]);
          load.set(worker, t);
          busy += t;
          worker.postMessage({ index, object: model.objects[index], options: sent } satisfies WorkerJob);
        }
        if (load.size === 0 && queue.length === 0) {
          settled = true;
          resolve();
        }
      };
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        reject(e);
      };
      // A part that cannot be posted (DataCloneError) rejects like any other failure.
      const tryDispatch = () => {
        try {
          dispatch();
        } catch (e) {
          fail(e);
        }
      };
      // No more workers than parts can be in hand at once (the smallest ones, within the cap).
      const fit = leadingWithinCap([...queue].reverse().map((i) => triangles(model.objects[i])));
      for (let k = 0; k < Math.min(workers, fit); k++) {
        const worker = startWorker(
          pool,
          (msg) => {
            if (settled) return;
            busy -= load.get(worker) ?? 0;
            load.delete(worker);
            if (msg.type === 'error') {
              fail(errorFromWorker(msg));
              return;
            }
            planned.set(msg.index, fromReply(model.objects[msg.index], msg.reply));
            onObjectPlanned?.(planned.size, total);
            idle.push(worker);
            tryDispatch();
          },
          fail,
        );
        idle.push(worker);
      }
      tryDispatch();
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  const result = assembleModelPlans(model, geometries, (i) => planned.get(i)!);
  onObjectPlanned?.(total, total);
  return result;
}

/**
 * core planModelLods(model, options) on `lodWorkersFor`'s workers, or in this thread when it asks
 * for none (the model's geometries worked out once for both).
 */
export function planModelLodsWithWorkers(
  model: SlModel,
  options: LodPlanOptions,
  defaults: DefaultFunctions,
  jobs?: number,
): Promise<{ model: SlModel; plans: ObjectLodPlan[] }> | { model: SlModel; plans: ObjectLodPlan[] } {
  let geometries: ModelGeometries | undefined;
  const once = () => (geometries ??= modelGeometries(model.objects));
  const workers = lodWorkersFor(model.objects, options, defaults, jobs, once);
  return workers > 0
    ? planModelLodsInWorkers(model, options, workers, once())
    : planModelLods(model, options, geometries);
}

/**
 * `run` given what makes a BoundPlanner on `lodWorkersFor`'s rule: worker threads where it says
 * so, each distinct geometry on one (the biggest first, each to the least loaded), which keeps its
 * planner across the bounds a search tries; else this thread's (core localBoundPlanner). Every
 * worker is ended when `run` is done.
 */
async function withBoundPlanners<T>(
  model: SlModel,
  defaults: DefaultFunctions,
  jobs: number | undefined,
  run: (planner: BoundPlannerMaker) => Promise<T>,
): Promise<T> {
  const pool: Worker[] = [];
  try {
    return await run((planOptions, firsts) => {
      // No more threads than the biggest parts that fit within LOD_WORKERS_MAX_TRIANGLES together
      // (each plans one part at a time, so that bounds what they hold at once); one thread alone
      // would plan every part while this one waits: this thread plans them then.
      const workers = Math.min(
        lodWorkersFor(model.objects, planOptions, defaults, jobs),
        leadingWithinCap(biggestFirst(model, firsts).map((i) => triangles(model.objects[i]))),
      );
      if (workers < 2) return localBoundPlanner(model, firsts, planOptions);
      return boundWorkers(model, planOptions, firsts, workers, pool);
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/** core planModelSharper on worker threads (withBoundPlanners): the chain, priced in this thread, is the one planModelSharper gives. */
export function planModelSharperWithWorkers(
  model: SlModel,
  options: SharperLodOptions,
  defaults: DefaultFunctions,
  jobs?: number,
): Promise<SharperLodResult | undefined> {
  return withBoundPlanners(model, defaults, jobs, (planner) => planModelSharperWith(model, options, planner));
}

/** core planModelForBudget (the budget mode, `--target-li`) on worker threads (withBoundPlanners): the chain, priced in this thread, is the one planModelForBudget gives. */
export function planModelForBudgetWithWorkers(
  model: SlModel,
  options: LodBudgetOptions,
  defaults: DefaultFunctions,
  jobs?: number,
): Promise<LodBudgetResult> {
  return withBoundPlanners(model, defaults, jobs, (planner) => planModelForBudgetWith(model, options, planner));
}

/**
 * A BoundPlanner over `workers` worker threads (started into `pool`, which the caller ends; the
 * caller keeps them within the triangle cap): each distinct geometry stays on one, which keeps its
 * planner from bound to bound.
 */
function boundWorkers(
  model: SlModel,
  planOptions: LodPlanOptions,
  firsts: readonly number[],
  workers: number,
  pool: Worker[],
): BoundPlanner {
  const sent = workerOptions(planOptions);
  const bySize = biggestFirst(model, firsts);
  // Each geometry to the least loaded worker, the biggest first: every bound plans them all.
  const load = Array.from({ length: workers }, () => ({
    triangles: 0,
    parts: [] as number[],
  }));
  for (const i of bySize) {
    const w = load.reduce((a, b) => (b.triangles < a.triangles ? b : a));
    w.triangles += triangles(model.objects[i]);
    w.parts.push(i);
  }
  const given = new Set<number>();
  // The bound in hand: its replies and its end. A failure ends it, and every bound after.
  let current: { onReply: (index: number, reply: PlannedReply) => void; fail: (e: unknown) => void } | undefined;
  let failure: unknown;
  const fail = (e: unknown) => {
    failure ??= e;
    current?.fail(e);
  };
  const threads = load.map(() =>
    startWorker(
      pool,
      (msg) => {
        if (msg.type === 'error') fail(errorFromWorker(msg));
        else current?.onReply(msg.index, msg.reply);
      },
      fail,
    ),
  );
  return (px) =>
    new Promise<Map<number, Planned>>((resolve, reject) => {
      if (failure !== undefined) return reject(failure);
      const planned = new Map<number, Planned>();
      let waiting = 0;
      const end = (e?: unknown) => {
        current = undefined;
        if (e !== undefined) reject(e);
        else resolve(planned);
      };
      current = {
        onReply: (index, reply) => {
          planned.set(index, fromReply(model.objects[index], reply));
          if (--waiting === 0) end();
        },
        fail: end,
      };
      try {
        threads.forEach((worker, w) => {
          for (const index of load[w].parts) {
            const first = !given.has(index);
            waiting++;
            worker.postMessage({
              kind: 'bound',
              index,
              px,
              ...(first ? { object: model.objects[index], options: sent } : {}),
            } satisfies WorkerJob);
            given.add(index);
          }
        });
      } catch (e) {
        fail(e);
      }
      if (waiting === 0) current?.fail(new Error('LOD workers: no part to plan'));
    });
}

/** The worker side: each object planned in turn with the default functions, made once. */
function serveWorker(): void {
  const port = parentPort!;
  let made: Promise<{ simplifier: MeshSimplifier; deflate: DeflateFn; order: TriangleOrderFn }> | undefined;
  const make = async () => {
    await MeshoptSimplifier.ready;
    return {
      simplifier: MeshoptSimplifier as unknown as MeshSimplifier,
      deflate: memoizeDeflate(zlibNgDeflate),
      order: await meshoptTriangleOrder(),
    };
  };
  const withFunctions = (f: Awaited<ReturnType<typeof make>>, options: WorkerOptions): LodPlanOptions => {
    const { deflate, reorderTriangles, ...rest } = options;
    return {
      ...rest,
      simplifier: f.simplifier,
      ...(deflate ? { deflate: f.deflate } : {}),
      ...(reorderTriangles ? { reorderTriangles: f.order } : {}),
    };
  };
  // Bound jobs: the part's object and one planner for it, kept for the bounds after.
  const kept = new Map<number, { object: SlObject; plan: (px: number) => Map<number, Planned> }>();
  let queue = Promise.resolve();
  port.on('message', (job: WorkerJob) => {
    queue = queue.then(async () => {
      try {
        const f = await (made ??= make());
        let given: SlObject;
        let planned: Planned;
        if (job.kind === 'bound') {
          let k = kept.get(job.index);
          if (!k) {
            if (!job.object || !job.options) throw new Error(`LOD worker: part ${job.index} was never given`);
            const object = job.object;
            k = { object, plan: localBoundPlanner({ objects: [object] }, [0], withFunctions(f, job.options)) };
            kept.set(job.index, k);
          }
          given = k.object;
          planned = k.plan(job.px).get(0)!;
        } else {
          given = job.object;
          planned = planObjectLods(job.object, withFunctions(f, job.options));
        }
        port.postMessage({
          type: 'result',
          index: job.index,
          reply: plannedReply(given, planned),
        } satisfies WorkerMessage);
      } catch (e) {
        port.postMessage(workerErrorMessage(e) satisfies WorkerMessage);
      }
    });
  });
}

if (!isMainThread && (workerData as { kind?: string } | null)?.kind === WORKER_KIND) serveWorker();
