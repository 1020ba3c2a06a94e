/**
 * The local stand-ins for @gltf-transform/functions' cloneDocument, prune, unpartition and
 * createTransform (that package pulls sharp).
 */
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { cloneDocument, createTransform, prune, unpartition } from '../src/gltf-utils.js';

function sample(): Document {
  const doc = new Document();
  const b1 = doc.createBuffer('a');
  const b2 = doc.createBuffer('b');
  const pos = doc
    .createAccessor('pos')
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(b1);
  const idx = doc
    .createAccessor('idx')
    .setType('SCALAR')
    .setArray(new Uint16Array([0, 1, 2]))
    .setBuffer(b2);
  doc
    .createAccessor('orphan')
    .setType('SCALAR')
    .setArray(new Float32Array([1]))
    .setBuffer(b2);
  const used = doc.createMaterial('used');
  doc.createMaterial('unused');
  const mesh = doc
    .createMesh('m')
    .addPrimitive(doc.createPrimitive().setAttribute('POSITION', pos).setIndices(idx).setMaterial(used));
  doc.createMesh('empty');
  const scene = doc.createScene('s');
  scene.addChild(doc.createNode('Chair').setMesh(mesh));
  scene.addChild(doc.createNode('EmptyLeaf'));
  doc.getRoot().setDefaultScene(scene);
  return doc;
}

describe('gltf-utils', () => {
  it('createTransform names the function', () => {
    expect(createTransform('sl-test', () => {}).name).toBe('sl-test');
  });

  it('cloneDocument copies everything, and the copy is independent', () => {
    const doc = sample();
    const copy = cloneDocument(doc);
    expect(
      copy
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    ).toEqual(['Chair', 'EmptyLeaf']);
    expect(copy.getRoot().listAccessors()).toHaveLength(3);
    expect(copy.getRoot().getDefaultScene()?.getName()).toBe('s');
    const prim = copy.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(Array.from(prim.getAttribute('POSITION')!.getArray()!)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(prim.getMaterial()?.getName()).toBe('used');
    copy.getRoot().listNodes()[0].dispose();
    expect(doc.getRoot().listNodes()).toHaveLength(2);
  });

  it('prune removes what nothing references, top-down', async () => {
    const doc = sample();
    await doc.transform(prune({ keepLeaves: false }));
    const root = doc.getRoot();
    expect(root.listNodes().map((n) => n.getName())).toEqual(['Chair']);
    expect(root.listMeshes().map((m) => m.getName())).toEqual(['m']);
    expect(root.listMaterials().map((m) => m.getName())).toEqual(['used']);
    expect(root.listAccessors().map((a) => a.getName())).toEqual(['pos', 'idx']);
    // Disposing the node frees its mesh, accessors, material and buffers.
    root.listNodes()[0].dispose();
    await doc.transform(prune());
    expect([
      root.listMeshes().length,
      root.listAccessors().length,
      root.listMaterials().length,
      root.listBuffers().length,
    ]).toEqual([0, 0, 0, 0]);
  });

  it('unpartition leaves one buffer holding every accessor', async () => {
    const doc = sample();
    await doc.transform(unpartition());
    const [buffer, ...rest] = doc.getRoot().listBuffers();
    expect(rest).toHaveLength(0);
    for (const a of doc.getRoot().listAccessors()) expect(a.getBuffer()).toBe(buffer);
  });
});
