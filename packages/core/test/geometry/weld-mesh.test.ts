import { describe, expect, it } from 'vitest';
import { weldMesh } from '../../src/geometry/weld-mesh.js';

describe('weldMesh', () => {
  it('joins split seam vertices, keeps the first position and counts open edges', () => {
    // Two triangles of a quad with the shared edge's vertices duplicated (as glTF splits seams).
    const pos = Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0);
    const w = weldMesh(pos, Uint32Array.of(0, 1, 2, 3, 4, 5), 1e-6);
    expect(w.positions.length / 3).toBe(4);
    expect(w.boundaryEdges).toBe(4);
    expect(w.degenerate).toBe(0);
  });

  it('drops triangles that collapse, and duplicates when asked; snap moves vertices to the grid', () => {
    const pos = Float64Array.of(0, 0, 0, 0.001, 0, 0, 1, 1, 0, 1.02, 0, 0);
    const idx = Uint32Array.of(0, 1, 2, 0, 3, 2, 2, 3, 0);
    const w = weldMesh(pos, idx, 0.1, { snap: true, dropDuplicates: true });
    expect(w.degenerate).toBe(1); // 0 and 1 weld: triangle 0 collapses
    expect(w.duplicates).toBe(1); // (2, 3, 0) repeats (0, 3, 2)
    expect(w.indices.length).toBe(3);
    expect(Array.from(w.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
  });

  it('leaves non-finite vertices and their triangles out', () => {
    const w = weldMesh(Float64Array.of(0, 0, 0, NaN, 0, 0, 1, 1, 0, 1, 0, 0), Uint32Array.of(0, 1, 2, 0, 3, 2), 1e-6);
    expect(w.indices.length).toBe(3);
    expect(w.degenerate).toBe(1);
  });
});
