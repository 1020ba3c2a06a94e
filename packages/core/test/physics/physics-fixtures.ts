/**
 * Small generated meshes for the physics tests (flat xyz positions, three indices per triangle),
 * and helpers to check hulls against points.
 */

import { exactConvexHull } from '../../src/physics/convex-hull.js';

export interface TestMesh {
  positions: Float64Array;
  indices: Uint32Array;
}

const BOX_QUADS = [
  [0, 4, 6, 2],
  [1, 3, 7, 5],
  [0, 1, 5, 4],
  [2, 6, 7, 3],
  [0, 2, 3, 1],
  [4, 5, 7, 6],
];

/** Appends a closed, outward-facing axis-aligned box. */
export function addBox(mesh: { pos: number[]; idx: number[] }, min: number[], max: number[]): void {
  const base = mesh.pos.length / 3;
  for (let i = 0; i < 8; i++) mesh.pos.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  for (const [a, b, c, d] of BOX_QUADS) mesh.idx.push(base + a, base + b, base + c, base + a, base + c, base + d);
}

export function box(min = [0, 0, 0], max = [1, 1, 1]): TestMesh {
  const m = { pos: [] as number[], idx: [] as number[] };
  addBox(m, min, max);
  return { positions: Float64Array.from(m.pos), indices: Uint32Array.from(m.idx) };
}

/** Several boxes as one mesh (touching or overlapping closed parts, as modellers join them). */
export function boxes(list: [number[], number[]][]): TestMesh {
  const m = { pos: [] as number[], idx: [] as number[] };
  for (const [a, b] of list) addBox(m, a, b);
  return { positions: Float64Array.from(m.pos), indices: Uint32Array.from(m.idx) };
}

/** A UV sphere, closed and outward. */
export function sphere(radius = 1, seg = 24, rings = 12, center = [0, 0, 0]): TestMesh {
  const pos: number[] = [center[0], center[1], center[2] - radius];
  for (let r = 1; r < rings; r++) {
    const phi = -Math.PI / 2 + (Math.PI * r) / rings;
    for (let s = 0; s < seg; s++) {
      const th = (2 * Math.PI * s) / seg;
      pos.push(
        center[0] + radius * Math.cos(phi) * Math.cos(th),
        center[1] + radius * Math.cos(phi) * Math.sin(th),
        center[2] + radius * Math.sin(phi),
      );
    }
  }
  pos.push(center[0], center[1], center[2] + radius);
  const top = pos.length / 3 - 1;
  const idx: number[] = [];
  const at = (r: number, s: number) => 1 + (r - 1) * seg + (s % seg);
  for (let s = 0; s < seg; s++) idx.push(0, at(1, s + 1), at(1, s));
  for (let r = 1; r < rings - 1; r++)
    for (let s = 0; s < seg; s++)
      idx.push(at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r, s), at(r + 1, s + 1), at(r + 1, s));
  for (let s = 0; s < seg; s++) idx.push(top, at(rings - 1, s), at(rings - 1, s + 1));
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

/** A torus around z: ring radius R, tube radius r. */
export function torus(R = 1, r = 0.25, seg = 32, side = 12): TestMesh {
  const pos: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i < seg; i++) {
    const a = (2 * Math.PI * i) / seg;
    for (let j = 0; j < side; j++) {
      const b = (2 * Math.PI * j) / side;
      pos.push((R + r * Math.cos(b)) * Math.cos(a), (R + r * Math.cos(b)) * Math.sin(a), r * Math.sin(b));
    }
  }
  for (let i = 0; i < seg; i++) {
    for (let j = 0; j < side; j++) {
      const a = i * side + j,
        b = ((i + 1) % seg) * side + j,
        c = ((i + 1) % seg) * side + ((j + 1) % side),
        d = i * side + ((j + 1) % side);
      idx.push(a, b, c, a, c, d);
    }
  }
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

/** A 1.4 x 0.9 m table, 0.76 m high, on four thin legs. */
export function table(): TestMesh {
  const leg = (x: number, y: number): [number[], number[]] => [
    [x, y, 0],
    [x + 0.06, y + 0.06, 0.7],
  ];
  return boxes([
    [
      [0, 0, 0.7],
      [1.4, 0.9, 0.76],
    ],
    leg(0, 0),
    leg(1.34, 0),
    leg(0, 0.84),
    leg(1.34, 0.84),
  ]);
}

/** A 4 m wall, 0.2 m thick and 2.5 m high, with a 1 x 2.1 m doorway in its middle. */
export function doorwayWall(): TestMesh {
  return boxes([
    [
      [-2, 0, 0],
      [-0.5, 0.2, 2.5],
    ],
    [
      [0.5, 0, 0],
      [2, 0.2, 2.5],
    ],
    [
      [-0.5, 0, 2.1],
      [0.5, 0.2, 2.5],
    ],
  ]);
}

/**
 * A single-sided flat wall in the plane y = 0 facing -y, made of an nu x nv grid of quads over
 * [0, w] x [0, h] (x, z), without the cells whose centre lies in one of `holes` ([x0, x1, z0, z1]):
 * how exporters leave walls with windows and doorways.
 */
export function gridWall(w: number, h: number, nu: number, nv: number, holes: number[][] = []): TestMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= nv; j++) for (let i = 0; i <= nu; i++) positions.push((w * i) / nu, 0, (h * j) / nv);
  const at = (i: number, j: number) => j * (nu + 1) + i;
  for (let j = 0; j < nv; j++)
    for (let i = 0; i < nu; i++) {
      const cu = (w * (i + 0.5)) / nu,
        cz = (h * (j + 0.5)) / nv;
      if (holes.some(([u0, u1, z0, z1]) => cu > u0 && cu < u1 && cz > z0 && cz < z1)) continue;
      indices.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/**
 * A 6 x 5 m house shell (Z up): four single-sided walls 3 m high and a flat roof, each a grid of
 * 0.25 m quads, a 1 x 2.25 m doorway in the front (y = 0) wall and 1 m windows 1.25 m above the
 * ground, two in each of the other walls and the front. The windows are holes an avatar has no
 * use for; the doorway is the way in.
 */
export function shellHouse(): TestMesh & { door: number[]; windows: number[][] } {
  const W = 6,
    D = 5,
    H = 3;
  const win = (x: number) => [x, x + 1, 1.25, 2.25];
  // Each wall: its length, its holes (along it), and where its grid's (u, 0, z) goes.
  const walls: [number, number[][], (u: number, z: number) => number[]][] = [
    [W, [win(0.75), [2.5, 3.5, 0, 2.25], win(4.25)], (u, z) => [u, 0, z]],
    [D, [win(0.75), win(3.25)], (u, z) => [W, u, z]],
    [W, [win(0.75), win(4.25)], (u, z) => [W - u, D, z]],
    [D, [win(0.75), win(3.25)], (u, z) => [0, D - u, z]],
  ];
  const pos: number[] = [];
  const idx: number[] = [];
  for (const [len, holes, place] of walls) {
    const g = gridWall(len, H, 4 * len, 4 * H, holes);
    const base = pos.length / 3;
    for (let i = 0; i < g.positions.length; i += 3) pos.push(...place(g.positions[i], g.positions[i + 2]));
    for (const v of g.indices) idx.push(base + v);
  }
  // The roof: the same grid laid flat at the walls' top, facing up.
  const roof = gridWall(W, D, 4 * W, 4 * D);
  const base = pos.length / 3;
  for (let i = 0; i < roof.positions.length; i += 3) pos.push(roof.positions[i], roof.positions[i + 2], H);
  for (const v of roof.indices) idx.push(base + v);
  return {
    positions: Float64Array.from(pos),
    indices: Uint32Array.from(idx),
    door: [3, 0, 1],
    windows: [
      [1.25, 0, 1.75],
      [W, 1.25, 1.75],
      [W - 1.25, D, 1.75],
      [0, D - 1.25, 1.75],
    ],
  };
}

/** The torus above stood upright (its hole's axis along y, Z up): a ring an avatar may walk through. */
export function standingTorus(R = 1, r = 0.25, seg = 32, side = 12): TestMesh {
  const t = torus(R, r, seg, side);
  const p = t.positions;
  for (let i = 0; i < p.length; i += 3) [p[i + 1], p[i + 2]] = [p[i + 2], -p[i + 1]];
  return t;
}

/** A 4 x 3 m room: floor, 0.2 m walls 2.5 m high, a 1 x 2.1 m doorway centred in the front (-y) wall. */
export function room(): TestMesh & { doorway: number[][] } {
  const m = boxes([
    [
      [-2, -1.5, -0.1],
      [2, 1.5, 0],
    ],
    [
      [-2, 1.3, 0],
      [2, 1.5, 2.5],
    ],
    [
      [-2, -1.3, 0],
      [-1.8, 1.3, 2.5],
    ],
    [
      [1.8, -1.3, 0],
      [2, 1.3, 2.5],
    ],
    [
      [-2, -1.5, 0],
      [-0.5, -1.3, 2.5],
    ],
    [
      [0.5, -1.5, 0],
      [2, -1.3, 2.5],
    ],
    [
      [-0.5, -1.5, 2.1],
      [0.5, -1.3, 2.5],
    ],
  ]);
  return {
    ...m,
    doorway: [
      [0, -1.4, 1.0],
      [0, -1.4, 0.3],
      [-0.35, -1.4, 1.8],
      [0.35, -1.4, 1.0],
    ],
  };
}

/** room() without its doorway: four walls on a floor, no roof, a 4 m by 3 m room open only at the top. */
export function closedRoom(): TestMesh {
  return boxes([
    [
      [-2, -1.5, -0.1],
      [2, 1.5, 0],
    ],
    [
      [-2, 1.3, 0],
      [2, 1.5, 2.5],
    ],
    [
      [-2, -1.5, 0],
      [2, -1.3, 2.5],
    ],
    [
      [-2, -1.3, 0],
      [-1.8, 1.3, 2.5],
    ],
    [
      [1.8, -1.3, 0],
      [2, 1.3, 2.5],
    ],
  ]);
}

/**
 * A cooling tower's shell, z up, standing on z = 0: a waisted tube 8 m tall (outer radius 3.1 m
 * at the foot, 2.0 m at the waist, 2.4 m at the rim), its wall 0.2 m thick (an outer and an inner
 * surface of `seg` sides and 10 rings, joined at the foot and the rim: closed), open at the top
 * and the bottom. The shape of FlightGear's Models/Power/coolingtower.ac, as one closed wall.
 */
export function coolingTower(seg = 32): TestMesh {
  // Ring heights and outer radii, metres (the model's rings scaled to 8 m).
  const z = [0, 2.64, 3.31, 3.98, 4.65, 5.32, 5.99, 6.66, 7.33, 8];
  const r = [3.08, 2.47, 2.31, 2.21, 2.13, 2.08, 2.04, 2.11, 2.21, 2.36];
  const wall = 0.2;
  const rings = z.length;
  const pos: number[] = [];
  for (const side of [0, 1])
    for (let j = 0; j < rings; j++)
      for (let i = 0; i < seg; i++) {
        const a = (2 * Math.PI * i) / seg,
          radius = r[j] - side * wall;
        pos.push(radius * Math.cos(a), radius * Math.sin(a), z[j]);
      }
  const at = (side: number, j: number, i: number) => side * rings * seg + j * seg + (i % seg);
  const idx: number[] = [];
  const quad = (a: number, b: number, c: number, d: number) => idx.push(a, b, c, a, c, d);
  for (let i = 0; i < seg; i++) {
    for (let j = 0; j + 1 < rings; j++) {
      quad(at(0, j, i), at(0, j, i + 1), at(0, j + 1, i + 1), at(0, j + 1, i));
      quad(at(1, j, i), at(1, j + 1, i), at(1, j + 1, i + 1), at(1, j, i + 1));
    }
    quad(at(0, rings - 1, i), at(0, rings - 1, i + 1), at(1, rings - 1, i + 1), at(1, rings - 1, i));
    quad(at(1, 0, i), at(1, 0, i + 1), at(0, 0, i + 1), at(0, 0, i));
  }
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

/** Planes (n, d per face, n.x <= d inside) of the hull of a flat xyz point set. */
export function hullPlanes(points: ArrayLike<number>): Float64Array {
  const h = exactConvexHull(Float64Array.from(points));
  if (!h) throw new Error('hull of the points failed');
  return h.planes;
}

/** Largest signed distance of any point outside the planes (<= 0: all inside). */
export function worstOutside(planes: Float64Array, points: ArrayLike<number>): number {
  let worst = -Infinity;
  for (let i = 0; i + 2 < points.length; i += 3) {
    let d = -Infinity;
    for (let k = 0; k < planes.length; k += 4)
      d = Math.max(
        d,
        planes[k] * points[i] + planes[k + 1] * points[i + 1] + planes[k + 2] * points[i + 2] - planes[k + 3],
      );
    worst = Math.max(worst, d);
  }
  return worst;
}

export function insideHull(planes: Float64Array, x: number, y: number, z: number, margin = 0): boolean {
  for (let k = 0; k < planes.length; k += 4)
    if (planes[k] * x + planes[k + 1] * y + planes[k + 2] * z > planes[k + 3] + margin) return false;
  return true;
}

/** Signed volume of a closed mesh. */
export function meshVolume(m: { positions: ArrayLike<number>; indices: ArrayLike<number> }): number {
  const p = m.positions,
    ix = m.indices;
  let v = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t],
      b = 3 * ix[t + 1],
      c = 3 * ix[t + 2];
    v +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return v / 6;
}

/** Edges used by exactly one triangle. */
export function openEdges(m: { positions: ArrayLike<number>; indices: ArrayLike<number> }): number {
  const nv = m.positions.length / 3;
  const uses = new Map<number, number>();
  for (let t = 0; t < m.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = m.indices[t + k],
        b = m.indices[t + ((k + 1) % 3)];
      const key = a < b ? a * nv + b : b * nv + a;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  let n = 0;
  for (const c of uses.values()) if (c === 1) n++;
  return n;
}
