/** check/markdown.ts: the pull-request comment / step summary. */

import { describe, expect, it } from 'vitest';
import { cell, formatMarkdown } from '../src/check/markdown.js';
import { checkRun } from './check-fixtures.js';

describe('formatMarkdown', () => {
  it('heads with the verdict and tabulates what fails and by how much', async () => {
    const run = await checkRun(
      { 'props/chair.glb': 'chair.glb', 'props/cube.glb': 'cube.glb' },
      { rules: [{ name: 'props', files: 'props/*.glb', maxLandImpact: 5, maxPrims: 4 }] },
      { shard: { index: 1, count: 2 } },
    );
    const md = formatMarkdown(run);
    const lines = md.split('\n');
    expect(lines[0]).toBe('### ❌ slmesh check: 1 of 2 assets over budget (shard 1/2)');
    expect(md).toContain('budget `slmesh.budget.json` · shard 1/2');
    expect(md).toContain('| `props/chair.glb` | props | prims 6 > 4 (+50%) |');
    expect(md).toMatch(/\| ❌ \| `props\/chair\.glb` \| [\d.]+ \|/);
    expect(md).toMatch(/\| ✅ \| `props\/cube\.glb` \|/);
    // Every table row has the header's number of cells.
    for (const table of md.split(/\n\n/).filter((b) => b.startsWith('|'))) {
      const rows = table.split('\n').filter((l) => l.startsWith('|'));
      const n = (l: string) => l.replace(/\\\|/g, '').split('|').length;
      for (const r of rows) expect(n(r)).toBe(n(rows[0]));
    }
  });

  it('lists baseline changes and removed assets; a passing run says so', async () => {
    const run = await checkRun(
      { 'a.glb': 'cube.glb', 'b.glb': 'cube.glb' },
      { rules: [{ files: '*.glb' }] },
      {
        baseline: {
          'a.glb': {
            landImpact: 0.4,
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
        maxIncrease: 50,
        removed: ['gone.glb'],
      },
    );
    const md = formatMarkdown(run);
    expect(md.split('\n')[0]).toBe('### ✅ slmesh check: all 2 assets within budget');
    expect(md).toContain('| `a.glb` | land impact | 0.4 | 0.5 | +25.0% |');
    expect(md).toContain('| `b.glb` | new | | | |');
    expect(md).toContain('| `gone.glb` | removed | | | |');
  });

  it('escapes table cells', () => {
    expect(cell('a|b*c<d')).toBe('a\\|b\\*c\\<d');
  });
});
