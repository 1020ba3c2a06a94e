import { describe, expect, it } from 'vitest';
import { costReport } from '../../src/cost/cost-report.js';
import { zlibNgDeflate, zlibNgDeflatedLength } from '../../src/asset/zlib-ng-deflate.js';
import type { DeflateFn, Face, MeshLod, SlObject } from '../../src/types.js';

const deflate: DeflateFn = zlibNgDeflate;

/** A UV sphere face of radius r centred at c: enough triangles that bytes are above the floor. */
function sphere(material: string, seg: number, r = 1, c = [0, 0, 0]): Face {
  const pos: number[] = [],
    nrm: number[] = [],
    uv: number[] = [],
    idx: number[] = [];
  const rings = Math.max(2, seg >> 1);
  for (let i = 0; i <= rings; i++) {
    const th = (i / rings) * Math.PI;
    for (let j = 0; j <= seg; j++) {
      const ph = (j / seg) * 2 * Math.PI;
      const n = [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
      pos.push(c[0] + r * n[0], c[1] + r * n[1], c[2] + r * n[2]);
      nrm.push(...n);
      uv.push(j / seg, i / rings);
    }
  }
  for (let i = 0; i < rings; i++)
    for (let j = 0; j < seg; j++) {
      const a = i * (seg + 1) + j,
        b = a + seg + 1;
      idx.push(a, b, a + 1, a + 1, b, b + 1);
    }
  return {
    material,
    positions: Float32Array.from(pos),
    normals: Float32Array.from(nrm),
    uvs: Float32Array.from(uv),
    indices: Uint32Array.from(idx),
  };
}

const lod = (...faces: Face[]): MeshLod => ({ faces });

describe('costReport', () => {
  const ball: SlObject = { name: 'Ball', lods: { high: lod(sphere('m', 48)), medium: lod(sphere('m', 16)) } };

  it("charges a missing LOD at the next higher LOD's size and says so", () => {
    const o = costReport({ objects: [ball] }, { deflate }).objects[0];
    expect(o.lods.medium.present).toBe(true);
    expect(o.lods.low.present).toBe(false);
    expect(o.lods.low.bytes).toBe(o.lods.medium.bytes);
    expect(o.lods.lowest.bytes).toBe(o.lods.medium.bytes);
    expect(o.lods.low.blockBytes).toBe(0);
    expect(o.lods.high.bytes).toBeGreaterThan(o.lods.medium.bytes);
    expect(o.landImpact).toBe(Math.max(o.streaming, o.physics.weight, o.server));
  });

  it('prices the same from block lengths alone as from the encoded asset it keeps', () => {
    const kept = costReport({ objects: [ball] }, { deflate, keepAssets: true });
    const asset = kept.assets!.get('Ball')!;
    // Pricing without keepAssets never makes the bytes: a deflate that only counts is enough.
    const counting: DeflateFn = () => {
      throw new Error('bytes asked for');
    };
    counting.deflatedLength = zlibNgDeflatedLength;
    const measured = costReport({ objects: [ball] }, { deflate: counting });
    expect(measured.objects).toEqual(kept.objects);
    expect(measured.objects[0].assetBytes).toBe(asset.length);
    expect(measured.assets).toBeUndefined();
  });

  it('asking for twice the size doubles the radius and scale, keeps the bytes, raises download weight', () => {
    const a = costReport({ objects: [ball] }, { deflate }).objects[0];
    const b = costReport({ objects: [ball] }, { deflate, scaleFactors: [2, 2, 2] }).objects[0];
    expect(b.radius).toBeCloseTo(2 * a.radius, 6);
    expect(b.scale[0]).toBeCloseTo(2 * a.scale[0], 6);
    expect(b.lods.high.bytes).toBe(a.lods.high.bytes);
    expect(b.streaming).toBeGreaterThan(a.streaming);
    expect(b.switchDistances.medium).toBeGreaterThan(a.switchDistances.medium);
  });

  it('adds the linkset up: sums of download and physics, server 0.5 per prim, linkability of the centres', () => {
    const far: SlObject = { name: 'Far', lods: { high: lod(sphere('m', 8, 0.5, [60, 0, 0])) } };
    const r = costReport({ objects: [ball, far] }, { deflate });
    expect(r.linkset.prims).toBe(2);
    expect(r.linkset.streaming).toBeCloseTo(r.objects[0].streaming + r.objects[1].streaming, 9);
    expect(r.linkset.physics).toBeCloseTo(r.objects[0].physics.weight + r.objects[1].physics.weight, 9);
    expect(r.linkset.server).toBe(1);
    expect(r.linkset.linkable.ok).toBe(false);
    expect(r.linkset.linkable.span).toBeCloseTo(60, 3);
    expect(r.diagnostics.map((d) => d.code)).toContain('not-linkable');
    expect(r.linkset.landImpactRounded).toBe(Math.floor(r.linkset.landImpact + 0.5));
  });

  it('uses a decomposition when there is one, and labels its weight an estimate', () => {
    const tet = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
    const o = costReport({ objects: [{ ...ball, decomposition: [tet, tet, tet] }] }, { deflate });
    expect(o.objects[0].physics.shape).toBe('decomposition');
    expect(o.objects[0].physics.estimate).toBe(true);
    expect(o.objects[0].physics.decomposition).toMatchObject({ hulls: 3, vertices: 12, estimate: true });
    expect(o.linkset.physicsEstimate).toBe(true);
  });

  it('prices a physics mesh by triangle width: shrinking the object raises its physics weight', () => {
    const withPhys: SlObject = { ...ball, physicsMesh: lod(sphere('p', 12)) };
    const a = costReport({ objects: [withPhys] }, { deflate }).objects[0];
    const small = costReport({ objects: [withPhys] }, { deflate, scaleFactors: [0.25, 0.25, 0.25] }).objects[0];
    expect(a.physics.shape).toBe('mesh');
    expect(a.physics.estimate).toBe(false);
    expect(small.physics.weight).toBeGreaterThan(a.physics.weight);
    // The single hull comes from the physics mesh and does not depend on scale.
    expect(small.physics.convexHull).toEqual(a.physics.convexHull);
    expect(a.physics.convexHull.source).toBe('physics');
  });

  it('prices an 11-material object as the two linked objects the uploader makes', () => {
    const faces = Array.from({ length: 11 }, (_, i) => sphere(`m${i}`, 6, 0.2, [i, 0, 0]));
    const r = costReport({ objects: [{ name: 'Many', lods: { high: lod(...faces) } }] }, { deflate });
    expect(r.objects.map((o) => [o.name, o.faces])).toEqual([
      ['Many', 8],
      ['Manyb', 3],
    ]);
    expect(r.diagnostics.map((d) => d.code)).toContain('too-many-faces');
  });

  it('does not price an object with NaN vertices, and reports it', () => {
    const bad = sphere('m', 8);
    bad.positions[4] = NaN;
    const r = costReport({ objects: [{ name: 'Bad', lods: { high: lod(bad) } }, ball] }, { deflate });
    expect(r.objects.map((o) => o.name)).toEqual(['Ball']);
    expect(r.diagnostics.find((d) => d.code === 'non-finite-vertex')?.object).toBe('Bad');
  });

  it('animesh pricing uses triangles and adds the animated root once', () => {
    const r = costReport({ objects: [ball, { ...ball, name: 'Ball2' }] }, { deflate, animesh: true });
    const sum = r.objects[0].streaming + r.objects[1].streaming;
    expect(r.linkset.streaming).toBeCloseTo(sum + 15, 6);
  });
});

describe('costReport: the server convexification of small triangle meshes', () => {
  /** A ring (concave, so its triangle mesh and its hull price differently) of outer size 2R. */
  function ringFace(R: number, r: number): Face {
    const pos: number[] = [],
      idx: number[] = [];
    const seg = 24,
      side = 8;
    for (let i = 0; i < seg; i++)
      for (let j = 0; j < side; j++) {
        const a = (2 * Math.PI * i) / seg,
          b = (2 * Math.PI * j) / side;
        pos.push((R + r * Math.cos(b)) * Math.cos(a), (R + r * Math.cos(b)) * Math.sin(a), r * Math.sin(b));
      }
    for (let i = 0; i < seg; i++)
      for (let j = 0; j < side; j++) {
        const a = i * side + j,
          b = ((i + 1) % seg) * side + j,
          c = ((i + 1) % seg) * side + ((j + 1) % side),
          d = i * side + ((j + 1) % side);
        idx.push(a, b, c, a, c, d);
      }
    return { material: 'm', positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
  }

  it('a physics mesh on an object with a side under 0.5 m is charged as its single hull; at 0.5 m and over, as a triangle mesh', () => {
    // The ring is 2.6 x 2.6 x 0.6 m: no side under 0.5 m at scale 1.
    const o: SlObject = { name: 'Ring', lods: { high: lod(ringFace(1, 0.3)) }, physicsMesh: lod(ringFace(1, 0.3)) };
    const big = costReport({ objects: [o] }, { deflate }).objects[0];
    expect(big.physics.convexified).toBeUndefined();
    expect(big.physics.shape).toBe('mesh');
    expect(big.physics.weight).toBe(big.physics.mesh!.weight);
    // Scaled so the thickness is 0.48 m: convexified.
    const s = 0.48 / 0.6;
    const small = costReport({ objects: [o] }, { deflate, scaleFactors: [s, s, s] }).objects[0];
    expect(small.physics.convexified).toBe(true);
    expect(small.physics.shape).toBe('convex-hull');
    expect(small.physics.weight).toBe(small.physics.convexHull.weight);
    expect(small.physics.mesh!.weight).not.toBe(small.physics.weight);
    // A decomposition is never convexified, and prices hulls: it assumes Analyze.
    const d = costReport(
      { objects: [{ ...o, decomposition: [Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])] }] },
      { deflate, scaleFactors: [s, s, s] },
    ).objects[0];
    expect(d.physics.convexified).toBeUndefined();
    expect(d.physics.shape).toBe('decomposition');
    expect(d.physics.assumes).toEqual(['analyze']);
  });
});
