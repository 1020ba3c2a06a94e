import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { convexHull, isSlmeshError, lodPositions, lodTriangleCount, lodTriangles, silhouetteCoverage, silhouetteReference, type SlObject } from '@slmesh/core';
import { describe, expect, it } from 'vitest';
import { optimizeFile, type PhysicsHookContext } from '../src/optimize.js';
import { reportFile } from '../src/report-file.js';
import { documentToModel } from '../src/to-model.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const out = (name: string) => join(tmpdir(), `slmesh-optimize-test-${process.pid}`, name);
const validator = createRequire(join(root, 'package.json'))('gltf-validator') as { validateBytes(b: Uint8Array, o?: object): Promise<{ issues: { numErrors: number } }> };
const io = new NodeIO();
const LODS = ['high', 'medium', 'low', 'lowest'] as const;

async function expectError(p: Promise<unknown>, code: string, text: RegExp) {
  try {
    await p;
  } catch (e) {
    expect(isSlmeshError(e) && e.code).toBe(code);
    expect((e as Error).message).toMatch(text);
    expect((e as Error).message).not.toContain('\n');
    return;
  }
  throw new Error('expected an error');
}

describe('optimizeFile', () => {
  it('returns the GLB bytes and writes nothing itself', async () => {
    const r = await optimizeFile(asset('chair.glb'), { output: out('chair.glb') });
    expect(r.files.map((f) => f.path)).toEqual([out('chair.glb')]);
    expect(existsSync(out('chair.glb'))).toBe(false);
    expect(r.inputs).toEqual([asset('chair.glb')]);
    expect(r.plans).toHaveLength(6);
    expect(r.after.objects).toHaveLength(6);
    expect(r.after.linkset.landImpact).toBeLessThan(r.before.landImpact);
  });

  it('prices "before" exactly as slmesh cost prices the input (both when download weight sets it and when physics does)', async () => {
    for (const name of ['suzanne.glb', 'chair.glb', 'vase.glb']) {
      const r = await optimizeFile(asset(name), { output: out(name), planner: { maxProbes: 3 } });
      const cost = (await reportFile(asset(name))).report.linkset;
      expect(r.before.landImpact).toBeCloseTo(cost.landImpact, 9);
      expect(r.before.download).toBeCloseTo(cost.streaming, 9);
      expect(r.before.prims).toBe(cost.prims);
    }
  });

  it('runs the physics hook on each object after its LODs and before writing; its physics becomes Name_PHYS and is priced', async () => {
    const calls: { name: string; ctx: PhysicsHookContext; hadLods: boolean }[] = [];
    const r = await optimizeFile(asset('chair.glb'), {
      output: out('chair-phys.glb'),
      physics: (object: SlObject, ctx) => {
        calls.push({ name: object.name, ctx, hadLods: !!object.lods.lowest });
        return { ...object, decomposition: [convexHull(lodPositions(object.lods.high)).points] };
      },
    });
    expect(calls.map((c) => c.name)).toEqual(['Seat', 'Back', 'Leg_FL', 'Leg_FR', 'Leg_BL', 'Leg_BR']);
    expect(calls.map((c) => c.ctx.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(calls.every((c) => c.hadLods)).toBe(true);
    expect(calls[0].ctx.source).toBe(asset('chair.glb'));
    expect(calls[0].ctx.lodFactor).toBe(2);
    expect(calls[0].ctx.scaleFactors).toEqual([1, 1, 1]);
    expect(typeof calls[0].ctx.deflate).toBe('function');
    for (const o of r.after.objects) expect(o.physics.shape).toBe('decomposition');
    const doc = await io.readBinary(r.files[0].data);
    const names = doc.getRoot().listNodes().map((n) => n.getName());
    for (const c of calls) expect(names).toContain(`${c.name}_PHYS`);
    expect((await validator.validateBytes(r.files[0].data)).issues.numErrors).toBe(0);
  });

  it('refuses a physics hook that changes the object it was given', async () => {
    await expect(optimizeFile(asset('cube.glb'), { output: out('c.glb'), physics: (o) => ({ ...o, name: 'Other' }) })).rejects.toThrow(/physics hook/);
  });

  it('writes sibling files with split', async () => {
    const r = await optimizeFile(asset('vase.glb'), { output: out('vase-out.glb'), split: true, planner: { maxProbes: 3 } });
    expect(r.inputs.map((p) => p.split('/').pop())).toEqual(['vase.glb', 'vase_LOD2.glb', 'vase_LOD1.glb', 'vase_LOD0.glb', 'vase_PHYS.glb']);
    expect(r.files.map((f) => f.path.split('/').pop())).toEqual(['vase-out.glb', 'vase-out_LOD2.glb', 'vase-out_LOD1.glb', 'vase-out_LOD0.glb', 'vase-out_PHYS.glb']);
    for (const f of r.files) {
      const doc = await io.readBinary(f.data);
      const names = doc.getRoot().listNodes().map((n) => n.getName());
      expect(names).toEqual([{ all: 'Vase', high: 'Vase', medium: 'Vase_LOD2', low: 'Vase_LOD1', lowest: 'Vase_LOD0', physics: 'Vase_PHYS' }[f.slot]]);
    }
  });

  it('stops with one line naming the file for bad input, and for an output that is not .glb', async () => {
    await expectError(optimizeFile(asset('missing.glb'), { output: out('x.glb') }), 'INPUT_UNREADABLE', /missing\.glb: no such file/);
    await expectError(optimizeFile(asset('broken/truncated.glb'), { output: out('x.glb') }), 'INPUT_UNREADABLE', /truncated\.glb/);
    await expectError(optimizeFile(asset('broken/bad-json.glb'), { output: out('x.glb') }), 'INPUT_UNREADABLE', /bad-json\.glb/);
    await expectError(optimizeFile(asset('cube.glb'), { output: out('x.gltf') }), 'USAGE', /\.glb/);
  });
});

describe('optimize on every bundled Blender export', () => {
  const files = readdirSync(join(root, 'test-assets')).filter((f) => f.endsWith('.glb') && !/_(LOD\d|PHYS)\.glb$/.test(f));
  it('has assets to check', () => expect(files.length).toBeGreaterThan(8));
  for (const name of files) {
    it(`${name}: validator-clean, right node names and face counts, LODs never grow, silhouette kept`, async () => {
      const r = await optimizeFile(asset(name), { output: out(name), planner: { maxProbes: 4 } });
      const bytes = r.files[0].data;
      expect((await validator.validateBytes(bytes, { maxIssues: 10 })).issues.numErrors).toBe(0);
      const doc = await io.readBinary(bytes);
      const names = doc.getRoot().listNodes().map((n) => n.getName());
      const back = documentToModel(doc).model;
      expect(back.objects.map((o) => o.name)).toEqual(r.model.objects.map((o) => o.name));
      for (const o of back.objects) {
        for (const s of ['', '_LOD2', '_LOD1', '_LOD0']) expect(names).toContain(o.name + s);
        const faces = o.lods.high.faces.length;
        const tris = LODS.map((n) => lodTriangleCount(o.lods[n]));
        for (const n of LODS) expect(o.lods[n]!.faces).toHaveLength(faces);
        for (let i = 1; i < 4; i++) expect(tris[i]).toBeLessThanOrEqual(tris[i - 1]);
        expect(tris[3]).toBeGreaterThan(0);
        const sil = silhouetteReference(lodTriangles(o.lods.high));
        for (const n of ['medium', 'low', 'lowest'] as const) expect(silhouetteCoverage(sil, lodTriangles(o.lods[n]!)).coverage).toBeGreaterThanOrEqual(0.9);
      }
    });
  }
});
