/**
 * Meshes for the LOD tests (not a test file): procedural shapes built the way Blender exports
 * them (vertices split per face where normals or UVs differ), V-HACD's real OBJ meshes, and the
 * meshoptimizer simplifier. core does not depend on meshoptimizer; its tests take the copy
 * installed for @slmesh/gltf-plugin, as a user of core would inject it.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MeshoptSimplifier } from '../../../gltf-plugin/node_modules/meshoptimizer/index.js';
import type { Face, MeshLod, SlObject } from '../../src/types.js';

export { MeshoptSimplifier };

/** UV sphere of radius r: smooth normals, UVs, `seg` segments around and `seg / 2` rings. */
export function uvSphere(seg: number, r = 1, material = 'Sphere', center: [number, number, number] = [0, 0, 0]): Face {
  const rings = Math.max(2, Math.floor(seg / 2));
  const positions: number[] = [],
    normals: number[] = [],
    uvs: number[] = [],
    indices: number[] = [];
  for (let j = 0; j <= rings; j++) {
    for (let i = 0; i <= seg; i++) {
      const th = (Math.PI * j) / rings,
        ph = (2 * Math.PI * i) / seg;
      const n = [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
      positions.push(center[0] + r * n[0], center[1] + r * n[1], center[2] + r * n[2]);
      normals.push(n[0], n[1], n[2]);
      uvs.push(i / seg, j / rings);
    }
  }
  for (let j = 0; j < rings; j++) {
    for (let i = 0; i < seg; i++) {
      const a = j * (seg + 1) + i,
        b = a + 1,
        c = a + seg + 1,
        d = c + 1;
      if (j > 0) indices.push(a, c, b);
      if (j < rings - 1) indices.push(b, c, d);
    }
  }
  return {
    material,
    positions: Float32Array.from(positions),
    normals: Float32Array.from(normals),
    uvs: Float32Array.from(uvs),
    indices: Uint32Array.from(indices),
  };
}

/**
 * A box of size sx x sy x sz (centred at the origin), each side subdivided n x n, flat shaded,
 * one material per axis pair (so 3 faces meet along the edges), as a Blender export: every side
 * has its own vertices.
 */
export function materialBox(
  sx: number,
  sy: number,
  sz: number,
  n: number,
  materials: [string, string, string] = ['Red', 'Green', 'Blue'],
): MeshLod {
  const faces: Face[] = materials.map((m) => ({
    material: m,
    positions: new Float32Array(0),
    normals: new Float32Array(0),
    uvs: new Float32Array(0),
    indices: new Uint32Array(0),
  }));
  const half = [sx / 2, sy / 2, sz / 2];
  const acc = materials.map(() => ({ p: [] as number[], nn: [] as number[], uv: [] as number[], idx: [] as number[] }));
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const a = acc[axis];
      const u = (axis + 1) % 3,
        v = (axis + 2) % 3;
      const base = a.p.length / 3;
      for (let j = 0; j <= n; j++) {
        for (let i = 0; i <= n; i++) {
          const p = [0, 0, 0];
          p[axis] = sign * half[axis];
          p[u] = -half[u] + (2 * half[u] * i) / n;
          p[v] = -half[v] + (2 * half[v] * j) / n;
          const nn = [0, 0, 0];
          nn[axis] = sign;
          a.p.push(...p);
          a.nn.push(...nn);
          a.uv.push(i / n, j / n);
        }
      }
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) {
          const q = base + j * (n + 1) + i;
          if (sign > 0) a.idx.push(q, q + 1, q + n + 2, q, q + n + 2, q + n + 1);
          else a.idx.push(q, q + n + 2, q + 1, q, q + n + 1, q + n + 2);
        }
      }
    }
  }
  acc.forEach((a, k) => {
    faces[k].positions = Float32Array.from(a.p);
    faces[k].normals = Float32Array.from(a.nn);
    faces[k].uvs = Float32Array.from(a.uv);
    faces[k].indices = Uint32Array.from(a.idx);
  });
  return { faces };
}

/** A V-HACD OBJ mesh (positions and triangles only), Y-up turned Z-up. */
export function vhacdMesh(name: string): Face {
  const text = readFileSync(resolve(__dirname, '../../../../node_modules/vhacd-js/app/meshes', name), 'utf8');
  const v: number[] = [],
    idx: number[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'v') v.push(+t[1], -+t[3], +t[2]);
    else if (t[0] === 'f') {
      const c = t
        .slice(1)
        .filter(Boolean)
        .map((s) => {
          const i = +s.split('/')[0];
          return i < 0 ? v.length / 3 + i : i - 1;
        });
      for (let i = 1; i + 1 < c.length; i++) idx.push(c[0], c[i], c[i + 1]);
    }
  }
  return { material: name, positions: Float32Array.from(v), indices: Uint32Array.from(idx) };
}

export function object(name: string, faces: Face[]): SlObject {
  return { name, lods: { high: { faces } } };
}

/** Undirected edges used by exactly one triangle, over all faces, by position (open borders and cracks). */
export function openEdges(lod: MeshLod): number {
  const key = (p: Float32Array, i: number) => `${p[i * 3]},${p[i * 3 + 1]},${p[i * 3 + 2]}`;
  const count = new Map<string, number>();
  for (const f of lod.faces) {
    for (let t = 0; t + 2 < f.indices.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        const a = key(f.positions, f.indices[t + k]),
          b = key(f.positions, f.indices[t + ((k + 1) % 3)]);
        const e = a < b ? `${a}|${b}` : `${b}|${a}`;
        count.set(e, (count.get(e) ?? 0) + 1);
      }
    }
  }
  let open = 0;
  for (const c of count.values()) if (c === 1) open++;
  return open;
}

/** A flat-shaded (faceted) UV sphere: every triangle has its own three vertices and its face normal, like Blender's "Shade Flat". */
export function facetedSphere(seg: number, r = 1, material = 'Faceted'): Face {
  return faceted(uvSphere(seg, r, material));
}

/** `s` flat-shaded: every triangle corner its own vertex, with its triangle's normal (s's UVs kept). */
export function faceted(s: Face): Face {
  const material = s.material;
  const n = s.indices.length;
  const positions = new Float32Array(n * 3),
    normals = new Float32Array(n * 3),
    uvs = new Float32Array(n * 2),
    indices = new Uint32Array(n);
  for (let t = 0; t < n; t += 3) {
    const c = [0, 1, 2].map((k) => s.indices[t + k]);
    const p = c.map((i) => [s.positions[i * 3], s.positions[i * 3 + 1], s.positions[i * 3 + 2]]);
    const u = [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]],
      v = [p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]];
    const nn = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const l = Math.hypot(nn[0], nn[1], nn[2]) || 1;
    for (let k = 0; k < 3; k++) {
      positions.set(p[k], (t + k) * 3);
      normals.set([nn[0] / l, nn[1] / l, nn[2] / l], (t + k) * 3);
      uvs.set([s.uvs![c[k] * 2], s.uvs![c[k] * 2 + 1]], (t + k) * 2);
      indices[t + k] = t + k;
    }
  }
  return { material, positions, normals, uvs, indices };
}

/** `n` disconnected quads (two triangles each, own vertices) scattered in a unit ball, as foliage leaf cards are. */
export function leafCards(n: number, size = 0.12): Face {
  let seed = 12345;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const positions = new Float32Array(n * 12),
    normals = new Float32Array(n * 12),
    uvs = new Float32Array(n * 8),
    indices = new Uint32Array(n * 6);
  for (let q = 0; q < n; q++) {
    // A random centre in the ball and two random orthogonal in-plane axes.
    let c: number[];
    do c = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1];
    while (Math.hypot(c[0], c[1], c[2]) > 1);
    const a = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const la = Math.hypot(a[0], a[1], a[2]);
    const u = a.map((x) => x / la);
    const t = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const d = t[0] * u[0] + t[1] * u[1] + t[2] * u[2];
    const w0 = t.map((x, i) => x - d * u[i]);
    const lw = Math.hypot(w0[0], w0[1], w0[2]);
    const w = w0.map((x) => x / lw);
    const nrm = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const corners = [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ];
    corners.forEach(([s, r], k) => {
      for (let i = 0; i < 3; i++) {
        positions[q * 12 + k * 3 + i] = c[i] + (s * u[i] + r * w[i]) * size * 0.5;
        normals[q * 12 + k * 3 + i] = nrm[i];
      }
      uvs[q * 8 + k * 2] = (s + 1) / 2;
      uvs[q * 8 + k * 2 + 1] = (r + 1) / 2;
    });
    indices.set([q * 4, q * 4 + 1, q * 4 + 2, q * 4, q * 4 + 2, q * 4 + 3], q * 6);
  }
  return { material: 'Leaves', positions, normals, uvs, indices };
}
