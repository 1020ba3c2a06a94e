import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildPhysics,
  hullBudget,
  OPENING_COST_LIMIT,
  OPENING_COST_MIN_RISE,
} from '../../src/physics/build-physics.js';
import { buildPhysicsMesh } from '../../src/physics/physics-mesh.js';
import { primUpAxis } from '../../src/geometry/placement.js';
import { convexHull } from '../../src/physics/convex-hull.js';
import { decompose, DECOMPOSE_DEFAULTS } from '../../src/physics/decompose.js';
import {
  convexHullPhysicsCost,
  decompositionPhysicsCost,
  triangleMeshPhysicsCost,
} from '../../src/cost/physics-cost.js';
import { computeUploadNormalization, denormalizePoints, encodeMeshAsset } from '../../src/asset/mesh-asset.js';
import { decodeMeshAsset } from '../../src/asset/mesh-asset-decode.js';
import type { SlObject } from '../../src/types.js';
import { conformObject, writtenHull } from '../../src/lod/lod-conform.js';
import { lodTriangles } from '../../src/geometry/object-geometry.js';
import {
  box,
  boxes,
  closedRoom,
  hullPlanes,
  insideHull,
  room,
  sphere,
  standingTorus,
  table as tableMesh,
  torus,
  type TestMesh,
} from './physics-fixtures.js';

/** A closed blob with dents and bumps (Suzanne-like: concave, no hole): a sphere with radial waves. */
function blob(seg: number, amp: number, k: number): TestMesh {
  const m = sphere(1, seg, Math.max(4, seg >> 1));
  const p = m.positions.slice();
  for (let i = 0; i < p.length; i += 3) {
    const [x, y, z] = [p[i], p[i + 1], p[i + 2]];
    const f = 1 + amp * Math.sin(k * Math.atan2(y, x)) * Math.cos(k * Math.asin(Math.max(-1, Math.min(1, z))));
    p[i] = x * f;
    p[i + 1] = y * f;
    p[i + 2] = z * f;
  }
  return { positions: p, indices: m.indices };
}

function objectOf(m: TestMesh, name = 'Thing'): SlObject {
  return {
    name,
    lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(m.positions), indices: m.indices }] } },
  };
}
const FAST = { decompose: { maxCells: 100_000 } };

/** An object whose every LOD is a solid block over `m`'s box (a high, or a coarse LOD, that lost m's openings). */
function blockOver(m: TestMesh): SlObject {
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < m.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], m.positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], m.positions[i]);
  }
  return objectOf(boxes([[lo, hi]]));
}

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
    expect(r.decomposition!.hulls).toBeLessThanOrEqual(
      buildPhysics(objectOf(m), { mode: 'decompose', ...FAST }).decomposition!.hulls,
    );
    for (const h of r.object.decomposition!)
      for (let i = 0; i < h.length; i += 3) expect(Math.abs(h[i])).toBeLessThanOrEqual(2.0001);
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

  it('auto: a standing ring with an avatar-sized hole keeps it open (decomposition or mesh); a sphere costs no more than its hull', () => {
    const t = buildPhysics(objectOf(standingTorus(1.35, 0.25, 48, 16)), { mode: 'auto', ...FAST });
    expect(t.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    expect(['decomposition', 'mesh']).toContain(t.choice!.shape);
    expect(t.object.physicsChoice).toEqual(t.choice);
    const s = buildPhysics(objectOf(sphere(1, 24, 12)), { mode: 'auto', ...FAST });
    const hull = s.choice!.candidates.find((c) => c.shape === 'hull')!;
    expect(hull.keepsOpenings).toBe(true);
    expect(Math.max(s.weight, 0.5)).toBeLessThanOrEqual(hull.landImpact + 1e-12);
  });

  it('auto prices the triangle mesh without its slivers: snapped to the grid the costly-mesh warning names', () => {
    // A standing ring (its hull closes an avatar-sized hole) with three needle triangles on top.
    const ring = standingTorus(1.35, 0.25, 48, 16);
    const pos = Array.from(ring.positions);
    const idx = Array.from(ring.indices);
    const top = Math.max(...pos.filter((_, i) => i % 3 === 2));
    for (let i = 0; i < 3; i++) {
      const b = pos.length / 3,
        x = -0.3 + 0.3 * i;
      pos.push(x, 0, top, x + 0.2, 0, top, x + 0.1, 1e-4, top);
      idx.push(b, b + 1, b + 2);
    }
    const thing = objectOf({ positions: Float32Array.from(pos), indices: Uint32Array.from(idx) });
    const plain = buildPhysicsMesh(thing);
    expect(plain.snapWouldHelp).toBeDefined();
    expect(plain.snapWouldHelp!.weight).toBeLessThan(0.5 * plain.cost.cost);
    const forced = buildPhysics(thing, { mode: 'mesh', ...FAST });
    expect(forced.weight).toBeCloseTo(plain.cost.cost, 6); // --physics mesh: the mesh as it is
    const auto = buildPhysics(thing, { mode: 'auto', ...FAST });
    expect(auto.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    const mesh = auto.choice!.candidates.find((c) => c.shape === 'mesh')!;
    expect(mesh.weight).toBeCloseTo(plain.snapWouldHelp!.weight, 6);
    expect(mesh.keepsOpenings).toBe(true);
  });

  it('auto: a small object (convexified) whose hull sets land impact gets that hull with fewer vertices as its physics mesh', () => {
    // A 5 cm bead: the hull of a 24 x 12 sphere weighs 0.04 * 266 = 10.6 against a download weight of 0.6.
    const o = objectOf(sphere(0.025, 24, 12));
    const r = buildPhysics(o, { mode: 'auto', downloadWeight: 0.6, ...FAST });
    const hull = r.choice!.candidates.find((c) => c.shape === 'hull')!;
    expect(r.choice!.shape).toBe('mesh');
    expect(r.mesh!.convexified).toBe(true);
    expect(r.mesh!.reduced!.error).toBeLessThanOrEqual(0.1 * 0.05 + 1e-9);
    expect(r.weight).toBeLessThan(hull.weight);
    // What the server charges: the single hull of the `_PHYS` mesh, which is that mesh itself.
    const phys = r.object.physicsMesh!.faces[0];
    expect(convexHull(phys.positions).points.length).toBe(phys.positions.length);
    expect(r.weight).toBeCloseTo(convexHullPhysicsCost(phys.positions.length / 3), 12);
    const sorted = (p: ArrayLike<number>) =>
      Array.from({ length: p.length / 3 }, (_, i) => `${p[3 * i]},${p[3 * i + 1]},${p[3 * i + 2]}`).sort();
    expect(sorted(r.object.hull!)).toEqual(sorted(phys.positions));
    expect(r.diagnostics.map((d) => d.code)).toContain('physics-mesh-reduced');
    // When download weight sets land impact anyway, nothing is reduced: the plain hull, no `_PHYS`.
    const heavy = buildPhysics(o, { mode: 'auto', downloadWeight: 50, ...FAST });
    expect(heavy.choice!.shape).toBe('hull');
    expect(heavy.object.physicsMesh).toBeUndefined();
    // ... unless it is a part of a linkset whose summed physics would pass its summed download or
    // server weight (fitAllowance): the hull is reduced to what the rest of the linkset leaves.
    const part = buildPhysics(o, { mode: 'auto', downloadWeight: 50, fitAllowance: 1, ...FAST });
    expect(part.choice!.shape).toBe('mesh');
    expect(part.mesh!.reduced!.error).toBeLessThanOrEqual(0.1 * 0.05 + 1e-9);
    expect(part.weight).toBeLessThan(hull.weight);
    // Reduced past the reduction that was enough alone (the object's own floor, 0.6): as far as
    // the allowed error goes, the allowance being below any hull within it.
    expect(part.weight).toBeLessThanOrEqual(r.weight);
    // A life-size object is not convexified: its mesh is never reduced this way.
    const big = buildPhysics(o, { mode: 'auto', downloadWeight: 0.6, scale: [40, 40, 40], ...FAST });
    expect(big.mesh?.reduced).toBeUndefined();
  });

  it('auto: a decomposition is held to the hulls that could still weigh less than the best other shape', () => {
    // Each hull weighs at least 0.04 + 3 * 0.04: under 1 of that, no decomposition is tried.
    expect(hullBudget(0.16)).toBe(0);
    expect(hullBudget(0.17)).toBe(1);
    expect(hullBudget(10)).toBe(62);
    expect(hullBudget(Infinity)).toBe(Infinity);
    // A bumpy 3 m blob whose hull sets land impact: the decomposition is built within the budget,
    // and when another shape wins, nothing of the decomposition is reported.
    const r = buildPhysics(objectOf(blob(24, 0.3, 4)), {
      mode: 'auto',
      scale: [3, 3, 3],
      downloadWeight: 0.6,
      ...FAST,
    });
    const others = r.choice!.candidates.filter((c) => c.shape !== 'decomposition' && c.keepsOpenings);
    const best = Math.min(...others.filter((c) => c.shape !== 'box').map((c) => c.weight));
    expect(r.decomposition).toBeDefined();
    expect(r.decomposition!.hulls).toBeLessThanOrEqual(hullBudget(best));
    expect(r.decomposition!.limited).toBe(true);
    const decomposition = r.choice!.candidates.find((c) => c.shape === 'decomposition')!;
    if (r.choice!.shape !== 'decomposition') {
      expect(decomposition.weight).toBeGreaterThanOrEqual(r.weight);
      expect(r.diagnostics.filter((d) => d.code.startsWith('physics-decomposition'))).toEqual([]);
    }
    // Forced, the decomposition is not held to a budget.
    const forced = buildPhysics(objectOf(blob(24, 0.3, 4)), { mode: 'decompose', scale: [3, 3, 3], ...FAST });
    expect(forced.decomposition!.limited).toBe(false);
  });

  it('property: auto never gives a closed blob more land impact than its hull unless the hull closes an opening', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.integer({ min: 2, max: 4 }),
        fc.double({ min: 0, max: 12, noNaN: true }),
        (size, amp, k, download) => {
          const r = buildPhysics(objectOf(blob(16, amp, k)), {
            mode: 'auto',
            scale: [size, size, size],
            downloadWeight: download,
            ...FAST,
          });
          const hull = r.choice!.candidates.find((c) => c.shape === 'hull')!;
          const chosen = r.choice!.candidates.find((c) => c.shape === r.choice!.shape)!;
          if (hull.keepsOpenings) expect(chosen.landImpact).toBeLessThanOrEqual(hull.landImpact + 1e-12);
          expect(chosen.landImpact).toBeCloseTo(Math.max(download, r.weight, 0.5), 9);
          expect(r.choice!.reason.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 3 },
    );
  });

  it('auto: a life-size table keeps its hull (nobody walks under it); the room works in a Y-up prim frame too', () => {
    const table = tableMesh();
    const t = buildPhysics(objectOf(table), { mode: 'auto', ...FAST });
    expect(t.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(true);
    expect(t.choice!.reason).not.toMatch(/would close/);
    // The room's vertices in a glTF node's frame (Y-up): the placement turns y into world up.
    const m = room();
    const p = Float32Array.from(m.positions);
    for (let i = 0; i < p.length; i += 3) [p[i + 1], p[i + 2]] = [p[i + 2], -p[i + 1]];
    const o: SlObject = {
      ...objectOf({ positions: p, indices: m.indices }),
      placement: { rotation: [1, 0, 0, 0, 0, -1, 0, 1, 0], translation: [0, 0, 0] },
    };
    expect(primUpAxis(o)).toBe(1);
    expect(primUpAxis(objectOf(m))).toBe(2);
    const r = buildPhysics(o, { mode: 'auto', ...FAST });
    expect(r.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
  });

  it("auto: an opening kept only at over OPENING_COST_LIMIT times the hull's land impact is not kept, and a warning says what keeping it would cost", () => {
    // The room, each triangle split into 256 (a costly triangle mesh); one hull at most (the
    // decomposition cannot keep the doorway); no simplifier (no lighter opening-keeping mesh).
    let m: TestMesh = room();
    for (let level = 0; level < 4; level++) {
      const p = Array.from(m.positions);
      const idx: number[] = [];
      const mid = (a: number, b: number) => {
        p.push((p[3 * a] + p[3 * b]) / 2, (p[3 * a + 1] + p[3 * b + 1]) / 2, (p[3 * a + 2] + p[3 * b + 2]) / 2);
        return p.length / 3 - 1;
      };
      for (let t = 0; t < m.indices.length; t += 3) {
        const [a, b, c] = [m.indices[t], m.indices[t + 1], m.indices[t + 2]];
        const [ab, bc, ca] = [mid(a, b), mid(b, c), mid(c, a)];
        idx.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
      }
      m = { positions: Float32Array.from(p), indices: Uint32Array.from(idx) };
    }
    const r = buildPhysics(objectOf(m), { mode: 'auto', maxHulls: 1, ...FAST });
    const hull = r.choice!.candidates.find((c) => c.shape === 'hull')!;
    const mesh = r.choice!.candidates.find((c) => c.shape === 'mesh')!;
    expect(hull.keepsOpenings).toBe(false);
    expect(mesh.keepsOpenings).toBe(true);
    expect(mesh.landImpact).toBeGreaterThan(OPENING_COST_LIMIT * hull.landImpact);
    expect(r.choice!.shape).not.toBe('mesh');
    expect(r.choice!.reason).toMatch(/would close .*not kept/);
    expect(r.diagnostics.some((d) => d.code === 'physics-opening-closed' && d.severity === 'warning')).toBe(true);
    expect(mesh.landImpact).toBeGreaterThan(hull.landImpact + OPENING_COST_MIN_RISE);
    // The room as authored: its decomposition keeps the doorway at 5 times the hull's 0.5 (2.5),
    // well under the limits: kept.
    const plain = buildPhysics(objectOf(room()), { mode: 'auto', ...FAST });
    expect(['decomposition', 'mesh']).toContain(plain.choice!.shape);
    expect(plain.diagnostics.some((d) => d.code === 'physics-opening-closed')).toBe(false);
  });

  it('auto: a room with a 1 m doorway keeps the doorway open', () => {
    const m = room();
    const r = buildPhysics(objectOf(m), { mode: 'auto', ...FAST });
    expect(r.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    expect(['decomposition', 'mesh']).toContain(r.choice!.shape);
    expect(r.choice!.reason).toMatch(/single hull would close/);
    if (r.object.decomposition)
      for (const p of m.doorway)
        expect(r.object.decomposition.some((h) => insideHull(hullPlanes(h), p[0], p[1], p[2]))).toBe(false);
    else expect(r.object.physicsMesh).toBeDefined();
    // Download weight far above every shape: the closest fit that keeps the doorway, never the hull.
    const heavy = buildPhysics(objectOf(m), { mode: 'auto', downloadWeight: 500, ...FAST });
    expect(['decomposition', 'mesh']).toContain(heavy.choice!.shape);
  });

  it('auto: walls under a roof that is another object of the linkset get their hull (the room is reached by no one); alone or with a doorway they keep it open', () => {
    // The room without its doorway (the lintel's wall made whole), and a roof as another object.
    const walls = closedRoom();
    const roof = box([-2.2, -1.7, 2.5], [2.2, 1.7, 2.7]);
    const surroundings = { positions: Float32Array.from(roof.positions), indices: roof.indices };
    const alone = buildPhysics(objectOf(walls), { mode: 'auto', ...FAST });
    expect(alone.choice!.shape).not.toBe('hull');
    expect(alone.choice!.reason).toMatch(/single hull would close/);
    const roofed = buildPhysics(objectOf(walls), { mode: 'auto', surroundings, ...FAST });
    expect(roofed.choice!.shape).toBe('hull');
    expect(roofed.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(true);
    const chosenLi = (r: typeof alone) => r.choice!.candidates.find((c) => c.shape === r.choice!.shape)!.landImpact;
    expect(chosenLi(roofed)).toBeLessThan(chosenLi(alone));
    // With a doorway the room is reached through it, roof or not.
    const door = buildPhysics(objectOf(room()), { mode: 'auto', surroundings, ...FAST });
    expect(door.choice!.shape).not.toBe('hull');
    // Scaled with the object: at a fifth of the size (no room an avatar fits) nothing is kept open.
    const small = buildPhysics(objectOf(walls), { mode: 'auto', surroundings, scale: [0.2, 0.2, 0.2], ...FAST });
    expect(small.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(true);
  });

  it('auto judges and decomposes the given surface, not the high (optimize: the authored surface under a planned high)', () => {
    const m = room();
    // A high that lost the doorway (a solid block over the room's box) judged on its own: the hull keeps everything.
    const block = blockOver(m);
    const alone = buildPhysics(block, { mode: 'auto', ...FAST });
    expect(alone.object.decomposition).toBeUndefined();
    expect(alone.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(true);
    // With the room as its surface, the doorway is found and kept.
    const surface = objectOf(m).lods.high;
    const r = buildPhysics(block, { mode: 'auto', surface, ...FAST });
    expect(r.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    expect(r.choice!.reason).toMatch(/single hull would close/);
    // The decomposition is fitted to the surface: the doorway stays clear.
    const d = buildPhysics(block, { mode: 'decompose', surface, ...FAST });
    expect(d.object.decomposition!.length).toBeGreaterThan(1);
    for (const p of m.doorway)
      expect(d.object.decomposition!.some((h) => insideHull(hullPlanes(h), p[0], p[1], p[2]))).toBe(false);
    // An authored physics model still comes first.
    const authored = buildPhysics({ ...block, physicsMesh: block.lods.high }, { mode: 'decompose', surface, ...FAST });
    expect(authored.object.decomposition!.length).toBe(1);
  });

  it('auto: the mesh of a LOD that closed the opening is not said to keep it (a coarse low LOD over a doorway)', () => {
    // The surface is a room with a doorway; the LODs are a solid block over its box (as a gate's
    // 10-triangle low LOD lost its passage). Every shape ties at a heavy download weight, and ties
    // go to the closest fit: the block's mesh came first, "the cheapest shape that keeps it open".
    const m = room();
    const block = blockOver(m);
    const surface = objectOf(m).lods.high;
    const r = buildPhysics(block, { mode: 'auto', surface, downloadWeight: 50, ...FAST });
    expect(r.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    expect(r.choice!.candidates.find((c) => c.shape === 'mesh')!.keepsOpenings).toBe(false);
    expect(r.choice!.shape).toBe('decomposition');
    for (const p of m.doorway)
      expect(r.object.decomposition!.some((h) => insideHull(hullPlanes(h), p[0], p[1], p[2]))).toBe(false);
    // The room's own mesh keeps its doorway, and is taken (the closest fit at that weight).
    const own = buildPhysics(objectOf(m), { mode: 'auto', downloadWeight: 50, ...FAST });
    expect(own.choice!.candidates.find((c) => c.shape === 'mesh')!.keepsOpenings).toBe(true);
    expect(own.choice!.shape).toBe('mesh');
  });

  it('a thin open sheet stays thin', () => {
    const sheet = {
      positions: Float64Array.from([0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0]),
      indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
    };
    const r = buildPhysics(objectOf(sheet), { mode: 'decompose', ...FAST });
    for (const h of r.object.decomposition!)
      for (let i = 2; i < h.length; i += 3) expect(Math.abs(h[i])).toBeLessThanOrEqual(0.01);
  });

  it('a room of single-sided walls stays walls: not filled, a few thin hulls', () => {
    const pos: number[] = [],
      idx: number[] = [];
    const quad = (...q: number[][]) => {
      const o = pos.length / 3;
      pos.push(...q.flat());
      idx.push(o, o + 1, o + 2, o, o + 2, o + 3);
    };
    quad([-2, -1.5, 0], [2, -1.5, 0], [2, 1.5, 0], [-2, 1.5, 0]);
    quad([-2, 1.5, 0], [2, 1.5, 0], [2, 1.5, 2.5], [-2, 1.5, 2.5]);
    quad([-2, -1.5, 0], [-2, 1.5, 0], [-2, 1.5, 2.5], [-2, -1.5, 2.5]);
    quad([2, -1.5, 0], [2, 1.5, 0], [2, 1.5, 2.5], [2, -1.5, 2.5]);
    quad([-2, -1.5, 0], [-0.5, -1.5, 0], [-0.5, -1.5, 2.5], [-2, -1.5, 2.5]);
    quad([0.5, -1.5, 0], [2, -1.5, 0], [2, -1.5, 2.5], [0.5, -1.5, 2.5]);
    quad([-0.5, -1.5, 2.1], [0.5, -1.5, 2.1], [0.5, -1.5, 2.5], [-0.5, -1.5, 2.5]);
    // At the default voxel budget (the sheets are judged at 1.25 cm cells).
    const r = buildPhysics(objectOf({ positions: Float64Array.from(pos), indices: Uint32Array.from(idx) }), {
      mode: 'decompose',
    });
    const d = r.object.decomposition!;
    expect(d.length).toBeLessThan(64);
    for (const p of [
      [0, 0, 1.2],
      [0, -1.4, 1],
      [1, 1, 0.5],
    ])
      expect(d.some((h) => insideHull(hullPlanes(h), p[0], p[1], p[2]))).toBe(false);
  });

  it('the price is the price of re-reading the written asset (decomposition and mesh)', () => {
    for (const mode of ['decompose', 'mesh'] as const) {
      const r = buildPhysics(objectOf(torus(1, 0.25, 32, 12)), { mode, ...FAST });
      // As optimize writes it: conformed to high's box.
      const o = conformObject(r.object, writtenHull);
      const bytes = encodeMeshAsset(
        { lods: o.lods, hull: o.hull, decomposition: o.decomposition, physicsMesh: o.physicsMesh },
        { deflate: (d, level) => new Uint8Array(deflateSync(d, { level })) },
      ).bytes;
      const back = decodeMeshAsset(bytes, { inflate: (d) => new Uint8Array(inflateSync(d)) });
      if (mode === 'decompose') {
        const hulls = back.physicsConvex!.hulls!;
        expect(decompositionPhysicsCost(hulls.map((h) => h.length / 3)).cost).toBeCloseTo(r.weight, 12);
      } else {
        const n = computeUploadNormalization(o.lods.high);
        const pos: number[] = [],
          idx: number[] = [];
        for (const face of back.physicsMesh!) {
          if (!face.positions || !face.indices) continue;
          const base = pos.length / 3;
          pos.push(...denormalizePoints(face.positions, n));
          idx.push(...Array.from(face.indices, (i) => i + base));
        }
        // Quantised to 16 bits: the triangle widths (and the weight) agree to a small fraction.
        expect(triangleMeshPhysicsCost(Float32Array.from(pos), Uint32Array.from(idx)).cost).toBeCloseTo(r.weight, 2);
      }
    }
  });

  it('a mesh is priced as optimize writes it: conformed to high box (a vertex moved onto a side can make a sliver)', () => {
    // High: a cube. The low LOD misses its +x side; its vertex nearest that side, moved onto it,
    // lies almost on the line through the other two of its triangle.
    const hi = box();
    const lo = box([0, 0, 0], [0.97, 1, 1]);
    const n = lo.positions.length / 3;
    const o: SlObject = {
      name: 'Thing',
      lods: {
        high: { faces: [{ material: 'm', positions: Float32Array.from(hi.positions), indices: hi.indices }] },
        low: {
          faces: [
            {
              material: 'm',
              positions: Float32Array.from([...lo.positions, 0.9, 0.4, 0.5, 0.98, 0.5, 0.5, 0.95, 0.4505, 0.5]),
              indices: Uint32Array.from([...lo.indices, n, n + 1, n + 2]),
            },
          ],
        },
      },
    };
    const f: [number, number, number] = [4, 4, 4];
    const r = buildPhysics(o, { mode: 'mesh', scale: f, ...FAST });
    const written = conformObject(r.object).physicsMesh!;
    const t = lodTriangles(written);
    const price = triangleMeshPhysicsCost(
      t.positions.map((v, i) => v * f[i % 3]),
      t.indices,
    ).cost;
    const asBuilt = triangleMeshPhysicsCost(
      lodTriangles(o.lods.low!).positions.map((v) => v * 4),
      lodTriangles(o.lods.low!).indices,
    ).cost;
    expect(price).toBeGreaterThan(3 * asBuilt);
    expect(r.weight).toBeCloseTo(price, 9);
  });

  it('auto: fitAllowance holds a closer fit than the lightest tied shape to that weight (a part of a linkset)', () => {
    // Download weight sets the land impact: the cheap shapes tie on it, and the closest fit wins
    // (the triangle mesh, far heavier than the hull; the flat ring's box does not fit).
    const o = objectOf(torus(1, 0.25, 32, 12));
    const free = buildPhysics(o, { mode: 'auto', downloadWeight: 500, ...FAST });
    const hull = free.choice!.candidates.find((c) => c.shape === 'hull')!;
    expect(free.choice!.shape).toBe('mesh');
    expect(free.weight).toBeGreaterThan(10 * hull.weight);
    for (const fitAllowance of [hull.weight, 0]) {
      const held = buildPhysics(o, { mode: 'auto', downloadWeight: 500, fitAllowance, ...FAST });
      expect(held.choice!.shape).toBe('hull');
      expect(held.weight).toBeCloseTo(hull.weight, 12);
      expect(held.choice!.reason).toContain("linkset's physics weight");
    }
    // An allowance that covers the mesh changes nothing.
    const ample = buildPhysics(o, { mode: 'auto', downloadWeight: 500, fitAllowance: free.weight, ...FAST });
    expect(ample.choice!.shape).toBe('mesh');
    // Any allowance under 0 reads as 0 (optimize gives a copy built with one to a copy with another).
    const at = (fitAllowance: number) => buildPhysics(o, { mode: 'auto', downloadWeight: 500, fitAllowance, ...FAST });
    const [zero, under] = [at(0), at(-7.5)];
    expect(under.choice).toEqual(zero.choice);
    expect(under.object.hull).toEqual(zero.object.hull);
    expect(under.object.physicsMesh).toEqual(zero.object.physicsMesh);
    // A small object (its mesh charged as its reduced hull): the reduction's target too.
    const t = torus(1, 0.25, 32, 12);
    const small = objectOf({ positions: t.positions.map((v) => v * 0.2), indices: t.indices });
    const s = (fitAllowance: number) => buildPhysics(small, { mode: 'auto', downloadWeight: 5, fitAllowance, ...FAST });
    expect(s(-3).object).toEqual(s(0).object);
  });

  it('the single hull is priced as written: of the low LOD conformed to high box', () => {
    // A low LOD inside high's box: the writer moves its vertices nearest the sides onto them,
    // and the uploader takes the single hull from that low LOD.
    const o: SlObject = {
      ...objectOf(sphere(1, 48, 24)),
      lods: {
        high: objectOf(sphere(1, 48, 24)).lods.high,
        low: objectOf(sphere(0.9, 10, 3)).lods.high,
      },
    };
    const r = buildPhysics(o, { mode: 'hull' });
    const written = conformObject(r.object, writtenHull);
    expect(r.weight).toBeCloseTo(convexHullPhysicsCost(written.hull!.length / 3), 12);
    expect(written.hull!.length).toBe(r.object.hull!.length);
  });

  it('the hull as the shape is priced from low even when the object came with a physics model (none is written with it)', () => {
    // A ball with its own low LOD and an authored physics box: the box's hull has 8 vertices, but
    // choosing the hull drops the `_PHYS` model, and the uploader then takes the hull from low.
    const ball = objectOf(sphere(1, 48, 24));
    const o: SlObject = {
      ...ball,
      lods: { high: ball.lods.high, low: objectOf(sphere(1, 10, 5)).lods.high },
      physicsMesh: objectOf(box([-1, -1, -1], [1, 1, 1])).lods.high,
    };
    // The writer's hull (conformObject): of the conformed low, when there is no physics model.
    const lowHull = convexHullPhysicsCost(
      conformObject({ ...o, physicsMesh: undefined, hull: new Float32Array(9) }).hull!.length / 3,
    );
    const asked = buildPhysics(o, { mode: 'hull' });
    expect(asked.object.physicsMesh).toBeUndefined();
    expect(asked.weight).toBeCloseTo(lowHull, 12);
    expect(asked.hull.source).toBe('low');
    // What the writer prices: the conformed object's hull, from low.
    expect(convexHullPhysicsCost(conformObject(asked.object).hull!.length / 3)).toBeCloseTo(asked.weight, 12);
    const auto = buildPhysics(o, { mode: 'auto', downloadWeight: 0.1, ...FAST });
    const hull = auto.choice!.candidates.find((c) => c.shape === 'hull')!;
    expect(hull.weight).toBeCloseTo(lowHull, 12);
    expect(lowHull).toBeGreaterThan(convexHullPhysicsCost(8));
  });

  it('a ~300k-triangle mesh decomposes on a proxy into a bounded number of hulls', () => {
    const m = blob(550, 0.1, 3);
    expect(m.indices.length / 3).toBeGreaterThan(290_000);
    // The decomposition itself (buildPhysics adds the single hull and the price, not bounded by the proxy).
    const r = decompose(m.positions, m.indices, FAST.decompose);
    expect(r.hulls.length).toBeGreaterThan(0);
    expect(r.hulls.length).toBeLessThanOrEqual(256);
    expect(r.proxyTriangles).toBeLessThanOrEqual(1.5 * DECOMPOSE_DEFAULTS.maxTriangles);
  });

  it('reports progress and honours an abort signal', () => {
    const seen: number[] = [];
    buildPhysics(
      objectOf(
        boxes([
          [
            [0, 0, 0],
            [2, 1, 1],
          ],
          [
            [0, 0, 0],
            [1, 2, 1],
          ],
        ]),
      ),
      { mode: 'decompose', ...FAST, onProgress: (f) => seen.push(f) },
    );
    expect(seen[seen.length - 1]).toBe(1);
    const ac = new AbortController();
    ac.abort();
    expect(() => buildPhysics(objectOf(torus()), { mode: 'decompose', ...FAST, signal: ac.signal })).toThrow();
    expect(() => buildPhysics(objectOf(torus()), { mode: 'hull', scale: [0, 1, 1] })).toThrow(RangeError);
  });
});

describe('buildPhysics auto: a decomposition merged back where no opening needs it', () => {
  it('a decomposition stopped short of its fit that still spans the opening is not said to keep it', () => {
    // One part only: the decomposition is the room's hull, doorway closed.
    const r = buildPhysics(objectOf(room()), { mode: 'auto', decompose: { maxParts: 1, maxCells: 100_000 } });
    const d = r.choice!.candidates.find((c) => c.shape === 'decomposition');
    expect(d?.keepsOpenings).toBe(false);
    expect(r.choice!.shape).not.toBe('decomposition');
  });

  it('a big standing ring keeps its hole open with fewer, lighter hulls than the plain decomposition', () => {
    const ring = objectOf(standingTorus(2.5, 0.4, 48, 16));
    const plain = buildPhysics(ring, { mode: 'decompose', ...FAST });
    const auto = buildPhysics(ring, { mode: 'auto', ...FAST });
    expect(auto.choice!.shape).toBe('decomposition');
    expect(auto.weight).toBeLessThan(plain.weight);
    expect(auto.object.decomposition!.length).toBeLessThanOrEqual(plain.object.decomposition!.length);
    expect(auto.diagnostics.some((d) => d.code === 'physics-merged-for-openings')).toBe(true);
    // The hole (radius 2.1 m around the ring's axis, y) stays clear of every hull near its middle.
    for (const p of [
      [0, 0, 0],
      [1, 0, 0],
      [0, 0, -1],
      [-0.9, 0, 0.9],
    ])
      expect(auto.object.decomposition!.some((h) => insideHull(hullPlanes(h), p[0], p[1], p[2]))).toBe(false);
  });
});
