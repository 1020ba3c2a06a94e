import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoizeDeflate } from '../../src/asset/deflate-cache.js';

describe('memoizeDeflate', () => {
  it('returns what deflate returns, compressing each distinct input once', () => {
    let calls = 0;
    const deflate = memoizeDeflate((d, level) => {
      calls++;
      return new Uint8Array(deflateSync(d, { level }));
    });
    const a = new TextEncoder().encode('high LOD block '.repeat(100));
    const first = deflate(a, 9);
    expect(first).toEqual(new Uint8Array(deflateSync(a, { level: 9 })));
    expect(deflate(a.slice(), 9)).toBe(first);
    expect(calls).toBe(1);
    // Another level is another result.
    deflate(a, 1);
    expect(calls).toBe(2);
  });

  it('never mistakes different bytes for a hit, even when hashes collide', () => {
    // Whatever the hashes do, each input must get its own result back.
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.uint8Array({ minLength: 1, maxLength: 64 }), (x, y) => {
        const deflate = memoizeDeflate((d) => d.slice().reverse());
        expect(deflate(x, 9)).toEqual(x.slice().reverse());
        expect(deflate(y, 9)).toEqual(y.slice().reverse());
        expect(deflate(x, 9)).toEqual(x.slice().reverse());
      }),
      { numRuns: 200 },
    );
  });

  it('keeps at most maxEntries results', () => {
    let calls = 0;
    const deflate = memoizeDeflate((d) => {
      calls++;
      return d;
    }, 2);
    const a = new Uint8Array([1]), b = new Uint8Array([2]), c = new Uint8Array([3]);
    deflate(a, 9);
    deflate(b, 9);
    deflate(c, 9); // evicts a
    deflate(a, 9);
    expect(calls).toBe(4);
    deflate(c, 9);
    expect(calls).toBe(4);
  });
});
