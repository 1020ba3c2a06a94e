/** `slmesh init` end to end: a starting budget that validates, passes today and catches growth. */

import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { budgetFor, groupByFolder, niceCeil } from '../src/commands/init.js';
import { asset, priced, project, root, slmesh } from './check-fixtures.js';

describe('slmesh init', () => {
  it('writes a commented budget from the assets found, which validates and which check passes', () => {
    const dir = project({
      'props/chair.glb': 'chair.glb',
      'props/small/cube.glb': 'cube.glb',
      'deco/vase.glb': 'vase.glb',
      'deco/vase_LOD2.glb': 'vase_LOD2.glb',
      'deco/vase_LOD1.glb': 'vase_LOD1.glb',
      'deco/vase_LOD0.glb': 'vase_LOD0.glb',
      'deco/vase_PHYS.glb': 'vase_PHYS.glb',
      'top.glb': 'bead-5cm.glb',
    });
    const r = slmesh(dir, 'init');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('wrote slmesh.budget.json: 3 rules for 4 assets; run `slmesh check` to gate on it\n');
    const budget = JSON.parse(readFileSync(join(dir, 'slmesh.budget.json'), 'utf8'));
    const schema = JSON.parse(readFileSync(join(root, 'docs/budget.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    expect(validate(budget), JSON.stringify(validate.errors)).toBe(true);
    expect(budget['//'].join(' ')).toContain('slmesh init');
    expect(budget.rules.map((x: { files: string }) => x.files)).toEqual(['*.glb', 'deco/**/*.glb', 'props/**/*.glb']);
    const deco = budget.rules[1];
    expect(deco.requiredLods).toEqual(['medium', 'low', 'lowest', 'physics']); // every deco asset has them
    expect(budget.rules[2].requiredLods).toBeUndefined();
    expect(deco['//'].join(' ')).toContain('deco/vase.glb');

    const check = slmesh(dir, 'check');
    expect(check.status, check.stdout + check.stderr).toBe(0);
    // Growth beyond the headroom fails.
    copyFileSync(asset('suzanne.glb'), join(dir, 'props/small/cube.glb'));
    expect(slmesh(dir, 'check').status).toBe(1);
  });

  it('keeps an existing budget unless --force; unreadable assets stop it with nothing written', () => {
    const dir = project({ 'a/cube.glb': 'cube.glb' });
    writeFileSync(join(dir, 'slmesh.budget.json'), '{"rules": []}');
    const kept = slmesh(dir, 'init');
    expect(kept.status).toBe(2);
    expect(kept.stderr).toBe('slmesh: slmesh.budget.json: already exists (use --force to overwrite it)\n');
    expect(readFileSync(join(dir, 'slmesh.budget.json'), 'utf8')).toBe('{"rules": []}');
    expect(slmesh(dir, 'init', '--force').status).toBe(0);

    const bad = project({ 'a/cube.glb': 'cube.glb', 'a/broken.glb': 'broken/bad-json.glb' });
    const r = slmesh(bad, 'init');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^slmesh: a\/broken\.glb: /);
    expect(existsSync(join(bad, 'slmesh.budget.json'))).toBe(false);
  });
});

describe('init helpers', () => {
  it('niceCeil rounds up to two significant digits, never below', () => {
    expect(niceCeil(4.12)).toBe(4.2);
    expect(niceCeil(7872)).toBe(7900);
    expect(niceCeil(0.0561)).toBe(0.057);
    expect(niceCeil(20)).toBe(20);
    expect(niceCeil(0)).toBe(0);
    for (const x of [0.123456, 1.0000001, 99.99, 12345.6]) expect(niceCeil(x)).toBeGreaterThanOrEqual(x);
  });

  it('groups by top folder, descending while everything shares one', () => {
    expect(
      groupByFolder(['assets/props/a.glb', 'assets/props/x/b.glb', 'assets/deco/c.glb']).map((g) => [
        g.folder,
        g.direct,
      ]),
    ).toEqual([
      ['assets/deco', false],
      ['assets/props', false],
    ]);
    expect(groupByFolder(['a.glb', 'p/b.glb']).map((g) => [g.folder, g.direct])).toEqual([
      ['', true],
      ['p', false],
    ]);
    expect(groupByFolder(['only/one/a.glb']).map((g) => g.folder)).toEqual(['only']);
  });

  it('limits are the largest value plus headroom', async () => {
    const chair = await priced('chair.glb');
    const b = budgetFor([{ rel: 'p/chair.glb', report: chair.report }], 10) as { rules: Record<string, unknown>[] };
    expect(b.rules[0].maxLandImpact).toBe(niceCeil(chair.report.linkset.landImpact * 1.1));
    expect(b.rules[0].maxLandImpact as number).toBeGreaterThan(chair.report.linkset.landImpact);
    expect(b.rules[0].maxPrims).toBeGreaterThanOrEqual(6);
  });
});
