import { describe, expect, it } from 'vitest';
import { closeHoles } from '../../src/physics/close-holes.js';
import { box, meshVolume, openEdges, sphere } from './physics-fixtures.js';

describe('closeHoles', () => {
  it('caps a box with a missing face back to its volume, consistently wound', () => {
    const b = box([0, 0, 0], [1, 2, 3]);
    const open = { positions: b.positions, indices: b.indices.slice(6) };
    expect(openEdges(open)).toBe(4);
    const c = closeHoles(open);
    expect(c.capped).toBe(1);
    expect(c.openLoops).toBe(0);
    expect(openEdges(c)).toBe(0);
    expect(meshVolume(c)).toBeCloseTo(6, 9);
  });

  it('caps a sphere with its top cut off', () => {
    const s = sphere(1, 16, 8);
    const keep: number[] = [];
    for (let t = 0; t < s.indices.length; t += 3) {
      const z = Math.max(...[0, 1, 2].map((k) => s.positions[3 * s.indices[t + k] + 2]));
      if (z < 0.9) keep.push(s.indices[t], s.indices[t + 1], s.indices[t + 2]);
    }
    const c = closeHoles({ positions: s.positions, indices: Uint32Array.from(keep) });
    expect(openEdges(c)).toBe(0);
    expect(meshVolume(c)).toBeGreaterThan(0.9 * meshVolume(s));
    expect(meshVolume(c)).toBeLessThan(meshVolume(s));
  });

  it('leaves a closed mesh alone; a lone sheet becomes a two-sided sheet of no volume', () => {
    const b = box();
    expect(closeHoles(b).capped).toBe(0);
    const sheet = closeHoles({
      positions: Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0),
      indices: Uint32Array.of(0, 1, 2, 0, 2, 3),
    });
    expect(openEdges(sheet)).toBe(0);
    expect(meshVolume(sheet)).toBeCloseTo(0, 12);
  });

  /** A flat ring (annulus) in the plane y = 0, standing, or a band whose inner rim is lifted off that plane. */
  function ring(lift = 0) {
    const pos: number[] = [],
      idx: number[] = [];
    for (let i = 0; i < 32; i++) {
      const a = (2 * Math.PI * i) / 32;
      pos.push(2 * Math.cos(a), 0, 2 * Math.sin(a), 1.7 * Math.cos(a), lift, 1.7 * Math.sin(a));
    }
    for (let i = 0; i < 32; i++) {
      const o = 2 * i,
        q = 2 * ((i + 1) % 32);
      idx.push(o, q, o + 1, o + 1, q, q + 1);
    }
    return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
  }
  /** Does some triangle of `tris` (from index `from`) cover point (x, z) of the plane y = 0? */
  function covers(m: { positions: Float64Array; indices: Uint32Array }, from: number, x: number, z: number) {
    const p = m.positions;
    for (let t = from; t < m.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => 3 * m.indices[t + k]);
      const s = (u: number, v: number) => (p[v] - p[u]) * (z - p[u + 2]) - (p[v + 2] - p[u + 2]) * (x - p[u]);
      const [d1, d2, d3] = [s(a, b), s(b, c), s(c, a)];
      if ((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0)) return true;
    }
    return false;
  }

  it('a flat sheet with a hole (a ring) becomes a two-sided sheet that keeps the hole, not a filled disc', () => {
    const r = ring();
    const c = closeHoles(r);
    expect(c.capped).toBe(2);
    expect(openEdges(c)).toBe(0);
    expect(meshVolume(c)).toBeCloseTo(0, 9);
    // The cap covers the ring itself (its middle) but not the hole's centre.
    expect(covers(c, r.indices.length, 1.85, 0)).toBe(true);
    expect(covers(c, r.indices.length, 0, 0)).toBe(false);
    expect(covers(c, r.indices.length, 1, 1)).toBe(false);
  });

  it('a band that is not flat (a lampshade) is still closed loop by loop into a solid', () => {
    const c = closeHoles(ring(0.5));
    expect(c.capped).toBe(2);
    expect(openEdges(c)).toBe(0);
    expect(Math.abs(meshVolume(c))).toBeGreaterThan(1);
  });
});
