/** check/baseline.ts: regression mode against an earlier report. */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCostReport } from '@slmesh/gltf-plugin/node';
import { describe, expect, it } from 'vitest';
import { baselineValues, compareWithBaseline, loadBaseline, type BaselineValues } from '../src/check/baseline.js';
import { PRICING_DEFAULTS } from '../src/check/budget.js';
import { priced } from './check-fixtures.js';

const values = (over: Partial<BaselineValues> = {}): BaselineValues => ({
  landImpact: 4,
  download: 4,
  physics: 1,
  server: 0.5,
  'triangles.high': 1000,
  'triangles.medium': 300,
  'triangles.low': 100,
  'triangles.lowest': 30,
  prims: 1,
  ...over,
});

describe('compareWithBaseline', () => {
  it('lists nothing for an unchanged asset, and marks a new one', () => {
    expect(compareWithBaseline(values(), values(), 0)).toEqual({ status: 'compared', ok: true, changes: [] });
    expect(compareWithBaseline(values(), undefined, 0)).toEqual({ status: 'new', ok: true, changes: [] });
  });

  it('fails an increase above --max-increase, passes one within it, lists decreases', () => {
    const r = compareWithBaseline(values({ landImpact: 4.4, download: 4.1, 'triangles.high': 900 }), values(), 5);
    expect(r.ok).toBe(false);
    const byMetric = Object.fromEntries(r.changes.map((c) => [c.metric, c]));
    expect(byMetric.landImpact).toMatchObject({ before: 4, after: 4.4, ok: false });
    expect(byMetric.landImpact.changePercent).toBeCloseTo(10, 9);
    expect(byMetric.landImpact.message).toBe('land impact 4 -> 4.4 (+10%, more than the 5% allowed)');
    expect(byMetric.download).toMatchObject({ ok: true });
    expect(byMetric.download.message).toBe('download weight 4 -> 4.1 (+2.5%)');
    expect(byMetric['triangles.high'].message).toBe('high LOD triangles 1,000 -> 900 (-10%)');
    expect(r.changes).toHaveLength(3);
    expect(compareWithBaseline(values({ landImpact: 4.4 }), values(), 10).ok).toBe(true); // exactly 10% is allowed
  });

  it('with the default of 0%, any increase fails; growth from 0 fails at any percentage', () => {
    expect(compareWithBaseline(values({ server: 0.5000001 }), values(), 0).ok).toBe(false);
    const r = compareWithBaseline(values({ physics: 0.1 }), values({ physics: 0 }), 1000);
    expect(r.ok).toBe(false);
    expect(r.changes[0]).toMatchObject({ changePercent: null });
    expect(r.changes[0].message).toContain('was 0');
  });
});

describe('loadBaseline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-baseline-'));
  const write = (name: string, json: unknown) => {
    writeFileSync(join(dir, name), JSON.stringify(json));
    return name;
  };

  it('reads a slmesh cost report, keyed by path relative to cwd', async () => {
    const chair = await priced('chair.glb');
    const report = makeCostReport(
      [{ ...chair.report, path: './props/chair.glb' }],
      { lodFactor: 2, animesh: false, linkabilityRule: 'current' },
      '0.1.0',
    );
    const b = await loadBaseline(write('base.json', report), PRICING_DEFAULTS, dir);
    expect([...b.assets.keys()]).toEqual(['props/chair.glb']);
    expect(b.assets.get('props/chair.glb')).toEqual(baselineValues(chair.report));
  });

  it('refuses a baseline priced another way, or not a slmesh report, naming the file and field', async () => {
    const cube = (await priced('cube.glb')).report;
    const settings = { lodFactor: 2, animesh: false, linkabilityRule: 'current' as const };
    await expect(
      loadBaseline(
        write('sized.json', { ...makeCostReport([cube], { ...settings, size: { longestSide: 2 } }, '0.1.0') }),
        PRICING_DEFAULTS,
        dir,
      ),
    ).rejects.toThrow('sized.json: settings.size: the baseline was priced at another size');
    await expect(
      loadBaseline(
        write('anim.json', makeCostReport([cube], { ...settings, animesh: true }, '0.1.0')),
        PRICING_DEFAULTS,
        dir,
      ),
    ).rejects.toThrow('anim.json: settings.animesh: is true, the budget prices animesh false');
    await expect(loadBaseline(write('other.json', { files: [] }), PRICING_DEFAULTS, dir)).rejects.toThrow(
      'other.json: generator.name: is not "slmesh"',
    );
    const broken = makeCostReport([cube], settings, '0.1.0') as unknown as {
      files: { linkset: { landImpact: unknown } }[];
    };
    broken.files[0].linkset.landImpact = 'big';
    await expect(loadBaseline(write('broken.json', broken), PRICING_DEFAULTS, dir)).rejects.toThrow(
      'broken.json: files[0].linkset.landImpact: must be a finite number',
    );
    await expect(loadBaseline('missing.json', PRICING_DEFAULTS, dir)).rejects.toThrow(
      'missing.json: no such baseline report',
    );
    writeFileSync(join(dir, 'text.json'), 'not json');
    await expect(loadBaseline('text.json', PRICING_DEFAULTS, dir)).rejects.toThrow(/^text\.json: not valid JSON/);
  });
});
