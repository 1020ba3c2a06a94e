/** check/table.ts: the readable default output. */

import { describe, expect, it } from 'vitest';
import { formatCheckTable } from '../src/check/table.js';
import { checkRun } from './check-fixtures.js';

describe('formatCheckTable', () => {
  it('a row per asset and rule, then each failure as path: number > limit (+N%)', async () => {
    const run = await checkRun(
      { 'props/chair.glb': 'chair.glb', 'props/cube.glb': 'cube.glb', 'loose.glb': 'cube.glb' },
      { rules: [{ name: 'props', files: 'props/*.glb', maxLandImpact: 5, maxPrims: 4 }] },
    );
    const out = formatCheckTable(run);
    const lines = out.split('\n');
    expect(lines[0]).toBe('slmesh check: 2 of 3 assets over budget (budget slmesh.budget.json)');
    expect(lines.find((l) => l.startsWith('props/chair.glb'))).toMatch(
      /^props\/chair\.glb\s+props\s+[\d.]+\s+.*\s6\s+OVER$/,
    );
    expect(lines.find((l) => l.startsWith('props/cube.glb'))).toMatch(/\sok$/);
    expect(lines.find((l) => l.startsWith('loose.glb'))).toMatch(/\(none\).*NO RULE$/);
    const li = run.assets[1].report.linkset.landImpact;
    expect(out).toContain(
      `  props/chair.glb: land impact ${run.assets[1].rules[0].checks[0].message.split(' ')[2]} > 5 (+${Math.round(((li - 5) / 5) * 100)}%)  [rule props]`,
    );
    expect(out).toContain('  props/chair.glb: prims 6 > 4 (+50%)  [rule props]');
    expect(out).toContain('  loose.glb: no budget rule matches this asset');
    expect(lines.at(-2)).toBe('2 of 3 assets over budget.');
  });

  it('shows the baseline changes', async () => {
    const run = await checkRun(
      { 'a.glb': 'cube.glb' },
      { rules: [{ files: '*.glb' }] },
      {
        baseline: {
          'a.glb': {
            landImpact: 0.25,
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
        maxIncrease: 10,
        removed: ['old.glb'],
      },
    );
    const out = formatCheckTable(run);
    expect(out).toContain('changes from the baseline main.json (an increase over 10% fails):');
    expect(out).toContain('  a.glb: land impact 0.25 -> 0.5 (+100%, more than the 10% allowed)');
    expect(out).toContain('  old.glb: removed');
    expect(out).toMatch(/a\.glb\s+\*\.glb.*ok, regressed$/m);
  });
});
