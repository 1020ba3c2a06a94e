import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AVATAR_OPENING_DEFAULTS,
  avatarOpenings,
  convexSolidPlanes,
  LINKSET_OPENING_CELLS,
  MAX_OPENING_POINTS,
  openingCellsPerObject,
} from '../../src/physics/avatar-openings.js';
import { convexHull, exactConvexHull } from '../../src/physics/convex-hull.js';
import {
  box,
  boxes,
  closedRoom,
  doorwayWall,
  room,
  sphere,
  standingTorus,
  table as tableMesh,
  torus,
  type TestMesh,
} from './physics-fixtures.js';

const hullOf = (m: TestMesh) => convexHull(Float32Array.from(m.positions)).points;
const scaled = (m: TestMesh, s: number): TestMesh => ({ positions: m.positions.map((v) => v * s), indices: m.indices });
const check = (m: TestMesh) => avatarOpenings(m.positions, m.indices, [hullOf(m)])[0];

describe('avatarOpenings', () => {
  it('a room entered by a 1 m doorway: its hull closes space an avatar uses', () => {
    const r = check(room());
    expect(r.closes).toBe(true);
    expect(r.width).toBeGreaterThan(0.5);
  });

  it('the same room at a fifth of its size has no opening an avatar fits', () => {
    expect(check(scaled(room(), 0.2)).closes).toBe(false);
  });

  it('a wall with a 1 m doorway: a passage; the wall without it: none', () => {
    const wall = doorwayWall();
    const r = check(wall);
    expect(r.closes).toBe(true);
    expect(r.kind).toBe('passage');
    expect(
      check(
        boxes([
          [
            [-2, 0, 0],
            [2, 0.2, 2.5],
          ],
        ]),
      ).closes,
    ).toBe(false);
  });

  it('a table 0.75 m high: no avatar walks under it; at 3x (a pavilion on four posts) one does', () => {
    const table = tableMesh();
    expect(check(table).closes).toBe(false);
    const big = scaled(table, 3);
    const r = check(big);
    expect(r.closes).toBe(true);
    expect(r.kind).toBe('passage');
  });

  it("the nook under a life-size figure's outstretched arm is no passage; an arm reaching the ground makes one", () => {
    const torso: [number[], number[]] = [
      [-0.2, -0.15, 0],
      [0.2, 0.15, 2.0],
    ];
    const arm: [number[], number[]] = [
      [-1.2, -0.08, 1.85],
      [-0.2, 0.08, 1.95],
    ];
    const hand = (bottom: number): [number[], number[]] => [
      [-1.25, -0.08, bottom],
      [-1.15, 0.08, 1.85],
    ];
    expect(check(boxes([torso, arm, hand(1.4)])).closes).toBe(false);
    const r = check(boxes([torso, arm, hand(0)]));
    expect(r.closes).toBe(true);
    expect(r.kind).toBe('passage');
  });

  it("a gap over a figure's back (high above the ground) is no passage; the same gap near the ground is", () => {
    const saddle = (back: number) =>
      boxes([
        [
          [0, 0, 0],
          [3, 0.5, back],
        ],
        [
          [0, 0, back],
          [0.4, 0.5, back + 2.2],
        ],
        [
          [2.4, 0, back],
          [3, 0.5, back + 2.2],
        ],
      ]);
    expect(check(saddle(1.3)).closes).toBe(false);
    const low = check(saddle(0.3));
    expect(low.closes).toBe(true);
    expect(low.kind).toBe('passage');
  });

  it('a 1 m by 2.1 m doorway is a passage standing up, not lying on its side (up is x)', () => {
    const wall = doorwayWall();
    const hull = [hullOf(wall)];
    expect(avatarOpenings(wall.positions, wall.indices, hull, { up: 2 })[0].kind).toBe('passage');
    expect(avatarOpenings(wall.positions, wall.indices, hull, { up: 0 })[0].closes).toBe(false);
    // The same wall turned so that y is up: the doorway stands along y.
    const turned = {
      positions: wall.positions.map((_, i, p) => p[i - (i % 3) + [0, 2, 1][i % 3]]),
      indices: wall.indices,
    };
    expect(avatarOpenings(turned.positions, turned.indices, [hullOf(turned)], { up: 1 })[0].kind).toBe('passage');
  });

  it('property: a gap lower than an avatar is never an opening, however wide', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.3, max: 1.5, noNaN: true }),
        fc.double({ min: 0.6, max: 3, noNaN: true }),
        (h, gap) => {
          // Two blocks bridged at height h: the gap under the bridge is `gap` wide and h high.
          const m = boxes([
            [
              [0, 0, 0],
              [1, 1, h],
            ],
            [
              [1 + gap, 0, 0],
              [2 + gap, 1, h],
            ],
            [
              [0, 0, h],
              [2 + gap, 1, h + 0.3],
            ],
          ]);
          expect(check(m).closes).toBe(false);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a standing ring with a 2.2 m hole is a passage; with a 1.5 m hole (too low to walk through) or lying flat it is not', () => {
    expect(check(standingTorus(1.35, 0.25, 32, 12)).kind).toBe('passage');
    expect(check(standingTorus(1, 0.25, 32, 12)).closes).toBe(false);
    expect(check(torus(1.35, 0.25, 32, 12)).closes).toBe(false);
    // Without the height (a ball alone), the 1.5 m ring is a passage, a 0.3 m one is not.
    const ring = standingTorus(1, 0.25, 32, 12);
    expect(avatarOpenings(ring.positions, ring.indices, [hullOf(ring)], { height: 0.5 })[0].kind).toBe('passage');
    const small = standingTorus(0.4, 0.25, 32, 12);
    expect(avatarOpenings(small.positions, small.indices, [hullOf(small)], { height: 0.5 })[0].closes).toBe(false);
  });

  it('a flat standing ring (a single sheet, no thickness) is a passage wherever its plane falls on the grid', () => {
    for (const offset of [0, 0.02, 0.0417]) {
      const pos: number[] = [],
        idx: number[] = [];
      for (let i = 0; i < 32; i++) {
        const a = (2 * Math.PI * i) / 32;
        pos.push(2 * Math.cos(a), offset, 2 + 2 * Math.sin(a), 1.85 * Math.cos(a), offset, 2 + 1.85 * Math.sin(a));
      }
      for (let i = 0; i < 32; i++) {
        const o = 2 * i,
          q = 2 * ((i + 1) % 32);
        idx.push(o, q, o + 1, o + 1, q, q + 1);
      }
      const p = Float32Array.from(pos);
      const [o] = avatarOpenings(p, Uint32Array.from(idx), [convexHull(p).points], { up: 2 });
      expect(o.closes).toBe(true);
      expect(o.kind).toBe('passage');
    }
  });

  it('property: a closed convex blob (a sphere, any size) never has an opening', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.2, max: 4, noNaN: true }), fc.integer({ min: 8, max: 24 }), (radius, seg) => {
        expect(check(sphere(radius, seg, Math.max(4, seg >> 1))).closes).toBe(false);
      }),
      { numRuns: 8 },
    );
  });

  it('property: two blocks with a gap close an opening exactly when the gap is well over avatar size', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 2, noNaN: true }), (gap) => {
        const m = boxes([
          [
            [0, 0, 0],
            [1, 1, 2],
          ],
          [
            [1 + gap, 0, 0],
            [2 + gap, 1, 2],
          ],
          [
            [0, 0, 2],
            [2 + gap, 1, 2.3],
          ],
        ]);
        const r = check(m);
        if (gap >= 0.6) expect(r.closes).toBe(true);
        if (gap <= 0.35) expect(r.closes).toBe(false);
      }),
      { numRuns: 16 },
    );
  });
});

describe('avatarOpenings: the rest of the linkset (surroundings)', () => {
  const roofAt = (z: number) => box([-2.2, -1.7, z], [2.2, 1.7, z + 0.2]);
  const judge = (m: TestMesh, surroundings?: TestMesh) =>
    avatarOpenings(m.positions, m.indices, [hullOf(m)], surroundings ? { surroundings } : {})[0];

  it('walls under a roof that is another object enclose nothing an avatar reaches; alone, their hull closes a room', () => {
    expect(judge(closedRoom()).closes).toBe(true);
    expect(judge(closedRoom(), roofAt(2.5)).closes).toBe(false);
  });

  it('the same walls with a doorway, under the same roof: the room is still reached, through the door', () => {
    const r = judge(room(), roofAt(2.5));
    expect(r.closes).toBe(true);
    expect(r.kind).toBe('enclosed');
  });

  it('a door that is a part of its own (it opens) does not close its doorway: only what lies overhead counts', () => {
    // room()'s doorway is x -0.5..0.5 in the wall at y -1.5..-1.3, 2.1 m high: a panel fills it.
    const door = box([-0.5, -1.45, 0], [0.5, -1.35, 2.1]);
    const merged: TestMesh = {
      positions: Float64Array.from([...roofAt(2.5).positions, ...door.positions]),
      indices: Uint32Array.from([...roofAt(2.5).indices, ...Array.from(door.indices, (i) => i + 8)]),
    };
    expect(judge(room(), merged).closes).toBe(true);
    // The same panel as part of the walls' own surface does close it (the room is then shut).
    const shut: TestMesh = {
      positions: Float64Array.from([...room().positions, ...door.positions]),
      indices: Uint32Array.from([
        ...room().indices,
        ...Array.from(door.indices, (i) => i + room().positions.length / 3),
      ]),
    };
    expect(judge(shut, roofAt(2.5)).closes).toBe(false);
  });

  it('a roof high enough above the walls for an avatar to come in under it closes nothing: the room stays an opening', () => {
    expect(judge(closedRoom(), roofAt(5)).closes).toBe(true);
  });

  it('storeys that are other objects: a shaft of walls is closed by a roof however high above (no grid top taken for open sky)', () => {
    // The walls' storey, two more storeys of walls (other objects) above it, then a roof.
    const storey = (z: number) =>
      boxes([
        [
          [-2, 1.3, z],
          [2, 1.5, z + 2.5],
        ],
        [
          [-2, -1.5, z],
          [2, -1.3, z + 2.5],
        ],
        [
          [-2, -1.3, z],
          [-1.8, 1.3, z + 2.5],
        ],
        [
          [1.8, -1.3, z],
          [2, 1.3, z + 2.5],
        ],
      ]);
    const merge = (...ms: TestMesh[]): TestMesh => {
      let offset = 0;
      const indices: number[] = [];
      for (const m of ms) {
        for (const i of m.indices) indices.push(i + offset);
        offset += m.positions.length / 3;
      }
      return {
        positions: Float64Array.from(ms.flatMap((m) => Array.from(m.positions))),
        indices: Uint32Array.from(indices),
      };
    };
    const above = merge(storey(2.5), storey(5));
    expect(judge(closedRoom(), above).closes).toBe(true);
    expect(judge(closedRoom(), merge(above, roofAt(7.5))).closes).toBe(false);
  });

  it('surroundings that leave a way in (a roof far above), lie beyond an avatar beside it, or stand on its ground (a wall beside it, something below its base) change nothing', () => {
    const base = judge(closedRoom());
    for (const far of [
      roofAt(6),
      roofAt(40),
      box([10, -1, 0], [11, 1, 3]),
      box([-3, -3, -5], [3, 3, -4]),
      box([-2.5, -2.4, 0], [2.5, -2.2, 2.6]),
    ]) {
      const r = judge(closedRoom(), far);
      expect(r.closes).toBe(base.closes);
      expect(r.kind).toBe(base.kind);
    }
  });

  it('a roof triangle far larger than the grid is left out (bounded work): judged as without it', () => {
    const huge: TestMesh = {
      positions: Float64Array.from([-1e5, -1e5, 2.5, 1e5, -1e5, 2.5, 0, 1e5, 2.5]),
      indices: Uint32Array.from([0, 1, 2]),
    };
    expect(judge(closedRoom(), huge).closes).toBe(true);
  });
});

describe('avatarOpenings: closed convex solids need no grid', () => {
  /** A closed convex solid: the hull of random points, as its triangles. */
  const convexSolid = (pts: number[][]): TestMesh => {
    const h = exactConvexHull(Float64Array.from(pts.flat()));
    return h ? { positions: [...h.points], indices: [...h.triangles] } : { positions: [], indices: [] };
  };
  const withAndWithout = (m: TestMesh) => {
    const hulls = [hullOf(m), boxPointsOf(m)];
    const quick = avatarOpenings(m.positions, m.indices, hulls);
    const full = avatarOpenings(m.positions, m.indices, hulls, { convexShortcut: false });
    return { quick: quick.map((o) => o.closes), full: full.map((o) => o.closes) };
  };
  const boxPointsOf = (m: TestMesh) => {
    const lo = [0, 1, 2].map((k) => Math.min(...m.positions.filter((_, i) => i % 3 === k)));
    const hi = [0, 1, 2].map((k) => Math.max(...m.positions.filter((_, i) => i % 3 === k)));
    return box(lo, hi).positions;
  };

  /** 8 to 40 points in the unit cube (a convex solid's corners, scaled). */
  const unitPoints = fc.array(
    fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ),
    { minLength: 8, maxLength: 40 },
  );

  it("property: for random convex solids (2 to 8 m) the answer with the shortcut is the grid's", () => {
    fc.assert(
      fc.property(unitPoints, fc.double({ min: 2, max: 8, noNaN: true }), (unit, size) => {
        const m = convexSolid(unit.map((p) => p.map((v) => v * size)));
        if (!m.indices.length) return;
        expect(convexSolidPlanes(m.positions, m.indices, 1e-6 * size)).toBeDefined();
        const { quick, full } = withAndWithout(m);
        expect(quick).toEqual(full);
      }),
      { numRuns: 12, seed: 7 },
    );
  });

  it('property: a hull up to 5 cm outside a convex solid (a reduced hull) closes nothing, as the grid says, and the surroundings are never made', () => {
    fc.assert(
      fc.property(
        unitPoints,
        fc.double({ min: 2, max: 8, noNaN: true }),
        fc.double({ min: 0, max: 0.0499, noNaN: true }),
        (unit, size, push) => {
          const m = convexSolid(unit.map((p) => p.map((v) => v * size)));
          if (!m.indices.length) return;
          // Every corner moved `push` away from the centroid: at most `push` from the solid.
          const c = [0, 1, 2].map(
            (k) => m.positions.filter((_, i) => i % 3 === k).reduce((a, b) => a + b, 0) / (m.positions.length / 3),
          );
          const out = [...m.positions];
          for (let i = 0; i < out.length; i += 3) {
            const d = Math.hypot(out[i] - c[0], out[i + 1] - c[1], out[i + 2] - c[2]) || 1;
            for (let k = 0; k < 3; k++) out[i + k] += (push * (out[i + k] - c[k])) / d;
          }
          let made = 0;
          const surroundings = () => {
            made++;
            return box([c[0] - 1, c[1] - 1, c[2] + size + 2], [c[0] + 1, c[1] + 1, c[2] + size + 2.1]);
          };
          const quick = avatarOpenings(m.positions, m.indices, [out], { surroundings });
          expect(quick[0].closes).toBe(false);
          expect(made).toBe(0);
          const full = avatarOpenings(m.positions, m.indices, [out], { convexShortcut: false });
          expect(full[0].closes).toBe(false);
        },
      ),
      { numRuns: 10, seed: 11 },
    );
  });

  it('a hull reaching 6 cm past a convex solid is judged on the grid, surroundings included (made once per call)', () => {
    const m = box([0, 0, 0], [3, 3, 2.5]);
    const hull = box([-0.06, 0, 0], [3, 3, 2.5]).positions;
    let made = 0;
    const r = avatarOpenings(m.positions, m.indices, [hull], {
      surroundings: () => {
        made++;
        return undefined;
      },
    });
    expect(r[0].closes).toBe(false);
    expect(made).toBe(1);
  });

  it('is not taken for an open, inconsistently wound, duplicated or concave surface', () => {
    const b = box([0, 0, 0], [3, 3, 2.5]);
    expect(convexSolidPlanes(b.positions, b.indices, 1e-6)).toBeDefined();
    // An open-top box 3 m wide: a room the hull closes (the grid must say so).
    const top = b.indices.findIndex(
      (_, t) => t % 3 === 0 && [0, 1, 2].every((k) => b.positions[3 * b.indices[t + k] + 2] === 2.5),
    );
    const open = { positions: b.positions, indices: b.indices.filter((_, i) => Math.floor(i / 3) !== top / 3) };
    expect(convexSolidPlanes(open.positions, open.indices, 1e-6)).toBeUndefined();
    const flipped = {
      positions: b.positions,
      indices: [b.indices[0], b.indices[2], b.indices[1], ...b.indices.slice(3)],
    };
    expect(convexSolidPlanes(flipped.positions, flipped.indices, 1e-6)).toBeUndefined();
    const doubled = { positions: b.positions, indices: [...b.indices, ...b.indices.slice(0, 3)] };
    expect(convexSolidPlanes(doubled.positions, doubled.indices, 1e-6)).toBeUndefined();
    const ell = boxes([
      [
        [0, 0, 0],
        [3, 1, 2.5],
      ],
      [
        [0, 1, 0],
        [1, 3, 2.5],
      ],
    ]);
    expect(convexSolidPlanes(ell.positions, ell.indices, 1e-6)).toBeUndefined();
    // The shortcut never changes an answer: a room (open box walls) still closes under its hull.
    const r = room();
    expect(withAndWithout(r).quick).toEqual(withAndWithout(r).full);
    expect(withAndWithout(r).quick[0]).toBe(true);
  });
});

describe('avatarOpenings: the opening points of a big opening', () => {
  it('are thinned to a lattice whose spacing is reported: the same room on grids of another phase gives points within a spacing of each other', () => {
    const big = scaled(room(), 2.5);
    const a = check(big);
    // A speck 3 cm beyond the floor's corner moves the grid's box, so its cells fall elsewhere on the room.
    const p = [...big.positions, -5.03, -3.78, -0.25, -5.02, -3.78, -0.25, -5.03, -3.77, -0.25];
    const n = big.positions.length / 3;
    const moved: TestMesh = {
      positions: Float64Array.from(p),
      indices: Uint32Array.from([...big.indices, n, n + 1, n + 2]),
    };
    const b = avatarOpenings(moved.positions, moved.indices, [hullOf(big)])[0];
    expect(a.closes && b.closes).toBe(true);
    expect(a.points!.length / 3).toBeLessThanOrEqual(MAX_OPENING_POINTS);
    // Thinned: the room holds several times more axis cells than MAX_OPENING_POINTS.
    expect(a.spacing!).toBeGreaterThanOrEqual(2 * (0.5 / 6) * (1 - 1e-9));
    const nearest = (x: number, y: number, z: number, pts: Float64Array) => {
      let best = Infinity;
      for (let i = 0; i < pts.length; i += 3)
        best = Math.min(best, Math.hypot(pts[i] - x, pts[i + 1] - y, pts[i + 2] - z));
      return best;
    };
    let far = 0;
    const pb = b.points!;
    for (let i = 0; i < pb.length; i += 3)
      if (nearest(pb[i], pb[i + 1], pb[i + 2], a.points!) > 1.2 * a.spacing!) far++;
    expect(far).toBeLessThanOrEqual(0.05 * (pb.length / 3));
  });
});

describe('openingCellsPerObject', () => {
  it('a small linkset keeps the full grid per object; a big one shares the linkset budget, never below a floor (property)', () => {
    expect(openingCellsPerObject(1)).toBe(AVATAR_OPENING_DEFAULTS.maxCells);
    expect(openingCellsPerObject(32)).toBe(AVATAR_OPENING_DEFAULTS.maxCells);
    // 300 prims (the fuzzed prims-300 that took 2.5 minutes with a million cells each).
    expect(300 * openingCellsPerObject(300)).toBeLessThanOrEqual(LINKSET_OPENING_CELLS);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (n) => {
        const c = openingCellsPerObject(n);
        expect(c).toBeLessThanOrEqual(AVATAR_OPENING_DEFAULTS.maxCells);
        expect(c).toBeGreaterThanOrEqual(50_000);
        expect(openingCellsPerObject(n + 1)).toBeLessThanOrEqual(c);
        if (c > 50_000) expect(n * c).toBeLessThanOrEqual(LINKSET_OPENING_CELLS);
      }),
    );
  });
});
