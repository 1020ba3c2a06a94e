import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { triangulatePolygon } from '../../src/geometry/polygon-triangulate.js';

function area2(xy: number[], t: number[]): number {
  let a = 0;
  for (let i = 0; i < t.length; i += 3) {
    const [p, q, r] = [t[i], t[i + 1], t[i + 2]];
    const s =
      (xy[2 * q] - xy[2 * p]) * (xy[2 * r + 1] - xy[2 * p + 1]) -
      (xy[2 * q + 1] - xy[2 * p + 1]) * (xy[2 * r] - xy[2 * p]);
    expect(s).toBeGreaterThan(0); // counter-clockwise
    a += s / 2;
  }
  return a;
}

describe('triangulatePolygon', () => {
  it('covers a concave L exactly, in either winding', () => {
    const xy = [0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2];
    expect(area2(xy, triangulatePolygon(xy, [0, 1, 2, 3, 4, 5]))).toBeCloseTo(3, 12);
    expect(area2(xy, triangulatePolygon(xy, [5, 4, 3, 2, 1, 0]))).toBeCloseTo(3, 12);
  });

  it('cuts holes out: a square with two square holes', () => {
    const xy = [0, 0, 10, 0, 10, 10, 0, 10, 1, 1, 3, 1, 3, 3, 1, 3, 6, 6, 8, 6, 8, 9, 6, 9];
    const t = triangulatePolygon(
      xy,
      [0, 1, 2, 3],
      [
        [4, 5, 6, 7],
        [11, 10, 9, 8],
      ],
    );
    expect(area2(xy, t)).toBeCloseTo(100 - 4 - 6, 9);
    expect(t.length / 3).toBe(4 + 4 + 4 + 2 * 2 - 2);
  });

  it('covers random star-shaped polygons with a hole, counter-clockwise (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 2, max: 5, noNaN: true }), { minLength: 5, maxLength: 40 }),
        fc.integer({ min: 3, max: 12 }),
        (radii, holeSides) => {
          const xy: number[] = [];
          const outer = radii.map((r, i) => {
            const a = (2 * Math.PI * i) / radii.length;
            xy.push(r * Math.cos(a), r * Math.sin(a));
            return i;
          });
          const hole = Array.from({ length: holeSides }, (_, i) => {
            const a = (2 * Math.PI * i) / holeSides;
            xy.push(Math.cos(a), Math.sin(a));
            return radii.length + i;
          });
          const ringArea = (ring: number[]) => {
            let a = 0;
            for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
              a += xy[2 * ring[j]] * xy[2 * ring[i] + 1] - xy[2 * ring[i]] * xy[2 * ring[j] + 1];
            return Math.abs(a / 2);
          };
          const t = triangulatePolygon(xy, outer, [hole]);
          expect(area2(xy, t)).toBeCloseTo(ringArea(outer) - ringArea(hole), 6);
        },
      ),
      { numRuns: 100 },
    );
  });
});
