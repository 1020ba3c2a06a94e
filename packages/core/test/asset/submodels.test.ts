import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitFace, splitLargeFaces, splitSubmodels, submodelName } from '../../src/asset/submodels.js';
import type { Face, SlObject } from '../../src/types.js';

/** A face of `n` triangles over `v` vertices with random indices. */
const faceArb = fc
  .record({
    v: fc.integer({ min: 3, max: 60 }),
    tris: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 80 }),
  })
  .map(
    ({ v, tris }): Face => ({
      material: 'm',
      positions: Float32Array.from({ length: v * 3 }, (_, i) => i),
      normals: Float32Array.from({ length: v * 3 }, (_, i) => -i),
      uvs: Float32Array.from({ length: v * 2 }, (_, i) => i / 2),
      indices: Uint32Array.from(tris.flatMap((t) => t.map((x) => x % v))),
    }),
  );

/** Triangles as position triples, so they compare across re-indexing. */
function triangleKeys(f: Face): string[] {
  const out: string[] = [];
  for (let t = 0; t < f.indices.length; t += 3) {
    out.push(
      [0, 1, 2]
        .map((k) => Array.from(f.positions.subarray(f.indices[t + k] * 3, f.indices[t + k] * 3 + 3)).join(','))
        .join('|'),
    );
  }
  return out;
}

describe('splitFace', () => {
  it('keeps every triangle once, in order, with at most maxVertices per part, attributes carried along', () => {
    fc.assert(
      fc.property(faceArb, fc.integer({ min: 3, max: 20 }), (face, max) => {
        const parts = splitFace(face, max);
        for (const p of parts) {
          expect(p.positions.length / 3).toBeLessThanOrEqual(max);
          expect(p.normals!.length).toBe(p.positions.length);
          expect(p.uvs!.length).toBe((p.positions.length / 3) * 2);
          for (let i = 0; i < p.positions.length / 3; i++) expect(p.normals![i * 3]).toBe(-p.positions[i * 3]);
        }
        expect(parts.flatMap(triangleKeys)).toEqual(triangleKeys(face));
      }),
    );
  });

  it('leaves a face within the limit untouched', () => {
    const f: Face = { material: 'm', positions: new Float32Array(9), indices: Uint32Array.of(0, 1, 2) };
    expect(splitFace(f, 3)[0]).toBe(f);
  });
});

describe('splitLargeFaces', () => {
  it('keeps lower LODs aligned with high when high splits a face', () => {
    const big: Face = {
      material: 'a',
      positions: Float32Array.from({ length: 30 }, (_, i) => i),
      indices: Uint32Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8),
    };
    const small: Face = { material: 'a', positions: new Float32Array(9), indices: Uint32Array.of(0, 1, 2) };
    const o: SlObject = { name: 'x', lods: { high: { faces: [big] }, low: { faces: [small] } } };
    const s = splitLargeFaces(o, 4);
    expect(s.lods.high.faces.length).toBe(3);
    expect(s.lods.low!.faces.length).toBe(3);
    expect(s.lods.low!.faces.map((f) => f.indices.length)).toEqual([3, 0, 0]);
  });
});

describe('splitSubmodels', () => {
  const face = (material: string): Face => ({
    material,
    positions: new Float32Array(9),
    indices: Uint32Array.of(0, 1, 2),
  });
  it('splits 11 materials into objects of 8 and 3, named like the viewer importer', () => {
    const faces = Array.from({ length: 11 }, (_, i) => face(`m${i}`));
    const parts = splitSubmodels({
      name: 'Chair',
      lods: { high: { faces }, medium: { faces } },
      hull: new Float32Array(12),
    });
    expect(
      parts.map((p) => [
        p.object.name,
        p.submodelId,
        p.object.lods.high.faces.length,
        p.object.lods.medium!.faces.length,
      ]),
    ).toEqual([
      ['Chair', 0, 8, 8],
      ['Chairb', 1, 3, 3],
    ]);
    expect(parts[0].object.hull).toBeDefined();
    expect(parts[1].object.hull).toBeUndefined();
    expect(submodelName('X', 2)).toBe('Xc');
  });
  it('leaves 8 faces alone', () => {
    const faces = Array.from({ length: 8 }, (_, i) => face(`m${i}`));
    expect(splitSubmodels({ name: 'A', lods: { high: { faces } } })).toHaveLength(1);
  });
});
