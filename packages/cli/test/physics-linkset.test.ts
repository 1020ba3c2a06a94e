/**
 * Auto physics on a linkset (packages/cli/src/commands/optimize.ts, physicsHookFor): a part's
 * closer fit is held to what the rest of the linkset leaves under its download or server weight
 * (core buildPhysics fitAllowance), because a linkset's land impact is the largest of its summed
 * weights.
 */

import { describe, expect, it } from 'vitest';
import { costReport, zlibNgDeflate, type SlObject, type Vec3 } from '@slmesh/core';
import type { PhysicsHookContext } from '@slmesh/gltf-plugin/node';
import { room as roomMesh, torus, type TestMesh } from '../../core/test/physics/physics-fixtures.js';
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

/** core's walled room with a doorway (8 x 6 m at F = 1): its hull would close it. */
const room = object('Room', roomMesh(), 2, [1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0]);
/**
 * A coarse ring stood on its side (core's torus lies flat): under its own download weight both
 * its hull and (closer) its mesh tie.
 */
const ring = object('Ring', torus(1, 0.3, 16, 8), 1, [1, 0, 0, 0, 0, 1, 0, -1, 0], [10, 0, 0]);

const F: Vec3 = [18, 18, 18];
function ctx(index: number, objects: SlObject[]): PhysicsHookContext {
  return {
    index,
    model: { objects },
    source: 'test.glb',
    lodFactor: 2,
    scaleFactors: F,
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
});
