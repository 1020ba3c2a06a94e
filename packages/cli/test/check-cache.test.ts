/** check/cache.ts: the content-hash cache of `slmesh check --cache`. */

import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRICING_DEFAULTS } from '../src/check/budget.js';
import { assetDigest, cacheKey, readCacheEntry, writeCacheEntry } from '../src/check/cache.js';
import { priceAsset } from '../src/check/price-asset.js';
import { asset } from './check-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'slmesh-cache-'));

describe('assetDigest', () => {
  it('changes with the asset bytes and with each sibling LOD file', async () => {
    const dir = tmp();
    for (const f of ['vase.glb', 'vase_LOD2.glb', 'vase_LOD1.glb']) copyFileSync(asset(f), join(dir, f));
    const main = join(dir, 'vase.glb');
    const d1 = await assetDigest(main, true);
    expect(d1).toMatch(/^[0-9a-f]{64}$/);
    expect(await assetDigest(main, true)).toBe(d1);
    copyFileSync(asset('vase_LOD0.glb'), join(dir, 'vase_LOD0.glb')); // a sibling appears
    const d2 = await assetDigest(main, true);
    expect(d2).not.toBe(d1);
    copyFileSync(asset('vase_LOD1.glb'), join(dir, 'vase_LOD2.glb')); // a sibling changes
    const d3 = await assetDigest(main, true);
    expect(d3).not.toBe(d2);
    expect(await assetDigest(main, false)).not.toBe(d3); // siblings not read: not hashed
    copyFileSync(asset('cube.glb'), main); // the asset changes
    expect(await assetDigest(main, true)).not.toBe(d3);
  });

  it('covers the external buffers of a .gltf; nothing for unreadable files', async () => {
    const dir = tmp();
    const gltf = join(dir, 'm.gltf');
    writeFileSync(gltf, JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: 'm.bin', byteLength: 4 }] }));
    writeFileSync(join(dir, 'm.bin'), new Uint8Array([1, 2, 3, 4]));
    const d1 = await assetDigest(gltf, true);
    writeFileSync(join(dir, 'm.bin'), new Uint8Array([1, 2, 3, 5]));
    expect(await assetDigest(gltf, true)).not.toBe(d1);
    rmSync(join(dir, 'm.bin'));
    expect(await assetDigest(gltf, true)).toBeUndefined();
    expect(await assetDigest(asset('broken/truncated.glb'), true)).toBeUndefined();
    expect(await assetDigest(join(dir, 'missing.glb'), true)).toBeUndefined();
  });
});

describe('cacheKey', () => {
  const base = { path: 'props/a.glb', digest: 'd', version: '0.1.0', pricing: PRICING_DEFAULTS, sizes: [] as number[] };
  it('changes with the version, the pricing, the sizes, the path and the digest', () => {
    const k = cacheKey(base);
    expect(cacheKey({ ...base })).toBe(k);
    expect(cacheKey({ ...base, pricing: { ...PRICING_DEFAULTS } })).toBe(k); // same options, another object
    for (const changed of [
      { version: '0.2.0' },
      { pricing: { ...PRICING_DEFAULTS, animesh: true } },
      { pricing: { ...PRICING_DEFAULTS, scripts: 1 } },
      { sizes: [4] },
      { path: 'props/b.glb' },
      { digest: 'e' },
    ]) {
      expect(cacheKey({ ...base, ...changed }), JSON.stringify(changed)).not.toBe(k);
    }
  });
});

describe('cache entries', () => {
  it('round-trip exactly what pricing produced; corrupt or foreign entries are misses', async () => {
    const dir = tmp();
    const r = await priceAsset({ path: asset('chair.glb'), pricing: PRICING_DEFAULTS, sizes: [2] });
    if (!('json' in r)) throw new Error('chair did not price');
    const key = 'ab'.repeat(32);
    expect(await readCacheEntry(dir, key)).toBeUndefined();
    await writeCacheEntry(dir, key, r.json);
    expect(JSON.stringify(await readCacheEntry(dir, key))).toBe(r.json);
    const files = readdirSync(join(dir, 'ab'));
    expect(files).toEqual([`${key}.json`]); // no temporary file left behind

    const other = 'cd'.repeat(32);
    await writeCacheEntry(dir, other, r.json);
    copyFileSync(join(dir, 'ab', `${key}.json`), join(dir, 'cd', `${other}.json`)); // an entry under the wrong name
    expect(await readCacheEntry(dir, other)).toBeUndefined();
    writeFileSync(join(dir, 'ab', `${key}.json`), readFileSync(join(dir, 'ab', `${key}.json`), 'utf8').slice(0, 100));
    expect(await readCacheEntry(dir, key)).toBeUndefined();
  });
});
