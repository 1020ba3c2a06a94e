import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hausdorffBetween,
  hausdorffDistance,
  lodHausdorffDistance,
  maxDistanceToMesh,
  prepareHausdorffSide,
  pointTriangleDistanceSquared,
  sampleSurface,
  strayVertices,
  TriangleBvh,
  twoSidedDistance,
} from '../../src/lod/hausdorff.js';
import { materialBox, uvSphere } from './lod-fixtures.js';
import type { IndexedMesh } from '../../src/geometry/indexed-mesh.js';

const coord = fc.double({ min: -5, max: 5, noNaN: true });
const point = fc.tuple(coord, coord, coord);

/** Nearest point on a triangle by dense barycentric sampling (an upper bound of the true distance). */
function bruteTriangle(t: number[], p: number[], steps = 60): number {
  let best = Infinity;
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; i + j <= steps; j++) {
      const u = i / steps,
        v = j / steps,
        w = 1 - u - v;
      const q = [0, 1, 2].map((k) => w * t[k] + u * t[3 + k] + v * t[6 + k]);
      best = Math.min(best, Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]));
    }
  }
  return best;
}

function translated(mesh: IndexedMesh<Float32Array>, d: [number, number, number]): IndexedMesh<Float32Array> {
  const p = mesh.positions.slice();
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) p[i + k] += d[k];
  return { positions: p, indices: mesh.indices };
}

const sphere = uvSphere(24);
const sphereMesh: IndexedMesh<Float32Array> = { positions: sphere.positions, indices: sphere.indices };

/** sphereMesh's positions, each coordinate moved by up to `amount` (a fixed pseudo-random walk from `seed`). */
function jittered(amount: number, seed: number): Float32Array {
  const p = sphereMesh.positions.slice();
  let s = seed;
  for (let i = 0; i < p.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    p[i] += ((s / 0x7fffffff) * 2 - 1) * amount;
  }
  return p;
}

describe('pointTriangleDistanceSquared', () => {
  it('a point on the long edge of a sliver is at distance 0 (fast-check counterexample)', () => {
    const t = [-4.936932070623626, 0, 0, 1.457522379547674, 0.000006395567274483935, 0, 4.999999962643244, 0, 0];
    expect(pointTriangleDistanceSquared(t, 0, 0, 0, 0)).toBeLessThan(1e-18);
  });

  it('matches dense sampling of the triangle (never farther, within the sampling step)', () => {
    fc.assert(
      fc.property(point, point, point, point, (a, b, c, p) => {
        const t = [...a, ...b, ...c];
        const exact = Math.sqrt(pointTriangleDistanceSquared(t, 0, p[0], p[1], p[2]));
        const brute = bruteTriangle(t, p);
        const edge = Math.max(
          Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]),
          Math.hypot(a[0] - c[0], a[1] - c[1], a[2] - c[2]),
          Math.hypot(b[0] - c[0], b[1] - c[1], b[2] - c[2]),
        );
        expect(exact).toBeLessThanOrEqual(brute + 1e-9);
        expect(brute - exact).toBeLessThanOrEqual(edge / 60 + 1e-9);
      }),
      { numRuns: 400 },
    );
  });

  it('is 0 on the triangle and the plane distance above its inside', () => {
    const t = [0, 0, 0, 2, 0, 0, 0, 2, 0];
    expect(pointTriangleDistanceSquared(t, 0, 0.5, 0.5, 0)).toBe(0);
    expect(Math.sqrt(pointTriangleDistanceSquared(t, 0, 0.5, 0.5, 3))).toBeCloseTo(3, 12);
    // Beyond a corner: distance to the corner.
    expect(Math.sqrt(pointTriangleDistanceSquared(t, 0, -1, -1, 0))).toBeCloseTo(Math.SQRT2, 12);
  });
});

describe('TriangleBvh', () => {
  it('finds the same nearest distance as checking every triangle', () => {
    const box = materialBox(2, 1, 0.5, 3);
    const mesh: IndexedMesh<Float32Array> = {
      positions: new Float32Array([...box.faces.flatMap((f) => [...f.positions])]),
      indices: new Uint32Array(0),
    };
    const idx: number[] = [];
    let base = 0;
    for (const f of box.faces) {
      for (const i of f.indices) idx.push(i + base);
      base += f.positions.length / 3;
    }
    mesh.indices = Uint32Array.from(idx);
    const bvh = TriangleBvh.build(mesh);
    fc.assert(
      fc.property(point, (p) => {
        let brute = Infinity;
        const tri = new Float64Array(9);
        for (let t = 0; t < mesh.indices.length; t += 3) {
          for (let k = 0; k < 3; k++)
            for (let d = 0; d < 3; d++) tri[k * 3 + d] = mesh.positions[mesh.indices[t + k] * 3 + d];
          brute = Math.min(brute, pointTriangleDistanceSquared(tri, 0, p[0], p[1], p[2]));
        }
        expect(bvh.closestDistanceSquared(p[0], p[1], p[2])).toBeCloseTo(brute, 6);
      }),
      { numRuns: 200 },
    );
  });

  it('answers Infinity for an empty mesh', () => {
    expect(
      TriangleBvh.build({ positions: new Float32Array(0), indices: new Uint32Array(0) }).closestDistanceSquared(
        0,
        0,
        0,
      ),
    ).toBe(Infinity);
  });
});

describe('strayVertices', () => {
  it('gives the largest distance and exactly the points beyond the threshold, as measuring every point whole does', () => {
    const sphere = uvSphere(12);
    const bvh = TriangleBvh.build({ positions: sphere.positions, indices: sphere.indices });
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 6, noNaN: true }),
        (ps, t) => {
          const flat = Float32Array.from(ps.flat());
          const d = ps.map((_, i) =>
            Math.sqrt(bvh.closestDistanceSquared(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2])),
          );
          const r = strayVertices(flat, bvh, t);
          expect(r.max).toBeCloseTo(Math.max(...d), 9);
          expect(r.far).toEqual(d.flatMap((x, i) => (x > t ? [i] : [])));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is 0 without points and Infinity against an empty mesh', () => {
    const empty = TriangleBvh.build({ positions: new Float32Array(0), indices: new Uint32Array(0) });
    expect(strayVertices(new Float32Array([1, 2, 3]), empty, 1).max).toBe(Infinity);
    const sphere = uvSphere(8);
    const bvh = TriangleBvh.build({ positions: sphere.positions, indices: sphere.indices });
    expect(strayVertices(new Float32Array(0), bvh, 1)).toEqual({ max: 0, far: [] });
  });
});

describe('sampleSurface', () => {
  it('is deterministic and puts every sample on the surface', () => {
    const a = sampleSurface(sphereMesh, { samples: 500 });
    const b = sampleSurface(sphereMesh, { samples: 500 });
    expect(a).toEqual(b);
    const used = new Set(sphere.indices).size;
    expect(a.length / 3).toBe(used + 500);
    expect(maxDistanceToMesh(a, TriangleBvh.build(sphereMesh))).toBeLessThan(1e-6);
  });

  it("with centroids, adds each triangle's centroid, so the sample set does not depend on the triangle order", () => {
    const n = sphereMesh.indices.length / 3;
    const s = sampleSurface(sphereMesh, { samples: 0, centroids: true });
    const used = new Set(sphere.indices).size;
    expect(s.length / 3).toBe(used + n);
    // The same triangles in reverse order: the same points (as a set).
    const rev = new Uint32Array(sphereMesh.indices.length);
    for (let t = 0; t < n; t++) rev.set(sphereMesh.indices.subarray(3 * t, 3 * t + 3), 3 * (n - 1 - t));
    const r = sampleSurface({ positions: sphereMesh.positions, indices: rev }, { samples: 0, centroids: true });
    const key = (a: Float32Array) =>
      Array.from({ length: a.length / 3 }, (_, i) => `${a[3 * i]},${a[3 * i + 1]},${a[3 * i + 2]}`).sort();
    expect(key(r)).toEqual(key(s));
  });

  it("with edge midpoints, adds the midpoint of each triangle's three edges, strided to maxVertexSamples", () => {
    const n = sphereMesh.indices.length / 3;
    const used = new Set(sphere.indices).size;
    const s = sampleSurface(sphereMesh, { samples: 0, edgeMidpoints: true });
    expect(s.length / 3).toBe(used + 3 * n);
    const { positions: q, indices: ix } = sphereMesh;
    // Triangle t's midpoints, in edge order ab, bc, ca, after the vertices.
    const t = Math.floor(n / 2);
    for (let e = 0; e < 3; e++) {
      const a = ix[3 * t + e],
        b = ix[3 * t + ((e + 1) % 3)];
      for (let d = 0; d < 3; d++)
        expect(s[3 * (used + 3 * t + e) + d]).toBeCloseTo((q[3 * a + d] + q[3 * b + d]) / 2, 6);
    }
    const strided = sampleSurface(sphereMesh, { samples: 0, maxVertexSamples: 99, edgeMidpoints: true });
    expect(strided.length / 3 - Math.min(used, 99)).toBeLessThanOrEqual(99);
  });

  it("property: with edge midpoints, a one-way distance is at least every edge midpoint's own (a sliver strays furthest along its edges)", () => {
    // A sliver against small triangles at its corners: area samples of a sliver are few, and the
    // farthest points lie along its edges.
    fc.assert(
      fc.property(point, point, point, fc.double({ min: 1e-4, max: 0.05, noNaN: true }), (a, b, c, r) => {
        const sliver = { positions: Float32Array.from([...a, ...b, ...c]), indices: Uint32Array.from([0, 1, 2]) };
        const corners: number[] = [];
        for (const v of [a, b, c]) corners.push(...v, v[0] + r, v[1], v[2], v[0], v[1] + r, v[2]);
        const ref = { positions: Float32Array.from(corners), indices: Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]) };
        const bvh = TriangleBvh.build(ref);
        const measured = maxDistanceToMesh(sampleSurface(sliver, { samples: 4, edgeMidpoints: true }), bvh);
        for (const [u, v] of [
          [a, b],
          [b, c],
          [c, a],
        ]) {
          const mid = Float32Array.from([0, 1, 2].map((k) => (u[k] + v[k]) / 2));
          expect(measured).toBeGreaterThanOrEqual(maxDistanceToMesh(mid, bvh) * (1 - 1e-6));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('strides the vertices down to maxVertexSamples', () => {
    const s = sampleSurface(sphereMesh, { samples: 0, maxVertexSamples: 100 });
    expect(s.length / 3).toBeLessThanOrEqual(100);
    expect(s.length / 3).toBeGreaterThan(50);
  });
});

describe('hausdorffDistance', () => {
  it('is 0 for identical meshes (up to float32 samples) and Infinity when only one is empty', () => {
    expect(hausdorffDistance(sphereMesh, sphereMesh).distance).toBeLessThan(1e-6);
    const empty = { positions: new Float32Array(0), indices: new Uint32Array(0) };
    expect(hausdorffDistance(sphereMesh, empty).distance).toBe(Infinity);
    expect(hausdorffDistance(empty, empty).distance).toBe(0);
  });

  it('measures a translation of a box by its length', () => {
    const box = materialBox(1, 1, 1, 2);
    const moved = {
      faces: box.faces.map((f) => ({
        ...f,
        positions: translated({ positions: f.positions, indices: f.indices }, [0.1, 0, 0]).positions,
      })),
    };
    const h = lodHausdorffDistance(box, moved);
    expect(h.distance).toBeCloseTo(0.1, 5);
    expect(h.aToB).toBeCloseTo(0.1, 5);
    expect(h.bToA).toBeCloseTo(0.1, 5);
  });

  it('measures concentric spheres by the gap between them', () => {
    const outer = uvSphere(24, 1.1);
    const h = hausdorffDistance(sphereMesh, { positions: outer.positions, indices: outer.indices }).distance;
    // Vertices are exactly 0.1 apart; facet centres of the inner sphere are a little farther.
    expect(h).toBeGreaterThanOrEqual(0.1 - 1e-6);
    expect(h).toBeLessThan(0.12);
  });

  it('is symmetric and catches a part that is missing on one side only', () => {
    const a = uvSphere(16, 1);
    const b = uvSphere(16, 0.3, 'Small', [3, 0, 0]);
    const both = { faces: [a, b] };
    const h1 = lodHausdorffDistance({ faces: [a] }, both);
    const h2 = lodHausdorffDistance(both, { faces: [a] });
    expect(h1.distance).toBeCloseTo(h2.distance, 9);
    // The far side of the small sphere is 3.3 from the origin, 2.3 from the unit sphere.
    expect(h1.distance).toBeGreaterThan(2.25);
    expect(h1.distance).toBeLessThan(2.31);
    // Only B has the small sphere: A's samples are all on B, so one direction is (about) 0.
    expect(h1.aToB).toBeLessThan(1e-6);
  });

  it('never exceeds the largest vertex displacement for a mesh whose vertices move (same triangles)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.2, noNaN: true }), fc.integer({ min: 0, max: 1000 }), (amount, seed) => {
        const p = sphereMesh.positions.slice();
        let s = seed;
        let most = 0;
        for (let i = 0; i < p.length; i += 3) {
          s = (s * 1103515245 + 12345) & 0x7fffffff;
          const d = ((s / 0x7fffffff) * 2 - 1) * amount;
          p[i + 2] += d;
          most = Math.max(most, Math.abs(Math.fround(p[i + 2]) - sphereMesh.positions[i + 2]));
        }
        const h = hausdorffDistance(
          sphereMesh,
          { positions: p, indices: sphereMesh.indices },
          { samples: 256 },
        ).distance;
        expect(h).toBeLessThanOrEqual(most + 1e-6);
      }),
      { numRuns: 20 },
    );
  });
});

describe('a distance limit (a candidate that fails a bound needs no more measuring)', () => {
  it('property: under the limit the distance is exact; over it, the answer is over it too', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: -0.1, max: 0.6, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        (amount, limit, seed) => {
          const p = jittered(amount, seed);
          const moved = { positions: p, indices: sphereMesh.indices };
          const a = prepareHausdorffSide(sphereMesh, { samples: 256 });
          const b = prepareHausdorffSide(moved, { samples: 256 });
          const full = hausdorffBetween(a, b);
          const capped = hausdorffBetween(a, b, limit);
          if (full.distance <= limit) expect(capped).toEqual(full);
          else expect(capped.distance).toBeGreaterThan(limit);
          const one = maxDistanceToMesh(a.samples, b.bvh);
          const oneCapped = maxDistanceToMesh(a.samples, b.bvh, limit);
          if (one <= limit) expect(oneCapped).toBe(one);
          else expect(oneCapped).toBeGreaterThan(limit);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('pointTriangleDistanceSquared on degenerate triangles', () => {
  it('is finite and exact for a triangle collapsed to a segment or a point', () => {
    expect(Math.sqrt(pointTriangleDistanceSquared([0, 0, 0, 0, 0, 0, 2, 0, 0], 0, 1, 1, 0))).toBeCloseTo(1, 12);
    expect(Math.sqrt(pointTriangleDistanceSquared([1, 1, 1, 1, 1, 1, 1, 1, 1], 0, 1, 1, 4))).toBeCloseTo(3, 12);
    fc.assert(
      fc.property(point, point, point, (a, b, p) => {
        const d = pointTriangleDistanceSquared([...a, ...a, ...b], 0, p[0], p[1], p[2]);
        expect(Number.isFinite(d)).toBe(true);
        expect(Math.sqrt(d)).toBeLessThanOrEqual(Math.hypot(p[0] - a[0], p[1] - a[1], p[2] - a[2]) + 1e-9);
      }),
      { numRuns: 300 },
    );
  });
});

describe('twoSidedDistance and a floor (the second direction measures only what can raise the maximum)', () => {
  it('property: equals hausdorffBetween’s distance; a floored one-way maximum is max(floor, the true one)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 0.6, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        (amount, floor, seed) => {
          const p = jittered(amount, seed);
          // Drop every seventh triangle of the moved copy, so the two directions differ.
          const idx = sphereMesh.indices.filter((_, i) => Math.floor(i / 3) % 7 !== seed % 7);
          const moved = { positions: p, indices: Uint32Array.from(idx) };
          const a = prepareHausdorffSide(sphereMesh, { samples: 256 });
          const b = prepareHausdorffSide(moved, { samples: 256 });
          expect(twoSidedDistance(a, b)).toBe(hausdorffBetween(a, b).distance);
          expect(twoSidedDistance(b, a)).toBe(hausdorffBetween(b, a).distance);
          const one = maxDistanceToMesh(b.samples, a.bvh);
          expect(maxDistanceToMesh(b.samples, a.bvh, Infinity, floor)).toBe(Math.max(floor, one));
        },
      ),
      { numRuns: 40 },
    );
  });
});
