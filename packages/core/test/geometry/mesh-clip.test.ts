import { describe, expect, it } from 'vitest';
import { connectedComponents, splitByPlane } from '../../src/geometry/mesh-clip.js';
import { weldMesh } from '../../src/geometry/weld-mesh.js';
import { box, boxes, meshVolume, openEdges, sphere, torus } from '../physics/physics-fixtures.js';

describe('splitByPlane', () => {
  it('cuts a closed sphere into two closed pieces whose volumes add up', () => {
    const m = sphere(1, 24, 12);
    const s = splitByPlane(m, 0.3, 0.4, Math.sqrt(1 - 0.25), 0.2, 1e-9);
    expect(s.below.length).toBe(1);
    expect(s.above.length).toBe(1);
    for (const piece of [...s.below, ...s.above]) expect(openEdges(piece)).toBe(0);
    expect(meshVolume(s.below[0]) + meshVolume(s.above[0])).toBeCloseTo(meshVolume(m), 9);
    expect(meshVolume(s.above[0])).toBeGreaterThan(0);
  });

  it('a ring cut across stays one piece (its cap joins inner and outer walls); cut through the hole it splits in two', () => {
    const t = torus(1, 0.3, 24, 10);
    const flat = splitByPlane(t, 0, 0, 1, 0.1, 1e-9);
    expect(flat.below.length).toBe(1);
    expect(flat.above.length).toBe(1);
    expect(openEdges(flat.below[0])).toBe(0);
    const across = splitByPlane(t, 1, 0, 0, 0.02, 1e-9);
    expect(across.below.length).toBe(1);
    expect(across.above.length).toBe(1);
    const u = splitByPlane(across.above[0], 0, 1, 0, 0.01, 1e-9);
    // The C shape cut through its gap: two arcs on each side? No: one arc each side.
    expect(u.below.length + u.above.length).toBe(2);
    expect(meshVolume(across.below[0]) + meshVolume(across.above[0])).toBeCloseTo(meshVolume(t), 9);
  });

  it('separates disconnected pieces on a side, and cuts through vertices and faces lying in the plane', () => {
    const u = boxes([
      [
        [0, 0, 0],
        [1, 3, 1],
      ],
      [
        [2, 0, 0],
        [3, 3, 1],
      ],
      [
        [0, 0, 0],
        [3, 1, 1],
      ],
    ]);
    const w = weldMesh(u.positions, u.indices, 1e-9);
    const s = splitByPlane(w, 0, 1, 0, 2, 1e-9);
    expect(s.above.length).toBe(2); // the two arms of the U
    // A cut exactly on a box face: nothing on the far side.
    const b = box([0, 0, 0], [1, 1, 1]);
    const face = splitByPlane(b, 1, 0, 0, 1, 1e-9);
    expect(face.above.length).toBe(0);
    expect(meshVolume(face.below[0])).toBeCloseTo(1, 12);
  });
});

describe('connectedComponents', () => {
  it('splits separate boxes and joins linked vertices', () => {
    const two = boxes([
      [
        [0, 0, 0],
        [1, 1, 1],
      ],
      [
        [3, 0, 0],
        [4, 1, 1],
      ],
    ]);
    expect(connectedComponents(two).length).toBe(2);
    expect(connectedComponents(two, [0, 8]).length).toBe(1);
  });
});
