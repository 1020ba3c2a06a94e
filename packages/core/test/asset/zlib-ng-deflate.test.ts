/**
 * The TypeScript deflate against zlib-ng 2.2.2 itself: every golden vector (written by
 * tools/zlib-ng-vectors/build-and-write.mjs from two builds of the real library) must come out
 * byte for byte, and node:zlib must inflate it back to the input.
 *
 * Vectors: the blocks the cost report deflates for every bundled test asset (stored as zlib-ng's
 * output; the input is its inflation), and a few hundred generated blocks rebuilt here from
 * kind + seed + length (test/vectors/zlib-ng/inputs.mjs), checked by bytes or by length + SHA-256.
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zlibNgDeflate, zlibNgDeflatedLength } from '../../src/asset/zlib-ng-deflate.js';
import type { DeflateFn } from '../../src/types.js';
import { makeInput } from '../vectors/zlib-ng/inputs.mjs';

interface Vector {
  name: string;
  kind: string;
  inputLength: number;
  inputSha256: string;
  outputLength: number;
  outputSha256: string;
  assetOffset?: number;
  seed?: number;
  length?: number;
  output?: string;
}

const dir = new URL('../vectors/zlib-ng/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as {
  zlibNg: string;
  vectors: Vector[];
};
const assetBytes = new Uint8Array(readFileSync(new URL('assets.bin', dir)));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The input of a vector, checked against the length and hash zlib-ng was given. */
function inputOf(v: Vector): Uint8Array {
  const input =
    v.kind === 'asset'
      ? new Uint8Array(inflateSync(assetBytes.subarray(v.assetOffset!, v.assetOffset! + v.outputLength)))
      : makeInput({ kind: v.kind, seed: v.seed!, length: v.length! });
  // A mismatch here means inputs.mjs changed, not the deflate: regenerate the vectors.
  expect(input.length, `${v.name}: input length`).toBe(v.inputLength);
  expect(sha256(input), `${v.name}: input hash`).toBe(v.inputSha256);
  return input;
}

/** BTYPE of the first deflate block (after the 2-byte zlib header). */
const firstBlockType = (z: Uint8Array) => (z[2] >> 1) & 3;

/** The vectors by kind. */
const groups = new Map<string, Vector[]>();
for (const v of manifest.vectors) groups.set(v.kind, [...(groups.get(v.kind) ?? []), v]);

describe('zlibNgDeflate', () => {
  it('is a DeflateFn and refuses levels other than 9', () => {
    const f: DeflateFn = zlibNgDeflate;
    expect(Array.from(f(new Uint8Array(0), 9))).toEqual([0x78, 0xda, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    expect(() => f(new Uint8Array(1), 6)).toThrow(RangeError);
  });

  it('never modifies its input', () => {
    const input = makeInput({ kind: 'text', seed: 7, length: 70000 });
    const copy = input.slice();
    zlibNgDeflate(input);
    expect(input).toEqual(copy);
  });

  it(`has vectors of zlib-ng ${manifest.zlibNg} covering assets, tiny, mesh, window-edge, > 1 MB and every block type`, () => {
    const kinds = new Set(manifest.vectors.map((v) => v.kind));
    for (const k of [
      'asset',
      'tiny',
      'llsd-mesh',
      'run',
      'period',
      'window-edge',
      'random',
      'alphabet',
      'text',
      'mixed',
      'zeros',
      'biased',
    ])
      expect(kinds).toContain(k);
    expect(manifest.vectors.filter((v) => v.kind === 'asset').length).toBeGreaterThan(50);
    expect(manifest.vectors.filter((v) => v.kind !== 'asset').length).toBeGreaterThan(300);
    expect(manifest.vectors.some((v) => v.inputLength > 1 << 20)).toBe(true);
    expect(manifest.vectors.some((v) => v.inputLength > 65536)).toBe(true);
    for (const n of [0, 1, 2, 3]) expect(manifest.vectors.some((v) => v.inputLength === n)).toBe(true);
    // Block types of the first block, from the inline outputs: stored, static and dynamic all occur.
    const types = new Set(
      manifest.vectors.filter((v) => v.output).map((v) => firstBlockType(Buffer.from(v.output!, 'base64'))),
    );
    expect([...types].sort()).toEqual([0, 1, 2]);
  });

  for (const [kind, vectors] of groups) {
    it(`matches zlib-ng byte for byte on ${vectors.length} ${kind} blocks, and inflates back`, () => {
      for (const v of vectors) {
        const input = inputOf(v);
        const out = zlibNgDeflate(input);
        if (v.kind === 'asset') {
          expect(
            Buffer.compare(out, assetBytes.subarray(v.assetOffset!, v.assetOffset! + v.outputLength)),
            v.name,
          ).toBe(0);
        } else if (v.output !== undefined) {
          expect(Buffer.from(out).toString('base64'), v.name).toBe(v.output);
        }
        expect(out.length, `${v.name}: output length`).toBe(v.outputLength);
        expect(sha256(out), `${v.name}: output hash`).toBe(v.outputSha256);
        expect(Buffer.compare(inflateSync(out), input), `${v.name}: round trip`).toBe(0);
      }
    });
  }
});

describe('zlibNgDeflatedLength', () => {
  it('refuses levels other than 9', () => {
    expect(() => zlibNgDeflatedLength(new Uint8Array(1), 6)).toThrow(RangeError);
    expect(zlibNgDeflatedLength(new Uint8Array(0))).toBe(8);
  });

  // The length zlib-ng wrote, for every vector: stored, static and dynamic blocks, blocks flushed
  // mid-stream (16,383 symbols) and after the window slid, 0 to 3 bytes.
  for (const [kind, vectors] of groups) {
    it(`is the length of zlib-ng's output on ${vectors.length} ${kind} blocks`, () => {
      for (const v of vectors) expect(zlibNgDeflatedLength(inputOf(v)), v.name).toBe(v.outputLength);
    });
  }

  it('is the length of zlibNgDeflate on inputs of every kind and many lengths', () => {
    const kinds = ['tiny', 'llsd-mesh', 'run', 'period', 'random', 'alphabet', 'text', 'mixed', 'zeros', 'biased'];
    let n = 0;
    for (const kind of kinds)
      for (const length of [0, 1, 5, 17, 300, 4099, 40000, 70001, 140000]) {
        const input = makeInput({ kind, seed: 1000 + length, length });
        expect(zlibNgDeflatedLength(input), `${kind} ${length}`).toBe(zlibNgDeflate(input).length);
        n++;
      }
    expect(n).toBe(90);
  });
});
