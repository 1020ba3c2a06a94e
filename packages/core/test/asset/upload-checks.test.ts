import { describe, expect, it } from 'vitest';
import { checkModel, checkObject, countDegenerateTriangles } from '../../src/asset/upload-checks.js';
import type { Face, SlObject } from '../../src/types.js';

const tri = (material = 'm', scale = 1, offset = 0): Face => ({
  material,
  positions: Float32Array.of(offset, 0, 0, offset + scale, 0, 0, offset, scale, scale),
  indices: Uint32Array.of(0, 1, 2),
});
const codes = (o: SlObject) => checkObject(o).map((d) => d.code);

describe('checkObject', () => {
  it('a clean object has no findings', () => {
    expect(checkObject({ name: 'ok', lods: { high: { faces: [tri()] }, medium: { faces: [tri()] } } })).toEqual([]);
  });
  it('flags NaN vertices, bad indices and an empty high LOD', () => {
    const nan = tri();
    nan.positions[0] = NaN;
    expect(codes({ name: 'a', lods: { high: { faces: [nan] } } })).toContain('non-finite-vertex');
    expect(codes({ name: 'b', lods: { high: { faces: [{ ...tri(), indices: Uint32Array.of(0, 1, 7) }] } } })).toContain(
      'bad-index',
    );
    expect(
      codes({
        name: 'c',
        lods: { high: { faces: [{ material: 'm', positions: new Float32Array(0), indices: new Uint32Array(0) }] } },
      }),
    ).toContain('no-high-lod');
  });
  it('flags LOD face-count and material mismatches, and a heavier lower LOD', () => {
    const big: Face = { material: 'm', positions: new Float32Array(30), indices: Uint32Array.of(0, 1, 2) };
    expect(codes({ name: 'd', lods: { high: { faces: [tri('a'), tri('b')] }, low: { faces: [tri('a')] } } })).toContain(
      'lod-face-count',
    );
    expect(codes({ name: 'e', lods: { high: { faces: [tri('a')] }, low: { faces: [tri('z')] } } })).toContain(
      'lod-material',
    );
    expect(codes({ name: 'f', lods: { high: { faces: [tri()] }, medium: { faces: [big] } } })).toContain(
      'lod-more-vertices',
    );
  });
  it("warns when a LOD or physics box differs from high's, saying by how much the uploader stretches it", () => {
    const o: SlObject = {
      name: 'g',
      lods: { high: { faces: [tri('m', 1)] }, medium: { faces: [tri('m', 0.8)] } },
      physicsMesh: { faces: [tri('m', 0.5, 0.5)] },
    };
    const d = checkObject(o);
    const lod = d.find((x) => x.code === 'lod-box-mismatch')!;
    expect(lod.severity).toBe('warning');
    expect(lod.message).toMatch(/medium LOD.*25\.0 % on x/);
    expect(d.map((x) => x.code)).toContain('physics-box-mismatch');
    const hulls = checkObject({
      name: 'h',
      lods: { high: { faces: [tri('m', 1)] } },
      decomposition: [Float32Array.of(0, 0, 0, 0.5, 0, 0, 0, 0.5, 0.5, 0, 0, 0.5)],
    });
    expect(hulls.map((x) => x.code)).toContain('physics-box-mismatch');
    expect(
      codes({ name: 'i', lods: { high: { faces: [tri('m', 1)] }, medium: { faces: [tri('m', 1)] } } }),
    ).not.toContain('lod-box-mismatch');
  });
  it("warns when a LOD drops one of high's materials (the official viewer shifts the textures)", () => {
    const empty: Face = { material: 'b', positions: new Float32Array(0), indices: new Uint32Array(0) };
    expect(
      codes({ name: 'j', lods: { high: { faces: [tri('a'), tri('b')] }, low: { faces: [tri('a'), empty] } } }),
    ).toContain('lod-material-missing');
    expect(
      codes({ name: 'k', lods: { high: { faces: [tri('a'), tri('b')] }, low: { faces: [tri('a'), tri('b')] } } }),
    ).not.toContain('lod-material-missing');
  });
  it('flags more than 8 faces and scale limits', () => {
    const faces = Array.from({ length: 9 }, (_, i) => tri(`m${i}`));
    expect(codes({ name: 'g', lods: { high: { faces } } })).toContain('too-many-faces');
    // Over 64 m is not an upload error: the uploader's Scale caps it (cost/upload-scale.ts).
    expect(codes({ name: 'h', lods: { high: { faces: [tri('m', 70)] } } })).toEqual([]);
    expect(codes({ name: 'i', lods: { high: { faces: [tri('m', 0.005)] } } })).toContain('scale-too-small');
  });
  it('flags hull limits and degenerate physics triangles', () => {
    expect(codes({ name: 'j', lods: { high: { faces: [tri()] } }, hull: new Float32Array(257 * 3) })).toContain(
      'hull-vertices',
    );
    expect(
      codes({
        name: 'k',
        lods: { high: { faces: [tri()] } },
        decomposition: Array.from({ length: 257 }, () => new Float32Array(12)),
      }),
    ).toContain('too-many-hulls');
    const flat: Face = {
      material: 'p',
      positions: Float32Array.of(0, 0, 0, 1, 0, 0, 2, 0, 0),
      indices: Uint32Array.of(0, 1, 2),
    };
    expect(countDegenerateTriangles({ faces: [flat, tri()] })).toBe(1);
    expect(codes({ name: 'l', lods: { high: { faces: [tri()] } }, physicsMesh: { faces: [flat] } })).toContain(
      'physics-degenerate',
    );
  });
  it('names the object in every message', () => {
    const found = checkObject({ name: 'Named', lods: { high: { faces: [tri('m', 0.005)] } } });
    expect(found.length).toBeGreaterThan(0);
    for (const d of found) expect(d.message).toMatch(/^Named: /);
  });
});

describe('checkModel', () => {
  it('flags an empty model, and checks every object', () => {
    expect(checkModel({ objects: [] }).map((d) => d.code)).toContain('no-mesh');
    const bad = { name: 'bad', lods: { high: { faces: [{ ...tri(), indices: Uint32Array.of(0, 1, 7) }] } } };
    const near = { name: 'near', lods: { high: { faces: [tri()] } } };
    expect(checkModel({ objects: [near, bad] }).map((d) => d.code)).toEqual(['bad-index']);
  });
});
