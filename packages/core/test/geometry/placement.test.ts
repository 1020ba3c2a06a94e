import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linksetSurroundings, nearParts, placePositions, worldBox } from '../../src/geometry/placement.js';
import type { Box3, Placement, SlObject } from '../../src/types.js';
import { box } from '../physics/physics-fixtures.js';

/** A box object (12 triangles) with an optional placement. */
function cube(name: string, min: number[], max: number[], placement?: Placement): SlObject {
  const m = box(min, max);
  return {
    name,
    lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(m.positions), indices: m.indices }] } },
    ...(placement ? { placement } : {}),
  };
}

/** Rotation matrix (row-major) about z then x. */
function rotation(a: number, b: number): Placement['rotation'] {
  const [ca, sa, cb, sb] = [Math.cos(a), Math.sin(a), Math.cos(b), Math.sin(b)];
  // Rx(b) * Rz(a)
  return [ca, -sa, 0, cb * sa, cb * ca, -sb, sb * sa, sb * ca, cb];
}

/** The surroundings of object `i`: the high LODs of its near parts, as optimize's physics hook asks for them. */
const surroundings = (objects: SlObject[], i: number, reach: number, overhead?: number, boxes?: Box3[]) =>
  linksetSurroundings(objects, i, nearParts(objects, i, reach, overhead, boxes));

describe('linksetSurroundings', () => {
  it('gives the other objects beside this one or above it, none far beside or below', () => {
    const objects = [
      cube('a', [0, 0, 0], [1, 1, 1]),
      cube('b', [1.5, 0, 0], [2.5, 1, 1]),
      cube('c', [20, 0, 0], [21, 1, 1]),
      cube('high above', [0, 0, 30], [1, 1, 31]),
      cube('far below', [0, 0, -30], [1, 1, -29]),
    ];
    const s = surroundings(objects, 0, 2.3)!;
    expect(nearParts(objects, 0, 2.3)).toEqual([1, 3]);
    expect(s.indices.length).toBe(72); // b and the one above
    const axis = (k: number) => Array.from(s.positions).filter((_, i) => i % 3 === k);
    expect(Math.max(...axis(0))).toBe(2.5);
    expect([Math.min(...axis(2)), Math.max(...axis(2))]).toEqual([0, 31]);
    // With an overhead height, only what reaches that far above its base: the one above.
    const above = surroundings(objects, 0, 2.3, 1.8)!;
    expect(above.indices.length).toBe(36);
    expect(Math.min(...Array.from(above.positions).filter((_, i) => i % 3 === 2))).toBe(30);
    // The world boxes made once by the caller give the same answer.
    const boxes = objects.map(worldBox);
    expect(surroundings(objects, 0, 2.3, 0, boxes)).toEqual(s);
    expect(surroundings(objects, 0, 2.3, 1.8, boxes)).toEqual(above);
    expect(surroundings([objects[0], objects[2]], 0, 2.3)).toBeUndefined();
    expect(surroundings([objects[0]], 0, 2.3)).toBeUndefined();
  });

  it('property: the surroundings, placed with this object, are where the other objects are in the world', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })),
        fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })),
        fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
        ([a1, b1], [a2, b2], [tx, ty]) => {
          const self = cube('self', [-0.5, -0.5, -0.5], [0.5, 0.5, 0.5], {
            rotation: rotation(a1, b1),
            translation: [tx, ty, 0.5],
          });
          const other = cube('other', [-0.4, -0.3, -0.2], [0.4, 0.3, 0.2], {
            rotation: rotation(a2, b2),
            translation: [tx + 1, ty - 0.5, 1],
          });
          const s = surroundings([self, other], 0, 2.3)!;
          const world = placePositions(other.placement, other.lods.high.faces[0].positions);
          const back = placePositions(self.placement, s.positions);
          expect(s.indices).toEqual(other.lods.high.faces[0].indices);
          for (let i = 0; i < world.length; i++) expect(back[i]).toBeCloseTo(world[i], 4);
        },
      ),
      { numRuns: 50 },
    );
  });
});
