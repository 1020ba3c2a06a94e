/**
 * `slmesh check` end to end through the built bin, on copies of the bundled Blender exports in
 * temp folders: exit statuses, every output format, the baseline, shards and the cache.
 */

import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { asset, parseJunit, project, root, slmesh } from './check-fixtures.js';

const FILES = {
  'props/chair.glb': 'chair.glb',
  'props/cube.glb': 'cube.glb',
  'props/vase.glb': 'vase.glb',
  'props/vase_LOD2.glb': 'vase_LOD2.glb',
  'props/vase_LOD1.glb': 'vase_LOD1.glb',
  'props/vase_LOD0.glb': 'vase_LOD0.glb',
  'props/vase_PHYS.glb': 'vase_PHYS.glb',
  'deco/bead.glb': 'bead-5cm.glb',
  'deco/ball.glb': 'lod-authored.glb',
};
const ASSETS = ['deco/ball.glb', 'deco/bead.glb', 'props/chair.glb', 'props/cube.glb', 'props/vase.glb'];

const GENEROUS = {
  rules: [
    {
      name: 'everything',
      files: '**/*.glb',
      maxLandImpact: 1000,
      maxDownload: 1000,
      maxPhysics: 1000,
      maxTriangles: { high: 100000 },
      uploadable: true,
    },
  ],
};
const TIGHT = {
  rules: [
    {
      name: 'props',
      files: 'props/**/*.glb',
      maxLandImpact: 5,
      maxDownload: 4,
      maxPhysics: 2,
      maxTriangles: { high: 20000 },
    },
    { name: 'deco', files: 'deco/*.glb', maxLandImpact: 100, maxPrims: 1, atSizes: ['asset', 4] },
  ],
};

function setup(budget: unknown): string {
  const dir = project(FILES);
  writeFileSync(join(dir, 'slmesh.budget.json'), JSON.stringify(budget));
  return dir;
}

const json = (stdout: string) =>
  JSON.parse(stdout) as {
    check: Record<string, unknown>;
    files: {
      path: string;
      linkset: { landImpact: number };
      siblings: string[];
      budget: {
        ok: boolean;
        rules: {
          rule: string;
          checks: { metric: string; ok: boolean; actual: number; limit: number; message: string }[];
        }[];
        baseline?: { changes: { metric: string; ok: boolean }[] };
      };
    }[];
  };

describe('slmesh check: exit statuses', () => {
  let tight: string;
  beforeAll(() => {
    tight = setup(TIGHT);
  });

  it('exits 0 when every asset is within budget, with a row per asset', () => {
    const dir = setup(GENEROUS);
    const r = slmesh(dir, 'check');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const a of ASSETS)
      expect(r.stdout).toMatch(new RegExp(`^${a.replace('.', '\\.')}\\s+everything\\s.*\\sok$`, 'm'));
    expect(r.stdout).not.toMatch(/vase_LOD2/); // siblings are part of vase.glb, not assets
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('all 5 assets within budget.');
  });

  it('exits 1 when any is over, saying which model, which number and by how much', () => {
    const r = slmesh(tight, 'check', '--format', 'json');
    expect(r.status).toBe(1);
    const report = json(r.stdout);
    expect(report.files.map((f) => f.path)).toEqual(ASSETS);
    const chair = report.files.find((f) => f.path === 'props/chair.glb')!;
    const li = chair.budget.rules[0].checks.find((c) => c.metric === 'landImpact')!;
    expect(li.actual).toBe(chair.linkset.landImpact);
    expect(li.ok).toBe(false);
    const pct = Math.round(((li.actual - 5) / 5) * 100);
    expect(li.message).toBe(`land impact ${li.actual.toFixed(2).replace(/0+$/, '').replace(/\.$/, '')} > 5 (+${pct}%)`);
    const table = slmesh(tight, 'check');
    expect(table.status).toBe(1);
    expect(table.stdout).toContain(`  props/chair.glb: ${li.message}  [rule props]`);
    // The cube is within budget: no failure line for it.
    expect(table.stdout).not.toMatch(/^ {2}props\/cube\.glb:/m);
  });

  it('exits 2 for a missing or invalid budget: one line naming the file and the JSON path, nothing on stdout', () => {
    const missing = slmesh(tight, 'check', '--budget', 'nope.json');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('slmesh: nope.json: no such budget file (slmesh init writes a starting one)\n');
    writeFileSync(
      join(tight, 'bad.budget.json'),
      JSON.stringify({ rules: [{ files: 'props/*.glb', maxTriangles: { high: 'many' } }] }),
    );
    const bad = slmesh(tight, 'check', '--budget', 'bad.budget.json');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      'slmesh: bad.budget.json: rules[0].maxTriangles.high: must be a whole number, got "many"\n',
    );
  });

  it('exits 2 when an asset cannot be read (fails closed), writing no output file', () => {
    const dir = setup(GENEROUS);
    copyFileSync(asset('broken/truncated.glb'), join(dir, 'props/broken.glb'));
    const r = slmesh(dir, 'check', '--jobs', '2', '--format', 'junit=out/report.xml', '--format', 'json');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^slmesh: props\/broken\.glb: truncated GLB/)]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    // Named on the command line, a missing file or a glob matching nothing is also exit 2.
    expect(slmesh(dir, 'check', 'props/missing.glb').stderr).toBe('slmesh: props/missing.glb: no such file\n');
    expect(slmesh(dir, 'check', 'nothing/*.glb').status).toBe(2);
  });

  it('an asset no rule matches fails (exit 1); an ignored one is not checked', () => {
    const dir = setup({ ignore: 'deco/bead.glb', rules: [{ files: 'props/*.glb', maxLandImpact: 1000 }] });
    const r = slmesh(dir, 'check', '**/*.glb');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('  deco/ball.glb: no budget rule matches this asset');
    expect(r.stdout).not.toContain('deco/bead.glb');
    expect(slmesh(dir, 'check', 'props').status).toBe(0);
  });

  it('runs from any folder: a budget elsewhere, assets named by absolute path', () => {
    const r = slmesh(root, 'check', '--budget', join(tight, 'slmesh.budget.json'), '--format', 'github');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`::error file=${join(tight, 'props/chair.glb')},title=slmesh%3A over budget::`);
    const generous = join(tight, 'generous.json');
    writeFileSync(generous, JSON.stringify(GENEROUS));
    const abs = slmesh(root, 'check', join(tight, 'props/cube.glb'), asset('cube.glb'), '--budget', generous);
    expect(abs.stderr).toBe('');
    expect(abs.status).toBe(0); // "**/*.glb" applies to a file outside the budget's folder too
    expect(abs.stdout).toContain('test-assets/cube.glb ');
  });

  it('usage mistakes exit 2 with one line', () => {
    for (const args of [
      ['--shard', '3/2'],
      ['--format', 'xml'],
      ['--max-increase', '5'],
      ['--jobs', '0'],
      ['--format', 'json', '--format', 'table'],
    ]) {
      const r = slmesh(tight, 'check', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  });
});

describe('slmesh check: formats', () => {
  let dir: string;
  let multi: ReturnType<typeof slmesh>;
  beforeAll(() => {
    dir = setup(TIGHT);
    // One run, several outputs: files written whole, the table on stdout.
    multi = slmesh(
      dir,
      'check',
      '--format',
      'markdown=out/summary.md',
      '--format',
      'json=out/report.json',
      '--format',
      'junit=out/junit.xml',
    );
  });

  it('several outputs in one run: files written whole, the table on stdout; json matches the schema', () => {
    expect(multi.status).toBe(1);
    expect(multi.stdout).toMatch(/^slmesh check: \d of 5 assets over budget/);
    expect(readFileSync(join(dir, 'out/summary.md'), 'utf8')).toMatch(
      /^### ❌ slmesh check: \d of 5 assets over budget/,
    );
    const schema = JSON.parse(readFileSync(join(root, 'docs/cost-report.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    expect(
      validate(JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'))),
      JSON.stringify(validate.errors?.slice(0, 3)),
    ).toBe(true);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['junit.xml', 'report.json', 'summary.md']); // no temporary files
  });

  it('junit: parses, one testcase per asset x rule, failures say what is over', () => {
    const doc = parseJunit(readFileSync(join(dir, 'out/junit.xml'), 'utf8'));
    expect(doc.suites.map((s) => s.name)).toEqual(['props', 'deco']);
    expect(doc.suites[0].cases.map((c) => c.name)).toEqual(['props/chair.glb', 'props/cube.glb', 'props/vase.glb']);
    expect(doc.suites[1].cases.map((c) => c.name)).toEqual(['deco/ball.glb', 'deco/bead.glb']);
    expect(doc.tests).toBe(5);
    const chair = doc.suites[0].cases[0];
    expect(chair.file).toBe('props/chair.glb');
    expect(chair.failure).toMatch(/^props\/chair\.glb: land impact [\d.]+ > 5 \(\+\d+%\)$/m);
    expect(doc.suites[0].cases[1].failure).toBeNull();
    expect(doc.failures).toBe(doc.suites.flatMap((s) => s.cases).filter((c) => c.failure).length);
    const report = json(readFileSync(join(dir, 'out/report.json'), 'utf8'));
    expect(doc.failures).toBe(
      report.files.flatMap((f) => f.budget.rules).filter((r) => r.checks.some((c) => !c.ok)).length,
    );
  });

  it('github: an ::error annotation on each failing asset file, and nothing for the others', () => {
    const full = json(readFileSync(join(dir, 'out/report.json'), 'utf8'));
    const failing = full.files.filter((f) => !f.budget.ok).map((f) => f.path);
    expect(failing.length).toBeGreaterThan(0);
    const r = slmesh(dir, 'check', '--format', 'github');
    expect(r.status).toBe(1);
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    const files = annotations.map((l) => /^::error file=([^,]+),title=[^:]+::/.exec(l)![1]);
    expect(files).toEqual(failing);
    for (const f of files) expect(existsSync(join(dir, f))).toBe(true);
    expect(annotations[failing.indexOf('props/chair.glb')]).toMatch(
      /::props\/chair\.glb: land impact [\d.]+ > 5 \(\+\d+%25\)/,
    );
  });
});

describe('slmesh check --baseline', () => {
  it('passes an unchanged run, fails a grown asset listing what changed, honours --max-increase', () => {
    const dir = setup(GENEROUS);
    // main's report, from `slmesh cost --json` (a check --format json report works the same).
    const base = slmesh(dir, 'cost', '--json', ...ASSETS);
    expect(base.status).toBe(0);
    writeFileSync(join(dir, 'main.json'), base.stdout);
    const same = slmesh(dir, 'check', '--baseline', 'main.json');
    expect(same.status).toBe(0);
    expect(same.stdout).toContain('changes from the baseline main.json (an increase over 0% fails):\n  none');

    copyFileSync(asset('beveled-cube-3mat.glb'), join(dir, 'props/cube.glb')); // the cube grows: 12 -> 188 triangles
    const grown = slmesh(dir, 'check', '--baseline', 'main.json', '--max-increase', '5', '--format', 'json');
    expect(grown.status).toBe(1);
    const cube = json(grown.stdout).files.find((f) => f.path === 'props/cube.glb')!;
    expect(cube.budget.rules[0].checks.every((c) => c.ok)).toBe(true); // within budget, but regressed
    expect(cube.budget.baseline!.changes.find((c) => c.metric === 'triangles.high')).toMatchObject({ ok: false });
    const table = slmesh(dir, 'check', '--baseline', 'main.json', '--max-increase', '5');
    expect(table.stdout).toContain('  props/cube.glb: high LOD triangles 12 -> 188 (+1467%, more than the 5% allowed)');
    expect(slmesh(dir, 'check', '--baseline', 'main.json', '--max-increase', '100000').status).toBe(0);

    // A check --format json report is a baseline too; one priced at another size is refused.
    writeFileSync(join(dir, 'check.json'), slmesh(dir, 'check', '--format', 'json').stdout);
    expect(slmesh(dir, 'check', '--baseline', 'check.json').status).toBe(0);
    writeFileSync(join(dir, 'sized.json'), slmesh(dir, 'cost', '--json', '--size', '2', 'props/cube.glb').stdout);
    const sized = slmesh(dir, 'check', '--baseline', 'sized.json');
    expect(sized.status).toBe(2);
    expect(sized.stderr).toMatch(/^slmesh: sized\.json: settings\.size: /);
  });
});

describe('slmesh check at scale: shards, workers, cache', () => {
  let dir: string;
  let full: string;
  beforeAll(() => {
    dir = setup(TIGHT);
    full = slmesh(dir, 'check', '--format', 'json', '--jobs', '1').stdout;
  });

  it('--shard i/n: every asset in exactly one shard, with the same results as the full run', () => {
    const all = json(full).files;
    for (const n of [3]) {
      const seen: string[] = [];
      for (let i = 1; i <= n; i++) {
        const r = slmesh(dir, 'check', '--shard', `${i}/${n}`, '--format', 'json');
        expect([0, 1]).toContain(r.status);
        const part = json(r.stdout);
        expect(part.check.shard).toEqual({ index: i, count: n });
        for (const f of part.files) expect(f).toEqual(all.find((x) => x.path === f.path));
        seen.push(...part.files.map((f) => f.path));
      }
      expect(seen.sort()).toEqual(ASSETS);
    }
  });

  it('worker threads give the same report as one thread', () => {
    expect(slmesh(dir, 'check', '--format', 'json', '--jobs', '2').stdout).toBe(full);
  });

  it("--cache: a warm run gives the cold run's report byte for byte, and a changed sibling is priced again", () => {
    const cache = mkdtempSync(join(tmpdir(), 'slmesh-check-cache-'));
    const cold = slmesh(dir, 'check', '--format', 'json', '--cache', cache, '--verbose');
    expect(cold.stderr).toContain('0 cached, 5 to price');
    expect(cold.stdout).toBe(full);
    const warm = slmesh(dir, 'check', '--format', 'json', '--cache', cache, '--verbose');
    expect(warm.stderr).toContain('5 cached, 0 to price');
    expect(warm.stdout).toBe(cold.stdout);

    // A sibling LOD file changes: the vase is priced again, and the others still come from the cache.
    copyFileSync(asset('vase_LOD1.glb'), join(dir, 'props/vase_LOD0.glb'));
    const after = slmesh(dir, 'check', '--format', 'json', '--cache', cache, '--verbose');
    expect(after.stderr).toContain('4 cached, 1 to price');
    expect(after.stdout).toBe(slmesh(dir, 'check', '--format', 'json').stdout);
    expect(after.stdout).not.toBe(cold.stdout);
    copyFileSync(asset('vase_LOD0.glb'), join(dir, 'props/vase_LOD0.glb'));

    // A damaged entry is a miss, not a wrong answer.
    for (const sub of readdirSync(cache))
      for (const f of readdirSync(join(cache, sub))) writeFileSync(join(cache, sub, f), '{"key":');
    const repaired = slmesh(dir, 'check', '--format', 'json', '--cache', cache, '--verbose');
    expect(repaired.stderr).toContain('0 cached, 5 to price');
    expect(repaired.stdout).toBe(full);
    rmSync(cache, { recursive: true, force: true });
  });
});
