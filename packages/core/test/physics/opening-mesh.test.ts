import { describe, expect, it } from 'vitest';
import { buildPhysics } from '../../src/physics/build-physics.js';
import { avatarOpenings } from '../../src/physics/avatar-openings.js';
import { convexHull } from '../../src/physics/convex-hull.js';
import { keepsOpening, openingKeepingMesh } from '../../src/physics/opening-mesh.js';
import type { SimplifyFn } from '../../src/physics/physics-mesh.js';
import { triangleMeshPhysicsCost } from '../../src/cost/physics-cost.js';
import { pointTriangleDistanceSquared } from '../../src/lod/hausdorff.js';
import type { SlObject } from '../../src/types.js';
import { MeshoptSimplifier } from '../lod/lod-fixtures.js';
import { coolingTower, room, shellHouse, standingTorus, type TestMesh } from './physics-fixtures.js';

await MeshoptSimplifier.ready;
/** meshoptimizer's simplify as core's SimplifyFn (unbounded error: the target count decides), as gltf-plugin injects it. */
const simplify: SimplifyFn = (positions, indices, target) =>
  MeshoptSimplifier.simplify(indices, positions, 3, target, 1, [])[0];

/** Distance from a point to a triangle list, by brute force over every triangle (no BVH). */
function distanceToMesh(positions: Float32Array, indices: Uint32Array, x: number, y: number, z: number): number {
  const t = new Float64Array(9);
  let best = Infinity;
  for (let i = 0; i < indices.length; i += 3) {
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) t[3 * c + k] = positions[3 * indices[i + c] + k];
    best = Math.min(best, pointTriangleDistanceSquared(t, 0, x, y, z));
  }
  return Math.sqrt(best);
}

const MARGIN = 0.125;

function openingOf(m: TestMesh) {
  const positions = Float32Array.from(m.positions);
  const hull = convexHull(positions).points;
  const [opening] = avatarOpenings(positions, m.indices, [hull], { up: 2 });
  return { positions, hull, opening };
}

describe('openingKeepingMesh', () => {
  const ring = standingTorus(1.35, 0.25, 48, 16);
  const { positions, hull, opening } = openingOf(ring);
  const full = triangleMeshPhysicsCost(positions, ring.indices).cost;
  const base = { simplify, opening, hull, openingOptions: { up: 2 as const }, margin: MARGIN, maxWeight: full };

  it('simplifies a ring far below its weight and keeps its hole: the avatar still passes, most of the hole stays clear', () => {
    expect(opening.closes).toBe(true);
    expect(opening.kind).toBe('passage');
    const m = openingKeepingMesh(positions, ring.indices, { ...base, floorWeight: 0.5 })!;
    expect(m).toBeDefined();
    expect(m.triangles).toBeLessThan(ring.indices.length / 3 / 4);
    expect(m.weight).toBeCloseTo(triangleMeshPhysicsCost(m.positions, m.indices).cost, 9);
    expect(m.weight).toBeLessThan(full / 4);
    // Every index in range, no zero-area triangle (the uploader refuses those).
    expect(Math.max(...m.indices)).toBeLessThan(m.positions.length / 3);
    expect(triangleMeshPhysicsCost(m.positions, m.indices).degenerate).toBe(0);
    // Independently: the avatar test on the result still finds a passage the hull closes ...
    const [again] = avatarOpenings(m.positions, m.indices, [hull], { up: 2 });
    expect(again.closes).toBe(true);
    expect(again.kind).toBe('passage');
    // ... and at least 80 % of the original's axis points stay the margin clear (brute-force distance).
    const pts = opening.points!;
    let clear = 0;
    for (let i = 0; i < pts.length; i += 3)
      if (distanceToMesh(m.positions, m.indices, pts[i], pts[i + 1], pts[i + 2]) >= MARGIN) clear++;
    expect(clear).toBeGreaterThanOrEqual(0.8 * (pts.length / 3));
  });

  it('at the floor, the closest fit wins: the least simplified mesh whose weight is already at most the floor', () => {
    const light = openingKeepingMesh(positions, ring.indices, { ...base, floorWeight: 0.5 })!;
    const atFloor = openingKeepingMesh(positions, ring.indices, { ...base, floorWeight: full / 2 })!;
    expect(atFloor.weight).toBeLessThanOrEqual(full / 2);
    expect(atFloor.triangles).toBeGreaterThan(light.triangles);
  });

  it('alternatives compete: the same ring at another tessellation can only make the result lighter, and alone it is chosen', () => {
    const coarse = standingTorus(1.35, 0.25, 20, 8);
    const alt = { positions: Float32Array.from(coarse.positions), indices: coarse.indices };
    const own = openingKeepingMesh(positions, ring.indices, { ...base, floorWeight: 0.5 })!;
    const fromAlt = openingKeepingMesh(alt.positions, alt.indices, { ...base, floorWeight: 0.5 })!;
    const both = openingKeepingMesh(positions, ring.indices, { ...base, floorWeight: 0.5, alternatives: [alt] })!;
    expect(both.weight).toBeLessThanOrEqual(Math.min(own.weight, fromAlt.weight) * (1 + 1e-12));
    expect([own.weight, fromAlt.weight]).toContain(both.weight);
    const [again] = avatarOpenings(both.positions, both.indices, [hull], { up: 2 });
    expect(again.closes).toBe(true);
  });

  it('returns nothing when no opening is closed or nothing is lighter than the mesh it would replace', () => {
    expect(openingKeepingMesh(positions, ring.indices, { ...base, opening: { closes: false }, floorWeight: 0.5 })).toBe(
      undefined,
    );
    expect(openingKeepingMesh(positions, ring.indices, { ...base, maxWeight: 0.1, floorWeight: 0.5 })).toBe(undefined);
  });

  it('a simplification that walls the space off or moves it elsewhere is refused', () => {
    // A simplifier that keeps only the first few triangles: a fragment of the ring, no passage left.
    // (The ring snapped to a few centimetres' grid, which does not depend on the simplifier, may still win.)
    const crude: SimplifyFn = (_p, indices) => indices.slice(0, 12);
    const m = openingKeepingMesh(positions, ring.indices, { ...base, simplify: crude, floorWeight: 0.5 });
    if (m) {
      expect(m.triangles).toBeGreaterThan(4);
      const [again] = avatarOpenings(m.positions, m.indices, [hull], { up: 2 });
      expect(again.closes).toBe(true);
    }
  });
});

describe('buildPhysics auto with an injected simplifier: a lighter triangle mesh that keeps the opening', () => {
  function objectOf(m: TestMesh): SlObject {
    return {
      name: 'Ring',
      lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(m.positions), indices: m.indices }] } },
    };
  }

  it('a dense standing ring: its mesh candidate becomes far lighter, and auto takes the least land impact that keeps the hole', () => {
    const o = objectOf(standingTorus(1.35, 0.25, 64, 24));
    const options = { mode: 'auto' as const, downloadWeight: 2, decompose: { maxCells: 100_000 } };
    const plain = buildPhysics(o, options);
    const r = buildPhysics(o, { ...options, decompose: { ...options.decompose, simplify } });
    const mesh = (x: typeof r) => x.choice!.candidates.find((c) => c.shape === 'mesh')!;
    expect(r.choice!.candidates.find((c) => c.shape === 'hull')!.keepsOpenings).toBe(false);
    expect(mesh(r).keepsOpenings).toBe(true);
    expect(mesh(r).weight).toBeLessThan(mesh(plain).weight / 10);
    expect(r.mesh!.simplified).toMatchObject({ from: 64 * 24 * 2, weightBefore: mesh(plain).weight });
    expect(r.mesh!.simplified!.made).toMatch(/simplified|re-triangulated/);
    const keepers = r.choice!.candidates.filter((c) => c.keepsOpenings);
    expect(r.weight).toBeLessThanOrEqual(Math.min(...keepers.map((c) => c.weight)) + 1e-12);
  });

  it('when the mesh wins, the writer gets the simplified mesh itself, priced as reported, its hole open', () => {
    // One part only: the decomposition is the ring's hull and closes the hole, so the mesh wins.
    const o = objectOf(standingTorus(1.35, 0.25, 64, 24));
    const r = buildPhysics(o, {
      mode: 'auto',
      downloadWeight: 2,
      decompose: { maxParts: 1, maxCells: 100_000, simplify },
    });
    expect(r.choice!.shape).toBe('mesh');
    expect(r.diagnostics.some((d) => d.code === 'physics-mesh-simplified')).toBe(true);
    const face = r.object.physicsMesh!.faces[0];
    expect(face.indices.length / 3).toBe(r.mesh!.triangles);
    expect(triangleMeshPhysicsCost(face.positions, face.indices).cost).toBeCloseTo(r.weight, 9);
    const [again] = avatarOpenings(face.positions, face.indices, [convexHull(face.positions).points], { up: 2 });
    expect(again.closes && again.kind === 'passage').toBe(true);
  });

  it('a room: the doorway is kept (the mesh or a decomposition), never the hull', () => {
    const m = room();
    const r = buildPhysics(objectOf(m), { mode: 'auto', decompose: { maxCells: 100_000, simplify } });
    expect(['decomposition', 'mesh']).toContain(r.choice!.shape);
  });
});

describe('openingKeepingMesh on a house shell: windows capped, flat walls re-triangulated', () => {
  const house = shellHouse();
  const { positions, hull, opening } = openingOf(house);
  const full = triangleMeshPhysicsCost(positions, house.indices).cost;
  const options = { simplify, opening, hull, openingOptions: { up: 2 as const }, margin: MARGIN, maxWeight: full };

  it('the doorway stays open, the windows are closed, the walls stay where they were, in a few large triangles', () => {
    expect(opening.closes).toBe(true);
    const m = openingKeepingMesh(positions, house.indices, { ...options, floorWeight: 0.5 })!;
    expect(m).toBeDefined();
    // About the least a triangle mesh weighs (0.5); the house as modelled weighs 40 times more.
    expect(m.weight).toBeLessThan(0.6);
    expect(m.weight).toBeLessThan(full / 40);
    // Independently (brute-force distances): most of the doorway is clear, each window's centre is on the surface ...
    let clear = 0,
      n = 0;
    for (let x = 2.6; x < 3.45; x += 0.1)
      for (let z = 0.1; z < 2.2; z += 0.1, n++)
        if (distanceToMesh(m.positions, m.indices, x, house.door[1], z) > MARGIN) clear++;
    expect(clear).toBeGreaterThan(0.5 * n);
    for (const [x, y, z] of house.windows) expect(distanceToMesh(m.positions, m.indices, x, y, z)).toBeLessThan(1e-3);
    // ... every wall is still there (the middle of each wall's solid stretch lies on the result) ...
    for (const [x, y, z] of [
      [4.5, 0, 0.5],
      [6, 2.5, 0.5],
      [3, 5, 2.75],
      [0, 2.5, 0.5],
    ])
      expect(distanceToMesh(m.positions, m.indices, x, y, z)).toBeLessThan(1e-3);
    // ... and the avatar test still walks through the door.
    const [again] = avatarOpenings(m.positions, m.indices, [hull], { up: 2 });
    expect(again.closes).toBe(true);
  });

  it('a simplification that drops a wall is refused, however light (the fit check)', () => {
    // A "simplifier" that keeps the front wall and the roof only: the doorway is still there and the
    // space under the roof is now a pavilion an avatar walks through, but three walls are gone.
    const frontOnly: SimplifyFn = (p, indices) => {
      const kept: number[] = [];
      const on = (v: number) => Math.abs(p[3 * v + 1]) < 1e-6 || Math.abs(p[3 * v + 2] - 3) < 1e-6;
      for (let t = 0; t < indices.length; t += 3)
        if ([0, 1, 2].every((k) => on(indices[t + k]))) kept.push(indices[t], indices[t + 1], indices[t + 2]);
      return Uint32Array.from(kept);
    };
    const m = openingKeepingMesh(positions, house.indices, { ...options, simplify: frontOnly, floorWeight: 0.5 });
    if (m)
      for (const [x, y, z] of [
        [6, 2.5, 0.5],
        [3, 5, 2.75],
        [0, 2.5, 0.5],
      ])
        expect(distanceToMesh(m.positions, m.indices, x, y, z)).toBeLessThan(0.5);
  });
});

describe('openingKeepingMesh on a cooling tower: each simplification made from the surface itself', () => {
  it('keeps the hollow in a few dozen triangles that stay near the shell (simplifying each result again drifted: 146 triangles, 12.7)', () => {
    const tower = coolingTower();
    const { positions, hull, opening } = openingOf(tower);
    const full = triangleMeshPhysicsCost(positions, tower.indices).cost;
    expect(opening.closes).toBe(true);
    const m = openingKeepingMesh(positions, tower.indices, {
      simplify,
      opening,
      hull,
      openingOptions: { up: 2 },
      margin: MARGIN,
      maxWeight: full,
      floorWeight: 0.5,
    })!;
    expect(m).toBeDefined();
    expect(m.triangles).toBeLessThan(64);
    expect(m.weight).toBeLessThan(2);
    // Independently: the avatar still finds the hollow the hull closes ...
    const [again] = avatarOpenings(m.positions, m.indices, [hull], { up: 2 });
    expect(again.closes).toBe(true);
    // ... and no wall went: every vertex of the shell within two avatar widths (1 m) of the result.
    let worst = 0;
    for (let i = 0; i < positions.length; i += 3)
      worst = Math.max(worst, distanceToMesh(m.positions, m.indices, positions[i], positions[i + 1], positions[i + 2]));
    expect(worst).toBeLessThan(1);
  });
});

describe('keepsOpening', () => {
  const ring = standingTorus(1.35, 0.25, 48, 16);
  const { positions, hull, opening } = openingOf(ring);
  const judge = { opening, hull, openingOptions: { up: 2 as const } };

  it('the surface itself keeps its passage; a coarse simplification that fills the hole does not', () => {
    expect(keepsOpening({ positions, indices: ring.indices }, judge)).toBe(true);
    // Four triangles: nothing of the ring's hole is left.
    const coarse = simplify(positions, ring.indices, 12);
    expect(coarse.length / 3).toBeLessThanOrEqual(8);
    expect(keepsOpening({ positions, indices: coarse }, judge)).toBe(false);
  });

  it('a thinner ring keeps it (more room around the same hole is not a new opening elsewhere)', () => {
    // The tube's radius 0.25 -> 0.15 about the same centre line: the hole grows, it stays where it was.
    const thin = standingTorus(1.35, 0.15, 48, 16);
    expect(keepsOpening({ positions: Float32Array.from(thin.positions), indices: thin.indices }, judge)).toBe(true);
  });

  it('a ring whose hole is closed by a plate across it does not', () => {
    // A square across the hole, in the ring's plane (y = 0), its corners inside the tube.
    const plate = [-1.2, 0, -1.2, 1.2, 0, -1.2, 1.2, 0, 1.2, -1.2, 0, 1.2];
    const p = Float32Array.from([...ring.positions, ...plate]);
    const n = ring.positions.length / 3;
    const ix = Uint32Array.from([...ring.indices, n, n + 1, n + 2, n, n + 2, n + 3]);
    expect(keepsOpening({ positions: p, indices: ix }, judge)).toBe(false);
  });
});
