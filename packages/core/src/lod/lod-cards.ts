/**
 * Impostor-like cards: the last resort for a lowest LOD that no simplification can shrink (a tree
 * of leaf cards, a cloud of small parts). Each face (material) becomes a few crossed, two-sided
 * quads through the middle of its own oriented box (its principal axes, or the prim frame's
 * axes: `CardsOptions.frame`): one card across each axis whose
 * cross-section is a good share of the largest (`CARD_AREA_SHARE`), so a flat panel gets one
 * card, a branch or a trunk two, a bushy crown three. A card's texture coordinates span the face's
 * UV box, its normals face either way: seen from far off, the material's texture fills about the
 * place the face filled.
 *
 * Second Life keeps the materials of high in every LOD (a LOD's faces line up with high's), so a
 * card cannot carry a baked picture of the object the way a game impostor does: it shows the
 * face's own texture. The planner measures a card LOD like any other candidate (screen-space error
 * and silhouette coverage) and takes it only where it is within the level's bound, which for the
 * lowest LOD of foliage is often the viewer's own LOD's error.
 */

import { principalAxes } from '../geometry/principal-axes.js';
import { emptyFace } from '../geometry/object-geometry.js';
import type { Face } from '../types.js';
import { ATTR_STRIDE, type LodSource, type SimplifiedLod } from './lod-generator.js';

/** A card across an axis is made when its area is at least this share of the face's largest cross-section. */
export const CARD_AREA_SHARE = 0.3;

export interface CardsOptions {
  /** At most this many cards per face, largest cross-section first (1 to 3). Default 3. */
  maxCards?: number;
  /**
   * The axes cards lie across: the face's own principal axes, or the prim frame's x, y and z (the
   * frame whose box the uploader normalises by: such cards reach the sides of the box they span
   * and are never bent by the conformance pass). Default 'principal'.
   */
  frame?: 'principal' | 'prim';
}

const PRIM_AXES: [number, number, number][] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** The cards LOD of `source` (see the file comment): as many faces as the source, empty where a face has no triangle. */
export function cardsLod(source: LodSource, options: CardsOptions = {}): SimplifiedLod<'cards'> {
  const maxCards = Math.min(3, Math.max(1, Math.floor(options.maxCards ?? 3)));
  const used = new Uint8Array(source.positions.length / 3);
  for (let i = 0; i + 2 < source.indices.length; i += 3) {
    const a = source.indices[i],
      b = source.indices[i + 1],
      c = source.indices[i + 2];
    if (a === b || b === c || a === c) continue;
    used[a] = used[b] = used[c] = 1;
  }
  const faces: Face[] = [];
  let triangles = 0,
    vertices = 0;
  for (let f = 0; f < source.materials.length; f++) {
    const pts: number[] = [];
    let umin = Infinity,
      vmin = Infinity,
      umax = -Infinity,
      vmax = -Infinity;
    for (let v = source.faceStart[f]; v < source.faceStart[f + 1]; v++) {
      if (!used[v]) continue;
      pts.push(source.positions[3 * v], source.positions[3 * v + 1], source.positions[3 * v + 2]);
      const u = source.attributes[v * ATTR_STRIDE + 3],
        w = source.attributes[v * ATTR_STRIDE + 4];
      umin = Math.min(umin, u);
      umax = Math.max(umax, u);
      vmin = Math.min(vmin, w);
      vmax = Math.max(vmax, w);
    }
    const axes = options.frame === 'prim' ? PRIM_AXES : undefined;
    const face = pts.length >= 9 ? faceCards(pts, maxCards, [umin, vmin, umax, vmax], axes) : undefined;
    if (!face) {
      faces.push(emptyFace(source.materials[f]));
      continue;
    }
    const out: Face = { material: source.materials[f], positions: face.positions, indices: face.indices };
    if (source.hasNormals[f]) out.normals = face.normals;
    if (source.hasUvs[f]) out.uvs = face.uvs;
    faces.push(out);
    triangles += face.indices.length / 3;
    vertices += face.positions.length / 3;
  }
  return { lod: { faces }, triangles, vertices, simplifierError: 0, mode: 'cards' };
}

interface CardFace {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
}

/** The cards of one face's points (flat xyz), or undefined when they span no area. */
function faceCards(
  pts: number[],
  maxCards: number,
  uvBox: [number, number, number, number],
  frame?: [number, number, number][],
): CardFace | undefined {
  const axes = frame ?? principalAxes(pts).axes;
  // The oriented box: extents of the points along each principal axis.
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pts.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const d = axes[k][0] * pts[i] + axes[k][1] * pts[i + 1] + axes[k][2] * pts[i + 2];
      lo[k] = Math.min(lo[k], d);
      hi[k] = Math.max(hi[k], d);
    }
  }
  const ext = [0, 1, 2].map((k) => hi[k] - lo[k]);
  const mid = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
  // Card k lies across axis k, spanning the other two.
  const area = [ext[1] * ext[2], ext[0] * ext[2], ext[0] * ext[1]];
  const largest = Math.max(...area);
  if (!(largest > 0)) return undefined;
  const cards = [0, 1, 2]
    .filter((k) => area[k] >= CARD_AREA_SHARE * largest)
    .sort((a, b) => area[b] - area[a])
    .slice(0, maxCards);
  const [u0, v0, u1, v1] = uvBox.map((x) => (Number.isFinite(x) ? x : 0));
  const positions = new Float32Array(cards.length * 8 * 3);
  const normals = new Float32Array(cards.length * 8 * 3);
  const uvs = new Float32Array(cards.length * 8 * 2);
  const indices = new Uint32Array(cards.length * 4 * 3);
  const point = (s: number[]) => [0, 1, 2].map((c) => axes[0][c] * s[0] + axes[1][c] * s[1] + axes[2][c] * s[2]);
  cards.forEach((k, n) => {
    const [i, j] = [0, 1, 2].filter((x) => x !== k);
    // Corners in (axis i, axis j), counter-clockwise seen from +axis k when (i, j, k) is right-handed.
    const corners: [number, number, number, number][] = [
      [lo[i], lo[j], u0, v0],
      [hi[i], lo[j], u1, v0],
      [hi[i], hi[j], u1, v1],
      [lo[i], hi[j], u0, v1],
    ];
    for (let side = 0; side < 2; side++) {
      const base = n * 8 + side * 4;
      const sign = side === 0 ? 1 : -1;
      corners.forEach(([a, b, u, v], c) => {
        const s = [0, 0, 0];
        s[i] = a;
        s[j] = b;
        s[k] = mid[k];
        const p = point(s);
        positions.set(p, 3 * (base + c));
        normals.set(
          axes[k].map((x) => sign * x),
          3 * (base + c),
        );
        uvs.set([u, v], 2 * (base + c));
      });
      // Wind each side to face its normal: (i, j, k) right-handed means e_i x e_j = +e_k.
      const cross = axes[i][1] * axes[j][2] - axes[i][2] * axes[j][1];
      const dotK =
        cross * axes[k][0] +
        (axes[i][2] * axes[j][0] - axes[i][0] * axes[j][2]) * axes[k][1] +
        (axes[i][0] * axes[j][1] - axes[i][1] * axes[j][0]) * axes[k][2];
      const ccw = dotK * sign > 0;
      const t = n * 12 + side * 6;
      const order = ccw ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2];
      order.forEach((c, m) => (indices[t + m] = base + c));
    }
  });
  return { positions, normals, uvs, indices };
}
