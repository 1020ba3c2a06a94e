/**
 * `--shard i/n`: splits the assets of a check over n CI machines. An asset belongs to shard
 * 1 + (first 32 bits of sha256(path)) mod n, where path is relative to the budget's folder.
 *
 * Guarantees: every asset is in exactly one shard; the assignment of a path depends only on
 * the path and n, never on which other assets exist or on the order they were found, so every
 * machine of a matrix agrees (and a baseline's assets fall in the same shards).
 */

import { createHash } from 'node:crypto';
import { SlmeshError } from '@slmesh/core';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(value: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1) || !(index >= 1) || index > count) {
    throw new SlmeshError('USAGE', `--shard takes i/n with 1 <= i <= n (e.g. 2/4), got "${value}"`);
  }
  return { index, count };
}

/** The shard (1-based) a path belongs to among `count`. */
export function shardOf(path: string, count: number): number {
  const h = createHash('sha256').update(path).digest();
  return 1 + (h.readUInt32BE(0) % count);
}

export function inShard(path: string, shard: Shard | undefined): boolean {
  return !shard || shardOf(path, shard.count) === shard.index;
}
