/**
 * The one indexed triangle mesh type of core, and the small vector helpers its users share.
 *
 * A mesh is flat xyz positions and three vertex indices per triangle, as glTF stores it and as
 * meshoptimizer takes it. `P` is the precision of the positions: Float32Array where the mesh comes
 * straight from a face or LOD (what the viewer uploads), Float64Array where geometry is built by
 * cutting and welding (the decomposition).
 */

export interface IndexedMesh<P extends Float32Array | Float64Array = Float32Array | Float64Array> {
  /** xyz per vertex. */
  positions: P;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
}

/**
 * Twice the area vector of triangle (a, b, c) of `positions` (vertex indices): the cross product
 * (b - a) x (c - a), written into `out` at `o`. Its length is twice the triangle's area; its
 * direction is the triangle's normal by the right-hand rule (counter-clockwise is front).
 */
export function triangleCross(
  positions: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  out: Float64Array,
  o = 0,
): void {
  const ax = positions[3 * a],
    ay = positions[3 * a + 1],
    az = positions[3 * a + 2];
  const ux = positions[3 * b] - ax,
    uy = positions[3 * b + 1] - ay,
    uz = positions[3 * b + 2] - az;
  const vx = positions[3 * c] - ax,
    vy = positions[3 * c + 1] - ay,
    vz = positions[3 * c + 2] - az;
  out[o] = uy * vz - uz * vy;
  out[o + 1] = uz * vx - ux * vz;
  out[o + 2] = ux * vy - uy * vx;
}

/** triangleArea's scratch (single-threaded code: no caller holds it across a call). */
const CROSS = new Float64Array(3);

/** Area of triangle (a, b, c) of `positions` (vertex indices). */
export function triangleArea(positions: ArrayLike<number>, a: number, b: number, c: number): number {
  triangleCross(positions, a, b, c, CROSS);
  return 0.5 * Math.hypot(CROSS[0], CROSS[1], CROSS[2]);
}

/** Area of a triangle list (three vertex indices per triangle) over `positions`. */
export function surfaceArea(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let area = 0;
  for (let t = 0; t + 2 < indices.length; t += 3)
    area += triangleArea(positions, indices[t], indices[t + 1], indices[t + 2]);
  return area;
}

/**
 * Whether triangle (a, b, c) of `positions` (vertex indices) has zero area as the uploader's
 * degenerate-triangle check counts it: |u x v|^2 <= 1e-12 |u|^2 |v|^2 with u, v its edges from a
 * (scale-free, so it holds at any size; NaN counts as zero).
 */
export function isZeroAreaTriangle(positions: ArrayLike<number>, a: number, b: number, c: number): boolean {
  const ax = positions[3 * a],
    ay = positions[3 * a + 1],
    az = positions[3 * a + 2];
  const ux = positions[3 * b] - ax,
    uy = positions[3 * b + 1] - ay,
    uz = positions[3 * b + 2] - az;
  const vx = positions[3 * c] - ax,
    vy = positions[3 * c + 1] - ay,
    vz = positions[3 * c + 2] - az;
  const cx = uy * vz - uz * vy,
    cy = uz * vx - ux * vz,
    cz = ux * vy - uy * vx;
  return !(cx * cx + cy * cy + cz * cz > 1e-12 * (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz));
}

/** The triangles of `indices` without the zero-area ones (isZeroAreaTriangle: the uploader refuses those in a physics mesh). */
export function withoutZeroAreaTriangles(positions: ArrayLike<number>, indices: ArrayLike<number>): Uint32Array {
  const kept: number[] = [];
  for (let t = 0; t + 2 < indices.length; t += 3)
    if (!isZeroAreaTriangle(positions, indices[t], indices[t + 1], indices[t + 2]))
      kept.push(indices[t], indices[t + 1], indices[t + 2]);
  return Uint32Array.from(kept);
}

/** Only the vertices `indices` uses, in order of first use, and the triangles renumbered to them. */
export function compactVertices(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
): { positions: Float32Array; indices: Uint32Array } {
  const remap = new Int32Array(Math.floor(positions.length / 3)).fill(-1);
  const used: number[] = [];
  const out = Uint32Array.from(indices, (v) => {
    if (remap[v] < 0) {
      remap[v] = used.length / 3;
      used.push(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
    }
    return remap[v];
  });
  return { positions: Float32Array.from(used), indices: out };
}

/**
 * The connected components of `triangleCount` triangles over points 0 .. `vertexCount` - 1
 * (union-find; `corner(t, k)` is triangle t's k-th point): a function giving each point's
 * component root, the same for every point of one component.
 */
export function triangleComponents(
  vertexCount: number,
  triangleCount: number,
  corner: (t: number, k: number) => number,
): (point: number) => number {
  const root = new Uint32Array(vertexCount);
  for (let i = 0; i < vertexCount; i++) root[i] = i;
  const find = (x: number): number => {
    while (root[x] !== x) x = root[x] = root[root[x]];
    return x;
  };
  for (let t = 0; t < triangleCount; t++) {
    const a = find(corner(t, 0));
    for (let k = 1; k < 3; k++) {
      const b = find(corner(t, k));
      if (a !== b) root[b] = a;
    }
  }
  return find;
}
