import { describe, expect, it } from 'vitest';
import { buildPhysicsMesh } from '../../src/physics/physics-mesh.js';
import { triangleMeshPhysicsCost } from '../../src/cost/physics-cost.js';
import type { Face, SlObject } from '../../src/types.js';
import { box } from './physics-fixtures.js';
import { conformObject } from '../../src/lod/lod-conform.js';
import { lodTriangles } from '../../src/geometry/object-geometry.js';

function object(faces: Face[], lods: Partial<SlObject['lods']> = {}): SlObject {
  return { name: 'Thing', lods: { high: { faces }, ...lods } };
}

/** A 2 x 2 m floor as a grid of n x n quads, with optional jitter of its vertices (near-coplanar needles). */
function floor(n: number, jitter = 0): Face {
  const pos: number[] = [],
    idx: number[] = [];
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) pos.push((2 * i) / n, (2 * j) / n, jitter * Math.sin(i * 12.9898 + j * 78.233));
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  return { material: 'floor', positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

describe('buildPhysicsMesh', () => {
  it("re-triangulates a LOD's flat regions: the same floor in 2 triangles weighs less; an authored physics model is left as it is", () => {
    const lod = floor(8);
    const r = buildPhysicsMesh(object([lod]), { lod: 'high' });
    const plain = buildPhysicsMesh(object([lod]), { lod: 'high', retriangulate: false });
    expect(r.mesh.faces[0].indices.length).toBe(6);
    expect(r.retriangulated).toBe(128 - 2);
    expect(r.cost.cost).toBeLessThanOrEqual(plain.cost.cost);
    // The same surface: every corner of the floor is a vertex, the area is 4 m2.
    const t = lodTriangles(r.mesh);
    let area = 0;
    for (let i = 0; i < t.indices.length; i += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => 3 * t.indices[i + k]);
      const u = [0, 1, 2].map((k) => t.positions[b + k] - t.positions[a + k]);
      const v = [0, 1, 2].map((k) => t.positions[c + k] - t.positions[a + k]);
      area += Math.abs(u[0] * v[1] - u[1] * v[0]) / 2;
    }
    expect(area).toBeCloseTo(4, 6);
    // At 0.2 m (10 x smaller) the 128 small triangles weigh more than the minimum; the 2 do not.
    const small = (x: typeof r) => x.cost.cost;
    const r10 = buildPhysicsMesh(object([lod]), { lod: 'high', scale: [0.2, 0.2, 0.2] });
    const p10 = buildPhysicsMesh(object([lod]), { lod: 'high', scale: [0.2, 0.2, 0.2], retriangulate: false });
    expect(small(r10)).toBeLessThan(small(p10) / 4);
    const phys = buildPhysicsMesh({ ...object([lod]), physicsMesh: { faces: [lod] } }, {});
    expect(phys.mesh.faces[0].indices.length).toBe(lod.indices.length);
    expect(phys.retriangulated).toBeUndefined();
  });

  it('takes the LOD asked for (or the next higher) and prices it with the seed formula at the size asked', () => {
    const hi = floor(8),
      lo = floor(2);
    const o = object([hi], { low: { faces: [lo] } });
    const r = buildPhysicsMesh(o, { lod: 'low', retriangulate: false });
    expect(r.source).toBe('low');
    expect(r.mesh.faces[0].indices.length).toBe(lo.indices.length);
    expect(r.cost.cost).toBeCloseTo(triangleMeshPhysicsCost(lo.positions, lo.indices).cost, 9);
    expect(buildPhysicsMesh(o, { lod: 'lowest' }).source).toBe('low');
    // Half the size: widths halve, the weight doubles (above the minimum).
    const big = buildPhysicsMesh(object([floor(16)]), { retriangulate: false });
    const small = buildPhysicsMesh(object([floor(16)]), { scale: [0.5, 0.5, 0.5], retriangulate: false });
    expect(small.cost.cost).toBeCloseTo(2 * big.cost.cost, 6);
    expect(r.diagnostics).toEqual([]);
  });

  it('warns when slivers make the weight explode, and snapping brings it down', () => {
    // Good quads plus a fan of needles: a few near-zero-width triangles rule the harmonic mean.
    const f = floor(4);
    const pos = Array.from(f.positions),
      idx = Array.from(f.indices);
    const base = pos.length / 3;
    for (let k = 0; k < 6; k++)
      pos.push(0.3 + 0.2 * k, 0.5, 0, 0.3 + 0.2 * k + 0.4, 0.5 + 1e-5, 0, 0.3 + 0.2 * k + 0.2, 0.5 + 2e-5, 0);
    for (let k = 0; k < 6; k++) idx.push(base + 3 * k, base + 3 * k + 1, base + 3 * k + 2);
    const o = object([{ material: 'm', positions: Float32Array.from(pos), indices: Uint32Array.from(idx) }]);
    const r = buildPhysicsMesh(o, {});
    const warn = r.diagnostics.find((d) => d.code === 'physics-mesh-costly');
    expect(warn?.severity).toBe('warning');
    expect(warn?.message).toContain('snapping');
    const snapped = buildPhysicsMesh(o, { snap: 0.01 });
    expect(snapped.cost.cost).toBeLessThan(r.cost.cost / 10);
    expect(snapped.snapped!.triangles).toBeGreaterThanOrEqual(6);
    expect(snapped.diagnostics.find((d) => d.code === 'physics-mesh-costly')).toBeUndefined();
  });

  it('says it left out zero-area triangles, which would block the upload; snapping removes them too', () => {
    const b = box();
    const pos = Float32Array.from([...b.positions, 0, 0, 0]);
    const idx = Uint32Array.from([...b.indices, 0, 1, 8]);
    const o = object([{ material: 'm', positions: pos, indices: idx }]);
    const r = buildPhysicsMesh(o, {});
    expect(r.diagnostics.map((d) => d.code)).toContain('physics-mesh-degenerate');
    // Left out of what is written (and priced).
    expect(r.cost.degenerate).toBe(0);
    expect(r.mesh.faces.reduce((a, f) => a + f.indices.length, 0)).toBe(b.indices.length);
    const s = buildPhysicsMesh(o, { snap: 0.001 });
    expect(s.cost.degenerate).toBe(0);
    expect(s.diagnostics.map((d) => d.code)).not.toContain('physics-mesh-degenerate');
  });

  it('uses an injected simplifier, and the authored physics mesh first', () => {
    const o = object([floor(8)]);
    let asked = 0;
    const r = buildPhysicsMesh(o, {
      lod: 'high',
      simplify: (_p, indices, target) => ((asked = target), indices.slice(0, target)),
      simplifyRatio: 0.25,
      retriangulate: false,
    });
    expect(asked).toBe(32 * 3);
    expect(r.mesh.faces[0].indices.length).toBe(96);
    const withPhys: SlObject = { ...o, physicsMesh: { faces: [floor(1)] } };
    expect(buildPhysicsMesh(withPhys, {}).source).toBe('physics');
  });

  it('prices the mesh as written: conformed to high box, where a vertex moved onto a side can make a sliver', () => {
    // High: the unit cube. The low LOD misses the +x side: a box to x = 0.97 and a lone triangle
    // whose vertex at x = 0.98 is the nearest to it. Conforming moves that vertex to x = 1, where
    // it lies almost on the line through the other two: a sliver that rules the harmonic mean.
    const hi = box();
    const lo = box([0, 0, 0], [0.97, 1, 1]);
    const n = lo.positions.length / 3;
    const pos = Float32Array.from([...lo.positions, 0.9, 0.4, 0.5, 0.98, 0.5, 0.5, 0.95, 0.4505, 0.5]);
    const idx = Uint32Array.from([...lo.indices, n, n + 1, n + 2]);
    const o = object([{ material: 'm', positions: Float32Array.from(hi.positions), indices: hi.indices }], {
      low: { faces: [{ material: 'm', positions: pos, indices: idx }] },
    });
    const r = buildPhysicsMesh(o, {});
    const asBuilt = triangleMeshPhysicsCost(pos, idx).cost;
    const written = conformObject({ ...o, physicsMesh: r.mesh }).physicsMesh!;
    const t = lodTriangles(written);
    const asWritten = triangleMeshPhysicsCost(t.positions, t.indices).cost;
    expect(asWritten).toBeGreaterThan(3 * asBuilt); // the sliver
    expect(r.cost.cost).toBeCloseTo(asWritten, 9);
  });
});
