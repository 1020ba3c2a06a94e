import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  rasterizeSilhouette,
  silhouetteCoverage,
  silhouetteReference,
  silhouetteViews,
  SILHOUETTE_DIRECTIONS,
} from '../../src/lod/silhouette.js';
import { materialBox, uvSphere } from './lod-fixtures.js';
import type { IndexedMesh } from '../../src/geometry/indexed-mesh.js';

const mesh = (f: { positions: Float32Array; indices: Uint32Array }): IndexedMesh<Float32Array> => ({
  positions: f.positions,
  indices: f.indices,
});
const sphere = mesh(uvSphere(32));

function scaled(m: IndexedMesh<Float32Array>, s: number): IndexedMesh<Float32Array> {
  return { positions: m.positions.map((x) => x * s), indices: m.indices };
}

describe('silhouette coverage', () => {
  it('uses 7 directions: the axes and the cube diagonals', () => {
    expect(SILHOUETTE_DIRECTIONS).toHaveLength(7);
    expect(silhouetteViews(sphere)).toHaveLength(7);
  });

  it('a mesh covers its own silhouette completely', () => {
    const ref = silhouetteReference(sphere);
    expect(silhouetteCoverage(ref, sphere).coverage).toBe(1);
    // A disk fills about pi/4 of its bounding square.
    for (const a of ref.areas) expect(a / 64 ** 2).toBeGreaterThan(0.7);
  });

  it('nothing covers nothing of it, and something far away covers nothing', () => {
    const ref = silhouetteReference(sphere);
    expect(silhouetteCoverage(ref, { positions: new Float32Array(0), indices: new Uint32Array(0) }).coverage).toBe(0);
    const far = mesh(uvSphere(16, 1, 'x', [10, 10, 10]));
    expect(silhouetteCoverage(ref, far).coverage).toBe(0);
  });

  it('a shrunk copy covers less, about the ratio of areas once past the tolerance', () => {
    const strict = silhouetteReference(sphere, { tolerance: 0 });
    const c = silhouetteCoverage(strict, scaled(sphere, 0.8)).coverage;
    expect(c).toBeGreaterThan(0.6);
    expect(c).toBeLessThan(0.68); // 0.8^2 = 0.64
    // A bigger copy covers all of it.
    expect(silhouetteCoverage(strict, scaled(sphere, 1.2)).coverage).toBe(1);
  });

  it('forgives shrinking within the tolerance, not beyond', () => {
    const tolerant = silhouetteReference(sphere); // 1/64 of the largest side (2 m): 3.1 cm
    const strict = silhouetteReference(sphere, { tolerance: 0 });
    const slightly = scaled(sphere, 0.99); // 1 cm in
    expect(silhouetteCoverage(strict, slightly).coverage).toBeLessThan(1);
    expect(silhouetteCoverage(tolerant, slightly).coverage).toBe(1);
    expect(silhouetteCoverage(tolerant, scaled(sphere, 0.9)).coverage).toBeLessThan(0.95);
  });

  it('takes the worst view: a box with a face missing loses nothing from the side, much from the front', () => {
    const box = materialBox(1, 1, 1, 1);
    const all = box.faces.flatMap((f) => [f]);
    const joined = (faces: typeof all) => {
      const p: number[] = [],
        idx: number[] = [];
      for (const f of faces) {
        const base = p.length / 3;
        p.push(...f.positions);
        for (const i of f.indices) idx.push(base + i);
      }
      return { positions: Float32Array.from(p), indices: Uint32Array.from(idx) };
    };
    const ref = silhouetteReference(joined(all), { tolerance: 0 });
    // Without the two X sides (material 0), the view along X sees nothing of them but the rims of the others.
    const partial = silhouetteCoverage(ref, joined(all.slice(1)));
    expect(partial.perView[1]).toBe(1); // seen along Y, the Z sides still fill the square
    expect(Math.min(...partial.perView)).toBe(partial.coverage);
  });

  it('coverage is within [0, 1] and 1 for any superset of the triangles', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), (drop) => {
        const idx = sphere.indices.slice(0, Math.max(0, sphere.indices.length - drop * 3));
        const ref = silhouetteReference({ positions: sphere.positions, indices: idx });
        const c = silhouetteCoverage(ref, sphere).coverage;
        expect(c).toBe(1);
        const c2 = silhouetteCoverage(silhouetteReference(sphere), {
          positions: sphere.positions,
          indices: idx,
        }).coverage;
        expect(c2).toBeGreaterThanOrEqual(0);
        expect(c2).toBeLessThanOrEqual(1);
      }),
      { numRuns: 15 },
    );
  });

  it('skips views where the reference has no area (a flat quad seen edge on)', () => {
    const quad: IndexedMesh<Float32Array> = {
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    };
    const ref = silhouetteReference(quad);
    expect(ref.areas[0]).toBe(0); // along X
    expect(rasterizeSilhouette(quad, ref.views[2]).reduce((a, b) => a + b, 0)).toBe(64 * 64); // along Z it fills the grid
    expect(silhouetteCoverage(ref, quad).coverage).toBe(1);
  });
});

describe('rasterizeSilhouette', () => {
  /** Every cell of each triangle's box tested (the rasterizer's definition: a cell is set when its centre passes all three edge tests). */
  function reference(m: IndexedMesh<Float32Array>, view: ReturnType<typeof silhouetteViews>[number]): Uint8Array {
    const r = view.resolution;
    const out = new Uint8Array(r * r);
    if (!(view.du > 0) || !(view.dv > 0)) return out;
    const { u, v, u0, v0, du, dv } = view;
    const p = m.positions;
    const cx = (i: number) => (p[i * 3] * u[0] + p[i * 3 + 1] * u[1] + p[i * 3 + 2] * u[2] - u0) / du;
    const cy = (i: number) => (p[i * 3] * v[0] + p[i * 3 + 1] * v[1] + p[i * 3 + 2] * v[2] - v0) / dv;
    for (let t = 0; t + 2 < m.indices.length; t += 3) {
      const X = [0, 1, 2].map((k) => Math.fround(cx(m.indices[t + k])));
      const Y = [0, 1, 2].map((k) => Math.fround(cy(m.indices[t + k])));
      const area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
      if (!(Math.abs(area) > 1e-12)) continue;
      const s = area > 0 ? 1 : -1;
      for (let j = 0; j < r; j++)
        for (let i = 0; i < r; i++) {
          const [x, y] = [i + 0.5, j + 0.5];
          const e = [0, 1, 2].map((k) => {
            const k1 = (k + 1) % 3;
            return s * ((X[k1] - X[k]) * (y - Y[k]) - (x - X[k]) * (Y[k1] - Y[k]));
          });
          if (e.every((x) => !(x < 0))) out[j * r + i] = 1;
        }
    }
    return out;
  }

  it('sets exactly the cells whose centre passes the three edge tests (corners on cell centres and edges, outside the grid, slivers)', () => {
    const ref = silhouetteViews(sphere, { resolution: 16 });
    // Coordinates in cell units of the axis views (the sphere's box is [-1, 1], 16 cells): whole
    // and half cells put corners and edges exactly on cell centres.
    const coord = fc.oneof(
      fc.integer({ min: -4, max: 36 }).map((k) => -1 + k / 16),
      fc.integer({ min: -8, max: 72 }).map((k) => -1 + k / 32),
      fc.double({ min: -1.3, max: 1.3, noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(coord, coord, coord), { minLength: 3, maxLength: 12 }), (pts) => {
        const n = pts.length - (pts.length % 3);
        const m: IndexedMesh<Float32Array> = {
          positions: Float32Array.from(pts.slice(0, n).flat()),
          indices: Uint32Array.from({ length: n }, (_, i) => i),
        };
        for (const view of ref)
          expect(Array.from(rasterizeSilhouette(m, view))).toEqual(Array.from(reference(m, view)));
      }),
      { numRuns: 300 },
    );
  });
});
