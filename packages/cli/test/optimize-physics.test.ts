/**
 * `slmesh optimize --physics`: the physics is built off the main thread, written as the
 * `_PHYS` node, and priced the same way by the optimize report and by `slmesh cost` on the
 * output.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const slmesh = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: root });
const nodeNames = (glb: string) => {
  const b = readFileSync(glb);
  return (JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString()).nodes as { name: string }[]).map(
    (n) => n.name,
  );
};

describe('slmesh optimize --physics', () => {
  it('decompose: writes Name_PHYS hulls, priced as an estimate, the same in the report and on re-reading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-phys-'));
    const r = slmesh(
      'optimize',
      'test-assets/vase.glb',
      '-o',
      join(dir, 'v.glb'),
      '--report',
      join(dir, 'v.json'),
      '--physics',
      'decompose',
      '--no-siblings',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/physics weight .* estimate/);
    expect(nodeNames(join(dir, 'v_PHYS.glb'))).toContain('Vase_PHYS');
    const report = JSON.parse(readFileSync(join(dir, 'v.json'), 'utf8')).files[0];
    const again = JSON.parse(slmesh('cost', '--json', join(dir, 'v.glb')).stdout).files[0];
    for (const f of [report, again]) {
      expect(f.objects[0].physics.shape).toBe('decomposition');
      expect(f.objects[0].physics.estimate).toBe(true);
      expect(f.objects[0].physics.decomposition.hulls).toBeGreaterThanOrEqual(1);
      expect(f.objects[0].physics.decomposition.hulls).toBeLessThanOrEqual(256);
    }
    expect(again.objects[0].physics.weight).toBeCloseTo(report.objects[0].physics.weight, 6);
    expect(again.linkset.landImpact).toBeCloseTo(report.linkset.landImpact, 6);
  });

  it('the uploader choices line says "Convex Hull for the rest" only when some object is left to its hull', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-phys-'));
    const choices = (...args: string[]) => {
      const r = slmesh('optimize', ...args, '-o', join(dir, 'o.glb'));
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.split('\n').find((l) => l.startsWith('uploader choices these numbers assume:')) ?? '';
    };
    // The 5 cm bead, one object written with a triangle-mesh physics model: Prim, and no rest.
    const bead = choices('test-assets/bead-5cm.glb');
    expect(bead).toContain('physics shape type Prim for Bead');
    expect(bead).not.toContain('for the rest');
    // The chair's 6 parts, each with a physics mesh: all Prim, no rest either.
    const chair = choices('test-assets/chair.glb', '--physics', 'mesh');
    expect(chair.match(/Prim for ([^(]*) \(/)?.[1].split(', ')).toHaveLength(6);
    expect(chair).not.toContain('for the rest');
  });

  it('none: no _PHYS node; hull: a single convex hull', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-phys-'));
    expect(slmesh('optimize', 'test-assets/chair.glb', '-o', join(dir, 'n.glb'), '--physics', 'none').status).toBe(0);
    expect(existsSync(join(dir, 'n_PHYS.glb'))).toBe(false);
    expect(slmesh('optimize', 'test-assets/cube.glb', '-o', join(dir, 'h.glb'), '--physics', 'hull').status).toBe(0);
    const o = JSON.parse(slmesh('cost', '--json', join(dir, 'h.glb')).stdout).files[0].objects[0];
    expect(o.physics.convexHull.vertices).toBe(8);
  });

  it('a bad mode or tolerance is one line and exit 2, nothing written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-phys-'));
    for (const args of [
      ['--physics', 'magic'],
      ['--physics-tolerance', '-1'],
    ]) {
      const r = slmesh('optimize', 'test-assets/cube.glb', '-o', join(dir, 'x.glb'), ...args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
