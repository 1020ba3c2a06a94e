/**
 * A bounded memo keyed by bytes: the one cache behind the deflate memo (asset/deflate-cache.ts),
 * the single hull's (physics/convex-hull.ts) and the decomposition's (physics/decomposition-memo.ts).
 * Each keeps a result computed from some input arrays under some settings and hands it back when
 * the same bytes come again.
 *
 * Guarantees: `take` returns what `make` returned for byte-identical parts under the same tag (a
 * hit is confirmed byte by byte, never by hash alone; the parts are copied, so a caller may reuse
 * its arrays); a `make` that throws leaves nothing behind. Memory: entries weigh what `weigh` says
 * (bytes, or 1 to count them); past `limit` the least recently taken go first, and the entry just
 * made always stays.
 */

import { hashBytes, sameBytes } from './equal-keys.js';

interface Entry<V> {
  key: number;
  tag: string;
  parts: Uint8Array[];
  value: V;
  weight: number;
}

export class ByteMemo<V> {
  private readonly buckets = new Map<number, Entry<V>[]>();
  /** Every entry, least recently taken first (a Set iterates in insertion order; a hit re-inserts). */
  private readonly recency = new Set<Entry<V>>();
  private held = 0;

  /**
   * @param limit most total weight kept
   * @param weigh an entry's weight from its parts and value (for example their bytes)
   */
  constructor(
    private readonly limit: number,
    private readonly weigh: (parts: readonly Uint8Array[], value: V) => number,
  ) {}

  /** Total weight held. */
  get weight(): number {
    return this.held;
  }

  /** Entries held. */
  get size(): number {
    return this.recency.size;
  }

  /** The value for these parts and tag, made by `make` the first time. */
  take(parts: readonly Uint8Array[], tag: string, make: () => V): V {
    let key = 0x811c9dc5;
    for (const p of parts) key = Math.imul(key ^ hashBytes(p), 0x01000193) >>> 0;
    const bucket = this.buckets.get(key);
    const hit = bucket?.find(
      (e) => e.tag === tag && e.parts.length === parts.length && e.parts.every((p, i) => sameBytes(p, parts[i])),
    );
    if (hit) {
      this.recency.delete(hit);
      this.recency.add(hit);
      return hit.value;
    }
    const value = make();
    const entry: Entry<V> = { key, tag, parts: parts.map((p) => p.slice()), value, weight: 0 };
    entry.weight = this.weigh(entry.parts, value);
    if (bucket) bucket.push(entry);
    else this.buckets.set(key, [entry]);
    this.recency.add(entry);
    this.held += entry.weight;
    for (const old of this.recency) {
      if (this.held <= this.limit || old === entry) break;
      this.recency.delete(old);
      const b = this.buckets.get(old.key)!;
      b.splice(b.indexOf(old), 1);
      if (b.length === 0) this.buckets.delete(old.key);
      this.held -= old.weight;
    }
    return value;
  }
}
