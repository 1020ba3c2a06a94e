import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isZeroAreaTriangle, triangleArea, triangleCross } from '../../src/geometry/indexed-mesh.js';

const coord = fc.double({ min: -100, max: 100, noNaN: true });
const point = fc.tuple(coord, coord, coord);

/** Heron's formula from the three side lengths: an independent area. */
function heron(a: number[], b: number[], c: number[]): number {
  const x = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const y = Math.hypot(b[0] - c[0], b[1] - c[1], b[2] - c[2]);
  const z = Math.hypot(c[0] - a[0], c[1] - a[1], c[2] - a[2]);
  const s = (x + y + z) / 2;
  return Math.sqrt(Math.max(0, s * (s - x) * (s - y) * (s - z)));
}

describe('indexed mesh helpers', () => {
  it("triangleArea agrees with Heron's formula, and the cross product is twice the area, normal to both edges", () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        const p = Float64Array.from([...a, ...b, ...c]);
        const area = triangleArea(p, 0, 1, 2);
        const scale = Math.max(1, Math.hypot(...a), Math.hypot(...b), Math.hypot(...c)) ** 2;
        expect(Math.abs(area - heron(a, b, c))).toBeLessThan(1e-6 * scale);
        const n = new Float64Array(3);
        triangleCross(p, 0, 1, 2, n);
        expect(Math.hypot(n[0], n[1], n[2]) / 2).toBeCloseTo(area, 6);
        const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        expect(Math.abs(n[0] * u[0] + n[1] * u[1] + n[2] * u[2])).toBeLessThan(1e-6 * scale * scale);
      }),
      { numRuns: 300 },
    );
  });

  it('a counter-clockwise triangle in the XY plane faces +Z', () => {
    const n = new Float64Array(3);
    triangleCross([0, 0, 0, 1, 0, 0, 0, 1, 0], 0, 1, 2, n);
    expect(Array.from(n)).toEqual([0, 0, 1]);
  });

  it('isZeroAreaTriangle: collinear and repeated corners are zero area at any scale, a real triangle is not', () => {
    // Exact collinear points: integer corners, c = a + (k/8)(b - a) with (b - a) a multiple of 8.
    const int = fc.integer({ min: -1000, max: 1000 });
    const ipoint = fc.tuple(int, int, int);
    fc.assert(
      fc.property(
        ipoint,
        ipoint,
        fc.integer({ min: -24, max: 24 }),
        fc.constantFrom(1e-4, 0.01, 1, 1e4),
        (a, d, k, s) => {
          const b = [a[0] + 8 * d[0], a[1] + 8 * d[1], a[2] + 8 * d[2]];
          const c = [a[0] + k * d[0], a[1] + k * d[1], a[2] + k * d[2]];
          const p = Float64Array.from([...a, ...b, ...c].map((x) => x * s));
          expect(isZeroAreaTriangle(p, 0, 1, 2)).toBe(true);
          expect(isZeroAreaTriangle(p, 0, 0, 1)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    expect(isZeroAreaTriangle([0, 0, 0, 1, 0, 0, 0, 1, 0], 0, 1, 2)).toBe(false);
    expect(isZeroAreaTriangle([0, 0, 0, NaN, 0, 0, 0, 1, 0], 0, 1, 2)).toBe(true);
  });
});
