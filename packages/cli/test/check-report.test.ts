/** check/check-report.ts: the JSON of `slmesh check --format json` and the shared wording. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkReport, failureLines, formatJson, verdict } from '../src/check/check-report.js';
import { checkRun, root } from './check-fixtures.js';

const schema = JSON.parse(readFileSync(join(root, 'docs/cost-report.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

const BUDGET = {
  rules: [
    { name: 'props', files: 'props/**/*.glb', maxLandImpact: 5, maxTriangles: { high: 400 }, atSizes: ['asset', 3] },
  ],
};

describe('check report JSON', () => {
  it('is the cost report with budget results per file and a summary, and matches the published schema', async () => {
    const run = await checkRun(
      { 'props/chair.glb': 'chair.glb', 'props/cube.glb': 'cube.glb', 'loose.glb': 'cube.glb' },
      BUDGET,
      {
        baseline: {
          'props/cube.glb': {
            landImpact: 0.1,
            download: 0.06,
            physics: 0.36,
            server: 0.5,
            'triangles.high': 12,
            'triangles.medium': 12,
            'triangles.low': 12,
            'triangles.lowest': 12,
            prims: 1,
          },
        },
      },
    );
    const json = JSON.parse(formatJson(run));
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(json.files.map((f: { path: string }) => f.path)).toEqual(['loose.glb', 'props/chair.glb', 'props/cube.glb']);
    expect(json.check).toMatchObject({ budget: 'slmesh.budget.json', ok: false, assets: 3, passed: 0, failed: 3 });
    expect(json.files[0].budget).toMatchObject({ ok: false, unmatched: true, rules: [] });
    const chair = json.files[1].budget.rules[0];
    expect(chair.rule).toBe('props');
    expect(
      chair.checks.map((c: { metric: string; size?: number }) => `${c.metric}${c.size ? `@${c.size}` : ''}`),
    ).toEqual(['landImpact', 'landImpact@3', 'triangles.high']);
    expect(json.files[2].budget.baseline.changes[0]).toMatchObject({
      metric: 'landImpact',
      before: 0.1,
      after: 0.5,
      ok: false,
    });
    expect(checkReport(run).files[1].linkset).toEqual(run.assets[1].report.linkset);
  });

  it('failure lines and the verdict', async () => {
    const run = await checkRun({ 'props/chair.glb': 'chair.glb', 'props/cube.glb': 'cube.glb' }, BUDGET, {
      shard: { index: 2, count: 3 },
    });
    expect(failureLines(run.assets[0]).map((f) => f.message)).toEqual(
      run.assets[0].rules[0].checks.filter((c) => !c.ok).map((c) => c.message),
    );
    expect(failureLines(run.assets[1])).toEqual([]);
    expect(verdict(run)).toBe('1 of 2 assets over budget (shard 2/3)');
    const ok = await checkRun({ 'props/cube.glb': 'cube.glb' }, BUDGET);
    expect(verdict(ok)).toBe('the asset is within budget');
  });
});
