/**
 * What worker threads (the LOD workers here, the CLI's physics worker) and the main thread share
 * about messages: whether options can be posted at all, and an error carried across as a plain
 * message and made an error again, an SlmeshError keeping its code.
 */
import { SlmeshError, type SlmeshErrorCode } from '@slmesh/core';

/** True when `value` holds a function within 4 levels (postMessage cannot clone one). */
export function hasFunction(value: unknown, depth = 0): boolean {
  if (typeof value === 'function') return true;
  if (!value || typeof value !== 'object' || depth > 4 || ArrayBuffer.isView(value)) return false;
  return Object.values(value as Record<string, unknown>).some((v) => hasFunction(v, depth + 1));
}

/** An error as a worker posts it. */
export interface WorkerErrorMessage {
  type: 'error';
  name: string;
  message: string;
  code?: SlmeshErrorCode;
}

/** `e`, thrown in a worker, as a message. */
export function workerErrorMessage(e: unknown): WorkerErrorMessage {
  const err = e as Error & { code?: SlmeshErrorCode };
  return {
    type: 'error',
    name: err?.name ?? 'Error',
    message: String(err?.message ?? e),
    ...(e instanceof SlmeshError ? { code: e.code } : {}),
  };
}

/** The error a worker's message stands for: an SlmeshError with its code, else an Error with its name. */
export function errorFromWorker(msg: WorkerErrorMessage): Error {
  return msg.code ? new SlmeshError(msg.code, msg.message) : Object.assign(new Error(msg.message), { name: msg.name });
}
