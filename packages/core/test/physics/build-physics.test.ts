import { describe, expect, it } from 'vitest';
import { buildPhysics } from '../../src/physics/build-physics.js';
import { convexHullPhysicsCost, decompositionPhysicsCost } from '../../src/cost/physics-cost.js';
import type { SlObject } from '../../src/types.js';
import { boxes, hullPlanes, insideHull, room, sphere, torus, type TestMesh } from './physics-fixtures.js';

function objectOf(m: TestMesh, name = 'Thing'): SlObject {
  return { name, lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(m.positions), indices: m.indices }] } } };
}
const FAST = { decompose: { maxCells: 100_000 } };

describe('buildPhysics', () => {
  it('hull: a containing hull of at most 256 vertices, its weight, nothing else', () => {
    const r = buildPhysics(objectOf(sphere(1, 48, 24)), { mode: 'hull' });
    expect(r.mode).toBe('hull');
    expect(r.object.hull!.length / 3).toBeLessThanOrEqual(256);
    expect(r.hull.reduced).toBe(true);
    expect(r.weight).toBeCloseTo(convexHullPhysicsCost(r.object.hull!.length / 3), 12);
    expect(r.estimate).toBe(false);
    expect(r.object.decomposition).toBeUndefined();
  });

  it('decompose: hulls in the authored frame, an estimated weight, the single hull too', () => {
    const m = room();
    const r = buildPhysics(objectOf(m), { mode: 'decompose', ...FAST });
    expect(r.mode).toBe('decompose');
    expect(r.estimate).toBe(true);
    const d = r.object.decomposition!;
    expect(d.length).toBeGreaterThan(3);
    expect(r.weight).toBeCloseTo(decompositionPhysicsCost(d.map((h) => h.length / 3)).cost, 12);
    expect(r.decomposition!.estimate).toBe(true);
    expect(r.object.hull).toBeDefined();
    for (const p of m.doorway) expect(d.some((h) => insideHull(hullPlanes(h), p[0], p[1], p[2]))).toBe(false);
  });

  it('scale: the fit is made at the world size and mapped back (a 10x room keeps its doorway)', () => {
    const m = room();
    const r = buildPhysics(objectOf(m), { mode: 'decompose', scale: [0.1, 0.1, 0.1], ...FAST });
    // At a tenth of the size the doorway is 10 cm wide: a 5 cm tolerance may close it; at 1x it stays open.
    expect(r.decomposition!.hulls).toBeLessThanOrEqual(buildPhysics(objectOf(m), { mode: 'decompose', ...FAST }).decomposition!.hulls);
    for (const h of r.object.decomposition!) for (let i = 0; i < h.length; i += 3) expect(Math.abs(h[i])).toBeLessThanOrEqual(2.0001);
  });

  it('mesh: a physics mesh priced at the size asked; none: the object as it is', () => {
    const o = objectOf(torus(1, 0.25, 16, 8));
    const r = buildPhysics(o, { mode: 'mesh' });
    expect(r.mode).toBe('mesh');
    expect(r.object.physicsMesh!.faces[0].indices.length).toBe(o.lods.high.faces[0].indices.length);
    const big = buildPhysics(o, { mode: 'mesh', scale: [2, 2, 2] });
    expect(big.weight).toBeLessThan(r.weight);
    // Under 0.5 m on a side the server charges the mesh as its single hull.
    const small = buildPhysics(o, { mode: 'mesh', scale: [0.25, 0.25, 0.25] });
    expect(small.mesh!.convexified).toBe(true);
    expect(small.weight).toBeCloseTo(convexHullPhysicsCost(small.object.hull!.length / 3), 12);
    expect(small.mesh!.triangleWeight).toBeGreaterThan(small.weight);
    const none = buildPhysics(o, { mode: 'none' });
    expect(none.mode).toBe('none');
    expect(none.object).toEqual(o);
    expect(none.weight).toBeCloseTo(none.hull.weight, 12);
  });

  it('auto: a torus with an avatar-sized hole keeps it open (decomposition or mesh); a sphere costs no more than its hull', () => {
    const t = buildPhysics(objectOf(torus(1, 0.25, 48, 16)), { mode: 'auto', ...FAST });
    expect(t.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    expect(['decomposition', 'mesh']).toContain(t.choice!.shape);
    expect(t.object.physicsChoice).toEqual(t.choice);
    const s = buildPhysics(objectOf(sphere(1, 24, 12)), { mode: 'auto', ...FAST });
    const hull = s.choice!.candidates.find((c) => c.shape === 'hull')!;
    expect(hull.keepsOpenings).toBe(true);
    expect(Math.max(s.weight, 0.5)).toBeLessThanOrEqual(hull.landImpact + 1e-12);
  });

  it('reports progress and honours an abort signal', () => {
    const seen: number[] = [];
    buildPhysics(objectOf(boxes([[[0, 0, 0], [2, 1, 1]], [[0, 0, 0], [1, 2, 1]]])), { mode: 'decompose', ...FAST, onProgress: (f) => seen.push(f) });
    expect(seen[seen.length - 1]).toBe(1);
    const ac = new AbortController();
    ac.abort();
    expect(() => buildPhysics(objectOf(torus()), { mode: 'decompose', ...FAST, signal: ac.signal })).toThrow();
    expect(() => buildPhysics(objectOf(torus()), { mode: 'hull', scale: [0, 1, 1] })).toThrow(RangeError);
  });
});
