import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MeshoptEncoder } from '../../../gltf-plugin/node_modules/meshoptimizer/index.js';
import { importerRemap } from '../../src/asset/importer-remap.js';
import type { Face } from '../../src/types.js';

const face = (positions: number[], indices: number[], extra: Partial<Face> = {}): Face => ({
  material: 'm',
  positions: Float32Array.from(positions),
  indices: Uint32Array.from(indices),
  ...extra,
});

describe("importerRemap (the viewer importer's LLVolumeFace::remap)", () => {
  it('numbers vertices by first use, merges bitwise-equal ones, drops unused ones, keeps triangle order', () => {
    // Vertex 3 repeats vertex 0; vertex 4 is unused; the triangles use 2, 3, 1 first.
    const f = face([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 5, 5, 5], [2, 3, 1, 0, 1, 2]);
    const r = importerRemap(f);
    expect(Array.from(r.positions)).toEqual([0, 1, 0, 0, 0, 0, 1, 0, 0]);
    expect(Array.from(r.indices)).toEqual([0, 1, 2, 1, 2, 0]);
    // Equal positions with different normals or uvs stay apart; -0 and 0 differ bitwise.
    const n = importerRemap(
      face([0, 0, 0, 0, 0, 0, -0, 0, 0], [0, 1, 2], { normals: Float32Array.from([0, 0, 1, 0, 1, 0, 0, 0, 1]) }),
    );
    expect(n.positions.length).toBe(9);
    const u = importerRemap(
      face([0, 0, 0, 0, 0, 0, 1, 1, 1], [0, 1, 2], { uvs: Float32Array.from([0, 0, 0, 0, 1, 1]) }),
    );
    expect(Array.from(u.indices)).toEqual([0, 0, 1]);
    expect(Array.from(u.uvs!)).toEqual([0, 0, 1, 1]);
    // Already in first-use order with nothing to merge: the face itself.
    const same = face([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    expect(importerRemap(same)).toBe(same);
  });

  it("orders vertices as meshoptimizer's own vertex-fetch remap does (distinct vertices)", async () => {
    await MeshoptEncoder.ready;
    const n = 300;
    const positions = Float32Array.from({ length: 3 * n }, (_, i) => i * 0.25);
    let s = 7;
    const rnd = () => (s = (s * 48271) % 2147483647) / 2147483647;
    const indices = Uint32Array.from({ length: 900 }, () => Math.floor(rnd() * n));
    const [remap, unique] = MeshoptEncoder.reorderMesh(indices.slice(), false, false);
    const r = importerRemap({ material: 'm', positions, indices });
    expect(r.positions.length / 3).toBe(unique);
    for (let v = 0; v < n; v++) {
      if (remap[v] === 0xffffffff) continue;
      expect(Array.from(r.positions.subarray(3 * remap[v], 3 * remap[v] + 3))).toEqual(
        Array.from(positions.subarray(3 * v, 3 * v + 3)),
      );
    }
  });

  it('property: every triangle keeps its corners, and indices first appear in order 0, 1, 2, ...', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }).chain((n) =>
          fc.record({
            grid: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3 * n, maxLength: 3 * n }),
            tris: fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 3, maxLength: 60 }),
          }),
        ),
        ({ grid, tris }) => {
          const idx = tris.slice(0, tris.length - (tris.length % 3));
          if (idx.length === 0) return;
          const f = face(grid, idx);
          const r = importerRemap(f);
          let next = 0;
          for (let i = 0; i < idx.length; i++) {
            const v = r.indices[i];
            expect(v).toBeLessThanOrEqual(next);
            if (v === next) next++;
            for (let k = 0; k < 3; k++) expect(r.positions[3 * v + k]).toBe(f.positions[3 * idx[i] + k]);
          }
          expect(r.positions.length / 3).toBe(next);
        },
      ),
      { numRuns: 200 },
    );
  });
});
