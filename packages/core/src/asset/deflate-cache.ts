/**
 * A memoising wrapper around an injected deflate: the same bytes at the same level are compressed
 * once. Pricing a model many times (the LOD planner's budget search, a before/after report) encodes
 * the unchanged high LOD block again and again; its zlib level-9 compression is the expensive part.
 *
 * Guarantees: returns exactly what `deflate` returned for byte-identical input, and the length it
 * returns (hits are confirmed byte by byte, never by hash alone); keeps at most `maxEntries`
 * results and at most `maxBytes` of their inputs (least recently used out; the one just made
 * always stays). The byte bound matters for big meshes only: a 1M-triangle high's block is
 * 38 MB, and the inputs kept are copies (each memo its own: a memo over a memoised deflate keeps
 * its own copies too).
 */

import { ByteMemo } from '../geometry/byte-memo.js';
import type { DeflateFn } from '../types.js';

/** The length `deflate(data, level)` returns: by its deflatedLength when it has one (no bytes made). */
export function deflatedLength(deflate: DeflateFn, data: Uint8Array, level: number): number {
  return deflate.deflatedLength ? deflate.deflatedLength(data, level) : deflate(data, level).length;
}

/** Most input bytes memoizeDeflate keeps by default (64 MB). */
export const DEFLATE_MEMO_BYTES = 64 * 2 ** 20;

/** A remembered compression: its length, and the bytes once they are asked for. */
interface Compressed {
  /** What deflate returned; absent while only the length was asked for. */
  output?: Uint8Array;
  length: number;
}

/**
 * The memoised deflate. It has a deflatedLength too: a length asked for is taken from a cached
 * result or computed by `deflate.deflatedLength` when there is one (no bytes made), and the
 * bytes are made only when they are asked for.
 */
export function memoizeDeflate(deflate: DeflateFn, maxEntries = 256, maxBytes = DEFLATE_MEMO_BYTES): DeflateFn {
  // Both bounds in one, in whole numbers: an entry weighs maxEntries times its input's bytes, and
  // at least maxBytes, against a limit of maxBytes * maxEntries.
  const n = Math.max(1, Math.floor(maxEntries));
  const memo = new ByteMemo<Compressed>(maxBytes * n, ([data]) => Math.max(data.length * n, maxBytes));
  const entryFor = (data: Uint8Array, level: number, bytes: boolean): Compressed => {
    const entry = memo.take([data], String(level), () => {
      const output = bytes || !deflate.deflatedLength ? deflate(data, level) : undefined;
      return { output, length: output?.length ?? deflate.deflatedLength!(data, level) };
    });
    // A length remembered without its bytes gets them when they are asked for.
    if (bytes && !entry.output) entry.output = deflate(data, level);
    return entry;
  };
  const memoized: DeflateFn = (data, level) => entryFor(data, level, true).output!;
  memoized.deflatedLength = (data, level) => entryFor(data, level, false).length;
  memoized.same = deflate.same ?? deflate;
  return memoized;
}
