/**
 * Auto physics on a linkset (packages/cli/src/commands/optimize.ts, physicsHookFor): a part's
 * closer fit is held to what the rest of the linkset leaves under its download or server weight
 * (core buildPhysics fitAllowance), because a linkset's land impact is the largest of its summed
 * weights.
 */

import { describe, expect, it } from 'vitest';
import { costReport, zlibNgDeflate, type SlObject, type Vec3 } from '@slmesh/core';
import type { PhysicsHookContext } from '@slmesh/gltf-plugin/node';
import { room as roomMesh, sphere, torus, type TestMesh } from '../../core/test/physics/physics-fixtures.js';
import { physicsHookFor } from '../src/commands/optimize.js';

/** A fixture mesh (core's physics test fixtures) as an object's high LOD, times k, at `placement`. */
function object(name: string, m: TestMesh, k: number, rotation: number[], translation: Vec3): SlObject {
  return {
    name,
    lods: {
      high: { faces: [{ material: 'm', positions: Float32Array.from(m.positions, (v) => v * k), indices: m.indices }] },
    },
    placement: { rotation, translation },
  };
}

/**
 * core's walled room with a doorway (19.2 x 14.4 m at F): its hull would close it. The linkset
 * stays within what the uploader's Scale takes (no object over 63.9 m, 240 m in all), so it is
 * priced at F as asked (core uploadScale).
 */
const room = object('Room', roomMesh(), 0.24, [1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0]);
/**
 * A coarse ring stood on its side (core's torus lies flat): under its own download weight both
 * its hull and (closer) its mesh tie.
 */
const ring = object('Ring', torus(1, 0.3, 16, 8), 1, [1, 0, 0, 0, 0, 1, 0, -1, 0], [10, 0, 0]);

const F: Vec3 = [20, 20, 20];
function ctx(index: number, objects: SlObject[], scaleFactors = F, pass: 1 | 2 = 1): PhysicsHookContext {
  return {
    index,
    model: { objects },
    pass,
    source: 'test.glb',
    lodFactor: 2,
    scaleFactors,
    deflate: zlibNgDeflate,
    logger: undefined as unknown as PhysicsHookContext['logger'],
  };
}

describe('auto physics on a linkset', () => {
  it("holds a part's closer fit to what the rest leaves, so the linkset's physics stays under its download weight", async () => {
    // Alone, the ring takes its mesh: the closest fit under its own download weight.
    const alone = await physicsHookFor('auto', undefined, () => {})(ring, ctx(0, [ring]));
    expect(alone.physicsChoice!.shape).toBe('mesh');
    const weight = (o: SlObject) => o.physicsChoice!.candidates.find((c) => c.shape === o.physicsChoice!.shape)!.weight;

    // After the room (whose doorway costs it a shape heavier than its own download weight), the
    // mesh would take the linkset's physics past its download weight: the ring gets its hull.
    const hook = physicsHookFor('auto', undefined, () => {});
    const objects = [room, ring];
    objects[0] = await hook(objects[0], ctx(0, objects));
    objects[1] = await hook(objects[1], ctx(1, objects));
    expect(objects[1].physicsChoice!.shape).toBe('hull');
    expect(objects[1].physicsChoice!.reason).toContain("linkset's physics weight");
    const linkset = costReport({ objects }, { deflate: zlibNgDeflate, scaleFactors: F }).linkset;
    expect(linkset.physics).toBeLessThanOrEqual(linkset.streaming);
    // With the mesh it would have been set by physics.
    expect(weight(objects[0]) + weight(alone)).toBeGreaterThan(linkset.streaming);
  });

  it('a second pass holds the parts that took an ample allowance early, when a later part has no light shape', async () => {
    // Six 30 cm beads (small: charged as their hulls, which can lose vertices), each heavy enough to
    // download that the first pass reduces its hull only as far as its own download weight; then
    // three 2 m balls whose lightest shape (a decomposition) weighs more than their download weight.
    const one: Vec3 = [1, 1, 1];
    const ballOf = (name: string, r: number, at: Vec3, seg: number, far: number): SlObject => {
      const face = (m: TestMesh) => ({
        faces: [{ material: 'm', positions: Float32Array.from(m.positions), indices: m.indices }],
      });
      return {
        name,
        lods: {
          high: face(sphere(r, seg, seg / 2)),
          medium: face(sphere(r, seg, seg / 2)),
          low: face(sphere(r, seg, seg / 2)),
          lowest: face(sphere(r, far, far / 2)),
        },
        placement: { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: at },
      };
    };
    const beads = Array.from({ length: 6 }, (_, i) => ballOf(`Bead${i}`, 0.15, [i * 0.4, 0, 0], 48, 16));
    const balls = [0, 1, 2].map((i) => ballOf(`Ball${i}`, 1, [i * 2.5, 3, 0], 16, 4));
    const objects = [...beads, ...balls];
    const hook = physicsHookFor('auto', undefined, () => {});
    for (let i = 0; i < objects.length; i++) objects[i] = await hook(objects[i], ctx(i, objects, one));
    const weight = (o: SlObject) => o.physicsChoice!.candidates.find((c) => c.shape === o.physicsChoice!.shape)!.weight;
    const first = objects.map(weight);
    const before = costReport({ objects }, { deflate: zlibNgDeflate, scaleFactors: one }).linkset;
    // The first pass leaves the linkset set by its physics: the beads kept what their own download
    // weight allowed while the balls were still to come.
    expect(before.physics).toBeGreaterThan(Math.max(before.streaming, before.server));
    expect(hook.again!({ objects })).toBe(true);
    for (let i = 0; i < objects.length; i++) objects[i] = await hook(objects[i], ctx(i, objects, one, 2));
    const after = costReport({ objects }, { deflate: zlibNgDeflate, scaleFactors: one }).linkset;
    // Every bead as light or lighter (the reduced hull), some lighter; the balls as they were.
    objects.forEach((o, i) => expect(weight(o)).toBeLessThanOrEqual(first[i] + 1e-12));
    expect(objects.slice(0, 6).some((o, i) => weight(o) < first[i] - 1e-9)).toBe(true);
    for (let i = 6; i < objects.length; i++) expect(weight(objects[i])).toBeCloseTo(first[i], 12);
    expect(after.physics).toBeLessThan(before.physics);
    expect(after.landImpact).toBeLessThan(before.landImpact);
  });
});
