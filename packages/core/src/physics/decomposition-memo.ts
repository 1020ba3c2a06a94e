/**
 * Decompositions kept for the copies of a part. In a linkset, each copy of a part gets its own
 * physics build: its neighbours differ, so its opening test and its choice of shape can too. The
 * decomposition itself does not depend on them. It depends only on the part's world-size surface
 * and the settings, so buildPhysics takes it from here for the next copy instead of cutting the
 * same solid again. Example: 800 icospheres of 1,280 triangles, each one decomposed because its
 * hull set its land impact.
 *
 * Guarantees: `take` returns what `make` returned for byte-identical positions and indices and the
 * same settings key (a hit is confirmed byte by byte, never by hash alone); a `make` that throws
 * (a cancel) leaves nothing behind. Memory: every distinct surface taken is kept until the memo is
 * dropped, so a caller keeps one per model and gives it only small parts.
 */

import { hashBytes, sameBytes } from '../geometry/equal-keys.js';
import type { DecompositionResult } from './decompose.js';

interface Entry {
  positions: Uint8Array;
  indices: Uint8Array;
  settings: string;
  result: DecompositionResult;
}

const bytesOf = (a: Float32Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export class DecompositionMemo {
  private readonly buckets = new Map<number, Entry[]>();

  /**
   * The decomposition of this surface (world-size positions, three indices per triangle) under
   * these settings (`settings`: a key that names every setting the decomposition reads), made by
   * `make` the first time.
   */
  take(
    positions: Float32Array,
    indices: Uint32Array,
    settings: string,
    make: () => DecompositionResult,
  ): DecompositionResult {
    const p = bytesOf(positions),
      ix = bytesOf(indices);
    const key = (hashBytes(p) ^ Math.imul(hashBytes(ix), 0x01000193)) >>> 0;
    const bucket = this.buckets.get(key);
    const hit = bucket?.find((e) => e.settings === settings && sameBytes(e.positions, p) && sameBytes(e.indices, ix));
    if (hit) return hit.result;
    const result = make();
    const entry = { positions: p.slice(), indices: ix.slice(), settings, result };
    if (bucket) bucket.push(entry);
    else this.buckets.set(key, [entry]);
    return result;
  }
}
