/**
 * Impostor-like cards (lod-cards.ts): per face, crossed two-sided quads through its oriented box,
 * as many as its shape calls for, covering its points seen across each card.
 */

import { describe, expect, it } from 'vitest';
import { CARD_AREA_SHARE, cardsLod } from '../../src/lod/lod-cards.js';
import { prepareLodSource } from '../../src/lod/lod-generator.js';
import { emptyFace } from '../../src/geometry/object-geometry.js';
import { conformLod } from '../../src/lod/lod-conform.js';
import type { Face, MeshLod } from '../../src/types.js';
import { leafCards, uvSphere } from './lod-fixtures.js';

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const at = (p: ArrayLike<number>, i: number): V3 => [p[3 * i], p[3 * i + 1], p[3 * i + 2]];

/** A random rotation (from a seeded quaternion) and its application. */
function rotation(seed: number): (p: V3) => V3 {
  let s = seed;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5;
  let q = [rnd(), rnd(), rnd(), rnd()];
  const l = Math.hypot(...q);
  q = q.map((x) => x / l);
  const [w, x, y, z] = q;
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  return (p) => [dot(m[0] as V3, p), dot(m[1] as V3, p), dot(m[2] as V3, p)];
}

/** A box of sides `size` (closed, 12 triangles, own normals and uvs), rotated by `rot`. */
function box(size: V3, rot: (p: V3) => V3 = (p) => p, material = 'Box'): Face {
  const positions: number[] = [],
    normals: number[] = [],
    uvs: number[] = [],
    indices: number[] = [];
  for (let axis = 0; axis < 3; axis++)
    for (const sign of [-1, 1]) {
      const [i, j] = [0, 1, 2].filter((x) => x !== axis);
      const base = positions.length / 3;
      for (const [a, b] of [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ]) {
        const p: V3 = [0, 0, 0];
        p[axis] = (sign * size[axis]) / 2;
        p[i] = (a * size[i]) / 2;
        p[j] = (b * size[j]) / 2;
        const n: V3 = [0, 0, 0];
        n[axis] = sign;
        positions.push(...rot(p));
        normals.push(...rot(n));
        uvs.push((a + 1) / 2, (b + 1) / 2);
      }
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  return {
    material,
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    uvs: new Float32Array(uvs),
    indices: new Uint32Array(indices),
  };
}

/** The cards of a single-face LOD, each card as its two triangles of one side (front side first). */
function cardsOf(lod: MeshLod, maxCards?: number, frame?: 'principal' | 'prim') {
  return cardsLod(prepareLodSource(lod), { maxCards, frame });
}

/** Every triangle of `face`: its corners and geometric normal. */
function triangles(face: Face) {
  const out: { p: V3[]; n: V3; vn: V3[] }[] = [];
  for (let t = 0; t < face.indices.length; t += 3) {
    const idx = [face.indices[t], face.indices[t + 1], face.indices[t + 2]];
    const p = idx.map((i) => at(face.positions, i));
    out.push({
      p,
      n: cross(sub(p[1], p[0]), sub(p[2], p[0])),
      vn: face.normals ? idx.map((i) => at(face.normals!, i)) : [],
    });
  }
  return out;
}

describe('cardsLod', () => {
  it('gives a flat panel one card, a stick two and a bushy crown three (at most maxCards)', () => {
    const rot = rotation(7);
    const cases: [Face, number][] = [
      [box([2, 1.4, 0.02], rot), 1],
      [box([0.1, 0.12, 3], rot), 2],
      [leafCards(600), 3],
    ];
    for (const [face, cards] of cases) {
      const r = cardsOf({ faces: [face] });
      expect(r.mode).toBe('cards');
      // Two triangles per side, two sides per card, eight vertices per card.
      expect(r.triangles).toBe(4 * cards);
      expect(r.vertices).toBe(8 * cards);
      expect(cardsOf({ faces: [face] }, 1).triangles).toBe(4);
    }
    // The share that makes a card is the documented one.
    expect(CARD_AREA_SHARE).toBeGreaterThan(0);
  });

  it('makes every card two-sided, each side wound to face its vertex normals', () => {
    const face = cardsOf({ faces: [leafCards(400)] }).lod.faces[0];
    const tris = triangles(face);
    for (const t of tris) {
      for (const vn of t.vn) expect(dot(vn, t.n)).toBeGreaterThan(0);
      // The same corners, facing the other way.
      const key = (ps: V3[]) =>
        ps
          .map((p) => p.map((x) => x.toFixed(5)).join(','))
          .sort()
          .join(';');
      const twin = tris.find((u) => u !== t && key(u.p) === key(t.p) && dot(u.n, t.n) < 0);
      expect(twin).toBeDefined();
    }
  });

  it("spans each face's UV box, keeps faces, materials and which attributes each face has", () => {
    const sphere = uvSphere(12, 1, 'Skin');
    const bare: Face = { ...box([1, 1, 1], undefined, 'Bare') };
    delete bare.normals;
    delete bare.uvs;
    const lod: MeshLod = { faces: [sphere, emptyFace('Nothing'), bare] };
    const r = cardsOf(lod);
    expect(r.lod.faces.map((f) => f.material)).toEqual(['Skin', 'Nothing', 'Bare']);
    expect(r.lod.faces[1].indices.length).toBe(0);
    expect(r.lod.faces[2].normals).toBeUndefined();
    expect(r.lod.faces[2].uvs).toBeUndefined();
    const uvRange = (uv: Float32Array) => {
      const u = [...uv].filter((_, i) => i % 2 === 0),
        v = [...uv].filter((_, i) => i % 2 === 1);
      return [Math.min(...u), Math.min(...v), Math.max(...u), Math.max(...v)];
    };
    const want = uvRange(sphere.uvs!);
    uvRange(r.lod.faces[0].uvs!).forEach((x, i) => expect(x).toBeCloseTo(want[i], 5));
  });

  it("cards across the prim frame's axes are left as they are by the conformance pass; tilted ones are bent", () => {
    // A crown of leaves and a tilted slab: prim-frame cards reach every side of the box they span
    // (or sit at its centre on an axis they are flat on), so conformLod changes nothing.
    for (const face of [leafCards(500), box([2, 0.6, 0.3], rotation(3))]) {
      const high: MeshLod = { faces: [face] };
      for (const maxCards of [1, 3]) {
        const prim = cardsOf(high, maxCards, 'prim').lod;
        const conformed = conformLod(high, prim);
        expect([...conformed.faces[0].positions]).toEqual([...prim.faces[0].positions]);
      }
    }
    // The tilted slab's principal-axis card is not box-aligned: the pass moves its corners.
    const slab: MeshLod = { faces: [box([2, 0.6, 0.3], rotation(3))] };
    const tilted = cardsOf(slab, 1, 'principal').lod;
    expect([...conformLod(slab, tilted).faces[0].positions]).not.toEqual([...tilted.faces[0].positions]);
  });

  it('property: seen across its largest card, every point of a face falls on that card', () => {
    for (let seed = 1; seed <= 40; seed++) {
      let s = seed * 7919;
      const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
      const rot = rotation(seed);
      const scale: V3 = [0.05 + 3 * rnd(), 0.05 + 3 * rnd(), 0.05 + 3 * rnd()];
      const shift: V3 = [10 * rnd() - 5, 10 * rnd() - 5, 10 * rnd() - 5];
      // A random cloud of triangles in a stretched, rotated, shifted box.
      const n = 20 + Math.floor(200 * rnd());
      const positions = new Float32Array(9 * n);
      for (let i = 0; i < 3 * n; i++) {
        const p = rot([scale[0] * (rnd() - 0.5), scale[1] * (rnd() - 0.5), scale[2] * (rnd() - 0.5)]);
        positions.set(
          p.map((x, k) => x + shift[k]),
          3 * i,
        );
      }
      const face: Face = { material: 'M', positions, indices: Uint32Array.from({ length: 3 * n }, (_, i) => i) };
      const card = cardsOf({ faces: [face] }, 1).lod.faces[0];
      const [t0, t1] = triangles(card);
      const normal = t0.n.map((x) => x / Math.hypot(...t0.n)) as V3;
      const size = Math.hypot(...scale);
      const inside = (q: V3) => {
        // Project q onto the card's plane; inside one of the two front triangles.
        const d = dot(sub(q, t0.p[0]), normal);
        const p = sub(q, normal.map((x) => x * d) as V3);
        const inTri = (a: V3, b: V3, c: V3) => {
          const w = [cross(sub(b, a), sub(p, a)), cross(sub(c, b), sub(p, b)), cross(sub(a, c), sub(p, c))];
          return w.every((x) => dot(x, normal) >= -1e-4 * size * size);
        };
        return inTri(t0.p[0], t0.p[1], t0.p[2]) || inTri(t1.p[0], t1.p[1], t1.p[2]);
      };
      for (let i = 0; i < 3 * n; i++) expect(inside(at(positions, i))).toBe(true);
    }
  });
});
