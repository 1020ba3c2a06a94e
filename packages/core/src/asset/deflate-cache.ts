/**
 * A memoising wrapper around an injected deflate: the same bytes at the same level are compressed
 * once. Pricing a model many times (the LOD planner's budget search, a before/after report) encodes
 * the unchanged high LOD block again and again; its zlib level-9 compression is the expensive part.
 *
 * Guarantees: returns exactly what `deflate` returned for byte-identical input, and the length it
 * returns (hits are confirmed byte by byte, never by hash alone); keeps at most `maxEntries`
 * results (least recently used out).
 */

import { hashBytes, sameBytes } from '../geometry/equal-keys.js';
import type { DeflateFn } from '../types.js';

/** The length `deflate(data, level)` returns: by its deflatedLength when it has one (no bytes made). */
export function deflatedLength(deflate: DeflateFn, data: Uint8Array, level: number): number {
  return deflate.deflatedLength ? deflate.deflatedLength(data, level) : deflate(data, level).length;
}

interface Entry {
  level: number;
  input: Uint8Array;
  /** What deflate returned; absent while only the length was asked for. */
  output?: Uint8Array;
  length: number;
}

/**
 * The memoised deflate. It has a deflatedLength too: a length asked for is taken from a cached
 * result or computed by `deflate.deflatedLength` when there is one (no bytes made), and the
 * bytes are made only when they are asked for.
 */
export function memoizeDeflate(deflate: DeflateFn, maxEntries = 256): DeflateFn {
  const buckets = new Map<number, Entry[]>();
  // Every cached entry, least recently used first (a Map iterates in insertion order, and a hit
  // re-inserts its entry at the end), with its bucket key.
  const recency = new Map<Entry, number>();
  const entryFor = (data: Uint8Array, level: number, bytes: boolean): Entry => {
    // 1. A hit: confirmed byte by byte, then marked most recently used.
    const key = hashBytes(data);
    const bucket = buckets.get(key);
    const hit = bucket?.find((e) => e.level === level && sameBytes(e.input, data));
    if (hit) {
      recency.delete(hit);
      recency.set(hit, key);
      if (bytes && !hit.output) hit.output = deflate(data, level);
      return hit;
    }
    // 2. A miss: compress (or only measure), remember as most recently used.
    const output = bytes || !deflate.deflatedLength ? deflate(data, level) : undefined;
    const entry: Entry = {
      level,
      input: data.slice(),
      output,
      length: output?.length ?? deflate.deflatedLength!(data, level),
    };
    if (bucket) bucket.push(entry);
    else buckets.set(key, [entry]);
    recency.set(entry, key);
    // 3. Over the limit: drop the least recently used.
    while (recency.size > maxEntries) {
      const [old, oldKey] = recency.entries().next().value as [Entry, number];
      recency.delete(old);
      const b = buckets.get(oldKey)!;
      b.splice(b.indexOf(old), 1);
      if (b.length === 0) buckets.delete(oldKey);
    }
    return entry;
  };
  const memoized: DeflateFn = (data, level) => entryFor(data, level, true).output!;
  memoized.deflatedLength = (data, level) => entryFor(data, level, false).length;
  return memoized;
}
