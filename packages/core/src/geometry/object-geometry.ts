/**
 * Measurements of an object's geometry that Second Life cares about: bounding box, scale
 * (the box's size: the uploader normalises vertices into a unit box and carries the size as
 * the prim's scale), centre (the prim's position), triangle and vertex counts.
 *
 * Pure functions over the flat arrays of types.ts. Non-finite coordinates are skipped here;
 * upload-checks.ts reports them.
 */

import type { Box3, Face, LodName, MeshLod, SlObject } from '../types.js';
import { bytesOf, sameBytes } from './equal-keys.js';

export type Vec3 = [number, number, number];

/** An empty box (min > max), to be grown by `growBox`. */
export function emptyBox(): Box3 {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

export function isEmptyBox(box: Box3): boolean {
  return !(box.min[0] <= box.max[0] && box.min[1] <= box.max[1] && box.min[2] <= box.max[2]);
}

/** Grows `box` by every finite vertex of a flat xyz array. */
export function growBox(box: Box3, positions: ArrayLike<number>): Box3 {
  const { min, max } = box;
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i],
      y = positions[i + 1],
      z = positions[i + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    if (x < min[0]) min[0] = x;
    if (y < min[1]) min[1] = y;
    if (z < min[2]) min[2] = z;
    if (x > max[0]) max[0] = x;
    if (y > max[1]) max[1] = y;
    if (z > max[2]) max[2] = z;
  }
  return box;
}

export function unionBox(a: Box3, b: Box3): Box3 {
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  };
}

export function lodBox(lod: MeshLod): Box3 {
  const box = emptyBox();
  for (const face of lod.faces) growBox(box, face.positions);
  return box;
}

/** The object's box: its high LOD's, as the uploader normalises by it. */
export function objectBox(object: SlObject): Box3 {
  return lodBox(object.lods.high);
}

/**
 * True when the two LODs are the same geometry, bit for bit: their faces' materials, indices,
 * positions, normals and texture coordinates (an absent array equals only an absent one).
 */
export function sameLod(a: MeshLod, b: MeshLod): boolean {
  const same = (x?: ArrayBufferView, y?: ArrayBufferView) =>
    x === undefined || y === undefined ? x === y : sameBytes(bytesOf(x), bytesOf(y));
  return (
    a.faces.length === b.faces.length &&
    a.faces.every((f, i) => {
      const g = b.faces[i];
      return (
        f.material === g.material &&
        same(f.indices, g.indices) &&
        same(f.positions, g.positions) &&
        same(f.normals, g.normals) &&
        same(f.uvs, g.uvs)
      );
    })
  );
}

export function boxSize(box: Box3): Vec3 {
  if (isEmptyBox(box)) return [0, 0, 0];
  return [box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]];
}

export function boxCenter(box: Box3): Vec3 {
  if (isEmptyBox(box)) return [0, 0, 0];
  return [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
}

/** The radius Second Life uses for LODs and download weight: half the scale's diagonal. */
export function radiusOfScale(scale: Vec3): number {
  return 0.5 * Math.hypot(scale[0], scale[1], scale[2]);
}

export function faceTriangleCount(face: Face): number {
  return Math.floor(face.indices.length / 3);
}

export function faceVertexCount(face: Face): number {
  return Math.floor(face.positions.length / 3);
}

export function lodTriangleCount(lod: MeshLod | undefined): number {
  if (!lod) return 0;
  let n = 0;
  for (const f of lod.faces) n += faceTriangleCount(f);
  return n;
}

export function lodVertexCount(lod: MeshLod | undefined): number {
  if (!lod) return 0;
  let n = 0;
  for (const f of lod.faces) n += faceVertexCount(f);
  return n;
}

/** A face with no geometry, standing in for a material a lower LOD does not use. */
export function emptyFace(material: string): Face {
  return { material, positions: new Float32Array(0), indices: new Uint32Array(0) };
}

/** Concatenates the positions of every face of a LOD into one flat array. */
export function lodPositions(lod: MeshLod): Float32Array {
  let n = 0;
  for (const f of lod.faces) n += f.positions.length;
  const out = new Float32Array(n);
  let o = 0;
  for (const f of lod.faces) {
    out.set(f.positions, o);
    o += f.positions.length;
  }
  return out;
}

/** Merges a LOD's faces into one indexed triangle soup (positions + indices), for physics. */
export function lodTriangles(lod: MeshLod): { positions: Float32Array; indices: Uint32Array } {
  const positions = lodPositions(lod);
  let ni = 0;
  for (const f of lod.faces) ni += f.indices.length - (f.indices.length % 3);
  const indices = new Uint32Array(ni);
  let o = 0,
    base = 0;
  for (const f of lod.faces) {
    const n = f.indices.length - (f.indices.length % 3);
    // Copied natively whatever the face's index type, then offset over one array type only.
    indices.set(n === f.indices.length ? f.indices : f.indices.subarray(0, n), o);
    if (base !== 0) addTo(indices, o, o + n, base);
    o += n;
    base += faceVertexCount(f);
  }
  return { positions, indices };
}

/** a[from..to) += k. */
function addTo(a: Uint32Array, from: number, to: number, k: number): void {
  for (let i = from; i < to; i++) a[i] += k;
}

/** `p` scaled per axis by `f` about `centre` (a prim centre when a linkset is resized). */
export function scaleAbout(p: Vec3, centre: Vec3, f: Vec3): Vec3 {
  return [
    centre[0] + (p[0] - centre[0]) * f[0],
    centre[1] + (p[1] - centre[1]) * f[1],
    centre[2] + (p[2] - centre[2]) * f[2],
  ];
}

/** A copy of flat xyz positions scaled per axis by `f` (or divided by it, `inverse`). */
export function scaledCopy(positions: ArrayLike<number>, f: Vec3, inverse = false): Float32Array {
  const out = new Float32Array(positions.length);
  for (let i = 0; i + 2 < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = inverse ? positions[i + k] / f[k] : positions[i + k] * f[k];
  }
  return out;
}

/** Where the uploader takes the single hull from when none is given: physics, else low, medium, high. [viewer] */
export function singleHullSource(object: SlObject): { source: LodName | 'physics'; positions: Float32Array } {
  if (object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0)
    return { source: 'physics', positions: lodPositions(object.physicsMesh) };
  for (const name of ['low', 'medium', 'high'] as const) {
    const lod = object.lods[name];
    if (lod && lodTriangleCount(lod) > 0) return { source: name, positions: lodPositions(lod) };
  }
  return { source: 'high', positions: lodPositions(object.lods.high) };
}
