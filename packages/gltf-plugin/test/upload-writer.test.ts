import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { MeshoptSimplifier } from 'meshoptimizer';
import { lodTriangleCount, planModelLods, type SlModel, type SlObject } from '@slmesh/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../src/read-file.js';
import { documentToModel } from '../src/to-model.js';
import { physicsMeshes, splitUploadDocument, uploadNodeName, uploadSlotOf, writeUploadDocument } from '../src/upload-writer.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const validator = createRequire(join(root, 'package.json'))('gltf-validator') as { validateBytes(b: Uint8Array, o?: object): Promise<{ issues: { numErrors: number; messages: { code: string; message: string }[] } }> };
const io = new NodeIO();

async function withLods(name: string): Promise<{ doc: Document; model: SlModel }> {
  const doc = await readDocument(asset(name));
  const { model } = documentToModel(doc);
  return { doc, model: planModelLods(model, { simplifier: MeshoptSimplifier, maxProbes: 4 }).model };
}

async function expectValid(bytes: Uint8Array) {
  const report = await validator.validateBytes(bytes, { maxIssues: 50 });
  expect(report.issues.messages.filter((m) => (m as { severity?: number }).severity === 0)).toEqual([]);
  expect(report.issues.numErrors).toBe(0);
}

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

describe('uploadNodeName / uploadSlotOf', () => {
  it('use the viewer\'s suffixes', () => {
    expect(['high', 'medium', 'low', 'lowest', 'physics'].map((s) => uploadNodeName('Chair', s as never))).toEqual(['Chair', 'Chair_LOD2', 'Chair_LOD1', 'Chair_LOD0', 'Chair_PHYS']);
    expect(uploadSlotOf('Chair_LOD0')).toBe('lowest');
    expect(uploadSlotOf('Chair')).toBe('high');
  });
});

describe('writeUploadDocument', () => {
  it('writes Name, Name_LOD2, Name_LOD1, Name_LOD0 per object; reading it back gives the same objects, positions bit for bit', async () => {
    const { doc, model } = await withLods('chair.glb');
    await writeUploadDocument(doc, model);
    const names = doc.getRoot().listNodes().map((n) => n.getName());
    for (const o of model.objects) for (const s of ['', '_LOD2', '_LOD1', '_LOD0']) expect(names).toContain(o.name + s);
    expect(names.some((n) => n.endsWith('_PHYS'))).toBe(false); // the chair has no physics
    const bytes = await io.writeBinary(doc);
    await expectValid(bytes);
    const back = documentToModel(await io.readBinary(bytes)).model;
    expect(back.objects.map((o) => o.name)).toEqual(model.objects.map((o) => o.name));
    back.objects.forEach((o, i) => {
      const want = model.objects[i];
      for (const lod of ['high', 'medium', 'low', 'lowest'] as const) {
        expect(o.lods[lod]!.faces.map((f) => f.material)).toEqual(want.lods[lod]!.faces.map((f) => f.material));
        o.lods[lod]!.faces.forEach((f, k) => {
          const w = want.lods[lod]!.faces[k];
          expect(f.positions).toEqual(w.positions);
          expect(f.indices).toEqual(w.indices);
          if (w.uvs) expect(f.uvs).toEqual(w.uvs);
          if (w.normals) for (let j = 0; j < w.normals.length; j++) expect(f.normals![j]).toBeCloseTo(w.normals[j], 5);
        });
      }
    });
  });

  it('keeps the materials (with their names and factors) and rotated, scaled nodes land where they were', async () => {
    const { doc, model } = await withLods('rotated-scaled.glb');
    const before = doc.getRoot().listMaterials().map((m) => [m.getName(), m.getBaseColorFactor()]);
    await writeUploadDocument(doc, model);
    const after = doc.getRoot().listMaterials().map((m) => [m.getName(), m.getBaseColorFactor()]);
    expect(after).toEqual(before);
    for (const n of doc.getRoot().listNodes()) {
      expect(n.getTranslation()).toEqual([0, 0, 0]);
      expect(n.getScale()).toEqual([1, 1, 1]);
    }
    const back = documentToModel(await io.readBinary(await io.writeBinary(doc))).model;
    expect(back.objects[0].lods.high.faces[0].positions).toEqual(model.objects[0].lods.high.faces[0].positions);
  });

  it('writes _PHYS from a physics mesh, a decomposition (one closed mesh per hull) or a single hull', async () => {
    const cube = (dx: number) => Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1].map((v, i) => (i % 3 === 0 ? v + dx : v)));
    const { doc, model } = await withLods('cube.glb');
    const base = model.objects[0];
    const variants: SlObject[] = [
      { ...base, name: 'WithMesh', physicsMesh: base.lods.low },
      { ...base, name: 'WithHulls', decomposition: [cube(0), cube(3)] },
      { ...base, name: 'WithHull', hull: cube(0) },
      { ...base, name: 'Without' },
    ];
    expect(physicsMeshes(variants[1])).toHaveLength(2);
    await writeUploadDocument(doc, { objects: variants });
    const node = (n: string) => doc.getRoot().listNodes().find((x) => x.getName() === n);
    expect(node('WithMesh_PHYS')?.getMesh()?.listPrimitives().length).toBeGreaterThan(0);
    expect(node('WithHulls_PHYS')?.getMesh()?.listPrimitives()).toHaveLength(2);
    expect(node('WithHull_PHYS')?.getMesh()?.listPrimitives()).toHaveLength(1);
    expect(node('Without_PHYS')).toBeUndefined();
    // Each hull is closed: 12 triangles for a cube.
    expect(node('WithHulls_PHYS')!.getMesh()!.listPrimitives()[0].getIndices()!.getCount()).toBe(36);
    const bytes = await io.writeBinary(doc);
    await expectValid(bytes);
    const back = documentToModel(await io.readBinary(bytes)).model;
    const hulls = back.objects.find((o) => o.name === 'WithHulls')!;
    expect(lodTriangleCount(hulls.physicsMesh)).toBe(24);
    // The physics primitives use high's material, one per hull; reading them back recognises the hulls.
    expect(hulls.physicsMesh!.faces.map((f) => f.material)).toEqual([base.lods.high.faces[0].material, base.lods.high.faces[0].material]);
    expect(hulls.decomposition!.map((h) => h.length / 3)).toEqual([8, 8]);
  });

  it('writes unit normals even when a face has a zero normal', async () => {
    const { doc, model } = await withLods('cube.glb');
    const o = model.objects[0];
    const face = o.lods.high.faces[0];
    const normals = face.normals!.slice();
    normals.fill(0, 0, 3);
    await writeUploadDocument(doc, { objects: [{ ...o, lods: { ...o.lods, high: { faces: [{ ...face, normals }] } } }] });
    const n = doc.getRoot().listNodes()[0].getMesh()!.listPrimitives()[0].getAttribute('NORMAL')!;
    const el: number[] = [];
    for (let i = 0; i < n.getCount(); i++) expect(Math.hypot(...n.getElement(i, el))).toBeCloseTo(1, 6);
    await expectValid(await io.writeBinary(doc));
  });
});

describe('splitUploadDocument', () => {
  it('gives one document per slot, each with only that slot\'s nodes', async () => {
    const { doc, model } = await withLods('beveled-cube-3mat.glb');
    await writeUploadDocument(doc, model);
    const parts = await splitUploadDocument(doc);
    expect(Object.keys(parts).sort()).toEqual(['high', 'low', 'lowest', 'medium']);
    for (const [slot, part] of Object.entries(parts)) {
      const names = part!.getRoot().listNodes().map((n) => n.getName());
      expect(names).toEqual([uploadNodeName('BevelCube', slot as never)]);
      await expectValid(await io.writeBinary(part!));
    }
  });
});
