import type { MeshLod, ObjectLodPlan, SlModel, SlObject } from '@slmesh/core';
import { describe, expect, it } from 'vitest';
import { overLimitAsBefore } from '../src/optimize.js';

/** A one-face LOD: a triangle scaled by `s`. */
function lod(s: number): MeshLod {
  return {
    faces: [
      {
        material: 'm',
        positions: new Float32Array([0, 0, 0, s, 0, 0, 0, s, 0]),
        indices: new Uint32Array([0, 1, 2]),
      },
    ],
  };
}

function object(name: string, high: number, low: number): SlObject {
  return {
    name,
    lods: { high: lod(high), medium: lod(high), low: lod(low), lowest: lod(low) },
  } as unknown as SlObject;
}

/** A plan whose levels have these errors (medium, low, lowest) and a high at 0.5 px. */
function plan(name: string, px: [number, number, number]): ObjectLodPlan {
  const names = ['medium', 'low', 'lowest'] as const;
  return {
    name,
    high: { screenErrorPx: 0.5 },
    levels: names.map((n, i) => ({ name: n, screenErrorPx: px[i] })),
  } as unknown as ObjectLodPlan;
}

const chain = (objects: SlObject[], plans: ObjectLodPlan[]) => ({
  model: { objects } as unknown as SlModel,
  plans,
});

describe('overLimitAsBefore (the chain at the pixel bound over the margin)', () => {
  const done = chain([object('a', 1, 0.5)], [plan('a', [0.8, 20.7, 3])]);

  it('holds when nothing is over the limit', () => {
    expect(overLimitAsBefore(done, chain([object('a', 1, 0.4)], [plan('a', [0.8, 0.9, 0.9])]), 17)).toBe(true);
  });

  it('holds when the LOD over the limit is one the first chain wrote, bit for bit, in a box alike', () => {
    // Medium differs (0.9 px, under the limit); low is the same triangle at 20.7 px.
    const strict = chain(
      [{ ...object('a', 1, 0.5), lods: { ...object('a', 1, 0.5).lods, medium: lod(0.9) } }],
      [plan('a', [0.9, 20.7, 3])],
    );
    expect(overLimitAsBefore(done, strict, 17)).toBe(true);
  });

  it('fails when the LOD over the limit differs by one value', () => {
    const changed = object('a', 1, 0.5);
    changed.lods.low!.faces[0].positions[4] = 0.5000001;
    expect(overLimitAsBefore(done, chain([changed], [plan('a', [0.8, 20.7, 3])]), 17)).toBe(false);
  });

  it('fails when the high, and so the box and the switch distances, differ', () => {
    expect(overLimitAsBefore(done, chain([object('a', 1.01, 0.5)], [plan('a', [0.8, 20.7, 3])]), 17)).toBe(false);
  });

  it('fails when plans do not line up with objects (an object kept its authored LODs)', () => {
    const two = chain([object('a', 1, 0.5), object('b', 1, 0.5)], [plan('a', [0.8, 20.7, 3])]);
    expect(overLimitAsBefore(two, two, 17)).toBe(false);
  });

  it('fails when the high itself is over the limit and differs', () => {
    const highOver = plan('a', [0.8, 0.9, 0.9]);
    (highOver.high as { screenErrorPx: number }).screenErrorPx = 18;
    const strict = chain([object('a', 1, 0.5)], [highOver]);
    strict.model.objects[0].lods.high = lod(1);
    strict.model.objects[0].lods.high.faces[0].material = 'other';
    expect(overLimitAsBefore(done, strict, 17)).toBe(false);
  });
});
