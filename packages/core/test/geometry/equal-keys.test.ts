import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameBytes } from '../../src/geometry/equal-keys.js';

/** Byte by byte, the definition. */
const naive = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

describe('sameBytes', () => {
  it('property: equals a byte-by-byte comparison at any offsets and lengths, one buffer or two', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 80 }),
        fc.nat(12),
        fc.nat(12),
        fc.nat(60),
        fc.boolean(),
        fc.nat(79),
        (data, ia, ib, n, copy, flip) => {
          const other = copy ? data.slice() : data;
          if (copy && other.length > 0 && flip % 2 === 0) other[flip % other.length] ^= 1 << (flip % 8);
          const len = Math.min(n, data.length - ia, other.length - ib);
          if (len < 0) return;
          const a = data.subarray(ia, ia + len);
          const b = other.subarray(ib, ib + len);
          expect(sameBytes(a, b)).toBe(naive(a, b));
          expect(sameBytes(a, b.subarray(0, Math.max(0, len - 1)))).toBe(
            len === 0 ? true : naive(a, b.subarray(0, len - 1)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sees one differing bit anywhere in word-aligned arrays, the tail included', () => {
    const a = new Uint8Array(37).map((_, i) => i * 7);
    for (let i = 0; i < a.length; i++) {
      const b = a.slice();
      b[i] ^= 0x80;
      expect(sameBytes(a, b)).toBe(false);
    }
    expect(sameBytes(a, a.slice())).toBe(true);
  });
});
