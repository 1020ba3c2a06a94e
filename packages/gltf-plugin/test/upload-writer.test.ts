import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { type Document, NodeIO } from '@gltf-transform/core';
import { MeshoptSimplifier } from 'meshoptimizer';
import { planModelLods, type SlModel, type SlObject } from '@slmesh/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../src/read-file.js';
import { documentToModel } from '../src/to-model.js';
import {
  meshlessCopy,
  physicsMeshes,
  uploadNodeName,
  writeUploadFiles,
  writeUploadSlot,
  type UploadSlot,
} from '../src/upload-writer.js';
import { conformModel } from '../src/sl-lods.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const validator = createRequire(join(root, 'package.json'))('gltf-validator') as {
  validateBytes(
    b: Uint8Array,
    o?: object,
  ): Promise<{ issues: { numErrors: number; messages: { code: string; message: string }[] } }>;
};
const io = new NodeIO();

async function withLods(
  name: string,
): Promise<{ doc: Document; model: SlModel; nodes: ReturnType<typeof documentToModel>['nodes'] }> {
  const doc = await readDocument(asset(name));
  const { model, nodes } = documentToModel(doc);
  return {
    doc,
    nodes,
    model: conformModel(planModelLods(model, { simplifier: MeshoptSimplifier, maxProbes: 4 }).model),
  };
}

/** Every node's name, parent's name and TRS, in document order (meshes aside). */
function tree(doc: Document, strip = true) {
  const parents = new Map<unknown, string>();
  for (const n of doc.getRoot().listNodes()) for (const c of n.listChildren()) parents.set(c, n.getName());
  const base = (n: string) => (strip ? n.replace(/_(LOD[012]|PHYS)$/, '') : n);
  return doc
    .getRoot()
    .listNodes()
    .map((n) => ({
      name: base(n.getName()),
      parent: base(parents.get(n) ?? ''),
      t: n.getTranslation(),
      r: n.getRotation(),
      s: n.getScale(),
    }));
}

async function expectValid(bytes: Uint8Array) {
  const report = await validator.validateBytes(bytes, { maxIssues: 50 });
  expect(report.issues.messages.filter((m) => (m as { severity?: number }).severity === 0)).toEqual([]);
  expect(report.issues.numErrors).toBe(0);
}

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

describe('uploadNodeName', () => {
  it("uses the viewer's suffixes", () => {
    expect(['high', 'medium', 'low', 'lowest', 'physics'].map((s) => uploadNodeName('Chair', s as never))).toEqual([
      'Chair',
      'Chair_LOD2',
      'Chair_LOD1',
      'Chair_LOD0',
      'Chair_PHYS',
    ]);
  });
});

describe('writeUploadFiles', () => {
  it("writes one file per slot with the input's node tree and transforms, node name = mesh name; reading them back gives the same objects", async () => {
    const { doc, model, nodes } = await withLods('chair.glb');
    const input = tree(doc);
    const files = await writeUploadFiles(doc, model, nodes);
    expect(Object.keys(files).sort()).toEqual(['high', 'low', 'lowest', 'medium']); // the chair has no physics
    for (const [slot, part] of Object.entries(files) as [UploadSlot, Document][]) {
      expect(tree(part)).toEqual(input);
      for (const n of part.getRoot().listNodes()) if (n.getMesh()) expect(n.getMesh()!.getName()).toBe(n.getName());
      const bytes = await io.writeBinary(part);
      await expectValid(bytes);
      const back = documentToModel(await io.readBinary(bytes)).model;
      // Read on its own, a LOD file's `Seat_LOD2` is labelled `Seat`, as the importer labels it.
      expect(back.objects.map((o) => o.name)).toEqual(model.objects.map((o) => o.name));
      expect(
        part
          .getRoot()
          .listNodes()
          .filter((n) => n.getMesh())
          .map((n) => n.getName()),
      ).toEqual(model.objects.map((o) => uploadNodeName(o.name, slot)));
      back.objects.forEach((o, i) => {
        const want = model.objects[i].lods[slot as 'high']!;
        expect(o.lods.high.faces.map((f) => f.material)).toEqual(want.faces.map((f) => f.material));
        o.lods.high.faces.forEach((f, k) => {
          const w = want.faces[k];
          expect(f.indices).toEqual(w.indices);
          for (let j = 0; j < w.positions.length; j++)
            expect(Math.abs(f.positions[j] - w.positions[j])).toBeLessThan(1e-6);
          if (w.uvs) expect(f.uvs).toEqual(w.uvs);
        });
      });
    }
  });

  it('keeps materials, parents, rotations and scales; vertices stay mesh-local', async () => {
    const { doc, model, nodes } = await withLods('rotated-scaled.glb');
    const before = doc
      .getRoot()
      .listMaterials()
      .map((m) => [m.getName(), m.getBaseColorFactor()]);
    const input = tree(doc, false);
    const localBefore = doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!.getArray()!.slice();
    const high = await writeUploadSlot(doc, model, nodes, 'high');
    expect(
      high
        .getRoot()
        .listMaterials()
        .map((m) => [m.getName(), m.getBaseColorFactor()]),
    ).toEqual(before);
    expect(tree(high, false)).toEqual(input);
    const local = high.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    // The same mesh-local box as the input's mesh.
    const box = (a: ArrayLike<number>) =>
      [0, 1, 2].map((k) => {
        let lo = Infinity,
          hi = -Infinity;
        for (let i = k; i < a.length; i += 3) {
          lo = Math.min(lo, a[i]);
          hi = Math.max(hi, a[i]);
        }
        return [lo, hi];
      });
    expect(box(local.getArray()!)).toEqual(box(localBefore));
    const back = documentToModel(await io.readBinary(await io.writeBinary(high))).model;
    expect(back.objects[0].placement).toEqual(model.objects[0].placement);
  });

  it("writes _PHYS from a physics mesh, a decomposition (one closed mesh per hull) or a single hull, with an untextured material of high's first material's name", async () => {
    const cube = (dx: number) =>
      Float32Array.from(
        [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1].map((v, i) =>
          i % 3 === 0 ? v + dx : v,
        ),
      );
    const { doc, model, nodes } = await withLods('cube.glb');
    const base = model.objects[0];
    const variants: SlObject[] = [{ ...base, decomposition: [cube(0), cube(3)] }];
    expect(physicsMeshes(variants[0])).toHaveLength(2);
    expect(physicsMeshes({ ...base, hull: cube(0) })).toHaveLength(1);
    expect(physicsMeshes({ ...base, physicsMesh: base.lods.low })).toHaveLength(1);
    expect(physicsMeshes(base)).toHaveLength(0);
    const part = await writeUploadSlot(doc, { objects: variants }, nodes, 'physics');
    const node = part
      .getRoot()
      .listNodes()
      .find((x) => x.getName() === `${base.name}_PHYS`)!;
    expect(node.getMesh()!.listPrimitives()).toHaveLength(2);
    expect(node.getMesh()!.listPrimitives()[0].getIndices()!.getCount()).toBe(36);
    const mat = node.getMesh()!.listPrimitives()[0].getMaterial()!;
    expect(mat.getName()).toBe(base.lods.high.faces[0].material);
    expect(mat.getBaseColorTexture()).toBeNull();
    const bytes = await io.writeBinary(part);
    await expectValid(bytes);
    // Read on its own, the physics file is one object: the two closed hull meshes.
    const back = documentToModel(await io.readBinary(bytes)).model;
    expect(back.objects[0].lods.high.faces.map((f) => f.indices.length)).toEqual([72]);
  });

  it('meshlessCopy: the input without meshes or the accessors only they used; the input untouched', async () => {
    const { doc } = await withLods('textured-hierarchy.glb');
    // An accessor that is not a mesh's (an animation's input) stays.
    const keep = doc
      .createAccessor('times')
      .setType('SCALAR')
      .setArray(new Float32Array([0, 1]));
    const sampler = doc.createAnimationSampler().setInput(keep).setOutput(keep);
    doc.createAnimation('a').addSampler(sampler);
    const meshes = doc.getRoot().listMeshes().length;
    const accessors = doc.getRoot().listAccessors().length;
    const copy = meshlessCopy(doc);
    expect(copy.getRoot().listMeshes()).toEqual([]);
    expect(
      copy
        .getRoot()
        .listAccessors()
        .map((a) => a.getName()),
    ).toEqual(['times']);
    expect(
      copy
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    ).toEqual(
      doc
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    );
    expect(copy.getRoot().listMaterials().length).toBe(doc.getRoot().listMaterials().length);
    expect(doc.getRoot().listMeshes().length).toBe(meshes);
    expect(doc.getRoot().listAccessors().length).toBe(accessors);
    expect(meshes).toBeGreaterThan(0);
  });

  it('gives every node of a shared mesh its own mesh', async () => {
    const doc = await readDocument(asset('cube.glb'));
    const scene = doc.getRoot().listScenes()[0];
    const first = doc.getRoot().listNodes()[0];
    scene.addChild(doc.createNode('Twin').setMesh(first.getMesh()).setTranslation([3, 0, 0]));
    const { model, nodes } = documentToModel(doc);
    expect(model.objects).toHaveLength(2);
    const high = await writeUploadSlot(doc, model, nodes, 'high');
    const meshes = high
      .getRoot()
      .listNodes()
      .map((n) => n.getMesh());
    expect(new Set(meshes).size).toBe(2);
    expect(meshes.map((m) => m!.getName())).toEqual([first.getName(), 'Twin']);
  });

  it('writes unit normals even when a face has a zero normal', async () => {
    const { doc, model, nodes } = await withLods('cube.glb');
    const o = model.objects[0];
    const face = o.lods.high.faces[0];
    const normals = face.normals!.slice();
    normals.fill(0, 0, 3);
    const part = await writeUploadSlot(
      doc,
      { objects: [{ ...o, lods: { ...o.lods, high: { faces: [{ ...face, normals }] } } }] },
      nodes,
      'high',
    );
    const n = part.getRoot().listNodes()[0].getMesh()!.listPrimitives()[0].getAttribute('NORMAL')!;
    const el: number[] = [];
    for (let i = 0; i < n.getCount(); i++) expect(Math.hypot(...n.getElement(i, el))).toBeCloseTo(1, 6);
    await expectValid(await io.writeBinary(part));
  });
});
