import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minEnclosingSphere } from '../../src/geometry/min-enclosing-sphere.js';
import { minEnclosingSphereOfSpheres } from '../../src/geometry/min-enclosing-sphere-of-spheres.js';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: V) => Math.sqrt(dot(a, a));

function pointsOf(flat: ArrayLike<number>): V[] {
  const out: V[] = [];
  for (let i = 0; i < flat.length; i += 3) out.push([flat[i], flat[i + 1], flat[i + 2]]);
  return out;
}

/** Centre in the affine hull of `pts` equidistant from all of them (Gram system by Cramer / elimination); undefined when degenerate. */
function circumcentre(pts: V[]): V | undefined {
  const a = pts[0];
  const u = pts.slice(1).map((p) => sub(p, a));
  const k = u.length;
  const G = u.map((ui) => u.map((uj) => dot(ui, uj)));
  const rhs = u.map((ui) => dot(ui, ui) / 2);
  // Plain Gauss-Jordan; reject tiny pivots.
  const M = G.map((row, i) => [...row, rhs[i]]);
  const scale = Math.max(1e-300, ...G.map((row, i) => Math.abs(row[i])));
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (Math.abs(M[p][c]) < 1e-9 * scale) return undefined;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let j = c; j <= k; j++) M[r][j] -= f * M[c][j];
    }
  }
  const centre: V = [...a];
  for (let j = 0; j < k; j++) {
    const l = M[j][k] / M[j][j];
    for (let d = 0; d < 3; d++) centre[d] += l * u[j][d];
  }
  return centre;
}

/** Brute force: the smallest sphere through 1..4 of the points that contains all of them. */
function bruteForce(pts: V[]): number {
  const n = pts.length;
  let best = Infinity;
  const tryIt = (ids: number[]) => {
    const c = ids.length === 1 ? pts[ids[0]] : circumcentre(ids.map((i) => pts[i]));
    if (!c) return;
    const r = Math.max(...pts.map((p) => len(sub(p, c))));
    const onBoundary = Math.max(...ids.map((i) => len(sub(pts[i], c))));
    if (r <= onBoundary * (1 + 1e-9) + 1e-12 && r < best) best = r;
  };
  for (let i = 0; i < n; i++) {
    tryIt([i]);
    for (let j = i + 1; j < n; j++) {
      tryIt([i, j]);
      for (let k = j + 1; k < n; k++) {
        tryIt([i, j, k]);
        for (let l = k + 1; l < n; l++) tryIt([i, j, k, l]);
      }
    }
  }
  return best;
}

function maxDistance(flat: ArrayLike<number>, c: V): number {
  return Math.max(0, ...pointsOf(flat).map((p) => len(sub(p, c))));
}

const gridPoints = fc
  .array(fc.integer({ min: -3, max: 3 }), { minLength: 3, maxLength: 24 })
  .map((a) => a.slice(0, a.length - (a.length % 3)));
const realPoints = fc
  .array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 3, maxLength: 24 })
  .map((a) => a.slice(0, a.length - (a.length % 3)));
const flatPlane = fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 2, maxLength: 16 }).map((a) => {
  const out: number[] = [];
  for (let i = 0; i + 1 < a.length; i += 2) out.push(a[i], a[i + 1], 0.5 * a[i] - 2 * a[i + 1] + 1);
  return out;
});

describe('minEnclosingSphere', () => {
  it('handles 0, 1 and 2 points and duplicates', () => {
    expect(minEnclosingSphere([])).toEqual({ center: [0, 0, 0], radius: 0 });
    expect(minEnclosingSphere([1, 2, 3])).toEqual({ center: [1, 2, 3], radius: 0 });
    expect(minEnclosingSphere([1, 2, 3, 1, 2, 3, 1, 2, 3])).toEqual({ center: [1, 2, 3], radius: 0 });
    const two = minEnclosingSphere([0, 0, 0, 2, 0, 0, 0, 0, 0, 2, 0, 0]);
    expect(two.center[0]).toBeCloseTo(1, 12);
    expect(two.radius).toBeCloseTo(1, 12);
  });

  it('collinear points: the farthest pair is the diameter', () => {
    const s = minEnclosingSphere([0, 0, 0, 1, 1, 1, 2, 2, 2, 5, 5, 5, 3, 3, 3]);
    expect(s.radius).toBeCloseTo((5 * Math.sqrt(3)) / 2, 10);
  });

  it('coplanar: an equilateral triangle is enclosed by its circumcircle; an obtuse one by its long edge', () => {
    const eq = minEnclosingSphere([0, 0, 0, 1, 0, 0, 0.5, Math.sqrt(3) / 2, 0]);
    expect(eq.radius).toBeCloseTo(1 / Math.sqrt(3), 10);
    const obtuse = minEnclosingSphere([0, 0, 0, 10, 0, 0, 5, 1, 0]);
    expect(obtuse.radius).toBeCloseTo(5, 10);
    // A square's corners plus its centre.
    const square = minEnclosingSphere([0, 0, 7, 2, 0, 7, 2, 2, 7, 0, 2, 7, 1, 1, 7]);
    expect(square.radius).toBeCloseTo(Math.SQRT2, 10);
    expect(square.center[2]).toBeCloseTo(7, 10);
  });

  it("a cube's corners and a regular tetrahedron", () => {
    const cube: number[] = [];
    for (const x of [0, 1]) for (const y of [0, 1]) for (const z of [0, 1]) cube.push(x, y, z);
    expect(minEnclosingSphere(cube).radius).toBeCloseTo(Math.sqrt(3) / 2, 10);
    const tetra = minEnclosingSphere([1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1]);
    expect(tetra.radius).toBeCloseTo(Math.sqrt(3), 10);
    tetra.center.forEach((c) => expect(c).toBeCloseTo(0, 10));
  });

  it('10 000 points on a sphere: radius 1, deterministic, Float32Array input', () => {
    const n = 10_000;
    const pts = new Float32Array(3 * n);
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    for (let i = 0; i < n; i++) {
      let x: number, y: number, z: number, l: number;
      do {
        x = rnd();
        y = rnd();
        z = rnd();
        l = Math.hypot(x, y, z);
      } while (l < 0.1 || l > 1);
      pts.set([x / l + 3, y / l - 2, z / l + 1], 3 * i);
    }
    const s = minEnclosingSphere(pts);
    expect(s.radius).toBeGreaterThan(0.999);
    expect(s.radius).toBeLessThan(1.0001);
    expect(maxDistance(pts, s.center)).toBeLessThanOrEqual(s.radius);
    expect(minEnclosingSphere(pts)).toEqual(s);
  });

  it('rejects a ragged or non-finite point list', () => {
    expect(() => minEnclosingSphere([1, 2])).toThrow(/multiple of 3/);
    expect(() => minEnclosingSphere([1, 2, Number.NaN])).toThrow(/non-finite/);
  });

  for (const [name, gen] of [
    ['integer grid points (duplicates, collinear, coplanar)', gridPoints],
    ['real points', realPoints],
    ['points on a tilted plane', flatPlane],
  ] as const) {
    it(`contains every point and is the smallest (brute force, n <= 8): ${name}`, () => {
      fc.assert(
        fc.property(gen, fc.integer(), (flat, seed) => {
          const s = minEnclosingSphere(flat, { seed });
          const scale = 1 + s.radius;
          expect(maxDistance(flat, s.center)).toBeLessThanOrEqual(s.radius + 1e-9 * scale);
          const best = bruteForce(pointsOf(flat));
          expect(s.radius).toBeLessThanOrEqual(best + 1e-7 * scale);
          expect(s.radius).toBeGreaterThanOrEqual(best - 1e-7 * scale);
        }),
        { numRuns: 400 },
      );
    });
  }
});

describe('minEnclosingSphereOfSpheres', () => {
  const f = (c: V, flat: number[], radii: number[]) =>
    Math.max(...radii.map((r, i) => len(sub([flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]], c)) + r));

  it('one sphere, nested spheres, two apart', () => {
    expect(minEnclosingSphereOfSpheres([1, 2, 3], [4])).toEqual({ center: [1, 2, 3], radius: 4 });
    const nested = minEnclosingSphereOfSpheres([0, 0, 0, 1, 0, 0], [5, 1]);
    expect(nested.radius).toBeCloseTo(5, 12);
    // Two apart: (d + r1 + r2) / 2, centre on the line.
    const two = minEnclosingSphereOfSpheres([0, 0, 0, 10, 0, 0], [1, 3]);
    expect(two.radius).toBeCloseTo(7, 10);
    expect(two.center[0]).toBeCloseTo(6, 10);
    expect(minEnclosingSphereOfSpheres([], [])).toEqual({ center: [0, 0, 0], radius: 0 });
  });

  it('three equal spheres on a triangle: circumradius + r', () => {
    const s = minEnclosingSphereOfSpheres([0, 0, 0, 1, 0, 0, 0.5, Math.sqrt(3) / 2, 0], [0.5, 0.5, 0.5]);
    expect(s.radius).toBeCloseTo(1 / Math.sqrt(3) + 0.5, 10);
  });

  it('points (radius 0) give the same sphere as Welzl', () => {
    fc.assert(
      fc.property(realPoints, (flat) => {
        const a = minEnclosingSphere(flat);
        const b = minEnclosingSphereOfSpheres(flat, new Array(flat.length / 3).fill(0));
        expect(b.radius).toBeCloseTo(a.radius, 6);
      }),
      { numRuns: 400 },
    );
  });

  it('encloses every sphere and no nearby centre does better (the objective is convex)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: -20, max: 20 }),
            fc.integer({ min: -20, max: 20 }),
            fc.integer({ min: -20, max: 20 }),
            fc.double({ min: 0, max: 8, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        (balls) => {
          const flat = balls.flatMap((b) => [b[0], b[1], b[2]]);
          const radii = balls.map((b) => b[3]);
          const s = minEnclosingSphereOfSpheres(flat, radii);
          const here = f(s.center, flat, radii);
          expect(here).toBeLessThanOrEqual(s.radius + 1e-9 * (1 + s.radius));
          for (const step of [1e-2, 1e-4]) {
            for (let k = 0; k < 26; k++) {
              const d: V = [
                ((k % 3) - 1) * step,
                ((Math.floor(k / 3) % 3) - 1) * step,
                ((Math.floor(k / 9) % 3) - 1) * step,
              ];
              const moved: V = [s.center[0] + d[0], s.center[1] + d[1], s.center[2] + d[2]];
              expect(f(moved, flat, radii)).toBeGreaterThanOrEqual(here - 1e-9 * (1 + here));
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
