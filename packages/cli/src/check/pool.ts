/**
 * A worker_threads pool: runs tasks on up to `jobs` threads, handing each idle worker the next
 * task, and returns the results in task order (so the output never depends on which worker
 * finished first). With one job, or one task, it runs in this thread instead and starts no
 * worker (a worker costs a module load).
 *
 * The worker script is passed in (check/worker.js from the built dist); it answers every
 * `{ id, task }` message with `{ id, result }`. A worker that crashes fails the whole run.
 */

import { Worker } from 'node:worker_threads';

export interface PoolOptions<T, R> {
  /** Most threads to use. */
  jobs: number;
  /** The worker script. */
  workerUrl: URL;
  /** Runs one task in this thread, for a single job or task. */
  inProcess: (task: T) => Promise<R>;
  /** Called once per result as it arrives (for example to write a cache entry). */
  onResult?: (index: number, result: R) => void | Promise<void>;
}

export async function runPool<T, R>(tasks: readonly T[], options: PoolOptions<T, R>): Promise<R[]> {
  const results = new Array<R>(tasks.length);
  const threads = Math.max(1, Math.min(Math.floor(options.jobs), tasks.length));
  if (tasks.length === 0) return results;

  // 1. One thread: no workers.
  if (threads === 1) {
    for (let i = 0; i < tasks.length; i++) {
      results[i] = await options.inProcess(tasks[i]);
      await options.onResult?.(i, results[i]);
    }
    return results;
  }

  // 2. Workers take the next task whenever they answer.
  return new Promise<R[]>((resolvePool, rejectPool) => {
    const workers: Worker[] = [];
    const pending: Promise<void>[] = [];
    let next = 0;
    let done = 0;
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      for (const w of workers) void w.terminate();
      rejectPool(e);
    };
    const feed = (w: Worker) => {
      if (next < tasks.length) {
        const id = next++;
        w.postMessage({ id, task: tasks[id] });
      }
    };
    for (let k = 0; k < threads; k++) {
      const w = new Worker(options.workerUrl);
      workers.push(w);
      w.on('message', (msg: { id: number; result: R }) => {
        if (failed) return;
        results[msg.id] = msg.result;
        if (options.onResult) pending.push(Promise.resolve(options.onResult(msg.id, msg.result)));
        done++;
        if (done === tasks.length) {
          for (const x of workers) void x.terminate();
          Promise.all(pending).then(() => resolvePool(results), fail);
        } else feed(w);
      });
      w.on('error', (e) => fail(new Error(`a check worker failed: ${e.message}`)));
      w.on('exit', (code) => {
        if (done < tasks.length && !failed)
          fail(new Error(`a check worker stopped (exit code ${code}) before its work was done`));
      });
      feed(w);
    }
  });
}
