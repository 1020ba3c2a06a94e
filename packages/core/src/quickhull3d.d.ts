// quickhull3d's ESM entry imports its modules without file extensions, which Node's ESM loader
// rejects; its bundled build (dist/quickhull3d.js) works in Node and browsers. This declares it.
declare module 'quickhull3d/dist/quickhull3d.js' {
  /** Triangular faces (indices into `points`) of the convex hull of `points`. */
  export default function quickhull(points: ArrayLike<number>[], options?: { skipTriangulation?: boolean }): number[][];
  /** The builder the default export runs; its `faces` after `build()` are the library's face objects. */
  export class QuickHull {
    constructor(points: ArrayLike<number>[]);
    build(): this;
    faces: object[];
  }
}
