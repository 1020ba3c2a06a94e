import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inflateSync } from 'node:zlib';
import { readLlsdBinary, type LlsdMap } from '../../src/asset/llsd-binary.js';
import { computeUploadNormalization, encodeMeshAsset, normalizeNormals } from '../../src/asset/mesh-asset.js';
import {
  bitsFor,
  normalAngle,
  positionDomain,
  snapLod,
  type VertexTolerance,
} from '../../src/asset/vertex-precision.js';
import { zlibNgDeflate } from '../../src/asset/zlib-ng-deflate.js';
import { lodBox } from '../../src/geometry/object-geometry.js';
import { mulberry32 } from '../../src/geometry/seeded-random.js';
import type { Face, MeshLod } from '../../src/types.js';

/** The u16 values of one array of a LOD's first face as the asset carries them (an independent read of the block). */
function u16s(lod: MeshLod, key: 'Position' | 'Normal' | 'TexCoord0'): Uint16Array {
  const asset = encodeMeshAsset({ lods: { high: lod } }, { deflate: zlibNgDeflate });
  const r = asset.blocks.high_lod!;
  const start = asset.headerLength + r.offset;
  const block = readLlsdBinary(new Uint8Array(inflateSync(asset.bytes.subarray(start, start + r.size)))).value;
  const bytes = ((block as LlsdMap[])[0] as LlsdMap)[key] as Uint8Array;
  return new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

const highLodBytes = (lod: MeshLod) =>
  encodeMeshAsset({ lods: { high: lod } }, { deflate: zlibNgDeflate }).blocks.high_lod!.size;

/** A bumpy sphere of `n` x `n` quads: positions, unit normals and UVs, a box of `size`. */
function sphere(n: number, size: [number, number, number], seed: number): MeshLod {
  const rnd = mulberry32(seed);
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const th = (Math.PI * i) / n;
      const ph = (2 * Math.PI * j) / n;
      const r = 1 + 0.05 * rnd();
      const d = [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
      positions.push(r * d[0] * size[0], r * d[1] * size[1], r * d[2] * size[2] + 3);
      // Normals off the radial direction a little, unit length.
      const m = [d[0] + 0.1 * rnd(), d[1], d[2]];
      const l = Math.hypot(m[0], m[1], m[2]);
      normals.push(m[0] / l, m[1] / l, m[2] / l);
      uvs.push(j / n, 1 - i / n);
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  }
  const face: Face = {
    material: 'm',
    positions: Float32Array.from(positions),
    normals: Float32Array.from(normals),
    uvs: Float32Array.from(uvs),
    indices: Uint32Array.from(indices),
  };
  return { faces: [face] };
}

function snap(lod: MeshLod, tolerance: VertexTolerance) {
  const n = computeUploadNormalization(lod);
  const box = lodBox(lod);
  return snapLod(lod, n, positionDomain(box.min, box.max, n), tolerance);
}

describe('bitsFor', () => {
  it('is the most low bits whose bucket centre is within the error', () => {
    // One step of 65535 over a range of 1: half a bucket of 2^b steps is 2^(b-1) steps.
    expect(bitsFor(0.5 / 65535, 1)).toBe(0);
    expect(bitsFor(1 / 65535, 1)).toBe(1);
    expect(bitsFor(8 / 65535, 1)).toBe(4);
    expect(bitsFor(15.9 / 65535, 1)).toBe(4);
    expect(bitsFor(16 / 65535, 1)).toBe(5);
    expect(bitsFor(1, 1)).toBe(12); // never more than 12 of 16
    expect(bitsFor(0, 1)).toBe(0);
    expect(bitsFor(1, 0)).toBe(0);
    expect(bitsFor(NaN, 1)).toBe(0);
  });
});

describe('snapLod', () => {
  it('the uploader quantises moved positions, normals and UVs to cleared low bits, each within its tolerance', () => {
    const lod = sphere(40, [1.3, 0.7, 2.1], 7);
    const tolerance = { positionError: 0.004, uvError: 1 / 4096, normalBits: 8 };
    const { lod: out, stats } = snap(lod, tolerance);
    const [a, b] = [lod.faces[0], out.faces[0]];
    expect(b.indices).toEqual(a.indices);
    expect(stats.moved).toBeGreaterThan(0);
    // Positions: in the asset, every value but the box's own ends in the axis's cleared bits.
    const box = lodBox(lod);
    expect(lodBox(out)).toEqual(box);
    const n = computeUploadNormalization(lod);
    const pos = u16s(out, 'Position');
    for (let i = 0; i < pos.length; i++) {
      const k = i % 3;
      const bits = stats.positionBits[k];
      expect(bits).toBeGreaterThan(2);
      // (Values in the top half bucket, up to the box's maximum, keep theirs: no whole bucket is left.)
      if (pos[i] !== 0 && pos[i] < 65535 - 2 ** (bits - 1)) expect(pos[i] % 2 ** bits).toBe(0);
    }
    // ... each vertex moved at most positionError.
    for (let v = 0; v < a.positions.length; v += 3) {
      const d = Math.hypot(
        a.positions[v] - b.positions[v],
        a.positions[v + 1] - b.positions[v + 1],
        a.positions[v + 2] - b.positions[v + 2],
      );
      expect(d).toBeLessThanOrEqual(tolerance.positionError * (1 + 1e-5));
    }
    // Normals: unit length, their two smaller components (as the uploader normalises them) 8-bit.
    const nb = b.normals!;
    const unit = normalizeNormals(nb, n);
    const nq = u16s(out, 'Normal');
    let moved = 0;
    for (let v = 0; v < nb.length; v += 3) {
      expect(Math.hypot(nb[v], nb[v + 1], nb[v + 2])).toBeCloseTo(1, 5);
      const big = [0, 1, 2].reduce((m, k) => (Math.abs(unit[v + k]) > Math.abs(unit[v + m]) ? k : m), 0);
      const [p, q] = [a.normals!.subarray(v, v + 3), nb.subarray(v, v + 3)];
      const cross = Math.hypot(p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]);
      const angle = Math.atan2(cross, p[0] * q[0] + p[1] * q[1] + p[2] * q[2]);
      expect(angle).toBeLessThanOrEqual(normalAngle(8 - 2) + 1e-6); // sides 2.6 x 1.4 x 4.2: 2 bits fewer
      if (nq[v + ((big + 1) % 3)] % 64 === 0 && nq[v + ((big + 2) % 3)] % 64 === 0) moved++;
    }
    expect(moved).toBeGreaterThan(0.75 * (nb.length / 3)); // the rest would turn more than normalAngle
    // UVs: within uvError, 1/4096 of a range of 1 allows 4 cleared bits.
    const uq = u16s(out, 'TexCoord0');
    for (let i = 0; i < a.uvs!.length; i++) {
      expect(Math.abs(a.uvs![i] - b.uvs![i])).toBeLessThanOrEqual(tolerance.uvError);
      if (uq[i] !== 0 && uq[i] < 65535 - 8) expect(uq[i] % 16).toBe(0);
    }
    // And the block compresses smaller.
    expect(highLodBytes(out)).toBeLessThan(0.9 * highLodBytes(lod));
  });

  it('moves nothing with a zero tolerance, and keeps what is equal equal (property)', () => {
    const lod = sphere(12, [1, 1, 1], 3);
    const { lod: same, stats } = snap(lod, { positionError: 0, uvError: 0, normalBits: 0 });
    expect(stats.moved).toBe(0);
    expect(same.faces[0].positions).toEqual(lod.faces[0].positions);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.float({ min: -50, max: 50, noNaN: true }), fc.float({ min: -50, max: 50, noNaN: true })), {
          minLength: 4,
          maxLength: 30,
        }),
        fc.double({ min: 1e-4, max: 1, noNaN: true }),
        (pts, share) => {
          // A fan of triangles whose vertices repeat: copies must stay copies, the box must stay.
          const positions: number[] = [];
          for (const [x, y] of pts) positions.push(x, y, x - y, x, y, x - y);
          const indices: number[] = [];
          for (let i = 2; i < positions.length / 3; i++) indices.push(0, i - 1, i);
          const l: MeshLod = {
            faces: [{ material: 'm', positions: Float32Array.from(positions), indices: Uint32Array.from(indices) }],
          };
          const box = lodBox(l);
          const side = Math.max(box.max[0] - box.min[0], box.max[1] - box.min[1], 1e-3);
          const out = snap(l, { positionError: share * side, uvError: 0, normalBits: 0 }).lod.faces[0].positions;
          for (let v = 0; v + 5 < out.length; v += 6) {
            expect([out[v], out[v + 1], out[v + 2]]).toEqual([out[v + 3], out[v + 4], out[v + 5]]);
            const d = Math.hypot(out[v] - positions[v], out[v + 1] - positions[v + 1], out[v + 2] - positions[v + 2]);
            expect(d).toBeLessThanOrEqual(share * side * (1 + 1e-5) + 1e-6);
          }
          expect(lodBox({ faces: [{ ...l.faces[0], positions: out }] })).toEqual(box);
        },
      ),
      { numRuns: 60 },
    );
  });
});
