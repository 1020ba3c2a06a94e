/**
 * Auto physics on a linkset (packages/cli/src/commands/optimize.ts, physicsHookFor): a part's
 * closer fit is held to what the rest of the linkset leaves under its download or server weight
 * (core buildPhysics fitAllowance), because a linkset's land impact is the largest of its summed
 * weights.
 */

import { describe, expect, it } from 'vitest';
import { costReport, zlibNgDeflate, type MeshLod, type SlObject, type Vec3 } from '@slmesh/core';
import type { PhysicsHookContext } from '@slmesh/gltf-plugin/node';
import { boxes } from '../../core/test/physics/physics-fixtures.js';
import { physicsHookFor } from '../src/commands/optimize.js';

/** Closed boxes (core's test fixture) as one face, every coordinate times k. */
function scaled(k: number, list: [Vec3, Vec3][]): MeshLod {
  const m = boxes(list);
  return { faces: [{ material: 'm', positions: Float32Array.from(m.positions, (v) => v * k), indices: m.indices }] };
}

/** A torus in the xz plane, `seg` x `sides` quads. */
function torus(R: number, r: number, seg: number, sides: number): MeshLod {
  const pos: number[] = [],
    idx: number[] = [];
  for (let i = 0; i < seg; i++)
    for (let j = 0; j < sides; j++) {
      const u = (2 * Math.PI * i) / seg,
        v = (2 * Math.PI * j) / sides;
      pos.push((R + r * Math.cos(v)) * Math.cos(u), r * Math.sin(v), (R + r * Math.cos(v)) * Math.sin(u));
    }
  for (let i = 0; i < seg; i++)
    for (let j = 0; j < sides; j++) {
      const a = i * sides + j,
        b = ((i + 1) % seg) * sides + j,
        c = ((i + 1) % seg) * sides + ((j + 1) % sides),
        d = i * sides + ((j + 1) % sides);
      idx.push(a, b, c, a, c, d);
    }
  return { faces: [{ material: 'm', positions: Float32Array.from(pos), indices: Uint32Array.from(idx) }] };
}

const at = (translation: Vec3) => ({ rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation });

/** A walled room (8 x 6 x 5.4 m at F = 1) with a doorway and a roof: its hull would close it. */
const room: SlObject = {
  name: 'Room',
  lods: {
    high: scaled(2, [
      [
        [-2, -1.5, -0.1],
        [2, 1.5, 0],
      ],
      [
        [-2, -1.5, 0],
        [-1.9, 1.5, 2.6],
      ],
      [
        [1.9, -1.5, 0],
        [2, 1.5, 2.6],
      ],
      [
        [-2, 1.4, 0],
        [2, 1.5, 2.6],
      ],
      [
        [-2, -1.5, 0],
        [-0.5, -1.4, 2.6],
      ],
      [
        [0.5, -1.5, 0],
        [2, -1.4, 2.6],
      ],
      [
        [-0.5, -1.5, 2.1],
        [0.5, -1.4, 2.6],
      ],
      [
        [-2, -1.5, 2.6],
        [2, 1.5, 2.7],
      ],
    ]),
  },
  placement: at([0, 0, 0]),
};
/** A coarse ring: under its own download weight both its hull and (closer) its mesh tie. */
const ring: SlObject = { name: 'Ring', lods: { high: torus(1, 0.3, 16, 8) }, placement: at([10, 0, 0]) };

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
