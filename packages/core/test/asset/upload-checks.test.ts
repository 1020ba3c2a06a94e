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
    expect(codes({ name: 'b', lods: { high: { faces: [{ ...tri(), indices: Uint32Array.of(0, 1, 7) }] } } })).toContain('bad-index');
    expect(codes({ name: 'c', lods: { high: { faces: [{ material: 'm', positions: new Float32Array(0), indices: new Uint32Array(0) }] } } })).toContain('no-high-lod');
  });
  it('flags LOD face-count and material mismatches, and a heavier lower LOD', () => {
    const big: Face = { material: 'm', positions: new Float32Array(30), indices: Uint32Array.of(0, 1, 2) };
    expect(codes({ name: 'd', lods: { high: { faces: [tri('a'), tri('b')] }, low: { faces: [tri('a')] } } })).toContain('lod-face-count');
    expect(codes({ name: 'e', lods: { high: { faces: [tri('a')] }, low: { faces: [tri('z')] } } })).toContain('lod-material');
    expect(codes({ name: 'f', lods: { high: { faces: [tri()] }, medium: { faces: [big] } } })).toContain('lod-more-vertices');
  });
  it('flags more than 8 faces and scale limits', () => {
    const faces = Array.from({ length: 9 }, (_, i) => tri(`m${i}`));
    expect(codes({ name: 'g', lods: { high: { faces } } })).toContain('too-many-faces');
    expect(codes({ name: 'h', lods: { high: { faces: [tri('m', 70)] } } })).toContain('scale-too-large');
    expect(codes({ name: 'i', lods: { high: { faces: [tri('m', 0.005)] } } })).toContain('scale-too-small');
  });
  it('flags hull limits and degenerate physics triangles', () => {
    expect(codes({ name: 'j', lods: { high: { faces: [tri()] } }, hull: new Float32Array(257 * 3) })).toContain('hull-vertices');
    expect(codes({ name: 'k', lods: { high: { faces: [tri()] } }, decomposition: Array.from({ length: 257 }, () => new Float32Array(12)) })).toContain('too-many-hulls');
    const flat: Face = { material: 'p', positions: Float32Array.of(0, 0, 0, 1, 0, 0, 2, 0, 0), indices: Uint32Array.of(0, 1, 2) };
    expect(countDegenerateTriangles({ faces: [flat, tri()] })).toBe(1);
    expect(codes({ name: 'l', lods: { high: { faces: [tri()] } }, physicsMesh: { faces: [flat] } })).toContain('physics-degenerate');
  });
  it('names the object in every message', () => {
    for (const d of checkObject({ name: 'Named', lods: { high: { faces: [tri('m', 70)] } } })) expect(d.message).toMatch(/^Named: /);
  });
});

describe('checkModel', () => {
  it('flags an empty model and one over 240 m', () => {
    expect(checkModel({ objects: [] }).map((d) => d.code)).toContain('no-mesh');
    const far = { name: 'far', lods: { high: { faces: [tri('m', 1, 250)] } } };
    const near = { name: 'near', lods: { high: { faces: [tri()] } } };
    expect(checkModel({ objects: [near, far] }).map((d) => d.code)).toContain('model-too-large');
  });
});
