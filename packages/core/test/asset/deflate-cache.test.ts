import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deflatedLength, memoizeDeflate } from '../../src/asset/deflate-cache.js';
import type { DeflateFn } from '../../src/types.js';

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

  it("gives lengths by the deflate's deflatedLength, and makes the bytes only when asked", () => {
    let bytes = 0,
      lengths = 0;
    const inner: DeflateFn = (d, level) => {
      bytes++;
      return new Uint8Array(deflateSync(d, { level }));
    };
    inner.deflatedLength = (d, level) => {
      lengths++;
      return deflateSync(d, { level }).length;
    };
    const deflate = memoizeDeflate(inner);
    const a = new TextEncoder().encode('medium LOD block '.repeat(50));
    const size = deflateSync(a, { level: 9 }).length;
    expect(deflatedLength(deflate, a, 9)).toBe(size);
    expect(deflatedLength(deflate, a.slice(), 9)).toBe(size);
    expect([bytes, lengths]).toEqual([0, 1]);
    // The bytes of a measured input: made once, then a hit; its length stays cached.
    const out = deflate(a, 9);
    expect(out.length).toBe(size);
    expect(deflate(a, 9)).toBe(out);
    expect(deflatedLength(deflate, a, 9)).toBe(size);
    expect([bytes, lengths]).toEqual([1, 1]);
    // A deflate without deflatedLength: the length is its output's, and the output is kept.
    let plain = 0;
    const memo = memoizeDeflate((d) => {
      plain++;
      return d.slice(1);
    });
    expect(deflatedLength(memo, a, 9)).toBe(a.length - 1);
    expect(memo(a, 9).length).toBe(a.length - 1);
    expect(plain).toBe(1);
  });

  it('never mistakes different bytes for a hit, even when hashes collide', () => {
    // Whatever the hashes do, each input must get its own result back.
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        (x, y) => {
          const deflate = memoizeDeflate((d) => d.slice().reverse());
          expect(deflate(x, 9)).toEqual(x.slice().reverse());
          expect(deflate(y, 9)).toEqual(y.slice().reverse());
          expect(deflate(x, 9)).toEqual(x.slice().reverse());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps at most maxEntries results, evicting the least recently used (a hit counts as a use)', () => {
    const compressed: number[] = [];
    const deflate = memoizeDeflate((d) => {
      compressed.push(d[0]);
      return d.slice();
    }, 2);
    const block = (n: number) => new Uint8Array([n]);
    deflate(block(1), 9);
    deflate(block(2), 9);
    deflate(block(1), 9); // hit: 1 is now more recent than 2
    deflate(block(3), 9); // evicts 2, the least recently used (insertion order would evict 1)
    expect(compressed).toEqual([1, 2, 3]);
    deflate(block(1), 9); // still cached
    expect(compressed).toEqual([1, 2, 3]);
    deflate(block(2), 9); // was evicted: compressed again, evicting 3 (1 was used after 3)
    expect(compressed).toEqual([1, 2, 3, 2]);
    deflate(block(1), 9);
    expect(compressed).toEqual([1, 2, 3, 2]);
    deflate(block(3), 9);
    expect(compressed).toEqual([1, 2, 3, 2, 3]);
  });

  it('keeps at most maxBytes of inputs: big inputs push out the least recently used, the newest always stays', () => {
    const compressed: number[] = [];
    const deflate = memoizeDeflate(
      (d) => {
        compressed.push(d[0]);
        return d.slice(0, 1);
      },
      100,
      1000,
    );
    const block = (n: number, size: number) => new Uint8Array(size).fill(n);
    deflate(block(1, 400), 9);
    deflate(block(2, 400), 9);
    deflate(block(1, 400), 9); // hit
    deflate(block(3, 400), 9); // 1,200 bytes: 2 goes
    expect(compressed).toEqual([1, 2, 3]);
    deflate(block(1, 400), 9);
    expect(compressed).toEqual([1, 2, 3]);
    deflate(block(4, 5000), 9); // over the bound alone: kept, everything else goes
    deflate(block(4, 5000), 9);
    expect(compressed).toEqual([1, 2, 3, 4]);
    deflate(block(1, 400), 9);
    expect(compressed).toEqual([1, 2, 3, 4, 1]);
    // Small inputs are bounded by the count: 100 of them fit, the 101st pushes out the oldest.
    for (let i = 0; i < 100; i++) deflate(block(i, 1), 9);
    const n = compressed.length;
    for (let i = 0; i < 100; i++) deflate(block(i, 1), 9);
    expect(compressed.length).toBe(n);
    deflate(block(200, 1), 9);
    deflate(block(0, 1), 9);
    expect(compressed.slice(n)).toEqual([200, 0]);
  });

  it('matches a reference LRU on random access sequences, including colliding hashes', () => {
    // Model: an array, most recent last. Inputs of one byte at two levels, so entries of the
    // same bytes share a hash bucket and eviction must take the right one out of it.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom(1, 9)), { maxLength: 60 }),
        (maxEntries, accesses) => {
          let calls = 0;
          const deflate = memoizeDeflate((d, level) => {
            calls++;
            return new Uint8Array([d[0], level]);
          }, maxEntries);
          const model: string[] = [];
          let expectedCalls = 0;
          for (const [byte, level] of accesses) {
            const id = `${byte}/${level}`;
            const i = model.indexOf(id);
            if (i >= 0) model.splice(i, 1);
            else expectedCalls++;
            model.push(id);
            if (model.length > maxEntries) model.shift();
            expect(deflate(new Uint8Array([byte]), level)).toEqual(new Uint8Array([byte, level]));
            expect(calls).toBe(expectedCalls);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
