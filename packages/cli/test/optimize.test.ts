/**
 * `slmesh optimize` end to end, through the built bin as a user runs it (`pnpm test` builds first).
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const asset = (name: string) => join(root, 'test-assets', name);
const validator = createRequire(join(root, 'package.json'))('gltf-validator') as {
  validateBytes(b: Uint8Array, o?: object): Promise<{ issues: { numErrors: number } }>;
};
const schema = JSON.parse(readFileSync(join(root, 'docs/cost-report.schema.json'), 'utf8'));
const validateReport = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

function slmesh(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: root });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function costJson(file: string) {
  const r = slmesh('cost', '--json', file);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).files[0];
}

describe('slmesh optimize', () => {
  it('writes an uploader-ready GLB and its report, and prints land impact before and after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    const r = slmesh(
      'optimize',
      asset('suzanne.glb'),
      '-o',
      join(dir, 'out.glb'),
      '--report',
      join(dir, 'report.json'),
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // 368: Suzanne's high LOD block, its vertices in the importer's first-use order, as the viewer's zlib-ng
    // compresses it (node:zlib made it 381; in the file's own vertex order it was 367).
    expect(r.stdout).toMatch(/land impact\s+368\.\d+ -> \d+\.\d+/);
    expect(r.stdout).toMatch(/Suzanne\s+7872\s+\d+ \((\d\.\d\d px|kept)\)\s+\d+ \(\d\.\d\d px\)/);
    const bytes = new Uint8Array(readFileSync(join(dir, 'out.glb')));
    expect((await validator.validateBytes(bytes)).issues.numErrors).toBe(0);
    // Reading the output back: four LODs, high planned (never larger), LODs never growing, cheaper.
    const file = costJson(join(dir, 'out.glb'));
    const o = file.objects[0];
    expect(o.name).toBe('Suzanne');
    expect(o.lods.high.triangles).toBeLessThanOrEqual(7872);
    for (const n of ['medium', 'low', 'lowest']) expect(o.lods[n].present).toBe(true);
    expect(o.lods.medium.triangles).toBeLessThanOrEqual(o.lods.high.triangles);
    expect(o.lods.low.triangles).toBeLessThanOrEqual(o.lods.medium.triangles);
    expect(o.lods.lowest.triangles).toBeLessThanOrEqual(o.lods.low.triangles);
    expect(o.lods.lowest.triangles).toBeGreaterThan(0);
    // The report is the cost report of the output, schema-valid, with the plan alongside.
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.files[0].linkset.landImpact).toBeCloseTo(file.linkset.landImpact, 6);
    expect(report.optimize.before.landImpact).toBeGreaterThan(report.files[0].linkset.landImpact);
    expect(report.optimize.plans[0].levels).toHaveLength(3);
  });

  it('plans and prices past the Scale limit at the size the uploader uploads, and prints it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    const run = (size: string) => {
      const r = slmesh('optimize', asset('cube.glb'), '-o', join(dir, `${size}.glb`), '--size', size, '--quiet');
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    const capped = run('100');
    const at = run('63.9');
    expect(capped).toMatch(
      /^size: .* over the 63\.9 m the uploader's Scale allows an object: the uploader sets Scale to 0\.639/m,
    );
    expect(at).not.toMatch(/^size: /m);
    // The same plan and the same prices: the upload is the same.
    const li = (out: string) => out.match(/land impact\s+(\S+) -> (\S+)/)!.slice(1);
    expect(li(capped)).toEqual(li(at));
  });

  it('keeps every object with its name and face count (a 6-prim chair, 2 faces on the seat)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    expect(slmesh('optimize', asset('chair.glb'), '-o', join(dir, 'chair.glb')).status).toBe(0);
    const before = costJson(asset('chair.glb'));
    const after = costJson(join(dir, 'chair.glb'));
    expect(after.objects.map((o: { name: string }) => o.name)).toEqual(
      before.objects.map((o: { name: string }) => o.name),
    );
    after.objects.forEach((o: { faces: number; position: number[]; scale: number[] }, i: number) => {
      expect(o.faces).toBe(before.objects[i].faces);
      // Same place and size in the linkset.
      o.position.forEach((v, k) => expect(v).toBeCloseTo(before.objects[i].position[k], 6));
      o.scale.forEach((v, k) => expect(v).toBeCloseTo(before.objects[i].scale[k], 6));
    });
    expect(after.linkset.landImpact).toBeLessThan(before.linkset.landImpact);
  });

  it('writes the vase at 8 m with the chain planned at 1 px (a lods: line), as --strict-error writes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    const held = slmesh('optimize', asset('vase.glb'), '-o', join(dir, 'held.glb'), '--size', '8');
    const strict = slmesh(
      'optimize',
      asset('vase.glb'),
      '-o',
      join(dir, 'strict.glb'),
      '--size',
      '8',
      '--strict-error',
    );
    expect(held.status, held.stderr).toBe(0);
    expect(strict.status, strict.stderr).toBe(0);
    const line = held.stdout.split('\n').find((l) => l.startsWith('lods: planned with every LOD'));
    const priced = slmesh('cost', '--json', '--size', '8', join(dir, 'strict.glb'));
    const strictLi = JSON.parse(priced.stdout).files[0].linkset.landImpact as number;
    expect(line).toContain(`land impact ${strictLi.toFixed(3)} instead of`);
    for (const suffix of ['', '_LOD2', '_LOD1', '_LOD0', '_PHYS'])
      expect(existsSync(join(dir, `held${suffix}.glb`)) && readFileSync(join(dir, `held${suffix}.glb`))).toEqual(
        existsSync(join(dir, `strict${suffix}.glb`)) && readFileSync(join(dir, `strict${suffix}.glb`)),
      );
    expect(strict.stdout).not.toMatch(/^lods: planned with every LOD/m);
  });

  it('prices the chair joined into one object (a tip line), and --merge-objects writes it joined', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    const apart = slmesh('optimize', asset('chair.glb'), '-o', join(dir, 'apart.glb'));
    expect(apart.status).toBe(0);
    const tip = apart.stdout.split('\n').find((l) => l.startsWith('tip: '));
    expect(tip).toMatch(
      /these 6 objects would cost less .* land impact 3\.000 apart, (\d+\.\d+) joined.*--merge-objects/,
    );
    const joinedPrice = Number(/, (\d+\.\d+) joined/.exec(tip!)![1]);
    expect(costJson(join(dir, 'apart.glb')).objects).toHaveLength(6);

    const r = slmesh(
      'optimize',
      asset('chair.glb'),
      '-o',
      join(dir, 'joined.glb'),
      '--merge-objects',
      '--report',
      join(dir, 'r.json'),
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^objects: 6 objects joined into one, "Seat"/m);
    const after = costJson(join(dir, 'joined.glb'));
    expect(after.objects.map((o: { name: string }) => o.name)).toEqual(['Seat']);
    // One prim: what the tip said, as `slmesh cost` prices the files written.
    expect(after.linkset.prims).toBe(1);
    expect(after.linkset.landImpact).toBeCloseTo(joinedPrice, 3);
    expect(after.linkset.landImpact).toBeLessThan(costJson(join(dir, 'apart.glb')).linkset.landImpact);
    // The same place and size as the six parts together.
    const before = costJson(asset('chair.glb')).linkset.scale as number[];
    (after.linkset.scale as number[]).forEach((v, k) => expect(v).toBeCloseTo(before[k], 5));
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(validateReport(report)).toBe(true);
  });

  it('joins by default the 300 cubes, which apart cannot be linked (over 256 prims); --no-merge-objects keeps them apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    const r = slmesh('optimize', asset('prims-300.glb'), '-o', join(dir, 'joined.glb'), '-q');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^objects: 300 objects joined into one, "P000" \(apart they are 300 prims, and a linkset holds at most 256\)/m,
    );
    const joined = costJson(join(dir, 'joined.glb')).linkset;
    expect(joined.prims).toBe(1);
    expect(joined.linkable.ok).toBe(true);
    const apart = slmesh('optimize', asset('prims-300.glb'), '-o', join(dir, 'apart.glb'), '-q', '--no-merge-objects');
    expect(apart.status).toBe(0);
    expect(apart.stdout).toMatch(/^tip: joined into one object, these 300 objects would cost less/m);
    const kept = costJson(join(dir, 'apart.glb')).linkset;
    expect(kept.prims).toBe(300);
    expect(kept.linkable.ok).toBe(false);
    expect(joined.landImpact).toBeLessThan(kept.landImpact);
  });

  it('writes sibling files the viewer loads next to the main one (--split is a deprecated no-op)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    expect(slmesh('optimize', asset('beveled-cube-3mat.glb'), '-o', join(dir, 'cube.glb')).status).toBe(0);
    const again = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    expect(slmesh('optimize', asset('beveled-cube-3mat.glb'), '-o', join(again, 'cube.glb'), '--split').status).toBe(0);
    expect(readdirSync(again).sort()).toEqual(readdirSync(dir).sort());
    // The physics (default --physics auto) goes in cube_PHYS.glb, as the viewer's sibling naming has it.
    expect(readdirSync(dir).sort()).toEqual([
      'cube.glb',
      'cube_LOD0.glb',
      'cube_LOD1.glb',
      'cube_LOD2.glb',
      'cube_PHYS.glb',
    ]);
    const file = costJson(join(dir, 'cube.glb'));
    expect(file.siblings).toHaveLength(4);
    expect(file.objects[0].faces).toBe(3);
  });

  it('bad input: one line naming the file, exit 2, nothing written (not even the report)', () => {
    for (const bad of ['broken/truncated.glb', 'broken/not-a-glb.glb', 'no-such-file.glb']) {
      const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
      const r = slmesh('optimize', asset(bad), '-o', join(dir, 'out.glb'), '--report', join(dir, 'r.json'));
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(bad.split('/').pop());
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('bad options: exit 2 with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    for (const args of [
      [],
      ['-o', join(dir, 'x.gltf')],
      ['-o', join(dir, 'x.glb'), '--max-error-px', 'lots'],
      ['-o', join(dir, 'x.glb'), '--min-coverage', '2'],
      ['-o', join(dir, 'x.glb'), '--target-li', '-1'],
    ]) {
      const r = slmesh('optimize', asset('cube.glb'), ...args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(join(dir, 'x.glb'))).toBe(false);
  });

  it('--target-li: meets a reachable budget; says so and exits 1 when even the silhouette floor is over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-opt-'));
    // --target-li plans the LODs; the physics is its own choice (here the single hull).
    const ok = slmesh(
      'optimize',
      asset('suzanne.glb'),
      '-o',
      join(dir, 'a.glb'),
      '--target-li',
      '20',
      '--physics',
      'hull',
    );
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/target land impact 20: met/);
    expect(costJson(join(dir, 'a.glb')).linkset.landImpact).toBeLessThanOrEqual(20);
    const over = slmesh('optimize', asset('chair.glb'), '-o', join(dir, 'b.glb'), '--target-li', '1');
    expect(over.status).toBe(1);
    expect(over.stdout).toMatch(/target land impact 1: NOT met/);
    expect(over.stderr).toMatch(/over --target-li 1/);
    expect(existsSync(join(dir, 'b.glb'))).toBe(true);
  });
});
