/** check/shard.ts: --shard i/n splits assets over CI machines. */

import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from '../src/check/shard.js';

describe('shards', () => {
  const paths = Array.from({ length: 500 }, (_, i) => `assets/${i % 7}/model-${i}.glb`);

  it('puts every path in exactly one shard, for any n', () => {
    for (const n of [1, 2, 3, 4, 7, 16]) {
      const seen = new Map<string, number>();
      for (let i = 1; i <= n; i++)
        for (const p of paths.filter((x) => inShard(x, { index: i, count: n }))) seen.set(p, (seen.get(p) ?? 0) + 1);
      expect(seen.size).toBe(paths.length);
      expect([...seen.values()].every((k) => k === 1)).toBe(true);
    }
  });

  it('depends only on the path and n (not on the other paths or their order)', () => {
    const a = paths.map((p) => shardOf(p, 4));
    const b = [...paths]
      .reverse()
      .map((p) => shardOf(p, 4))
      .reverse();
    expect(a).toEqual(b);
    expect(shardOf('x.glb', 4)).toBe(shardOf('x.glb', 4));
  });

  it('spreads paths over the shards', () => {
    const counts = [0, 0, 0, 0];
    for (const p of paths) counts[shardOf(p, 4) - 1]++;
    for (const c of counts) expect(c).toBeGreaterThan(80); // 125 expected each
  });

  it('parses i/n and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '2', '1/2/3', '-1/2'])
      expect(() => parseShard(bad)).toThrow(/--shard/);
    expect(inShard('x', undefined)).toBe(true);
  });
});
