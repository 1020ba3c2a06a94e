import { Document, type Primitive } from '@gltf-transform/core';
import { boxSize, encodeMeshAsset, objectBox, placePositions } from '@slmesh/core';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignFaces, documentToModel } from '../src/to-model.js';

/** A document with one triangle mesh per (name, material, translation, scale) entry. */
function makeDoc(
  nodes: {
    name: string;
    material?: string;
    translation?: [number, number, number];
    rotation?: [number, number, number, number];
    scale?: [number, number, number];
    mode?: number;
    parent?: string;
  }[],
) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('scene');
  doc.getRoot().setDefaultScene(scene);
  const mats = new Map<string, ReturnType<Document['createMaterial']>>();
  const byName = new Map<string, ReturnType<Document['createNode']>>();
  for (const n of nodes) {
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const norm = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]));
    const uv = doc
      .createAccessor()
      .setType('VEC2')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 1, 0, 0, 0.25]));
    const idx = doc
      .createAccessor()
      .setType('SCALAR')
      .setBuffer(buffer)
      .setArray(new Uint16Array([0, 1, 2]));
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', pos)
      .setAttribute('NORMAL', norm)
      .setAttribute('TEXCOORD_0', uv)
      .setIndices(idx);
    if (n.mode !== undefined) prim.setMode(n.mode as Primitive['mode'] & number);
    if (n.material) {
      if (!mats.has(n.material)) mats.set(n.material, doc.createMaterial(n.material));
      prim.setMaterial(mats.get(n.material)!);
    }
    const node = doc.createNode(n.name).setMesh(doc.createMesh(n.name).addPrimitive(prim));
    if (n.translation) node.setTranslation(n.translation);
    if (n.rotation) node.setRotation(n.rotation);
    if (n.scale) node.setScale(n.scale);
    byName.set(n.name, node);
    if (n.parent) byName.get(n.parent)!.addChild(node);
    else scene.addChild(node);
  }
  return doc;
}

describe('documentToModel', () => {
  it('turns glTF Y-up into Second Life Z-up: (x, y, z) -> (x, -z, y) (baked importer)', () => {
    const { model } = documentToModel(makeDoc([{ name: 'A', material: 'm', translation: [0, 5, 2] }]), {
      importer: 'baked',
    });
    const p = model.objects[0].lods.high.faces[0].positions;
    // vertex 0 at the node origin (0, 5, 2) in glTF -> (0, -2, 5) in SL.
    expect(Array.from(p.subarray(0, 3))).toEqual([0, -2, 5]);
    // vertex 2 = (0, 1, 0) + t = (0, 6, 2) -> (0, -2, 6)
    expect(Array.from(p.subarray(6, 9))).toEqual([0, -2, 6]);
    // The normal +Z (glTF) becomes -Y (SL).
    expect(Array.from(model.objects[0].lods.high.faces[0].normals!.subarray(0, 3)).map((v) => v + 0)).toEqual([
      0, -1, 0,
    ]);
  });

  it('current importer: keeps the node transform as the prim placement, Y-up -> Z-up in its rotation', () => {
    const { model } = documentToModel(makeDoc([{ name: 'A', material: 'm', translation: [0, 5, 2] }]));
    const o = model.objects[0];
    // Mesh-local vertices; the node's translation (0, 5, 2) becomes (0, -2, 5) in SL.
    expect(Array.from(o.lods.high.faces[0].positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(o.placement!.translation).toEqual([0, -2, 5]);
    const world = placePositions(o.placement, o.lods.high.faces[0].positions);
    expect(Array.from(world.subarray(6, 9)).map((v) => v + 0)).toEqual([0, -2, 6]);
  });

  it('current importer: a 45-degree-rotated cube keeps its own size (smaller radius than the baked box)', () => {
    const s = Math.SQRT1_2;
    const doc = makeDoc([
      { name: 'R', material: 'm', rotation: [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)], scale: [2, 3, 4] },
    ]);
    const current = documentToModel(doc).model.objects[0];
    const baked = documentToModel(doc, { importer: 'baked' }).model.objects[0];
    const cs = boxSize(objectBox(current)),
      bs = boxSize(objectBox(baked));
    // The triangle spans 1 x 1 x 0 locally: times the node scale (2, 3, 4).
    expect(cs.map((v) => +v.toFixed(6))).toEqual([2, 3, 0]);
    // Baked: rotated 45 degrees about Y, the x extent 2 spreads over SL's x and y.
    expect(bs[0]).toBeCloseTo(2 * s, 5);
    expect(bs[1]).toBeCloseTo(2 * s, 5);
  });

  it('current importer: the asset is the mesh-local one (NormalizedScale is the mesh-local size), byte for byte', () => {
    const deflate = (d: Uint8Array, level: number) => new Uint8Array(deflateSync(d, { level }));
    const placed = documentToModel(
      makeDoc([
        {
          name: 'S',
          material: 'm',
          rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2],
          scale: [2, 4, 0.5],
          translation: [3, 1, 2],
        },
      ]),
    ).model.objects[0];
    const local = documentToModel(makeDoc([{ name: 'S', material: 'm' }])).model.objects[0];
    expect(local.placement!.scale).toEqual([1, 1, 1]);
    const a = encodeMeshAsset({ lods: placed.lods, frameScale: placed.placement!.scale }, { deflate });
    const b = encodeMeshAsset({ lods: local.lods }, { deflate });
    expect(a.bytes).toEqual(b.bytes);
    // Without the frame scale, NormalizedScale would carry the node's scale: other bytes.
    expect(encodeMeshAsset({ lods: placed.lods }, { deflate }).bytes).not.toEqual(b.bytes);
  });

  it("property: current placement times prim-frame vertices is the baked importer's world vertices", () => {
    const v = fc.double({ min: -3, max: 3, noNaN: true });
    const sc = fc.double({ min: 0.2, max: 3, noNaN: true });
    const quat = fc
      .tuple(v, v, v, v)
      .filter((q) => Math.hypot(...q) > 0.1)
      .map((q) => q.map((x) => x / Math.hypot(...q)) as [number, number, number, number]);
    fc.assert(
      fc.property(
        fc.tuple(v, v, v),
        quat,
        fc.tuple(sc, sc, sc),
        fc.tuple(v, v, v),
        quat,
        fc.double({ min: 0.2, max: 3, noNaN: true }),
        (t, r, scale, pt, pr, ps) => {
          const doc = makeDoc([
            { name: 'P', material: 'm', translation: pt, rotation: pr, scale: [ps, ps, ps] },
            { name: 'C', material: 'm', translation: t, rotation: r, scale, parent: 'P' },
          ]);
          const current = documentToModel(doc).model.objects[1];
          const baked = documentToModel(doc, { importer: 'baked' }).model.objects[1];
          const world = placePositions(current.placement, current.lods.high.faces[0].positions);
          const expected = baked.lods.high.faces[0].positions;
          const size = Math.max(...boxSize(objectBox(baked)), 1);
          for (let i = 0; i < world.length; i++) expect(Math.abs(world[i] - expected[i])).toBeLessThan(1e-4 * size);
          // The prim's scale is the mesh-local box (1 x 1 x 0) times the node's world scale.
          const cs = boxSize(objectBox(current));
          expect(cs[0]).toBeCloseTo(scale[0] * ps, 4);
          expect(cs[1]).toBeCloseTo(scale[1] * ps, 4);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('applies parent transforms and negates V like the viewer importer', () => {
    const { model } = documentToModel(
      makeDoc([
        { name: 'Parent', material: 'm', scale: [2, 2, 2] },
        { name: 'Child', material: 'm', translation: [1, 0, 0], parent: 'Parent' },
      ]),
      { importer: 'baked' },
    );
    const child = model.objects.find((o) => o.name === 'Child')!;
    expect(child.lods.high.faces[0].positions[0]).toBe(2); // (1,0,0) scaled by the parent's 2
    expect(child.lods.high.faces[0].positions[3]).toBe(4);
    expect(child.lods.high.faces[0].uvs![5]).toBe(-0.25);
  });

  it('flips the winding of mirrored nodes so faces keep facing out', () => {
    const { model } = documentToModel(makeDoc([{ name: 'M', material: 'm', scale: [-1, 1, 1] }]));
    expect(Array.from(model.objects[0].lods.high.faces[0].indices)).toEqual([0, 2, 1]);
  });

  it('prices _LODn/_PHYS nodes inside the high file as the extra objects the uploader makes, and says how to fix it', () => {
    const { model, diagnostics } = documentToModel(
      makeDoc([
        { name: 'Ball', material: 'red' },
        { name: 'Ball_LOD2', material: 'red' },
        { name: 'Ball_PHYS', material: 'red' },
      ]),
      { source: 'ball.glb' },
    );
    expect(model.objects.map((o) => o.name)).toEqual(['Ball', 'Ball_copy_1', 'Ball_copy_2']);
    expect(model.objects[0].lods.medium).toBeUndefined();
    const d = diagnostics.filter((x) => x.code === 'lod-node-in-high-file');
    expect(d).toHaveLength(2);
    expect(d[0].message).toContain('ball_LOD2.glb');
    expect(d[1].message).toContain('ball_PHYS.glb');
  });

  it('groups _LOD2/_LOD1/_LOD0/_PHYS nodes into the named object and lines faces up by material (lodNodes: lods)', () => {
    const { model, diagnostics } = documentToModel(
      makeDoc([
        { name: 'Ball', material: 'red' },
        { name: 'Ball2', material: 'blue' },
        { name: 'Ball_LOD2', material: 'red' },
        { name: 'Ball_LOD1', material: 'red' },
        { name: 'Ball_LOD0', material: 'red' },
        { name: 'Ball_PHYS', material: 'any' },
      ]),
      { lodNodes: 'lods' },
    );
    expect(diagnostics).toEqual([]);
    expect(model.objects.map((o) => o.name)).toEqual(['Ball', 'Ball2']);
    const ball = model.objects[0];
    expect(ball.lods.medium!.faces).toHaveLength(1);
    expect(ball.lods.low!.faces[0].indices).toHaveLength(3);
    expect(ball.lods.lowest).toBeDefined();
    expect(ball.physicsMesh!.faces[0].indices).toHaveLength(3);
    expect(model.objects[1].lods.medium).toBeUndefined();
  });

  it('flags a LOD that uses a material the high LOD does not have', () => {
    const { diagnostics } = documentToModel(
      makeDoc([
        { name: 'X', material: 'a' },
        { name: 'X_LOD2', material: 'b' },
      ]),
      { lodNodes: 'lods' },
    );
    expect(diagnostics.map((d) => d.code)).toContain('lod-material');
  });

  it('skips point and line primitives with a diagnostic', () => {
    const { model, diagnostics } = documentToModel(
      makeDoc([
        { name: 'Pts', material: 'm', mode: 0 },
        { name: 'Tri', material: 'm' },
      ]),
    );
    expect(model.objects.map((o) => o.name)).toEqual(['Tri']);
    expect(diagnostics[0].code).toBe('non-triangle-primitive');
  });

  it('converts triangle strips and fans to triangle lists', () => {
    const strip = documentToModel(makeDoc([{ name: 'S', material: 'm', mode: 5 }])).model.objects[0];
    expect(Array.from(strip.lods.high.faces[0].indices)).toEqual([0, 1, 2]);
    const fan = documentToModel(makeDoc([{ name: 'F', material: 'm', mode: 6 }])).model.objects[0];
    expect(Array.from(fan.lods.high.faces[0].indices)).toEqual([0, 1, 2]);
  });

  it('names unnamed materials mat<i> and material-less faces mat_default, like the importer', () => {
    const doc = makeDoc([{ name: 'N' }]);
    expect(documentToModel(doc).model.objects[0].lods.high.faces[0].material).toBe('mat_default');
  });
});

describe('alignFaces', () => {
  it('gives every high material a face, empty where the LOD does not use it', () => {
    const face = (material: string, n = 3) => ({
      material,
      positions: new Float32Array(n * 3),
      indices: Uint32Array.from({ length: n }, (_, i) => i),
    });
    const { lod, extraMaterials } = alignFaces([face('a'), face('b'), face('c')], [face('c'), face('a'), face('z')]);
    expect(lod.faces.map((f) => [f.material, f.indices.length])).toEqual([
      ['a', 3],
      ['b', 0],
      ['c', 3],
    ]);
    expect(extraMaterials).toEqual(['z']);
  });
});
