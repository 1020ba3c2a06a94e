/**
 * How the viewer's glTF importer places a mesh node (spec 4b; indra/newview/gltf/llgltfloader.cpp,
 * `LLGLTFLoader::populateModelFromMesh` and `processNodeHierarchy`):
 *
 * - current importer (Linden Lab's fix for secondlife/viewer#5431, in Firestorm HEAD 2026): a
 *   non-skinned node's vertices stay mesh-local; the node's world (hierarchy) transform, after the
 *   Y-up to Z-up rotation `coord_system_rotation`, becomes the instance transform. The model is
 *   normalised by its own mesh-local box, so the prim's scale is that box times the node's scale
 *   and its rotation is the node's rotation.
 * - baked importer (viewer develop 2025-11, and skinned meshes in the current one): the node's
 *   world transform and the Y-up to Z-up rotation are applied to the vertices; the prim has no
 *   rotation and its scale is the world box.
 *
 * slmesh's prim frame (core types.ts) is then: current, the mesh-local vertices times the node's
 * scale (`diag(s) * p`), with `placement` = { rotation: C * R, translation: C * t }; baked,
 * `C * W * p` without placement. C is (x, y, z) -> (x, -z, y). A world matrix with shear (a
 * non-uniform parent scale under a rotated child) is split as the uploader splits the instance
 * matrix (`LLMeshUploadThread::decomposeMeshMatrix`): scale = the columns' lengths; the rotation
 * here is Gram-Schmidt on the columns; the shear is dropped, as a prim cannot carry it.
 */

import type { Placement } from '@slmesh/core';

/** Which importer to read files as: the current one (node transforms kept) or the older baking one. */
export type ImporterMode = 'current' | 'baked';
export const IMPORTER_MODES: readonly ImporterMode[] = ['current', 'baked'];

/** A node's mesh-local -> prim-frame mapping. */
export interface NodeFrame {
  /** Column-major 4x4 affine matrix taking a mesh-local glTF point into the prim frame. */
  matrix: number[];
  /** Prim frame to world, or undefined when the prim frame is the world (baked). */
  placement?: Placement;
  /** The node's per-axis scale in the prim frame (current importer), for lining sibling LODs up. */
  scale?: [number, number, number];
  /** Determinant sign of `matrix`: a mirrored node's triangles are flipped. */
  det: number;
}

/** glTF Y-up to Second Life Z-up, column-major 4x4: (x, y, z) -> (x, -z, y). */
const C = [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1];

function mul4(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

/** Determinant of a column-major 4x4's upper 3x3 (negative: the matrix mirrors). */
export function det3(m: ArrayLike<number>): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

/** The frame of a node with world matrix `world` (column-major) under `mode`; skinned nodes are always baked. */
export function nodeFrame(world: ArrayLike<number>, mode: ImporterMode, skinned = false): NodeFrame {
  if (mode === 'baked' || skinned) {
    const matrix = mul4(C, world);
    return { matrix, det: Math.sign(det3(matrix)) || 1 };
  }
  // 1. Columns of the 3x3 -> rotation by Gram-Schmidt, scale along the rotated axes (signed).
  const c0 = [world[0], world[1], world[2]],
    c1 = [world[4], world[5], world[6]],
    c2 = [world[8], world[9], world[10]];
  const len = (v: number[]) => Math.hypot(v[0], v[1], v[2]);
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const sx = len(c0);
  const r0 = sx > 0 ? c0.map((v) => v / sx) : [1, 0, 0];
  const p1 = c1.map((v, i) => v - dot(r0, c1) * r0[i]);
  const l1 = len(p1);
  let r1 = l1 > 0 ? p1.map((v) => v / l1) : Math.abs(r0[1]) < 0.9 ? [0, 1, 0] : [0, 0, 1];
  if (l1 <= 0) {
    const q = r1.map((v, i) => v - dot(r0, r1) * r0[i]);
    r1 = q.map((v) => v / len(q));
  }
  const r2 = [r0[1] * r1[2] - r0[2] * r1[1], r0[2] * r1[0] - r0[0] * r1[2], r0[0] * r1[1] - r0[1] * r1[0]];
  // Scale = column lengths, as the uploader decomposes the instance matrix
  // (LLMeshUploadThread::decomposeMeshMatrix); a reflection shows as a negative z.
  const sy = len(c1);
  const sz = (dot(r2, c2) < 0 ? -1 : 1) * len(c2);
  const scale: [number, number, number] = [sx, sy, sz];
  // 2. Placement: C * R and C * t, as 3x3 row-major for core.
  const R = [r0, r1, r2]; // columns
  const rot = (row: number, col: number) => R[col][row];
  // C * R: row 0 = R row 0; row 1 = -(R row 2); row 2 = R row 1.
  const rotation: Placement['rotation'] = [
    rot(0, 0),
    rot(0, 1),
    rot(0, 2),
    -rot(2, 0),
    -rot(2, 1),
    -rot(2, 2),
    rot(1, 0),
    rot(1, 1),
    rot(1, 2),
  ];
  const translation: Placement['translation'] = [world[12], -world[14], world[13]];
  const matrix = [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0, 0, 0, 0, 1];
  return { matrix, placement: { rotation, translation, scale }, scale, det: Math.sign(sx * sy * sz) || 1 };
}

/** Applies the frame to a point. */
export function framePoint(m: ArrayLike<number>, x: number, y: number, z: number, out: Float32Array, o: number): void {
  out[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

/** A normal mapper for the frame's 3x3 (inverse transpose, kept pointing outward, unit length). */
export function frameNormal(
  m: ArrayLike<number>,
): (x: number, y: number, z: number, out: Float32Array, o: number) => void {
  const a = m[0],
    b = m[4],
    c = m[8],
    d = m[1],
    e = m[5],
    f = m[9],
    g = m[2],
    h = m[6],
    i = m[10];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const s = det < 0 ? -1 : 1;
  // Cofactor matrix = inverse transpose times the determinant.
  const c00 = e * i - f * h,
    c01 = -(d * i - f * g),
    c02 = d * h - e * g;
  const c10 = -(b * i - c * h),
    c11 = a * i - c * g,
    c12 = -(a * h - b * g);
  const c20 = b * f - c * e,
    c21 = -(a * f - c * d),
    c22 = a * e - b * d;
  return (x, y, z, out, o) => {
    const nx = s * (c00 * x + c01 * y + c02 * z);
    const ny = s * (c10 * x + c11 * y + c12 * z);
    const nz = s * (c20 * x + c21 * y + c22 * z);
    const l = Math.hypot(nx, ny, nz) || 1;
    out[o] = nx / l;
    out[o + 1] = ny / l;
    out[o + 2] = nz / l;
  };
}

/** Inverse of an affine column-major 4x4 (the frame's matrix back to mesh-local). */
export function invertAffine(m: ArrayLike<number>): number[] {
  const a = m[0],
    b = m[4],
    c = m[8],
    d = m[1],
    e = m[5],
    f = m[9],
    g = m[2],
    h = m[6],
    i = m[10];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const inv = det !== 0 ? 1 / det : 0;
  const r = [
    (e * i - f * h) * inv,
    -(b * i - c * h) * inv,
    (b * f - c * e) * inv,
    -(d * i - f * g) * inv,
    (a * i - c * g) * inv,
    -(a * f - c * d) * inv,
    (d * h - e * g) * inv,
    -(a * h - b * g) * inv,
    (a * e - b * d) * inv,
  ]; // row-major inverse
  const tx = m[12],
    ty = m[13],
    tz = m[14];
  return [
    r[0],
    r[3],
    r[6],
    0,
    r[1],
    r[4],
    r[7],
    0,
    r[2],
    r[5],
    r[8],
    0,
    -(r[0] * tx + r[1] * ty + r[2] * tz),
    -(r[3] * tx + r[4] * ty + r[5] * tz),
    -(r[6] * tx + r[7] * ty + r[8] * tz),
    1,
  ];
}
