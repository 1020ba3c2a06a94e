import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { MESH_BLOCK_ORDER } from '../../src/constants.js';
import type { MeshBlockName } from '../../src/constants.js';
import { isSlmeshError } from '../../src/errors.js';
import { llsdInt, writeLlsdBinary } from '../../src/asset/llsd-binary.js';
import type { LlsdMap, LlsdValue } from '../../src/asset/llsd-binary.js';
import { encodeMeshAsset } from '../../src/asset/mesh-asset.js';
import type { MeshAssetInput } from '../../src/asset/mesh-asset.js';
import { decodeMeshAsset, inflatedBlockSize, readMeshHeader } from '../../src/asset/mesh-asset-decode.js';
import type { DecodedFace, DecodedMeshAsset } from '../../src/asset/mesh-asset-decode.js';
import { zlibNgDeflate } from '../../src/asset/zlib-ng-deflate.js';
import type { DeflateFn, Face, InflateFn, MeshLod } from '../../src/types.js';
import { mulberry32 } from '../../src/geometry/seeded-random.js';

const deflate: DeflateFn = zlibNgDeflate;
const inflate: InflateFn = (data) => new Uint8Array(inflateSync(data));
const SCRIPT = fileURLToPath(new URL('./independent/read_llmesh.py', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'slmesh-llmesh-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A deterministic PRNG, so the Python comparison runs on fixed, varied inputs. */
const rng = mulberry32;

function randomFace(r: () => number): Face {
  const count = r() < 0.2 ? Math.floor(r() * 3) : 3 + Math.floor(r() * 60);
  const positions = Float32Array.from({ length: count * 3 }, () => (r() - 0.5) * 20);
  const tris = count >= 3 ? Math.floor(r() * 40) : 0;
  const indices = Uint32Array.from({ length: tris * 3 }, () => Math.floor(r() * count));
  const f: Face = { material: 'm', positions, indices };
  if (r() < 0.6) f.normals = Float32Array.from({ length: count * 3 }, () => r() * 2 - 1);
  if (r() < 0.6) f.uvs = Float32Array.from({ length: count * 2 }, () => r());
  return f;
}

function randomHull(r: () => number, max = 256): Float32Array {
  return Float32Array.from({ length: (1 + Math.floor(r() * max)) * 3 }, () => (r() - 0.5) * 12);
}

function randomInput(seed: number): MeshAssetInput {
  const r = rng(seed);
  const faces = 1 + Math.floor(r() * 8);
  const lod = (): MeshLod => ({ faces: Array.from({ length: faces }, () => randomFace(r)) });
  const input: MeshAssetInput = { lods: { high: lod() } };
  if (r() < 0.5) input.lods.medium = lod();
  if (r() < 0.5) input.lods.low = lod();
  if (r() < 0.5) input.lods.lowest = lod();
  if (r() < 0.5) input.physicsMesh = lod();
  if (r() < 0.5) input.hull = randomHull(r);
  if (r() < 0.4) input.decomposition = Array.from({ length: 1 + Math.floor(r() * 20) }, () => randomHull(r));
  if (r() < 0.3) input.submodelId = 1 + Math.floor(r() * 3);
  return input;
}

/** The summary read_llmesh.py prints, built from the TypeScript decoder's output. */
function summary(d: DecodedMeshAsset): unknown {
  const faces = (list: DecodedFace[]): unknown[] =>
    list.map((f) => ({
      no_geometry: f.noGeometry,
      vertices: (f.positions?.length ?? 0) / 3,
      triangles: (f.indices?.length ?? 0) / 3,
    }));
  const lods: Record<string, unknown> = {};
  if (d.lods.lowest) lods.lowest_lod = faces(d.lods.lowest);
  if (d.lods.low) lods.low_lod = faces(d.lods.low);
  if (d.lods.medium) lods.medium_lod = faces(d.lods.medium);
  if (d.lods.high) lods.high_lod = faces(d.lods.high);
  if (d.physicsMesh) lods.physics_mesh = faces(d.physicsMesh);
  const pc = d.physicsConvex;
  return {
    header_length: d.headerLength,
    header: d.blocks,
    submodel_id: d.submodelId ?? null,
    lods,
    physics_convex: pc
      ? {
          hull_list: pc.hullList ?? null,
          positions: pc.hulls ? pc.hulls.reduce((s, h) => s + h.length / 3, 0) : null,
          bounding_verts: pc.boundingVerts ? pc.boundingVerts.length / 3 : null,
        }
      : null,
  };
}

function runPython(bytes: Uint8Array, name: string): unknown {
  const file = join(tmp, name);
  writeFileSync(file, bytes);
  return JSON.parse(execFileSync('python3', [SCRIPT, file], { encoding: 'utf8' }));
}

/** Lays out an asset from block LLSD (or raw compressed bytes) as writeModelToStream does. */
function assemble(blocks: [MeshBlockName, LlsdValue | { raw: Uint8Array }][], extra: LlsdMap = {}): Uint8Array {
  const header: LlsdMap = { ...extra };
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const [name, v] of blocks) {
    const data =
      v instanceof Object && 'raw' in v && v.raw instanceof Uint8Array
        ? v.raw
        : deflate(writeLlsdBinary(v as LlsdValue), 9);
    header[name] = { offset: llsdInt(offset), size: llsdInt(data.length) };
    parts.push(data);
    offset += data.length;
  }
  return Buffer.concat([writeLlsdBinary(header), ...parts]);
}

function expectAssetError(fn: () => unknown, pattern?: RegExp): void {
  try {
    fn();
  } catch (e) {
    if (!isSlmeshError(e)) throw e;
    expect(e.code).toBe('ASSET_INVALID');
    expect(e.message).not.toContain('\n');
    if (pattern) expect(e.message).toMatch(pattern);
    return;
  }
  throw new Error('expected ASSET_INVALID');
}

/** Decoding must succeed or throw SlmeshError (ASSET_INVALID / LLSD_INVALID); returns whether it threw. */
function decodeOrSlmeshError(bytes: Uint8Array): boolean {
  try {
    decodeMeshAsset(bytes, { inflate });
    return false;
  } catch (e) {
    if (!isSlmeshError(e) || (e.code !== 'ASSET_INVALID' && e.code !== 'LLSD_INVALID')) throw e;
    return true;
  }
}

const TRI_FACE: LlsdMap = {
  PositionDomain: { Min: [-0.5, -0.5, -0.5], Max: [0.5, 0.5, 0.5] },
  NormalizedScale: [1, 1, 1],
  Position: Uint8Array.of(0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0),
  TriangleList: Uint8Array.of(0, 0, 1, 0, 2, 0),
};

describe('decodeMeshAsset against the independent Python reader', () => {
  it('agrees on header, faces, vertices, triangles, NoGeometry, HullList and BoundingVerts', () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    let withHulls = 0;
    for (const seed of seeds) {
      const input = randomInput(seed);
      const asset = encodeMeshAsset(input, { deflate });
      const decoded = decodeMeshAsset(asset.bytes, { inflate });
      const python = runPython(asset.bytes, `seed-${seed}.llmesh`);
      expect(python).toEqual(summary(decoded));
      expect((python as { header: unknown }).header).toEqual(asset.blocks);
      if (decoded.physicsConvex?.hullList) withHulls++;
    }
    expect(withHulls).toBeGreaterThan(0);
  });

  it('agrees on a submodel asset with an empty physics_convex block', () => {
    const asset = encodeMeshAsset({ lods: { high: { faces: [randomFace(rng(99))] } }, submodelId: 2 }, { deflate });
    const decoded = decodeMeshAsset(asset.bytes, { inflate });
    expect(decoded.physicsConvex).toEqual({ min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] });
    expect(runPython(asset.bytes, 'submodel.llmesh')).toEqual(summary(decoded));
  });
});

describe('decodeMeshAsset', () => {
  it('decodes a hand-built asset, dequantising in the block domain', () => {
    const bytes = assemble([['high_lod', [TRI_FACE, { NoGeometry: true }]]]);
    const d = decodeMeshAsset(bytes, { inflate });
    expect(d.version).toBe(0);
    expect(d.notes).toEqual([]);
    expect(d.lods.high!.length).toBe(2);
    expect(Array.from(d.lods.high![0].positions!)).toEqual([-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, -0.5]);
    expect(Array.from(d.lods.high![0].indices!)).toEqual([0, 1, 2]);
    expect(d.lods.high![1]).toEqual({ noGeometry: true });
    expect(d.inflatedSizes.high_lod).toBe(writeLlsdBinary([TRI_FACE, { NoGeometry: true }]).length);
    expect(inflatedBlockSize(bytes, 'high_lod', inflate)).toBe(d.inflatedSizes.high_lod);
    expect(inflatedBlockSize(bytes, 'low_lod', inflate)).toBe(0);
  });

  it('reads the header alone, with version and submodel id', () => {
    const bytes = assemble([['high_lod', [TRI_FACE]]], { version: llsdInt(999), submodel_id: llsdInt(4) });
    const h = readMeshHeader(bytes);
    expect(h.version).toBe(999);
    expect(h.submodelId).toBe(4);
    expect(Object.keys(h.blocks)).toEqual(['high_lod']);
  });

  it('rejects a version above MAX_MESH_VERSION and a 404 header', () => {
    expectAssetError(
      () => decodeMeshAsset(assemble([['high_lod', [TRI_FACE]]], { version: llsdInt(1000) }), { inflate }),
      /version 1000 is above 999/,
    );
    expectAssetError(() => decodeMeshAsset(assemble([['high_lod', [TRI_FACE]]], { '404': true }), { inflate }), /404/);
    expectAssetError(
      () => decodeMeshAsset(assemble([['high_lod', [TRI_FACE]]], { version: 'one' }), { inflate }),
      /version is not a number/,
    );
  });

  it('parses a header longer than MESH_HEADER_MAX_BYTES, with a note', () => {
    const bytes = assemble([['high_lod', [TRI_FACE]]], { padding: 'x'.repeat(5000) });
    const d = decodeMeshAsset(bytes, { inflate });
    expect(d.headerLength).toBeGreaterThan(4096);
    expect(d.notes.join(' ')).toMatch(/reads only the first 4096/);
  });

  it('skips a deprecated <? LLSD/Binary ?> header line', () => {
    const plain = assemble([['high_lod', [TRI_FACE]]]);
    const withLine = Buffer.concat([Buffer.from('<? LLSD/Binary ?>\n'), plain]);
    const d = decodeMeshAsset(withLine, { inflate });
    expect(d.headerLength).toBe(readMeshHeader(plain).headerLength + 18);
    expect(d.lods.high!.length).toBe(1);
  });

  it('drops an incomplete last triangle as the viewer does, with a note', () => {
    const face = { ...TRI_FACE, TriangleList: Uint8Array.of(0, 0, 1, 0, 2, 0, 1, 0) };
    const d = decodeMeshAsset(assemble([['high_lod', [face]]]), { inflate });
    expect(Array.from(d.lods.high![0].indices!)).toEqual([0, 1, 2]);
    expect(d.notes.join(' ')).toMatch(/incomplete last triangle/);
  });
});

describe('decodeMeshAsset on hostile input', () => {
  it('rejects empty, zero, garbage and huge-count inputs with ASSET_INVALID', () => {
    expectAssetError(() => decodeMeshAsset(new Uint8Array(0), { inflate }), /empty input/);
    expectAssetError(
      () => decodeMeshAsset(new Uint8Array(100), { inflate }),
      /header: binary LLSD: unknown type byte 0x00 at byte 0/,
    );
    expectAssetError(
      () => decodeMeshAsset(Uint8Array.from(Buffer.from('7bffffffff7d', 'hex')), { inflate }),
      /map count 4294967295/,
    );
    expectAssetError(
      () => decodeMeshAsset(Uint8Array.from(Buffer.from('5b00000000 5d'.replace(' ', ''), 'hex')), { inflate }),
      /header is not a map/,
    );
    expectAssetError(
      () => decodeMeshAsset(Uint8Array.from(Buffer.from('hello world')), { inflate }),
      /unknown type byte 0x68/,
    );
  });

  it('rejects blocks outside the file and malformed block entries', () => {
    const good = assemble([['high_lod', [TRI_FACE]]]);
    expectAssetError(
      () => decodeMeshAsset(good.subarray(0, good.length - 1), { inflate }),
      /block high_lod \(offset 0, size \d+\) runs past/,
    );
    const header = (entry: LlsdValue): Uint8Array =>
      Buffer.concat([writeLlsdBinary({ high_lod: entry }), new Uint8Array(64)]);
    expectAssetError(
      () => decodeMeshAsset(header({ offset: llsdInt(-1), size: llsdInt(4) }), { inflate }),
      /offset -1/,
    );
    expectAssetError(() => decodeMeshAsset(header({ offset: llsdInt(0), size: llsdInt(0) }), { inflate }), /size 0/);
    expectAssetError(
      () => decodeMeshAsset(header({ offset: llsdInt(0x7fffffff), size: llsdInt(0x7fffffff) }), { inflate }),
      /runs past/,
    );
    expectAssetError(
      () => decodeMeshAsset(header({ offset: 'zero', size: llsdInt(4) }), { inflate }),
      /offset is not a number/,
    );
    expectAssetError(
      () => decodeMeshAsset(header({ offset: 0.5, size: llsdInt(4) }), { inflate }),
      /offset is not an integer/,
    );
    expectAssetError(() => decodeMeshAsset(header({ size: llsdInt(4) }), { inflate }), /lacks offset or size/);
    expectAssetError(() => decodeMeshAsset(header([1, 2]), { inflate }), /header high_lod is not a map/);
  });

  it('rejects blocks that do not inflate or parse', () => {
    expectAssetError(
      () => decodeMeshAsset(assemble([['high_lod', { raw: Uint8Array.of(1, 2, 3, 4) }]]), { inflate }),
      /block high_lod does not inflate/,
    );
    const throwing: InflateFn = () => {
      throw new TypeError('boom\nsecond line');
    };
    expectAssetError(
      () => decodeMeshAsset(assemble([['high_lod', [TRI_FACE]]]), { inflate: throwing }),
      /does not inflate: boom$/,
    );
    const notLlsd = deflate(Uint8Array.of(0x7a, 0x7a), 9);
    expectAssetError(
      () => decodeMeshAsset(assemble([['high_lod', { raw: notLlsd }]]), { inflate }),
      /block high_lod: binary LLSD: unknown type byte 0x7a/,
    );
  });

  it('rejects LOD blocks of the wrong shape or type', () => {
    const lod =
      (v: LlsdValue): (() => unknown) =>
      () =>
        decodeMeshAsset(assemble([['high_lod', v]]), { inflate });
    expectAssetError(lod({}), /not an array of faces/);
    expectAssetError(lod([]), /has no faces/);
    expectAssetError(lod([1]), /face 0 is not a map/);
    expectAssetError(lod([{ ...TRI_FACE, Position: 'abc' }]), /Position is not binary/);
    expectAssetError(lod([{ ...TRI_FACE, Position: new Uint8Array(7) }]), /not whole u16x3 vertices/);
    const { PositionDomain: _pd, ...noDomain } = TRI_FACE;
    expectAssetError(lod([noDomain]), /no PositionDomain/);
    expectAssetError(
      lod([{ ...TRI_FACE, PositionDomain: { Min: [0, 0], Max: [1, 1, 1] } }]),
      /PositionDomain Min is not an array of 3 numbers/,
    );
    expectAssetError(
      lod([{ ...TRI_FACE, PositionDomain: { Min: [0, 0, 'x'], Max: [1, 1, 1] } }]),
      /Min\[2\] is not a number/,
    );
    expectAssetError(
      lod([{ ...TRI_FACE, TriangleList: Uint8Array.of(0, 0, 1, 0, 3, 0) }]),
      /index 3 out of range \(3 vertices\)/,
    );
    expectAssetError(lod([{ ...TRI_FACE, TriangleList: Uint8Array.of(0, 0, 1) }]), /not whole u16 indices/);
    expectAssetError(lod([{ ...TRI_FACE, Normal: new Uint8Array(12) }]), /Normal is 12 bytes for 3 vertices/);
    expectAssetError(lod([{ ...TRI_FACE, TexCoord0: new Uint8Array(12) }]), /no TexCoord0Domain/);
    expectAssetError(
      lod([{ ...TRI_FACE, TexCoord0: new Uint8Array(10), TexCoord0Domain: { Min: [0, 0], Max: [1, 1] } }]),
      /TexCoord0 is 10 bytes for 3 vertices/,
    );
  });

  it('rejects physics_convex blocks of the wrong shape', () => {
    const convex =
      (v: LlsdValue): (() => unknown) =>
      () =>
        decodeMeshAsset(
          assemble([
            ['physics_convex', v],
            ['high_lod', [TRI_FACE]],
          ]),
          { inflate },
        );
    const box = { Min: [0, 0, 0], Max: [1, 1, 1] };
    expectAssetError(convex([1]), /physics_convex is not a map/);
    expectAssetError(convex({ ...box, HullList: Uint8Array.of(4) }), /HullList but no Positions/);
    expectAssetError(convex({ ...box, Positions: new Uint8Array(24) }), /Positions but no HullList/);
    expectAssetError(
      convex({ ...box, HullList: Uint8Array.of(4, 0), Positions: new Uint8Array(24) }),
      /HullList says 260 points/,
    );
    expectAssetError(convex({ ...box, BoundingVerts: new Uint8Array(7) }), /BoundingVerts is 7 bytes/);
    expectAssetError(convex({ Min: [0, 0, 0] }), /Max is not an array/);
    const d = decodeMeshAsset(
      assemble([
        ['physics_convex', { BoundingVerts: new Uint8Array(6).fill(255) }],
        ['high_lod', [TRI_FACE]],
      ]),
      { inflate },
    );
    expect(Array.from(d.physicsConvex!.boundingVerts!)).toEqual([0.5, 0.5, 0.5]); // default domain -0.5..0.5
  });

  const validAssets = [3, 5, 8, 11].map((seed) => encodeMeshAsset(randomInput(seed), { deflate }).bytes);

  it('every truncation of a valid asset is rejected with a SlmeshError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...validAssets), fc.nat(), (bytes, cut) => {
        expect(decodeOrSlmeshError(bytes.subarray(0, cut % bytes.length))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('byte flips and garbage never throw anything but SlmeshError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...validAssets),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (original, flips, inHeader) => {
          const bytes = Uint8Array.from(original);
          const headerLength = readMeshHeader(original).headerLength;
          for (const [at, value] of flips) bytes[inHeader ? at % headerLength : at % bytes.length] = value;
          decodeOrSlmeshError(bytes);
        },
      ),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        decodeOrSlmeshError(b);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes every block of every random asset the encoder writes, in MESH_BLOCK_ORDER', () => {
    for (const bytes of validAssets) {
      const d = decodeMeshAsset(bytes, { inflate });
      const names = Object.keys(d.raw);
      expect(names).toEqual(MESH_BLOCK_ORDER.filter((n) => names.includes(n)));
    }
  });
});
