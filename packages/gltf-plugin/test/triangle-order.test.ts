import { describe, expect, it } from 'vitest';
import { meshoptTriangleOrder } from '../src/triangle-order.js';

describe('meshoptTriangleOrder', () => {
  it('returns the same triangles, corners in the same turn, in vertex-cache order', async () => {
    const order = await meshoptTriangleOrder();
    // A 20 x 20 grid of quads, triangles listed column by column (poor locality for a row-major grid).
    const n = 21;
    const idx: number[] = [];
    for (let x = 0; x < n - 1; x++)
      for (let y = 0; y < n - 1; y++) {
        const a = y * n + x;
        idx.push(a, a + 1, a + n, a + 1, a + n + 1, a + n);
      }
    const indices = Uint32Array.from(idx);
    const out = order(indices, n * n);
    expect(out.length).toBe(indices.length);
    // Each triangle survives with its winding (a rotation of its corners at most).
    const canon = (a: ArrayLike<number>, t: number) => {
      const c = [a[t], a[t + 1], a[t + 2]];
      const k = c.indexOf(Math.min(...c));
      return [c[k], c[(k + 1) % 3], c[(k + 2) % 3]].join(',');
    };
    const set = (a: ArrayLike<number>) => Array.from({ length: a.length / 3 }, (_, t) => canon(a, 3 * t)).sort();
    expect(set(out)).toEqual(set(indices));
    expect(Array.from(indices)).toEqual(idx); // its input is left alone
  });
});
