import { describe, expect, it } from 'vitest';
import { ByteMemo } from '../../src/geometry/byte-memo.js';
import { bytesOf, hashBytes } from '../../src/geometry/equal-keys.js';

const u8 = (...v: number[]) => new Uint8Array(v);

/** A memo whose entries weigh their bytes, counting how often `make` ran. */
function counted(limit: number) {
  const memo = new ByteMemo<string>(limit, (parts) => parts.reduce((a, p) => a + p.length, 0));
  let made = 0;
  const take = (parts: Uint8Array[], tag: string, value: string) =>
    memo.take(parts, tag, () => {
      made++;
      return value;
    });
  return { memo, take, made: () => made };
}

describe('ByteMemo', () => {
  it('hands back a value for the same bytes in another array, and not for other bytes, tags or part orders', () => {
    const m = counted(1000);
    expect(m.take([u8(1, 2, 3)], 'a', 'first')).toBe('first');
    expect(m.take([u8(1, 2, 3)], 'a', 'again')).toBe('first');
    expect(m.made()).toBe(1);
    expect(m.take([u8(1, 2, 4)], 'a', 'other bytes')).toBe('other bytes');
    expect(m.take([u8(1, 2, 3)], 'b', 'other tag')).toBe('other tag');
    expect(m.take([u8(1, 2), u8(3)], 'a', 'two parts')).toBe('two parts');
    expect(m.take([u8(3), u8(1, 2)], 'a', 'swapped')).toBe('swapped');
    expect(m.made()).toBe(5);
  });

  it('keeps a copy of the parts: a caller that changes its array after take does not change the key', () => {
    const m = counted(1000);
    const a = u8(7, 7, 7, 7);
    m.take([a], 't', 'seven');
    a[0] = 8;
    expect(m.take([a], 't', 'eight')).toBe('eight');
    expect(m.take([u8(7, 7, 7, 7)], 't', 'x')).toBe('seven');
  });

  it('confirms a hit byte by byte: two inputs with the same hash get their own values', () => {
    // hashBytes folds 4-byte words as h = imul(h ^ w, P), a bijection of h ^ w: a second word that
    // cancels the first's difference gives the same hash.
    const P = 0x01000193;
    const h0 = (0x811c9dc5 ^ 8) >>> 0;
    const a = new Uint32Array([1, 2]);
    const b = new Uint32Array([5, 0]);
    b[1] = (Math.imul(h0 ^ a[0], P) ^ a[1] ^ Math.imul(h0 ^ b[0], P)) >>> 0;
    expect(hashBytes(bytesOf(a))).toBe(hashBytes(bytesOf(b)));
    const m = counted(1000);
    expect(m.take([bytesOf(a)], 't', 'a')).toBe('a');
    expect(m.take([bytesOf(b)], 't', 'b')).toBe('b');
    expect(m.take([bytesOf(a)], 't', 'x')).toBe('a');
    expect(m.take([bytesOf(b)], 't', 'x')).toBe('b');
  });

  it('drops the least recently taken past its limit, and always keeps the entry just made', () => {
    const m = counted(10);
    m.take([u8(1, 1, 1, 1)], 't', 'A');
    m.take([u8(2, 2, 2, 2)], 't', 'B');
    m.take([u8(1, 1, 1, 1)], 't', 'x'); // A is now the most recent
    m.take([u8(3, 3, 3, 3)], 't', 'C'); // 12 > 10: B goes
    expect(m.memo.weight).toBe(8);
    expect(m.memo.size).toBe(2);
    expect(m.take([u8(1, 1, 1, 1)], 't', 'x')).toBe('A');
    expect(m.take([u8(3, 3, 3, 3)], 't', 'x')).toBe('C');
    expect(m.take([u8(2, 2, 2, 2)], 't', 'B again')).toBe('B again');
    const big = new Uint8Array(64).fill(9);
    expect(m.take([big], 't', 'big')).toBe('big');
    expect(m.memo.size).toBe(1);
    expect(m.memo.weight).toBe(64);
  });

  it('keeps nothing of a make that throws', () => {
    const m = counted(100);
    expect(() =>
      m.memo.take([u8(1)], 't', () => {
        throw new Error('cancelled');
      }),
    ).toThrow('cancelled');
    expect(m.memo.size).toBe(0);
    expect(m.memo.weight).toBe(0);
    expect(m.take([u8(1)], 't', 'made')).toBe('made');
  });
});
