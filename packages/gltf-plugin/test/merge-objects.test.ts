import { Document, type Material, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { mergeMeshNodes } from '../src/merge-objects.js';
import { walkSceneNodes } from '../src/node-walk.js';

/** A unit cube's 8 corners and 12 triangles (outward, counter-clockwise), with normals and uvs per vertex. */
function cube(doc: Document, material: Material | null, withUvs = true) {
  const p: number[] = [];
  const n: number[] = [];
  const uv: number[] = [];
  const idx: number[] = [];
  // One quad per side, its own vertices (flat normals).
  const sides: [number, number, number][] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
  ];
  for (const [a, b, c] of sides) {
    const axis = a !== 0 ? 0 : b !== 0 ? 1 : 2;
    const s = a + b + c;
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    const base = p.length / 3;
    for (const [du, dv] of [
      [-0.5, -0.5],
      [0.5, -0.5],
      [0.5, 0.5],
      [-0.5, 0.5],
    ]) {
      const q = [0, 0, 0];
      q[axis] = 0.5 * s;
      q[u] = du;
      q[v] = dv;
      p.push(...q);
      n.push(a, b, c);
      uv.push(du + 0.5, dv + 0.5);
    }
    if (s > 0) idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
    else idx.push(base, base + 2, base + 1, base, base + 3, base + 2);
  }
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(p)).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(new Float32Array(n)).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(idx)).setBuffer(buffer))
    .setMaterial(material);
  if (withUvs)
    prim.setAttribute(
      'TEXCOORD_0',
      doc.createAccessor().setType('VEC2').setArray(new Float32Array(uv)).setBuffer(buffer),
    );
  return doc.createMesh('cube').addPrimitive(prim);
}

/**
 * Every triangle of the document's scene in world space: corners and the normal of its front
 * face (from the winding; glTF turns the winding over under a mirroring transform).
 */
function worldTriangles(doc: Document) {
  const tris: { c: number[][]; n: number[] }[] = [];
  const scene = doc.getRoot().listScenes()[0];
  walkSceneNodes(scene.listChildren(), (node: Node, m) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const det =
      m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION')!;
      const idx = prim.getIndices()!.getArray()!;
      const at = (i: number) => {
        const q = pos.getElement(i, []);
        return [0, 1, 2].map((r) => m[r] * q[0] + m[4 + r] * q[1] + m[8 + r] * q[2] + m[12 + r]);
      };
      for (let t = 0; t < idx.length; t += 3) {
        const c = [at(idx[t]), at(idx[t + 1]), at(idx[t + 2])];
        const e1 = c[1].map((x, k) => x - c[0][k]);
        const e2 = c[2].map((x, k) => x - c[0][k]);
        const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        const l = Math.hypot(...n) * Math.sign(det);
        tris.push({ c, n: n.map((x) => x / l) });
      }
    }
  });
  const key = (t: { c: number[][] }) =>
    t.c
      .map((q) => q.map((x) => x.toFixed(4)).join(','))
      .sort()
      .join('|');
  return tris.map((t) => ({ ...t, key: key(t) })).sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Two cubes under transforms (one mirrored, rotated and nested), two materials, one shared. */
function twoParts() {
  const doc = new Document();
  const red = doc.createMaterial('red');
  const blue = doc.createMaterial('blue');
  const scene = doc.createScene('scene');
  doc.getRoot().setDefaultScene(scene);
  const a = doc.createNode('A').setMesh(cube(doc, red)).setTranslation([2, 0, 0]);
  const parent = doc.createNode('group').setTranslation([0, 1, 0]).setScale([1, 2, 1]);
  const b = doc
    .createNode('B')
    .setMesh(cube(doc, blue))
    .setScale([-1, 1, 1])
    .setRotation([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
  const c = doc.createNode('C').setMesh(cube(doc, red)).setTranslation([0, 0, -3]);
  parent.addChild(b).addChild(c);
  scene.addChild(a).addChild(parent);
  return doc;
}

describe('mergeMeshNodes', () => {
  it('joins a model of more than 8 materials into groups that fit a prim, each one region, in scene order', async () => {
    // 12 cubes in a row along x, each its own material: two joined objects of 8 and 4 neighbours.
    const doc = new Document();
    const scene = doc.createScene();
    const order = [5, 0, 11, 3, 8, 1, 10, 6, 2, 9, 4, 7];
    for (const i of order)
      scene.addChild(
        doc
          .createNode(`c${i}`)
          .setMesh(cube(doc, doc.createMaterial(`m${i}`)))
          .setTranslation([2 * i, 0, 0]),
      );
    const before = worldTriangles(doc);
    const r = await mergeMeshNodes(doc);
    if (!r.merged) throw new Error(r.reason);
    expect(r.objects).toBe(12);
    expect(r.names).toEqual(['c5', 'c11']);
    const joined = r.doc
      .getRoot()
      .listNodes()
      .filter((n) => n.getMesh());
    expect(joined.map((n) => n.getName())).toEqual(['c5', 'c11']);
    const materials = joined.map((n) =>
      n
        .getMesh()!
        .listPrimitives()
        .map((p) => Number(p.getMaterial()!.getName().slice(1)))
        .sort((a, b) => a - b),
    );
    // The sweep along x: the 8 leftmost cubes, then the 4 rightmost.
    expect(materials).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
    expect(worldTriangles(r.doc).map((t) => t.key)).toEqual(before.map((t) => t.key));
  });

  it('joins the mesh nodes into one node with the same world triangles, one primitive per material', async () => {
    const doc = twoParts();
    const before = worldTriangles(doc);
    const r = await mergeMeshNodes(doc);
    if (!r.merged) throw new Error(r.reason);
    expect(r.objects).toBe(3);
    expect(r.names).toEqual(['A']);
    const meshNodes = r.doc
      .getRoot()
      .listNodes()
      .filter((n) => n.getMesh());
    expect(meshNodes.map((n) => n.getName())).toEqual(['A']);
    const prims = meshNodes[0].getMesh()!.listPrimitives();
    expect(prims.map((p) => p.getMaterial()?.getName()).sort()).toEqual(['blue', 'red']);
    // Same triangles in the world, facing the same way (the mirrored part's winding turned over).
    const after = worldTriangles(r.doc);
    expect(after.length).toBe(before.length);
    for (let i = 0; i < before.length; i++) {
      expect(after[i].key).toBe(before[i].key);
      for (let k = 0; k < 3; k++) expect(after[i].n[k]).toBeCloseTo(before[i].n[k], 5);
    }
    // Normals follow their faces: each vertex normal agrees with its triangle's winding normal.
    for (const prim of prims) {
      const nrm = prim.getAttribute('NORMAL')!;
      const pos = prim.getAttribute('POSITION')!;
      const idx = prim.getIndices()!.getArray()!;
      for (let t = 0; t < idx.length; t += 3) {
        const c = [0, 1, 2].map((j) => pos.getElement(idx[t + j], []));
        const e1 = c[1].map((x, k) => x - c[0][k]);
        const e2 = c[2].map((x, k) => x - c[0][k]);
        const face = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        const n = nrm.getElement(idx[t], []);
        expect(Math.hypot(...n)).toBeCloseTo(1, 5);
        expect(n[0] * face[0] + n[1] * face[1] + n[2] * face[2]).toBeGreaterThan(0);
      }
    }
    // The parent of the nested parts stays (nodes with children keep their place); the source is untouched.
    expect(
      r.doc
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    ).toContain('group');
    expect(
      doc
        .getRoot()
        .listNodes()
        .filter((n) => n.getMesh()).length,
    ).toBe(3);
  });

  it('refuses what one prim cannot be without changing the upload', async () => {
    const one = new Document();
    const s1 = one.createScene();
    s1.addChild(one.createNode('only').setMesh(cube(one, null)));
    expect(await mergeMeshNodes(one)).toEqual({ merged: false, reason: 'fewer than two objects' });

    const animated = twoParts();
    animated.createAnimation('spin');
    expect(await mergeMeshNodes(animated)).toMatchObject({ merged: false, reason: 'the file has animations' });

    const skinned = twoParts();
    skinned.getRoot().listNodes()[0].setSkin(skinned.createSkin());
    expect(await mergeMeshNodes(skinned)).toMatchObject({ merged: false, reason: 'A is skinned' });

    // Two parts of 5 materials each: together over a prim's 8 faces.
    const wide = new Document();
    const s2 = wide.createScene();
    for (let i = 0; i < 2; i++) {
      const mesh = wide.createMesh(`m${i}`);
      for (let j = 0; j < 5; j++)
        for (const prim of cube(wide, wide.createMaterial(`m${i}-${j}`)).listPrimitives()) mesh.addPrimitive(prim);
      s2.addChild(
        wide
          .createNode(`n${i}`)
          .setMesh(mesh)
          .setTranslation([3 * i, 0, 0]),
      );
    }
    expect(await mergeMeshNodes(wide)).toMatchObject({
      merged: false,
      reason: "10 materials and no two objects fit in one prim's 8",
    });

    const mixed = new Document();
    const m = mixed.createMaterial('m');
    const s3 = mixed.createScene();
    s3.addChild(mixed.createNode('uv').setMesh(cube(mixed, m)));
    s3.addChild(mixed.createNode('plain').setMesh(cube(mixed, m, false)));
    expect(await mergeMeshNodes(mixed)).toMatchObject({
      merged: false,
      reason: "a material's parts differ in having TEXCOORD_0",
    });

    const strip = twoParts();
    strip.getRoot().listMeshes()[1].listPrimitives()[0].setMode(5);
    expect(await mergeMeshNodes(strip)).toMatchObject({
      merged: false,
      reason: 'B has a primitive that is not a triangle list',
    });
  });
});
