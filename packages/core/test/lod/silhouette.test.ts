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
