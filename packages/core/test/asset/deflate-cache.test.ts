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
