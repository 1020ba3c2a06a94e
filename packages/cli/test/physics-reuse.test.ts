/**
 * Copies of one part get the physics built for the first (packages/cli/src/physics-reuse.ts):
 * the same arrays, not a second build; a copy at another scale or on its side is built anew.
 */

import { describe, expect, it } from 'vitest';
import { zlibNgDeflate, type Placement, type SlObject, type Vec3 } from '@slmesh/core';
import type { PhysicsHookContext } from '@slmesh/gltf-plugin/node';
import { physicsHookFor } from '../src/commands/optimize.js';
import { PhysicsReuse, surroundingsKey } from '../src/physics-reuse.js';

/** A UV sphere of radius r (closed, ~2 * seg * rings triangles). */
function sphere(r: number, seg: number, rings: number): { positions: Float32Array; indices: Uint32Array } {
  const p: number[] = [];
  const idx: number[] = [];
  for (let j = 0; j <= rings; j++) {
    const t = (Math.PI * j) / rings;
    for (let i = 0; i < seg; i++) {
      const a = (2 * Math.PI * i) / seg;
      p.push(r * Math.sin(t) * Math.cos(a), r * Math.sin(t) * Math.sin(a), r * Math.cos(t));
    }
  }
  for (let j = 0; j < rings; j++)
    for (let i = 0; i < seg; i++) {
      const a = j * seg + i,
        b = j * seg + ((i + 1) % seg),
        c = a + seg,
        d = b + seg;
      if (j > 0) idx.push(a, c, b);
      if (j < rings - 1) idx.push(b, c, d);
    }
  return { positions: Float32Array.from(p), indices: Uint32Array.from(idx) };
}

const ball = sphere(0.3, 24, 12);
function part(name: string, placement: Partial<Placement> = {}): SlObject {
  return {
    name,
    lods: { high: { faces: [{ material: 'm', positions: ball.positions.slice(), indices: ball.indices.slice() }] } },
    placement: { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0], ...placement },
  };
}

function ctx(scaleFactors: Vec3 = [1, 1, 1]): PhysicsHookContext {
  return {
    index: 0,
    model: { objects: [] },
    source: 'test.glb',
    lodFactor: 2,
    scaleFactors,
    deflate: zlibNgDeflate,
    logger: undefined as unknown as PhysicsHookContext['logger'],
  };
}

describe('physics of copies', () => {
  it('a moved copy gets the same physics; another scale, size or up axis is built anew', async () => {
    const hook = physicsHookFor('auto', undefined, () => {});
    const first = await hook(part('Wheel'), ctx());
    expect(first.hull).toBeDefined();
    const moved = await hook(part('Wheel.001', { translation: [5, -2, 1] }), ctx());
    expect(moved.name).toBe('Wheel.001');
    expect(moved.placement!.translation).toEqual([5, -2, 1]);
    expect(moved.hull).toBe(first.hull);
    expect(moved.physicsMesh).toBe(first.physicsMesh);
    expect(moved.physicsChoice).toBe(first.physicsChoice);
    // A scale an exporter rounded differently (a millionth of the size) is the same part.
    const rounded = await hook(part('Wheel.002', { scale: [0.99999998, 0.99999998, 1] }), ctx());
    expect(rounded.hull).toBe(first.hull);

    const bigger = await hook(part('Wheel.003', { scale: [2, 2, 2] }), ctx());
    expect(bigger.hull).not.toBe(first.hull);
    const atSize = await hook(part('Wheel.004'), ctx([3, 3, 3]));
    expect(atSize.hull).not.toBe(first.hull);
    // On its side (the prim's up axis is y): openings are judged another way up.
    const onSide = await hook(part('Wheel.005', { rotation: [1, 0, 0, 0, 0, 1, 0, -1, 0] }), ctx());
    expect(onSide.hull).not.toBe(first.hull);
    // Other geometry.
    const other = part('Cog');
    other.lods.high.faces[0].positions[0] += 0.01;
    expect((await hook(other, ctx())).hull).not.toBe(first.hull);
  });

  it("a copy reports the first one's warnings under its own name", async () => {
    const lines: string[] = [];
    const hook = physicsHookFor('mesh', undefined, (s) => lines.push(s));
    // A sheet with a sliver: its physics mesh is warned about (physics-mesh-costly).
    const sheet = (name: string, translation: Vec3): SlObject => ({
      name,
      lods: {
        high: {
          faces: [
            {
              material: 'm',
              positions: Float32Array.from([
                0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.2, 0.5, 0, 0.8, 0.50001, 0, 0.5, 0.50002, 0,
              ]),
              indices: Uint32Array.from([0, 1, 2, 0, 2, 3, 4, 5, 6]),
            },
          ],
        },
      },
      placement: { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation },
    });
    await hook(sheet('Sign', [0, 0, 0]), ctx());
    await hook(sheet('Sign.001', [4, 0, 0]), ctx());
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length % 2).toBe(0);
    const half = lines.length / 2;
    for (let i = 0; i < half; i++) {
      expect(lines[i]).toMatch(/^slmesh: Sign: /);
      expect(lines[half + i]).toBe(lines[i].replace('slmesh: Sign: ', 'slmesh: Sign.001: '));
    }
  });
});

describe('PhysicsReuse', () => {
  it('finds only an equal input, hashing only inputs of the same shape', () => {
    const reuse = new PhysicsReuse<string>();
    const a = part('a');
    expect(reuse.find(a, [1, 1, 1], 2)).toBeUndefined();
    reuse.add(a, [1, 1, 1], 2, undefined, 'built for a');
    // Same array lengths (same signature), one coordinate moved: a different input.
    const moved = part('moved');
    const face = moved.lods.high.faces[0];
    face.positions[face.positions.length - 1] += 0.01;
    expect(reuse.find(moved, [1, 1, 1], 2)).toBeUndefined();
    reuse.add(moved, [1, 1, 1], 2, undefined, 'built for moved');
    // A copy of either finds its own, whichever was added first.
    expect(reuse.find(part('copy'), [1, 1, 1], 2)).toEqual({ name: 'a', built: 'built for a' });
    const copyOfMoved = part('copy of moved');
    copyOfMoved.lods.high.faces[0].positions.set(face.positions);
    expect(reuse.find(copyOfMoved, [1, 1, 1], 2)).toEqual({ name: 'moved', built: 'built for moved' });
    // Another size factor or download weight, or another surface: not the same input.
    expect(reuse.find(part('copy'), [1, 1, 2], 2)).toBeUndefined();
    expect(reuse.find(part('copy'), [1, 1, 1], 3)).toBeUndefined();
    expect(reuse.find(part('copy'), [1, 1, 1], 2, part('s').lods.high)).toBeUndefined();
  });

  it('keeps the builds of equal inputs together and gives the first one `accept` takes', () => {
    const reuse = new PhysicsReuse<number>();
    for (let i = 0; i < 3; i++) reuse.add(part(`p${i}`), [1, 1, 1], 2, undefined, i);
    expect(reuse.find(part('q'), [1, 1, 1], 2)).toEqual({ name: 'p0', built: 0 });
    expect(reuse.find(part('q'), [1, 1, 1], 2, undefined, (b) => b >= 1)).toEqual({ name: 'p1', built: 1 });
    expect(reuse.find(part('q'), [1, 1, 1], 2, undefined, (b) => b === 2)).toEqual({ name: 'p2', built: 2 });
    expect(reuse.find(part('q'), [1, 1, 1], 2, undefined, (b) => b > 2)).toBeUndefined();
  });
});

/** Closed axis-aligned boxes as one mesh (flat xyz, outward). */
function boxesMesh(list: [Vec3, Vec3][]): { positions: Float32Array; indices: Uint32Array } {
  const p: number[] = [];
  const idx: number[] = [];
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  for (const [lo, hi] of list) {
    const base = p.length / 3;
    for (let i = 0; i < 8; i++) p.push(i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]);
    for (const [a, b, c, d] of quads) idx.push(base + a, base + b, base + c, base + a, base + c, base + d);
  }
  return { positions: Float32Array.from(p), indices: Uint32Array.from(idx) };
}

/** A closed ball (288 triangles): each pole's vertices at one point (sin(pi) leaves them 1e-17 apart). */
function closedBall(): { positions: Float32Array; indices: Uint32Array } {
  const ball = sphere(0.6, 24, 12);
  return { ...ball, positions: ball.positions.map((v) => (Math.abs(v) < 1e-9 ? 0 : v)) };
}

describe('auto physics in a linkset', () => {
  // A 4 m by 3 m room of walls on a floor, no doorway (prim frame centred), and a flat roof.
  const walls = boxesMesh([
    [
      [-2, -1.5, -1.35],
      [2, 1.5, -1.25],
    ],
    [
      [-2, 1.3, -1.25],
      [2, 1.5, 1.25],
    ],
    [
      [-2, -1.5, -1.25],
      [2, -1.3, 1.25],
    ],
    [
      [-2, -1.3, -1.25],
      [-1.8, 1.3, 1.25],
    ],
    [
      [1.8, -1.3, -1.25],
      [2, 1.3, 1.25],
    ],
  ]);
  const roof = boxesMesh([
    [
      [-2.2, -1.7, -0.1],
      [2.2, 1.7, 0.1],
    ],
  ]);
  const obj = (name: string, mesh: typeof walls, translation: Vec3): SlObject => ({
    name,
    lods: { high: { faces: [{ material: 'm', positions: mesh.positions.slice(), indices: mesh.indices.slice() }] } },
    placement: { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation },
  });
  const inModel = (objects: SlObject[], index: number): PhysicsHookContext => ({ ...ctx(), model: { objects }, index });
  /** Walls at each x, each under a roof at its height z (Walls, Roof, Walls.001, Roof.001, ...). */
  const underRoofs = (places: [number, number, typeof roof?][]) =>
    places.flatMap(([x, z, mesh = roof], i) => {
      const suffix = i > 0 ? `.${String(i).padStart(3, '0')}` : '';
      return [obj(`Walls${suffix}`, walls, [x, 0, 1.35]), obj(`Roof${suffix}`, mesh, [x, 0, z])];
    });

  it("walls under another object's roof get their hull; the same walls elsewhere without a roof keep the room open (not a copy's physics)", async () => {
    const hook = physicsHookFor('auto', undefined, () => {});
    const objects = [
      obj('Walls', walls, [0, 0, 1.35]),
      obj('Roof', roof, [0, 0, 2.7]),
      obj('Walls.001', walls, [20, 0, 1.35]),
    ];
    const roofed = await hook(objects[0], inModel(objects, 0));
    expect(roofed.physicsChoice!.shape).toBe('hull');
    const open = await hook(objects[2], inModel(objects, 2));
    expect(open.physicsChoice!.shape).not.toBe('hull');
    expect(open.physicsChoice!.reason).toMatch(/single hull would close/);
    // Judged alone (a model of one object), the walls keep the room open too.
    const alone = await hook(objects[0], inModel([objects[0]], 0));
    expect(alone.physicsChoice!.shape).not.toBe('hull');
  });

  it('a copy under a roof does not take the build of a copy that looked for a roof and found none', async () => {
    const hook = physicsHookFor('auto', undefined, () => {});
    const objects = [
      obj('Walls', walls, [20, 0, 1.35]),
      obj('Walls.001', walls, [0, 0, 1.35]),
      obj('Roof', roof, [0, 0, 2.7]),
    ];
    const open = await hook(objects[0], inModel(objects, 0));
    expect(open.physicsChoice!.shape).not.toBe('hull');
    const roofed = await hook(objects[1], inModel(objects, 1));
    expect(roofed.physicsChoice!.shape).toBe('hull');
    expect(roofed.physicsChoice).not.toBe(open.physicsChoice);
  });

  it('copies under roofs in the same places share one build; a copy under a higher roof is built anew', async () => {
    const hook = physicsHookFor('auto', undefined, () => {});
    // Placed at x = 0.1, 10.3 and 20.7: each copy's surroundings come out a float step or two apart.
    const objects = underRoofs([
      [0.1, 2.7],
      [10.3, 2.7],
      [20.7, 3.9],
    ]);
    const first = await hook(objects[0], inModel(objects, 0));
    expect(first.physicsChoice!.shape).toBe('hull');
    const copy = await hook(objects[2], inModel(objects, 2));
    expect(copy.physicsChoice).toBe(first.physicsChoice);
    const other = await hook(objects[4], inModel(objects, 4));
    expect(other.physicsChoice).not.toBe(first.physicsChoice);
  });

  it('surroundingsKey: the same parts in the same places give one key, to float noise; any other part, place or turn another', () => {
    // Walls under roofs: two alike, then a roof 0.1 mm higher, one of another shape, one turned.
    const objects = underRoofs([
      [0.1, 2.7],
      [10.3, 2.7],
      [20.7, 2.7 + 1e-4],
      [30.7, 2.7, { ...roof, positions: roof.positions.map((v) => v * 1.01) }],
      [40.7, 2.7],
    ]);
    objects[9].placement!.rotation = [0, -1, 0, 1, 0, 0, 0, 0, 1];
    // The offsets come out of the translations a float step apart: 10.3 - 10.3 and 0.1 - 0.1 are 0 exactly, so nudge one.
    objects[3].placement!.translation = [10.3 + 1e-12, 0, 2.7];
    const key = (i: number) => surroundingsKey(objects, i, [i + 1]);
    expect(key(2)).toBe(key(0));
    expect(new Set([0, 4, 6, 8].map(key)).size).toBe(4);
    // A part placed nowhere (NaN) shares with none: not even with one at offset 0.
    const nowhere = underRoofs([
      [0.1, 2.7],
      [10.3, 2.7],
    ]);
    nowhere[1].placement!.translation = [Number.NaN, 0, 2.7];
    expect(surroundingsKey(nowhere, 0, [1])).not.toBe(surroundingsKey(nowhere, 2, [3]));
  });

  it('balls under a roof share one build: a closed convex solid is judged without its surroundings', async () => {
    const hook = physicsHookFor('auto', undefined, () => {});
    const big = closedBall();
    const objects = [
      obj('Ball', big, [0, 0, 0.6]),
      obj('Ball.001', big, [0.5, 0, 0.6]),
      obj('Roof', roof, [0, 0, 2.7]),
    ];
    const first = await hook(objects[0], inModel(objects, 0));
    const copy = await hook(objects[1], inModel(objects, 1));
    expect(copy.physicsChoice).toBe(first.physicsChoice);
    expect(copy.hull).toBe(first.hull);
  });
});
