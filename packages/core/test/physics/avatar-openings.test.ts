import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { avatarOpenings } from '../../src/physics/avatar-openings.js';
import { convexHull } from '../../src/physics/convex-hull.js';
import { boxes, room, sphere, torus, type TestMesh } from './physics-fixtures.js';

const hullOf = (m: TestMesh) => convexHull(Float32Array.from(m.positions)).points;
const scaled = (m: TestMesh, s: number): TestMesh => ({ positions: m.positions.map((v) => v * s), indices: m.indices });
const check = (m: TestMesh) => avatarOpenings(m.positions, m.indices, [hullOf(m)])[0];

describe('avatarOpenings', () => {
  it('a room entered by a 1 m doorway: its hull closes space an avatar uses', () => {
    const r = check(room());
    expect(r.closes).toBe(true);
    expect(r.width).toBeGreaterThan(0.5);
  });

  it('the same room at a fifth of its size has no opening an avatar fits', () => {
    expect(check(scaled(room(), 0.2)).closes).toBe(false);
  });

  it('a wall with a 1 m doorway: a passage; the wall without it: none', () => {
    const wall = boxes([
      [
        [-2, 0, 0],
        [-0.5, 0.2, 2.5],
      ],
      [
        [0.5, 0, 0],
        [2, 0.2, 2.5],
      ],
      [
        [-0.5, 0, 2.1],
        [0.5, 0.2, 2.5],
      ],
    ]);
    const r = check(wall);
    expect(r.closes).toBe(true);
    expect(r.kind).toBe('passage');
    expect(
      check(
        boxes([
          [
            [-2, 0, 0],
            [2, 0.2, 2.5],
          ],
        ]),
      ).closes,
    ).toBe(false);
  });

  it('a ring with a 1.5 m hole is a passage; with a 0.3 m hole it is not', () => {
    expect(check(torus(1, 0.25, 32, 12)).kind).toBe('passage');
    expect(check(torus(0.4, 0.25, 32, 12)).closes).toBe(false);
  });

  it('property: a closed convex blob (a sphere, any size) never has an opening', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.2, max: 4, noNaN: true }), fc.integer({ min: 8, max: 24 }), (radius, seg) => {
        expect(check(sphere(radius, seg, Math.max(4, seg >> 1))).closes).toBe(false);
      }),
      { numRuns: 8 },
    );
  });

  it('property: two blocks with a gap close an opening exactly when the gap is well over avatar size', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 2, noNaN: true }), (gap) => {
        const m = boxes([
          [
            [0, 0, 0],
            [1, 1, 2],
          ],
          [
            [1 + gap, 0, 0],
            [2 + gap, 1, 2],
          ],
          [
            [0, 0, 2],
            [2 + gap, 1, 2.3],
          ],
        ]);
        const r = check(m);
        if (gap >= 0.6) expect(r.closes).toBe(true);
        if (gap <= 0.35) expect(r.closes).toBe(false);
      }),
      { numRuns: 16 },
    );
  });
});
