/**
 * gltf-transform-config.mjs: `gltf-transform <sl-command> ... --config <file>` runs slLods,
 * slPhysics and slReport from @gltf-transform/cli. Uses the built dist (`pnpm test` builds first).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const config = resolve(__dirname, '../gltf-transform-config.mjs');
const cli = join(root, 'node_modules/@gltf-transform/cli/bin/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'slmesh-gt-'));
copyFileSync(join(root, 'test-assets/chair.glb'), join(dir, 'chair.glb'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  execFileSync(process.execPath, [cli, ...args, '--config', config], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('gltf-transform --config gltf-transform-config.mjs', () => {
  it('sl-report prints the cost report as JSON', () => {
    const report = JSON.parse(run('sl-report', 'chair.glb'));
    expect(report.files[0].path).toBe('chair.glb');
    expect(report.files[0].linkset.prims).toBe(6);
    const sized = JSON.parse(run('sl-report', 'chair.glb', '--size', '10'));
    expect(Math.max(...sized.files[0].linkset.scale)).toBeCloseTo(10, 9);
    expect(sized.settings.size).toEqual({ longestSide: 10 });
  });

  it('sl-lods then sl-physics write the high file and its sibling files, which sl-report prices with their LODs and hulls', () => {
    run('sl-lods', 'chair.glb', 'chair-sl.glb', '--max-error-px', '2');
    run('sl-physics', 'chair-sl.glb', 'chair-sl.glb', '--mode', 'decompose');
    for (const f of ['chair-sl_LOD2.glb', 'chair-sl_LOD1.glb', 'chair-sl_LOD0.glb', 'chair-sl_PHYS.glb'])
      expect(existsSync(join(dir, f)), f).toBe(true);
    const report = JSON.parse(run('sl-report', 'chair-sl.glb'));
    expect(report.files[0].siblings).toEqual([
      'chair-sl_LOD2.glb',
      'chair-sl_LOD1.glb',
      'chair-sl_LOD0.glb',
      'chair-sl_PHYS.glb',
    ]);
    const seat = report.files[0].objects.find((o: { name: string }) => o.name === 'Seat');
    for (const lod of ['medium', 'low', 'lowest']) expect(seat.lods[lod].present, lod).toBe(true);
    expect(seat.physics.shape).toBe('decomposition');
    expect(report.files[0].diagnostics.some((d: { code: string }) => d.code === 'physics-as-hulls')).toBe(true);
  });
});
