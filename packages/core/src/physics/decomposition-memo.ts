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
 * (a cancel) leaves nothing behind. Memory: at most `maxBytes` of surfaces and hulls are kept (the
 * least recently taken go first, the newest always stays), so a long-lived memo (optimize's
 * physics worker, which serves build after build) stays bounded.
 */

import { hashBytes, sameBytes } from '../geometry/equal-keys.js';
import type { DecompositionResult } from './decompose.js';

interface Entry {
  key: number;
  positions: Uint8Array;
  indices: Uint8Array;
  settings: string;
  result: DecompositionResult;
  bytes: number;
}

const bytesOf = (a: Float32Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Default bound of a memo: 64 MiB of surfaces and hulls (a 20,000-triangle part holds about 0.5 MiB). */
export const DECOMPOSITION_MEMO_BYTES = 64 * 1024 * 1024;

export class DecompositionMemo {
  private readonly buckets = new Map<number, Entry[]>();
  /** Every entry, least recently taken first (a Map iterates in insertion order; a hit re-inserts). */
  private readonly recency = new Set<Entry>();
  private held = 0;

  constructor(private readonly maxBytes = DECOMPOSITION_MEMO_BYTES) {}

  /** Bytes held: the surfaces' and the hulls' (tests). */
  get bytes(): number {
    return this.held;
  }

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
    if (hit) {
      this.recency.delete(hit);
      this.recency.add(hit);
      return hit.result;
    }
    const result = make();
    const bytes = p.byteLength + ix.byteLength + result.hulls.reduce((a, h) => a + h.byteLength, 0);
    const entry: Entry = { key, positions: p.slice(), indices: ix.slice(), settings, result, bytes };
    if (bucket) bucket.push(entry);
    else this.buckets.set(key, [entry]);
    this.recency.add(entry);
    this.held += bytes;
    // Over the bound: the least recently taken out, never the entry just made.
    for (const old of this.recency) {
      if (this.held <= this.maxBytes || old === entry) break;
      this.recency.delete(old);
      const b = this.buckets.get(old.key)!;
      b.splice(b.indexOf(old), 1);
      if (b.length === 0) this.buckets.delete(old.key);
      this.held -= old.bytes;
    }
    return result;
  }
}
