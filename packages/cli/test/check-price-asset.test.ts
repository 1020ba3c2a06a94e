/** check/price-asset.ts: the unit of work of the pool and the cache. */

import { describe, expect, it } from 'vitest';
import { reportFile } from '@slmesh/gltf-plugin/node';
import { PRICING_DEFAULTS } from '../src/check/budget.js';
import { jsonReplacer, priceAsset } from '../src/check/price-asset.js';
import { asset } from './check-fixtures.js';

describe('priceAsset', () => {
  it("gives the cost report of `slmesh cost` at the asset's own size, and the linkset at each size asked", async () => {
    const r = await priceAsset({ path: asset('lod-authored.glb'), pricing: PRICING_DEFAULTS, sizes: [0.5, 8] });
    if (!('json' in r)) throw new Error(r.error.message);
    const got = JSON.parse(r.json);
    const own = await reportFile(asset('lod-authored.glb'), { lodFactor: 2 });
    expect(got.report).toEqual(JSON.parse(JSON.stringify(own.report, jsonReplacer)));
    const at8 = await reportFile(asset('lod-authored.glb'), { lodFactor: 2, size: { longestSide: 8 } });
    expect(got.sized.map((s: { longestSide: number }) => s.longestSide)).toEqual([0.5, 8]);
    expect(got.sized[1].linkset).toEqual(JSON.parse(JSON.stringify(at8.report.linkset)));
    expect(Math.max(...got.sized[1].linkset.scale)).toBeCloseTo(8, 6);
  });

  it('writes a LOD that never shows (LOD factor 10) as a null distance, like `slmesh cost --json`', async () => {
    const pricing = { ...PRICING_DEFAULTS, lodFactor: 10 };
    const r = await priceAsset({ path: asset('bead-5cm.glb'), pricing, sizes: [] });
    if (!('json' in r)) throw new Error(r.error.message);
    const own = await reportFile(asset('bead-5cm.glb'), { lodFactor: 10 });
    expect(own.report.objects[0].switchDistances.lowest).toBe(Infinity);
    const got = JSON.parse(r.json);
    expect(got.report.objects[0].switchDistances.lowest).toBeNull();
    const medium = own.report.objects[0].switchDistances.medium;
    expect(got.report.objects[0].switchDistances.medium).toBe(Number.isFinite(medium) ? medium : null);
    expect(got.report.linkset.landImpact).toBe(own.report.linkset.landImpact);
  });

  it('returns a user error as one line naming the file, not a throw', async () => {
    const r = await priceAsset({ path: asset('broken/not-a-glb.glb'), pricing: PRICING_DEFAULTS, sizes: [] });
    expect('error' in r && r.error.internal).toBe(false);
    if (!('error' in r)) throw new Error('expected an error');
    expect(r.error.message).toContain('broken/not-a-glb.glb');
    expect(r.error.message.split('\n')).toHaveLength(1);
  });
});
