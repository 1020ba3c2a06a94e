/**
 * `slmesh optimize --physics`: the physics is built off the main thread, written as the
 * `_PHYS` node, and priced the same way by the optimize report and by `slmesh cost` on the
 * output.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
    const bead = choices('test-assets/bead-5cm.glb', '--physics', 'mesh');
    expect(bead).toContain('physics shape type Prim for Bead');
    expect(bead).not.toContain('for the rest');
    // The chair's 6 parts, each with a physics mesh: all Prim, no rest either.
    const chair = choices('test-assets/chair.glb', '--physics', 'mesh');
    expect(chair.match(/Prim for ([^(]*) \(/)?.[1].split(', ')).toHaveLength(6);
    expect(chair).not.toContain('for the rest');
  });

  it('a land impact raised by physics that keeps an opening open says so, and what the single hull would cost', async () => {
    // A coarse ring lying flat, 2.7 m across (8 x 4 quads): its hull would close the 1.3 m hole,
    // and the triangle mesh that keeps it open weighs more than the input as uploaded.
    const require = createRequire(join(root, 'packages/gltf-plugin/package.json'));
    const { Document, NodeIO } = require('@gltf-transform/core') as typeof import('@gltf-transform/core');
    const [R, tube, seg, ring] = [1, 0.35, 8, 4];
    const p: number[] = [],
      idx: number[] = [];
    for (let i = 0; i < seg; i++)
      for (let j = 0; j < ring; j++) {
        const [u, v] = [(2 * Math.PI * i) / seg, (2 * Math.PI * j) / ring];
        p.push((R + tube * Math.cos(v)) * Math.cos(u), tube * Math.sin(v), (R + tube * Math.cos(v)) * Math.sin(u));
        const [a, b] = [i * ring + j, ((i + 1) % seg) * ring + j];
        const [c, d] = [((i + 1) % seg) * ring + ((j + 1) % ring), i * ring + ((j + 1) % ring)];
        idx.push(a, d, b, b, d, c);
      }
    const doc = new Document();
    const buffer = doc.createBuffer();
    const positions = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(new Float32Array(p));
    const indices = doc.createAccessor().setType('SCALAR').setBuffer(buffer).setArray(new Uint32Array(idx));
    const prim = doc.createPrimitive().setAttribute('POSITION', positions).setIndices(indices);
    doc.createScene().addChild(doc.createNode('Ring').setMesh(doc.createMesh('Ring').addPrimitive(prim)));
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-phys-'));
    writeFileSync(join(dir, 'ring.glb'), await new NodeIO().writeBinary(doc));
    const r = slmesh('optimize', join(dir, 'ring.glb'), '-o', join(dir, 'o.glb'));
    expect(r.status, r.stderr).toBe(0);
    const li = r.stdout.match(/^land impact +([\d.]+) -> ([\d.]+)/m)!;
    expect(+li[2]).toBeGreaterThan(+li[1]);
    const note = r.stdout.split('\n').find((l) => l.startsWith('note: the land impact went up')) ?? '';
    expect(note).toContain('keeps open an opening an avatar uses');
    expect(note).not.toContain('--keep-lods');
    // Its figures: the land impact written, and the single hull's, which is lower.
    const [, kept, hull] = note.match(/Ring: ([\d.]+) with its \w+, ([\d.]+) with the single hull/)!;
    expect(+kept).toBeCloseTo(+li[2], 3);
    expect(+hull).toBeLessThan(+kept);
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
