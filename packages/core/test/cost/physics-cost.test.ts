import { describe, expect, it } from 'vitest';
import { isSlmeshError } from '../../src/errors.js';
import {
  canBePhysical,
  convexHullPhysicsCost,
  decompositionPhysicsCost,
  meshConvexified,
  physicalLinksetPenalty,
  triangleMeshPhysicsCost,
} from '../../src/cost/physics-cost.js';
import { USER_MESH_CONVEXIFICATION_SIZE } from '../../src/constants.js';

/** Flat arrays from a list of triangles given as 3 points each. */
function soup(triangles: number[][][]): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array(triangles.flat(2));
  const indices = Uint32Array.from({ length: triangles.length * 3 }, (_, i) => i);
  return { positions, indices };
}

/** Equilateral triangle of height h in the z = 0 plane, shifted by x. */
function equilateral(h: number, x = 0): number[][] {
  const side = (2 * h) / Math.sqrt(3);
  return [
    [x, 0, 0],
    [x + side, 0, 0],
    [x + side / 2, h, 0],
  ];
}

describe('convexHullPhysicsCost', () => {
  it('is 0.04 * (vertices + 1): an 8-vertex box hull costs 0.36', () => {
    expect(convexHullPhysicsCost(8)).toBeCloseTo(0.36, 12);
    expect(convexHullPhysicsCost(256)).toBeCloseTo(10.28, 12);
    expect(convexHullPhysicsCost(8, { hullCostPerVertex: 0.05 })).toBeCloseTo(0.45, 12);
  });
});

describe('triangleMeshPhysicsCost', () => {
  it("0.5 m wide triangles cost 0.1 each (the seed's calibration), with a minimum of 0.5", () => {
    const ten = soup(Array.from({ length: 10 }, (_, i) => equilateral(0.5, 2 * i)));
    const r = triangleMeshPhysicsCost(ten.positions, ten.indices);
    expect(r.width).toBeCloseTo(0.5, 6);
    expect(r.triangles).toBe(10);
    expect(r.cost).toBeCloseTo(1.0, 5);
    const three = soup([equilateral(0.5), equilateral(0.5, 2), equilateral(0.5, 4)]);
    expect(triangleMeshPhysicsCost(three.positions, three.indices).cost).toBe(0.5);
  });

  it('width is the shorter side of the tightest bounding rectangle = 2 * area / longest edge', () => {
    // Right triangle 3-4-5: rectangle on the hypotenuse, 5 x 2.4 (area 12 = 2A).
    const right = soup([
      [
        [0, 0, 0],
        [3, 0, 0],
        [0, 4, 0],
      ],
    ]);
    expect(triangleMeshPhysicsCost(right.positions, right.indices).width).toBeCloseTo(2.4, 6);
    // Obtuse sliver (0,0) (10,0) (1,1): on the long edge 10 x 1; on a short edge the rectangle overhangs.
    const obtuse = soup([
      [
        [0, 0, 0],
        [10, 0, 0],
        [1, 1, 0],
      ],
    ]);
    expect(triangleMeshPhysicsCost(obtuse.positions, obtuse.indices).width).toBeCloseTo(1, 6);
    // Orientation in space does not matter.
    const tilted = soup([
      [
        [0, 0, 0],
        [0, 3, 3],
        [4, 0, 0],
      ],
    ]);
    expect(triangleMeshPhysicsCost(tilted.positions, tilted.indices).width).toBeCloseTo(
      (3 * Math.SQRT2 * 4) / Math.hypot(4, 3, 3),
      5,
    );
  });

  it('averages widths harmonically', () => {
    // Widths 1 and 0.25: 2 / (1/1 + 1/0.25) = 0.4.
    const m = soup([equilateral(1), equilateral(0.25, 5)]);
    const r = triangleMeshPhysicsCost(m.positions, m.indices);
    expect(r.width).toBeCloseTo(0.4, 6);
    expect(r.cost).toBe(0.5); // 0.05 * 2 / 0.4 = 0.25, below the minimum
  });

  it('clamps the width to [0.001, 20] m', () => {
    const tiny = soup(Array.from({ length: 100 }, (_, i) => equilateral(0.0001, i)));
    const t = triangleMeshPhysicsCost(tiny.positions, tiny.indices);
    expect(t.width).toBe(0.001);
    expect(t.cost).toBeCloseTo((0.05 * 100) / 0.001, 6);
    const huge = soup([equilateral(50)]);
    expect(triangleMeshPhysicsCost(huge.positions, huge.indices).width).toBe(20);
  });

  it('grows as the object shrinks: half the scale, twice the cost', () => {
    const big = soup(Array.from({ length: 40 }, (_, i) => equilateral(0.2, i)));
    const small = { positions: big.positions.map((v) => v / 2), indices: big.indices };
    const a = triangleMeshPhysicsCost(big.positions, big.indices).cost;
    const b = triangleMeshPhysicsCost(small.positions, small.indices).cost;
    expect(b / a).toBeCloseTo(2, 5);
  });

  it('counts degenerate (zero-area) triangles apart and leaves them out', () => {
    const m = soup([
      equilateral(0.5),
      [
        [0, 0, 0],
        [1, 1, 1],
        [2, 2, 2],
      ], // collinear
      [
        [1, 2, 3],
        [1, 2, 3],
        [4, 5, 6],
      ], // repeated vertex
      [
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
      ], // a point
    ]);
    const r = triangleMeshPhysicsCost(m.positions, m.indices);
    expect(r.degenerate).toBe(3);
    expect(r.triangles).toBe(1);
    expect(r.width).toBeCloseTo(0.5, 6);
  });

  it('no triangles: the minimum cost and width 0', () => {
    expect(triangleMeshPhysicsCost(new Float32Array(0), new Uint32Array(0))).toEqual({
      cost: 0.5,
      triangles: 0,
      width: 0,
      degenerate: 0,
    });
  });

  it('rejects indices out of range', () => {
    let error: unknown;
    try {
      triangleMeshPhysicsCost(new Float32Array(9), Uint32Array.of(0, 1, 3));
    } catch (e) {
      error = e;
    }
    expect(isSlmeshError(error) && error.code).toBe('INPUT_INVALID');
  });
});

describe('decompositionPhysicsCost', () => {
  it('is an estimate: the sum of the single-hull formula over hulls', () => {
    const r = decompositionPhysicsCost([8, 8, 20]);
    expect(r.estimate).toBe(true);
    expect(r.cost).toBeCloseTo(0.36 + 0.36 + 0.84, 12);
    expect(decompositionPhysicsCost([]).cost).toBe(0);
    expect(
      decompositionPhysicsCost([10], { decompositionCostPerHull: 1, decompositionCostPerVertex: 0.1 }).cost,
    ).toBeCloseTo(2, 12);
  });
});

describe('physicalLinksetPenalty', () => {
  it('seed example: a 3 x 4 x 5 m linkset of base cost 1 costs 1.628 physical', () => {
    // Mean face area (12 + 20 + 15) / 3 = 15.667 (the seed rounds it to 15.7): 1 + 0.04 * 15.667 = 1.6267.
    const p = physicalLinksetPenalty(1, [3, 4, 5]);
    expect(p).toBeCloseTo(1 + (0.04 * 47) / 3, 12);
    expect(p).toBeCloseTo(1.628, 2);
  });

  it('seed example: the duck (13) scaled to 10 x 10 x 10 m costs 65 physical', () => {
    expect(physicalLinksetPenalty(13, [10, 10, 10])).toBeCloseTo(65, 10);
  });
});

describe('canBePhysical', () => {
  it('allows an unpenalised physics weight up to 32', () => {
    expect(canBePhysical(32)).toBe(true);
    expect(canBePhysical(32.01)).toBe(false);
    expect(canBePhysical(40, { maxPhysicalCost: 64 })).toBe(true);
  });
});

describe('meshConvexified', () => {
  it('is true exactly when some side is under 0.5 m (USER_MESH_CONVEXIFICATION_SIZE)', () => {
    expect(meshConvexified([0.49, 3, 3])).toBe(true);
    expect(meshConvexified([3, 3, 0.1])).toBe(true);
    expect(meshConvexified([0.5, 0.5, 0.5])).toBe(false);
    expect(meshConvexified([10, 1, 2])).toBe(false);
    expect(USER_MESH_CONVEXIFICATION_SIZE).toBe(0.5);
  });
});
