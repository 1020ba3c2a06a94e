/**
 * Runs core's buildPhysics off the main thread: a worker_threads Worker on this same file (from
 * the built dist, packages/cli/dist/physics-worker.js), with progress, cancellation and Ctrl-C.
 *
 *     const result = await runPhysicsInWorker(object, { mode: 'decompose' }, { onProgress, signal });
 *
 * - Progress: the worker posts the fraction done (at most every whole percent); `onProgress`
 *   gets it on the main thread, ending with 1.
 * - Cancellation: aborting `signal`, or SIGINT while the work runs (unless `handleSigint` is
 *   false), terminates the worker at once (a decomposition does not have to reach a check
 *   point) and rejects with PhysicsCancelledError (name 'AbortError'). The caller decides the
 *   exit status (130 is the shell's for SIGINT).
 * - Errors thrown in the worker come back as themselves: an SlmeshError keeps its code.
 * - One worker serves build after build (kept idle between them, never keeping the process
 *   alive); a cancelled build ends it, and the next build starts a new one.
 * - Options must be structured-cloneable: an injected simplifier (a function) cannot cross to a
 *   worker and is refused.
 *
 * `progressLine` draws "label 42%" on one terminal line, only when the stream is a TTY.
 */

import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  buildPhysics,
  DecompositionMemo,
  SlmeshError,
  type BuildPhysicsOptions,
  type PhysicsBuildResult,
  type SlObject,
} from '@slmesh/core';
import {
  errorFromWorker,
  hasFunction,
  meshoptSimplifyFn,
  workerErrorMessage,
  type WorkerErrorMessage,
} from '@slmesh/gltf-plugin/node';

/** buildPhysics options that can be sent to a worker (no callbacks). */
export type WorkerPhysicsOptions = Omit<BuildPhysicsOptions, 'onProgress' | 'signal' | 'decompositions'>;

export interface PhysicsWorkerRun {
  /** Fraction done, 0 to 1, on the main thread. */
  onProgress?: (fraction: number) => void;
  /** Aborting it terminates the worker and rejects with PhysicsCancelledError. */
  signal?: AbortSignal;
  /** Terminate the worker on SIGINT (Ctrl-C) and reject. Default true. */
  handleSigint?: boolean;
  /** The worker script. Default: this module from the built dist. */
  workerUrl?: URL;
}

/** The physics build was cancelled (signal or SIGINT). */
export class PhysicsCancelledError extends Error {
  override readonly name = 'AbortError';
  constructor(readonly reason: 'signal' | 'SIGINT') {
    super(reason === 'SIGINT' ? 'physics build interrupted (SIGINT)' : 'physics build cancelled');
  }
}

const WORKER_KIND = 'slmesh-physics';

type WorkerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'result'; result: PhysicsBuildResult; remembers: boolean }
  | (WorkerErrorMessage & { remembers: boolean });

/** This module's dist file (tests import the TypeScript source; the worker runs compiled code). */
function defaultWorkerUrl(): URL {
  const self = new URL(import.meta.url);
  return self.pathname.endsWith('.ts') ? new URL('../dist/physics-worker.js', self) : self;
}

/** Runs buildPhysics(object, options) in a worker thread. See the file comment. */
export function runPhysicsInWorker(
  object: SlObject,
  options: WorkerPhysicsOptions,
  run: PhysicsWorkerRun = {},
): Promise<PhysicsBuildResult> {
  if (hasFunction(options)) {
    return Promise.reject(
      new SlmeshError(
        'USAGE',
        'physics options for a worker cannot carry functions (an injected simplifier runs only in-process)',
      ),
    );
  }
  if (run.signal?.aborted) return Promise.reject(new PhysicsCancelledError('signal'));
  const url = run.workerUrl ?? defaultWorkerUrl();
  const big = jobBytes(object, options) > KEEP_WORKER_MAX_BYTES;
  return new Promise<PhysicsBuildResult>((resolve, reject) => {
    const worker = takeWorker(url);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      run.signal?.removeEventListener('abort', onAbort);
      if (sigint) process.off('SIGINT', onSigint);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      fn();
    };
    const cancel = (reason: 'signal' | 'SIGINT') =>
      finish(() => {
        void worker.terminate();
        reject(new PhysicsCancelledError(reason));
      });
    const onAbort = () => cancel('signal');
    const onSigint = () => cancel('SIGINT');
    const sigint = run.handleSigint ?? true;
    const onMessage = (msg: WorkerMessage) => {
      if (settled) return;
      if (msg.type === 'progress') run.onProgress?.(msg.fraction);
      else if (msg.type === 'result') {
        finish(() => {
          keepOrEnd(worker, url, big, msg.remembers);
          resolve(msg.result);
        });
      } else {
        finish(() => {
          keepOrEnd(worker, url, big, msg.remembers);
          reject(errorFromWorker(msg));
        });
      }
    };
    const onError = (e: Error) => finish(() => reject(e));
    const onExit = (code: number) =>
      finish(() => reject(new Error(`the physics worker stopped (exit code ${code}) before it answered`)));
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (sigint) process.on('SIGINT', onSigint);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ object, options } satisfies WorkerJob);
  });
}

/**
 * One worker is kept between builds (its start, loading core and meshoptimizer, costs about 0.2 s
 * of CPU, more than many builds): idle, it does not keep the process alive. A cancelled build
 * terminates its worker; a worker that failed is not kept.
 */
let idleWorker: { worker: Worker; url: string } | undefined;
let workerStarts = 0;

/** Workers started so far in this process (tests). */
export function physicsWorkerStarts(): number {
  return workerStarts;
}

function takeWorker(url: URL): Worker {
  const idle = idleWorker;
  idleWorker = undefined;
  if (idle && idle.url === url.href) {
    idle.worker.ref();
    return idle.worker;
  }
  if (idle) void idle.worker.terminate();
  workerStarts++;
  return new Worker(url, { workerData: { kind: WORKER_KIND } });
}

/** Bytes of mesh arrays in a job past which its worker is not kept unless it remembers decompositions (32 MB). */
export const KEEP_WORKER_MAX_BYTES = 32 * 2 ** 20;

/** The bytes of the mesh arrays a job sends (each array once): its LODs, physics mesh, surface and surroundings. */
function jobBytes(object: SlObject, options: WorkerPhysicsOptions): number {
  const arrays = new Set<ArrayBufferView>();
  // Read with care: a malformed object is the worker's to refuse (its error comes back as any other).
  for (const lod of [...Object.values(object?.lods ?? {}), object?.physicsMesh, options.surface])
    for (const f of lod?.faces ?? [])
      for (const a of [f?.positions, f?.indices, f?.normals, f?.uvs]) if (ArrayBuffer.isView(a)) arrays.add(a);
  const around = options.surroundings;
  if (around && typeof around === 'object')
    for (const a of [around.positions, around.indices]) if (ArrayBuffer.isView(a)) arrays.add(a);
  let bytes = 0;
  for (const a of arrays) bytes += a.byteLength;
  return bytes;
}

/**
 * Keeps a worker for the next build, or ends it: a big job's copy would stay in the idle thread
 * until it collects it (a 1M-triangle object and its surface: about 160 MB over the rest of the
 * run), so after one the worker is kept only while it remembers decompositions (its
 * DecompositionMemo, for a later build of the same surface: optimize's second plan, a linkset's
 * second pass).
 */
function keepOrEnd(worker: Worker, url: URL, big: boolean, remembers: boolean): void {
  if (!big || remembers) keepWorker(worker, url);
  else void worker.terminate();
}

function keepWorker(worker: Worker, url: URL): void {
  if (idleWorker) void idleWorker.worker.terminate();
  worker.unref();
  idleWorker = { worker, url: url.href };
}

interface WorkerJob {
  object: SlObject;
  options: WorkerPhysicsOptions;
}

/** The worker side: each job built in turn, posting progress, then the result or the error. */
function serveWorker(): void {
  const port = parentPort!;
  // meshoptimizer simplifies the decomposition's proxy of a big mesh (functions cannot be sent here).
  let simplifier: ReturnType<typeof meshoptSimplifyFn> | undefined;
  // Decompositions made here, for the builds after (bounded, core DecompositionMemo): a surface
  // built again (optimize's second plan at the pixel bound, a linkset's second pass) is not cut again.
  const decompositions = new DecompositionMemo();
  let queue = Promise.resolve();
  port.on('message', (job: WorkerJob) => {
    queue = queue.then(() => serveJob(port, job, (simplifier ??= meshoptSimplifyFn()), decompositions));
  });
}

async function serveJob(
  port: NonNullable<typeof parentPort>,
  data: WorkerJob,
  simplifier: ReturnType<typeof meshoptSimplifyFn>,
  decompositions: DecompositionMemo,
): Promise<void> {
  let last = -1;
  try {
    const simplify = await simplifier;
    const result = buildPhysics(data.object, {
      ...data.options,
      decompose: { ...data.options.decompose, simplify },
      decompositions,
      onProgress: (fraction) => {
        const pct = Math.floor(fraction * 100);
        if (pct > last) {
          last = pct;
          port.postMessage({ type: 'progress', fraction } satisfies WorkerMessage);
        }
      },
    });
    port.postMessage({ type: 'result', result, remembers: decompositions.bytes > 0 } satisfies WorkerMessage);
  } catch (e) {
    port.postMessage({ ...workerErrorMessage(e), remembers: decompositions.bytes > 0 } satisfies WorkerMessage);
  }
}

if (!isMainThread && (workerData as { kind?: string } | null)?.kind === WORKER_KIND) serveWorker();

/** A stream progressLine can draw on (process.stderr, or anything with isTTY and write). */
export interface ProgressStream {
  isTTY?: boolean;
  write(chunk: string): unknown;
}

export interface ProgressLine {
  /** Shows the fraction done (redrawn when the whole percent changes). */
  update(fraction: number): void;
  /** Clears the line. */
  done(): void;
}

/** "label 42%" on one line of a terminal; does nothing when the stream is not a TTY. */
export function progressLine(label: string, stream: ProgressStream = process.stderr): ProgressLine {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let shown = -1;
  return {
    update(fraction: number) {
      const pct = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
      if (pct === shown) return;
      shown = pct;
      stream.write(`\r${label} ${pct}%\x1b[K`);
    },
    done() {
      if (shown >= 0) stream.write('\r\x1b[K');
      shown = -1;
    },
  };
}
