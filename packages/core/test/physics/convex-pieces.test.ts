import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convexHullMesh } from '../../src/physics/convex-hull.js';
import { convexPieces } from '../../src/physics/convex-pieces.js';
import type { Face, MeshLod } from '../../src/types.js';

const box = (c: [number, number, number], s: number) => {
  const pts: number[] = [];
  for (let i = 0; i < 8; i++) pts.push(c[0] + (i & 1 ? s : -s), c[1] + (i & 2 ? s : -s), c[2] + (i & 4 ? s : -s));
  return convexHullMesh(Float32Array.from(pts));
};
const face = (m: { positions: Float32Array; indices: Uint32Array }, material = 'p'): Face => ({
  material,
  positions: m.positions,
  indices: m.indices,
});

describe('convexPieces', () => {
  it('finds each closed convex piece; touching hulls in separate faces stay separate', () => {
    const a = box([0, 0, 0], 1),
      b = box([2, 0, 0], 1); // share the face x = 1
    expect(convexPieces({ faces: [face(a), face(b)] })!.map((h) => h.length / 3)).toEqual([8, 8]);
    // Flat-shaded: every triangle with its own three vertices still closes up by position.
    const split: Face = {
      material: 'p',
      positions: Float32Array.from(Array.from(a.indices, (i) => [...a.positions.subarray(i * 3, i * 3 + 3)]).flat()),
      indices: Uint32Array.from(a.indices, (_, k) => k),
    };
    expect(convexPieces({ faces: [split] })!.map((h) => h.length / 3)).toEqual([8]);
  });

  it('finds each closed convex piece of a physics mesh, even when pieces share one material', () => {
    const a = box([0, 0, 0], 1),
      b = box([5, 0, 0], 0.5);
    const merged: Face = {
      material: 'p',
      positions: Float32Array.from([...a.positions, ...b.positions]),
      indices: Uint32Array.from([...a.indices, ...Array.from(b.indices, (i) => i + a.positions.length / 3)]),
    };
    const hulls = convexPieces({ faces: [merged] })!;
    expect(hulls.map((h) => h.length / 3)).toEqual([8, 8]);
  });

  it('refuses an open, a concave or an inside-out piece', () => {
    const a = box([0, 0, 0], 1);
    expect(convexPieces({ faces: [{ ...face(a), indices: a.indices.subarray(3) }] })).toBeUndefined();
    const flipped = Uint32Array.from(a.indices);
    for (let t = 0; t < flipped.length; t += 3) [flipped[t + 1], flipped[t + 2]] = [flipped[t + 2], flipped[t + 1]];
    expect(convexPieces({ faces: [{ ...face(a), indices: flipped }] })).toBeUndefined();
    // A notched box: push one corner inward.
    const notched = Float32Array.from(a.positions);
    notched[0] *= 0.2;
    notched[1] *= 0.2;
    notched[2] *= 0.2;
    expect(convexPieces({ faces: [{ ...face(a), positions: notched }] })).toBeUndefined();
  });

  it('the hull mesh of any point cloud is recognised as one piece with the hull vertices', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: -5, max: 5, noNaN: true }),
            fc.double({ min: -5, max: 5, noNaN: true }),
            fc.double({ min: -5, max: 5, noNaN: true }),
          ),
          { minLength: 8, maxLength: 60 },
        ),
        (pts) => {
          // The corners of a 2 m box keep the cloud solid, so its hull is never flat.
          const corners = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1]);
          const m = convexHullMesh(Float32Array.from([...corners, ...pts.flat()]));
          const hulls = convexPieces({ faces: [face(m)] } as MeshLod);
          expect(hulls).toBeDefined();
          expect(hulls!).toHaveLength(1);
          expect(hulls![0].length).toBe(m.positions.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
