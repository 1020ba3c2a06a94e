import { importerRemapOrder, remapFace } from '../../src/asset/importer-remap.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inflateSync } from 'node:zlib';
import { MESH_BLOCK_ORDER } from '../../src/constants.js';
import type { MeshBlockName } from '../../src/constants.js';
import { isSlmeshError } from '../../src/errors.js';
import { llsdInt, readLlsdBinary, writeLlsdBinary } from '../../src/asset/llsd-binary.js';
import type { LlsdValue } from '../../src/asset/llsd-binary.js';
import {
  computeUploadNormalization,
  encodeMeshAsset,
  measureMeshAsset,
  normalizeNormals,
  normalizePoints,
  quantizeNormalU16,
  quantizeU16,
} from '../../src/asset/mesh-asset.js';
import type { EncodedMeshAsset, MeshAssetInput, UploadNormalization } from '../../src/asset/mesh-asset.js';
import { decodeMeshAsset } from '../../src/asset/mesh-asset-decode.js';
import type { DecodedFace } from '../../src/asset/mesh-asset-decode.js';
import { zlibNgDeflate, zlibNgDeflatedLength } from '../../src/asset/zlib-ng-deflate.js';
import { memoizeDeflate } from '../../src/asset/deflate-cache.js';
import type { DeflateFn, Face, InflateFn, LodName, MeshLod } from '../../src/types.js';

const deflate: DeflateFn = zlibNgDeflate;
const inflate: InflateFn = (data) => new Uint8Array(inflateSync(data));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const u16le = (...v: number[]): Uint8Array => {
  const out = new Uint8Array(v.length * 2);
  v.forEach((x, i) => {
    out[2 * i] = x & 0xff;
    out[2 * i + 1] = x >> 8;
  });
  return out;
};

function face(positions: number[], indices: number[], extra: Partial<Face> = {}): Face {
  return { material: 'm', positions: Float32Array.from(positions), indices: Uint32Array.from(indices), ...extra };
}

function blockLlsd(asset: EncodedMeshAsset, name: MeshBlockName): LlsdValue {
  const r = asset.blocks[name];
  if (!r) throw new Error(`no ${name}`);
  const start = asset.headerLength + r.offset;
  return readLlsdBinary(inflate(asset.bytes.subarray(start, start + r.size))).value;
}

function expectError(fn: () => unknown, code: string, pattern: RegExp): void {
  try {
    fn();
  } catch (e) {
    expect(isSlmeshError(e) && e.code).toBe(code);
    expect((e as Error).message).toMatch(pattern);
    return;
  }
  throw new Error(`expected ${code}`);
}

const TRIANGLE = face([0, 0, 0, 2, 0, 0, 0, 4, 1], [0, 1, 2], {
  normals: Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1]),
  uvs: Float32Array.from([0, 0, 1, 0, 0, 1]),
});

describe('encodeMeshAsset: hand-checked', () => {
  it('encodes one triangle as writeModel does', () => {
    const asset = encodeMeshAsset({ lods: { high: { faces: [TRIANGLE] } } }, { deflate });
    // Box (0,0,0)-(2,4,1): centre (1,2,0.5), size (2,4,1); the unit box is -0.5..0.5.
    expect(asset.normalization).toEqual({ center: [1, 2, 0.5], size: [2, 4, 1] });
    expect(blockLlsd(asset, 'high_lod')).toEqual([
      {
        PositionDomain: { Min: [-0.5, -0.5, -0.5], Max: [0.5, 0.5, 0.5] },
        NormalizedScale: [2, 4, 1],
        Position: u16le(0, 0, 0, 65535, 0, 0, 0, 65535, 65535),
        // (0+1)*0.5*65535 = 32767.5 -> 32767; (1+1)*0.5*65535 = 65535.
        Normal: u16le(32767, 32767, 65535, 32767, 32767, 65535, 32767, 32767, 65535),
        TexCoord0Domain: { Min: [0, 0], Max: [1, 1] },
        TexCoord0: u16le(0, 0, 65535, 0, 0, 65535),
        TriangleList: u16le(0, 1, 2),
      },
    ]);
    // Header: {high_lod: {offset: 0, size: N}}, byte for byte.
    const size = asset.blocks.high_lod!.size;
    const sizeHex = size.toString(16).padStart(8, '0');
    const key = (k: string): string => '6b' + k.length.toString(16).padStart(8, '0') + Buffer.from(k).toString('hex');
    const header =
      '7b00000001' +
      key('high_lod') +
      '7b00000002' +
      key('offset') +
      '6900000000' +
      key('size') +
      '69' +
      sizeHex +
      '7d7d';
    expect(hex(asset.bytes.subarray(0, asset.headerLength))).toBe(header);
    expect(asset.headerLength).toBe(header.length / 2);
    expect(asset.blocks).toEqual({ high_lod: { offset: 0, size } });
    expect(asset.bytes.length).toBe(asset.headerLength + size);
    // zlib (RFC 1950) at level 9: header bytes 78 DA.
    expect(hex(asset.bytes.subarray(asset.headerLength, asset.headerLength + 2))).toBe('78da');
  });

  it('quantises as (U16)(((v - min) / range) * 65535) and ((n + 1) * 0.5 * 65535) in float32', () => {
    expect(quantizeU16(0.25, -0.5, 1)).toBe(49151); // 0.75 * 65535 = 49151.25
    expect(quantizeU16(0.5, -0.5, 1)).toBe(65535);
    expect(quantizeU16(-0.5, -0.5, 1)).toBe(0);
    expect(quantizeU16(3, 3, 0)).toBe(0); // zero range: 0/0 -> NaN -> 0
    expect(quantizeNormalU16(-1)).toBe(0);
    expect(quantizeNormalU16(0)).toBe(32767);
    expect(quantizeNormalU16(1)).toBe(65535);
    // Against an independent float32 emulation (Float32Array stores round every step).
    const f32 = new Float32Array(1);
    const emulate = (v: number, min: number, range: number): number => {
      f32[0] = v - min;
      f32[0] = f32[0] / range;
      f32[0] = f32[0] * 65535;
      return Math.trunc(f32[0]);
    };
    fc.assert(
      fc.property(
        fc.float({ min: -1, max: 1, noNaN: true }),
        fc.float({ min: -1, max: 1, noNaN: true }),
        fc.float({ min: Math.fround(1e-3), max: 2, noNaN: true }),
        (a, b, extra) => {
          const min = Math.min(a, b);
          const range = Math.fround(Math.fround(Math.max(a, b) - min) + extra);
          const v = Math.max(a, b);
          expect(quantizeU16(v, min, range)).toBe(emulate(v, min, range));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("renormalises normals through the scale: n' = normalize(n * size)", () => {
    const s = Math.SQRT1_2;
    const f = face([0, 0, 0, 2, 0, 0, 0, 4, 1], [0, 1, 2], {
      normals: Float32Array.from([s, s, 0, 0, 0, 0, 0, 0, 1e-6]),
    });
    const n = computeUploadNormalization({ faces: [f] });
    const out = normalizeNormals(f.normals!, n);
    expect(out[0]).toBeCloseTo(1 / Math.sqrt(5), 6);
    expect(out[1]).toBeCloseTo(2 / Math.sqrt(5), 6);
    expect(out[2]).toBe(0);
    // Zero (and near-zero) normals are left alone.
    expect(Array.from(out.subarray(3))).toEqual([0, 0, 0, 0, 0, Math.fround(1e-6)]);
  });

  it('treats a flat axis as size 1 (F_APPROXIMATELY_ZERO)', () => {
    const plane = face([0, 0, 3, 10, 0, 3, 0, 5, 3], [0, 1, 2]);
    const asset = encodeMeshAsset({ lods: { high: { faces: [plane] } } }, { deflate });
    expect(asset.normalization).toEqual({ center: [5, 2.5, 3], size: [10, 5, 1] });
    const block = blockLlsd(asset, 'high_lod') as {
      PositionDomain: { Min: number[]; Max: number[] };
      Position: Uint8Array;
    }[];
    expect(block[0].PositionDomain).toEqual({ Min: [-0.5, -0.5, 0], Max: [0.5, 0.5, 0] });
    expect(block[0].Position).toEqual(u16le(0, 0, 0, 65535, 0, 0, 0, 65535, 0));
  });

  it('writes faces with fewer than 3 vertices as NoGeometry, still counting them in the position domain', () => {
    const lone = face([9, 9, 9], []);
    const asset = encodeMeshAsset({ lods: { high: { faces: [TRIANGLE, lone, face([], [])] } } }, { deflate });
    const block = blockLlsd(asset, 'high_lod') as Record<string, LlsdValue>[];
    expect(block.length).toBe(3);
    expect(block[1]).toEqual({ NoGeometry: true });
    expect(block[2]).toEqual({ NoGeometry: true });
    expect(Object.keys(block[0]).sort()).toEqual(
      [
        'Normal',
        'NormalizedScale',
        'Position',
        'PositionDomain',
        'TexCoord0',
        'TexCoord0Domain',
        'TriangleList',
      ].sort(),
    );
    expect((block[0].PositionDomain as { Max: number[] }).Max).toEqual([0.5, 0.5, 0.5]);
  });
});

describe('encodeMeshAsset: blocks and header', () => {
  const lod = (scale: number): MeshLod => ({
    faces: [face([0, 0, 0, scale, 0, 0, 0, scale, 0, 0, 0, scale], [0, 1, 2, 0, 2, 3])],
  });
  const tetra = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  const all: MeshAssetInput = {
    lods: { high: lod(1), medium: lod(0.9), low: lod(0.8), lowest: lod(0.7) },
    physicsMesh: lod(1),
    hull: tetra,
    decomposition: [tetra, tetra.map((v) => v * 0.5)],
  };

  it('lays out blocks in file order with contiguous offsets and a sorted header', () => {
    const asset = encodeMeshAsset(all, { deflate });
    // A decomposition replaces the physics mesh.
    expect(Object.keys(asset.blocks)).toEqual(['physics_convex', 'lowest_lod', 'low_lod', 'medium_lod', 'high_lod']);
    let offset = 0;
    for (const name of MESH_BLOCK_ORDER) {
      const r = asset.blocks[name];
      if (!r) continue;
      expect(r.offset).toBe(offset);
      offset += r.size;
    }
    expect(asset.bytes.length).toBe(asset.headerLength + offset);
    const header = readLlsdBinary(asset.bytes);
    expect(header.bytesRead).toBe(asset.headerLength);
    // Re-writing the header sorts its keys: identical bytes mean they were sorted.
    expect(hex(writeLlsdBinary(header.value))).toBe(hex(asset.bytes.subarray(0, asset.headerLength)));
    expect(Object.keys(header.value as object).sort()).toEqual([
      'high_lod',
      'low_lod',
      'lowest_lod',
      'medium_lod',
      'physics_convex',
    ]);
  });

  it('measureMeshAsset gives the same layout without making the asset (lengths only)', () => {
    const counted: DeflateFn = (d, level) => {
      throw new Error(`bytes asked for (${d.length}, level ${level})`);
    };
    counted.deflatedLength = (d, level) => zlibNgDeflatedLength(d, level);
    for (const input of [all, { lods: { high: lod(2), low: lod(1) }, physicsMesh: lod(2), hull: tetra }]) {
      const encoded = encodeMeshAsset(input, { deflate });
      const { bytes, ...layout } = encoded;
      expect(measureMeshAsset(input, { deflate: counted })).toEqual(layout);
      expect(layout.length).toBe(bytes.length);
    }
  });

  it('measureMeshAsset remembers an LOD block by its object and frame: priced again, only the new blocks are made', () => {
    const made: number[] = [];
    const counted: DeflateFn = (d, level) => zlibNgDeflate(d, level);
    // (Lengths at level 9 whatever the level asked: the level test below counts calls only.)
    counted.deflatedLength = (d) => {
      made.push(d.length);
      return zlibNgDeflatedLength(d, 9);
    };
    const high = lod(2);
    const medium = lod(1.5);
    const physicsMesh = lod(1);
    const check = (input: MeshAssetInput, deflate: DeflateFn, blocksMade: number) => {
      made.length = 0;
      const { bytes: _b, ...layout } = encodeMeshAsset(input, { deflate: zlibNgDeflate });
      expect(measureMeshAsset(input, { deflate })).toEqual(layout);
      expect(made.length).toBe(blocksMade);
    };
    const input: MeshAssetInput = { lods: { high, medium }, physicsMesh, hull: tetra };
    check(input, counted, 4); // physics_convex, medium, high, physics_mesh
    check(input, counted, 1); // the convex block only (hulls are not remembered)
    // A memoised deflate gives the bytes of the one it wraps: the lengths serve it too.
    check(input, memoizeDeflate(counted), 1);
    // The same LODs as other objects (a copy of the arrays) are made again, once.
    const copy = { ...input, lods: { high: { faces: [...high.faces] }, medium } };
    check(copy, counted, 2); // convex, the new high
    // Another frame: a larger high moves medium's normalisation; the node's scale its NormalizedScale.
    check({ lods: { high: lod(3), medium } }, counted, 2);
    check({ ...input, frameScale: [2, 2, 2] }, counted, 4);
    check({ ...input, frameScale: [2, 2, 2] }, counted, 1);
    // Another level.
    made.length = 0;
    measureMeshAsset(input, { deflate: counted, level: 6 });
    expect(made.length).toBe(4);
  });

  it('keeps the physics mesh beside a single hull, and omits absent and empty LODs', () => {
    const asset = encodeMeshAsset(
      { lods: { high: lod(1), low: { faces: [] } }, physicsMesh: lod(2), hull: tetra },
      { deflate },
    );
    expect(Object.keys(asset.blocks)).toEqual(['physics_convex', 'high_lod', 'physics_mesh']);
    const convex = blockLlsd(asset, 'physics_convex') as Record<string, LlsdValue>;
    expect(Object.keys(convex).sort()).toEqual(['BoundingVerts', 'Max', 'Min']);
    expect((convex.BoundingVerts as Uint8Array).length).toBe(4 * 6);
  });

  it('writes the physics_convex block as Decomposition::asLLSD, 256 points as HullList 0', () => {
    const big = new Float32Array(256 * 3).map((_, i) => Math.sin(i));
    const asset = encodeMeshAsset({ lods: { high: lod(1) }, decomposition: [big, tetra], hull: tetra }, { deflate });
    const convex = blockLlsd(asset, 'physics_convex') as Record<string, LlsdValue>;
    expect(convex.HullList).toEqual(Uint8Array.of(0, 4));
    expect((convex.Positions as Uint8Array).length).toBe(260 * 6);
    expect((convex.BoundingVerts as Uint8Array).length).toBe(4 * 6);
    // Min/Max over every point, in the unit frame of the high LOD (box 0..1, so p - 0.5).
    const min = convex.Min as number[];
    const max = convex.Max as number[];
    for (let k = 0; k < 3; k++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (const h of [big, tetra]) {
        for (let i = k; i < h.length; i += 3) {
          lo = Math.min(lo, Math.fround(h[i] - 0.5));
          hi = Math.max(hi, Math.fround(h[i] - 0.5));
        }
      }
      expect(min[k]).toBe(lo);
      expect(max[k]).toBe(hi);
    }
  });

  it('writes submodel_id with an empty physics_convex only when there is no hull (as writeModel)', () => {
    const sub = encodeMeshAsset({ lods: { high: lod(1) }, physicsMesh: lod(1), submodelId: 3 }, { deflate });
    expect(Object.keys(sub.blocks)).toEqual(['physics_convex', 'high_lod']);
    const header = readLlsdBinary(sub.bytes).value as Record<string, LlsdValue>;
    expect(header.submodel_id).toEqual(llsdInt(3));
    expect(blockLlsd(sub, 'physics_convex')).toBeUndefined();
    const withHull = encodeMeshAsset({ lods: { high: lod(1) }, hull: tetra, submodelId: 3 }, { deflate });
    expect((readLlsdBinary(withHull.bytes).value as Record<string, LlsdValue>).submodel_id).toBeUndefined();
    const zero = encodeMeshAsset({ lods: { high: lod(1) }, submodelId: 0 }, { deflate });
    expect(Object.keys(zero.blocks)).toEqual(['high_lod']);
  });

  it('passes the level to deflate (default 9)', () => {
    const levels: number[] = [];
    const spy: DeflateFn = (d, l) => {
      levels.push(l);
      return deflate(d, 9); // zlibNgDeflate is level 9 only
    };
    encodeMeshAsset(all, { deflate: spy });
    encodeMeshAsset({ lods: { high: lod(1) } }, { deflate: spy, level: 1 });
    expect(levels).toEqual([9, 9, 9, 9, 9, 1]);
  });

  it('refuses what cannot be encoded', () => {
    const many = new Float32Array(65536 * 3);
    expectError(
      () => encodeMeshAsset({ lods: { high: { faces: [face(Array.from(many), [0, 1, 2])] } } }, { deflate }),
      'INPUT_LIMIT',
      /65536 vertices/,
    );
    expectError(
      () => encodeMeshAsset({ lods: { high: lod(1) }, hull: new Float32Array(257 * 3) }, { deflate }),
      'INPUT_LIMIT',
      /257 points/,
    );
    expectError(
      () =>
        encodeMeshAsset(
          { lods: { high: lod(1) }, decomposition: Array.from({ length: 257 }, () => tetra) },
          { deflate },
        ),
      'INPUT_LIMIT',
      /257 hulls/,
    );
    expectError(
      () => encodeMeshAsset({ lods: { high: lod(1) }, decomposition: [new Float32Array(0)] }, { deflate }),
      'INPUT_INVALID',
      /no points/,
    );
    expectError(
      () => encodeMeshAsset({ lods: { high: { faces: [face([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 3])] } } }, { deflate }),
      'INPUT_INVALID',
      /index 3/,
    );
    expectError(
      () =>
        encodeMeshAsset({ lods: { high: { faces: [face([0, 0, NaN, 1, 0, 0, 0, 1, 0], [0, 1, 2])] } } }, { deflate }),
      'INPUT_INVALID',
      /non-finite/,
    );
    expectError(
      () => encodeMeshAsset({ lods: { high: { faces: [face([0, 0, 0, 1], [])] } } }, { deflate }),
      'INPUT_INVALID',
      /multiple of 3/,
    );
  });

  it('encodes a face of exactly 65535 vertices', () => {
    const n = 65535;
    // Every vertex distinct and used (the importer's remap drops unused and repeated ones).
    const p = new Float32Array(n * 3).map((_, i) => i);
    const idx = new Uint32Array(n).map((_, i) => i);
    const asset = encodeMeshAsset(
      { lods: { high: { faces: [{ material: 'm', positions: p, indices: idx }] } } },
      { deflate },
    );
    const decoded = decodeMeshAsset(asset.bytes, { inflate });
    expect(decoded.lods.high![0].positions!.length).toBe(n * 3);
    expect(Array.from(decoded.lods.high![0].indices!)).toEqual(Array.from(idx));
  });
});

// ---------------------------------------------------------------------------------------------
// Round trip: random objects encode -> decode
// ---------------------------------------------------------------------------------------------

function normalsFrom(raw: Float32Array): Float32Array {
  const out = new Float32Array(raw.length);
  for (let i = 0; i < raw.length; i += 3) {
    const l = Math.hypot(raw[i], raw[i + 1], raw[i + 2]);
    if (l < 1e-3) continue; // a zero normal
    out[i] = raw[i] / l;
    out[i + 1] = raw[i + 1] / l;
    out[i + 2] = raw[i + 2] / l;
  }
  return out;
}

const faceArb: fc.Arbitrary<Face> = fc
  .record({
    count: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 3, max: 40 })),
    hasNormals: fc.boolean(),
    hasUvs: fc.boolean(),
  })
  .chain(({ count, hasNormals, hasUvs }) =>
    fc.record({
      material: fc.constant('m'),
      positions: fc.float32Array({ minLength: count * 3, maxLength: count * 3, min: -50, max: 50, noNaN: true }),
      normals: hasNormals
        ? fc.float32Array({ minLength: count * 3, maxLength: count * 3, min: -1, max: 1, noNaN: true }).map(normalsFrom)
        : fc.constant(undefined),
      uvs: hasUvs
        ? fc.float32Array({ minLength: count * 2, maxLength: count * 2, min: -4, max: 4, noNaN: true })
        : fc.constant(undefined),
      indices:
        count >= 3
          ? fc
              .array(fc.integer({ min: 0, max: count - 1 }), { maxLength: 90 })
              .map((a) => Uint32Array.from(a.slice(0, a.length - (a.length % 3))))
          : fc.constant(new Uint32Array(0)),
    }),
  );

const lodArb = (faces: number): fc.Arbitrary<MeshLod> =>
  fc.array(faceArb, { minLength: faces, maxLength: faces }).map((f) => ({ faces: f }));
const hullArb = (maxPoints: number): fc.Arbitrary<Float32Array> =>
  fc
    .integer({ min: 1, max: maxPoints })
    .chain((n) => fc.float32Array({ minLength: n * 3, maxLength: n * 3, min: -60, max: 60, noNaN: true }));

const inputArb: fc.Arbitrary<MeshAssetInput> = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc
    .record({
      high: lodArb(n),
      medium: fc.option(lodArb(n), { nil: undefined, freq: 2 }),
      low: fc.option(lodArb(n), { nil: undefined, freq: 2 }),
      lowest: fc.option(lodArb(n), { nil: undefined, freq: 2 }),
      physicsMesh: fc.option(lodArb(1), { nil: undefined, freq: 2 }),
      hull: fc.option(hullArb(256), { nil: undefined, freq: 2 }),
      decomposition: fc.option(fc.array(hullArb(256), { maxLength: 12 }), { nil: undefined, freq: 2 }),
      submodelId: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined, freq: 2 }),
      flatAxis: fc.integer({ min: -1, max: 5 }),
    })
    .map(({ high, medium, low, lowest, physicsMesh, hull, decomposition, submodelId, flatAxis }) => {
      if (flatAxis >= 0 && flatAxis < 3) {
        for (const f of high.faces) for (let i = flatAxis; i < f.positions.length; i += 3) f.positions[i] = 7;
      }
      const input: MeshAssetInput = { lods: { high } };
      if (medium) input.lods.medium = medium;
      if (low) input.lods.low = low;
      if (lowest) input.lods.lowest = lowest;
      if (physicsMesh) input.physicsMesh = physicsMesh;
      if (hull) input.hull = hull;
      if (decomposition) input.decomposition = decomposition;
      if (submodelId !== undefined) input.submodelId = submodelId;
      return input;
    }),
);

/** |world - (unit * size + center)| within a quantisation step of the domain plus float32 noise. */
function expectPointsClose(
  original: Float32Array,
  decoded: Float32Array,
  min: number[],
  max: number[],
  asset: EncodedMeshAsset,
): void {
  const { center, size } = asset.normalization;
  expect(decoded.length).toBe(original.length);
  for (let i = 0; i < original.length; i++) {
    const k = i % 3;
    const world = decoded[i] * size[k] + center[k];
    const step = ((max[k] - min[k]) / 65535) * size[k];
    const noise = 1e-5 * (1 + Math.abs(original[i]) + Math.abs(size[k]) + Math.abs(center[k]));
    expect(Math.abs(world - original[i])).toBeLessThanOrEqual(step + noise);
  }
}

/** The face with the vertex order and merging the encoder's remap gives it in the unit frame. */
function remappedAsWritten(g: Face, n: UploadNormalization): Face {
  if (g.indices.length === 0 || g.positions.length === 0) return g;
  const unit: Face = {
    ...g,
    positions: normalizePoints(g.positions, n),
    normals: g.normals ? normalizeNormals(g.normals, n) : undefined,
  };
  const { order, remap } = importerRemapOrder(unit);
  return remapFace(g, order, remap);
}

function checkLod(original: MeshLod, decoded: DecodedFace[], asset: EncodedMeshAsset, n: UploadNormalization): void {
  expect(decoded.length).toBe(original.faces.length);
  // What is written is each face as the importer's remap leaves it (importer-remap.test.ts): the
  // order comes from the face in the unit frame (equal there, merged there), applied to the original.
  original.faces
    .map((g) => remappedAsWritten(g, n))
    .forEach((f, i) => {
      const d = decoded[i];
      const count = f.positions.length / 3;
      expect(d.noGeometry).toBe(count < 3);
      if (count < 3) return;
      expect(Array.from(d.indices!)).toEqual(Array.from(f.indices));
      expectPointsClose(f.positions, d.positions!, d.positionDomain!.min, d.positionDomain!.max, asset);
      expect(d.normalizedScale).toEqual(asset.normalization.size);
      expect(d.normals === undefined).toBe(f.normals === undefined);
      if (f.normals && d.normals) {
        const size = asset.normalization.size;
        for (let v = 0; v < count; v++) {
          const x = f.normals[3 * v] * size[0];
          const y = f.normals[3 * v + 1] * size[1];
          const z = f.normals[3 * v + 2] * size[2];
          const l = Math.hypot(x, y, z);
          const expected = l === 0 ? [0, 0, 0] : [x / l, y / l, z / l];
          for (let k = 0; k < 3; k++) expect(Math.abs(d.normals[3 * v + k] - expected[k])).toBeLessThan(1e-4);
        }
      }
      expect(d.uvs === undefined).toBe(f.uvs === undefined);
      if (f.uvs && d.uvs) {
        const { min, max } = d.texCoordDomain!;
        for (let j = 0; j < f.uvs.length; j++) {
          const k = j & 1;
          expect(Math.abs(d.uvs[j] - f.uvs[j])).toBeLessThanOrEqual((max[k] - min[k]) / 65535 + 1e-5);
        }
      }
    });
}

describe('encode -> decode round trip', () => {
  it('gives back the faces, triangles, positions, hulls and block sizes', () => {
    const lodBlock: Record<LodName, MeshBlockName> = {
      high: 'high_lod',
      medium: 'medium_lod',
      low: 'low_lod',
      lowest: 'lowest_lod',
    };
    fc.assert(
      fc.property(inputArb, (input) => {
        const asset = encodeMeshAsset(input, { deflate });
        const decoded = decodeMeshAsset(asset.bytes, { inflate });

        // Header: the same blocks and ranges; sizes are the compressed lengths, contiguous.
        expect(decoded.blocks).toEqual(asset.blocks);
        expect(decoded.headerLength).toBe(asset.headerLength);
        let end = 0;
        for (const name of MESH_BLOCK_ORDER) {
          const r = asset.blocks[name];
          if (!r) continue;
          expect(r.offset).toBe(end);
          end += r.size;
          // Re-deflating the decoded LLSD gives the very same block.
          const again = zlibNgDeflate(writeLlsdBinary(decoded.raw[name]), 9);
          const stored = asset.bytes.subarray(asset.headerLength + r.offset, asset.headerLength + r.offset + r.size);
          expect(again.length).toBe(r.size);
          expect(Buffer.compare(again, stored)).toBe(0);
        }
        expect(asset.bytes.length).toBe(asset.headerLength + end);

        // LODs: present exactly when given with faces.
        for (const lod of ['high', 'medium', 'low', 'lowest'] as const) {
          const given = input.lods[lod];
          expect(asset.blocks[lodBlock[lod]] !== undefined).toBe(given !== undefined && given.faces.length > 0);
          if (given && decoded.lods[lod])
            checkLod(given, decoded.lods[lod], asset, computeUploadNormalization(input.lods.high));
        }

        // Physics.
        const hasHull = (input.hull?.length ?? 0) > 0;
        const hasDecomp = (input.decomposition?.length ?? 0) > 0;
        const submodel = !hasHull && !hasDecomp && !!input.submodelId;
        expect(decoded.submodelId).toBe(submodel ? input.submodelId : undefined);
        expect(decoded.physicsConvex !== undefined).toBe(hasHull || hasDecomp || submodel);
        expect(decoded.physicsMesh !== undefined).toBe(input.physicsMesh !== undefined && !hasDecomp && !submodel);
        if (decoded.physicsMesh && input.physicsMesh)
          checkLod(input.physicsMesh, decoded.physicsMesh, asset, computeUploadNormalization(input.lods.high));
        const pc = decoded.physicsConvex;
        if (pc && (hasHull || hasDecomp)) {
          if (hasDecomp) {
            const hulls = input.decomposition!;
            expect(pc.hullList).toEqual(hulls.map((h) => h.length / 3));
            expect(pc.hulls!.map((h) => h.length)).toEqual(hulls.map((h) => h.length));
            hulls.forEach((h, i) => expectPointsClose(h, pc.hulls![i], pc.min, pc.max, asset));
          } else {
            expect(pc.hullList).toBeUndefined();
          }
          if (hasHull) expectPointsClose(input.hull!, pc.boundingVerts!, pc.min, pc.max, asset);
          else expect(pc.boundingVerts).toBeUndefined();
        }
      }),
      { numRuns: 80 },
    );
  });
});
