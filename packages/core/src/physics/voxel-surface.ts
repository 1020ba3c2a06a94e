/**
 * The closed, outward-facing boundary surface of a set of grid cells: one quad (two triangles)
 * per face between a chosen cell and a cell that is not chosen, corners shared. Used to turn solid
 * that no surface piece reaches (inside an open mesh) into a watertight part the decomposition
 * can cut like any other.
 */

import type { IndexedMesh } from '../geometry/indexed-mesh.js';

/**
 * @param cells indices i + nx * (j + ny * k) of the chosen cells
 * @param origin grid corner; @param cell cell size; @param dims grid size in cells
 */
export function voxelSurface(
  cells: ArrayLike<number>,
  origin: readonly number[],
  cell: number,
  dims: readonly number[],
): IndexedMesh<Float64Array> {
  const [nx, ny, nz] = dims;
  const chosen = new Set<number>();
  for (let i = 0; i < cells.length; i++) chosen.add(cells[i]);
  const corner = new Map<number, number>();
  const pos: number[] = [];
  const idx: number[] = [];
  const cx = nx + 1,
    cy = ny + 1;
  const vertex = (i: number, j: number, k: number): number => {
    const key = i + cx * (j + cy * k);
    let v = corner.get(key);
    if (v === undefined) {
      v = pos.length / 3;
      corner.set(key, v);
      pos.push(origin[0] + i * cell, origin[1] + j * cell, origin[2] + k * cell);
    }
    return v;
  };
  // Each face as 4 corner offsets, counter-clockwise seen from outside (along the direction).
  const faces: [number, number, number, number[][]][] = [
    [
      -1,
      0,
      0,
      [
        [0, 0, 0],
        [0, 0, 1],
        [0, 1, 1],
        [0, 1, 0],
      ],
    ],
    [
      1,
      0,
      0,
      [
        [1, 0, 0],
        [1, 1, 0],
        [1, 1, 1],
        [1, 0, 1],
      ],
    ],
    [
      0,
      -1,
      0,
      [
        [0, 0, 0],
        [1, 0, 0],
        [1, 0, 1],
        [0, 0, 1],
      ],
    ],
    [
      0,
      1,
      0,
      [
        [0, 1, 0],
        [0, 1, 1],
        [1, 1, 1],
        [1, 1, 0],
      ],
    ],
    [
      0,
      0,
      -1,
      [
        [0, 0, 0],
        [0, 1, 0],
        [1, 1, 0],
        [1, 0, 0],
      ],
    ],
    [
      0,
      0,
      1,
      [
        [0, 0, 1],
        [1, 0, 1],
        [1, 1, 1],
        [0, 1, 1],
      ],
    ],
  ];
  const sorted = [...chosen].sort((a, b) => a - b);
  for (const g of sorted) {
    const i = g % nx,
      j = Math.floor(g / nx) % ny,
      k = Math.floor(g / (nx * ny));
    for (const [di, dj, dk, quad] of faces) {
      const ni = i + di,
        nj = j + dj,
        nk = k + dk;
      const inside =
        ni >= 0 && nj >= 0 && nk >= 0 && ni < nx && nj < ny && nk < nz && chosen.has(ni + nx * (nj + ny * nk));
      if (inside) continue;
      const v = quad.map(([a, b, c]) => vertex(i + a, j + b, k + c));
      idx.push(v[0], v[1], v[2], v[0], v[2], v[3]);
    }
  }
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}
