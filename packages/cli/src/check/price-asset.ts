/**
 * Prices one asset for `slmesh check`: reads the file (and its sibling LOD / physics files)
 * once, reports it at its own size, and the linkset again at each longest side a budget rule
 * asks about (`atSizes`). This is the unit of work the worker pool runs and the cache stores.
 *
 * Guarantees: the result is plain JSON that survives a JSON round trip unchanged (a LOD that
 * never shows has switch distance null, not Infinity), so a cached result and a fresh one are
 * the same. A user error (unreadable file) comes back as { error } with its one-line message,
 * not thrown, so a pool can collect every bad asset.
 */

import { isSlmeshError, type LinksetCost } from '@slmesh/core';
import { jsonReplacer, readModelFile, reportModel, type FileReport } from '@slmesh/gltf-plugin/node';
import type { Pricing } from './budget.js';

export interface PriceTask {
  /** The file, as it appears in the report (relative to cwd, `/`-separated). */
  path: string;
  pricing: Pricing;
  /** Longest sides (metres) to price the linkset at, besides its own size. Sorted, unique. */
  sizes: number[];
}

export interface PricedAsset {
  /** The cost report of the file at its own size. */
  report: FileReport;
  /** The linkset priced at each size of the task, in the same order. */
  sized: { longestSide: number; linkset: LinksetCost }[];
}

/** `json` is a PricedAsset as JSON text: what a worker sends and the cache stores. */
export type PriceResult = { json: string } | { error: { code: string; message: string; internal: boolean } };

export { jsonReplacer };

/** The asset as the JSON text a worker sends and the cache stores. */
export function serializeAsset(asset: PricedAsset): string {
  return JSON.stringify(asset, jsonReplacer);
}

export async function priceAsset(task: PriceTask): Promise<PriceResult> {
  try {
    const { pricing } = task;
    // 1. Read once: the file and its siblings.
    const read = await readModelFile(task.path, { siblings: pricing.siblings });
    const options = {
      lodFactor: pricing.lodFactor,
      animesh: pricing.animesh,
      scripts: pricing.scripts,
      linkability: { rule: pricing.linkRule, ...(pricing.linkSpan !== undefined ? { maxSpan: pricing.linkSpan } : {}) },
    };
    // 2. Price at the asset's own size, then the linkset at each asked size.
    const { report } = reportModel(read, task.path, options);
    const sized = task.sizes.map((longestSide) => ({
      longestSide,
      linkset: reportModel(read, task.path, { ...options, size: { longestSide } }).report.linkset,
    }));
    // 3. As JSON text: parsed by the caller, it equals what a cache hit gives.
    return { json: serializeAsset({ report, sized }) };
  } catch (e) {
    if (isSlmeshError(e)) return { error: { code: e.code, message: e.message.split('\n')[0], internal: false } };
    const msg = e instanceof Error ? e.message : String(e);
    return { error: { code: 'INTERNAL', message: `${task.path}: ${msg.split('\n')[0]}`, internal: true } };
  }
}
