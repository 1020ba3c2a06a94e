/**
 * A lighter triangle-mesh physics shape for an object whose single hull closes an opening an
 * avatar uses (avatar-openings.ts: a bowl, a ring, an arch, a room). The triangle mesh keeps such
 * an opening, but made from a LOD it is often the costliest shape there is: its weight is
 * K * triangles / harmonic-mean width (physics-cost.ts), so many small triangles cost a lot (V-HACD's
 * pelvis at 2.6 m: 257 triangles of a low LOD, 63.4, where its download weight is 6.3).
 *
 * Here the object's surface (welded by position) is simplified with the injected simplifier to
 * half, a quarter, ... of its triangles (fewer, larger triangles: lighter), and so is each of its
 * `alternatives`; a simplification is kept only when it still keeps the opening:
 * 1. the avatar test run on the simplified surface itself still finds an opening that the hull
 *    closes, a passage where the original was one (a hollow may become a passage: it opens
 *    further): the avatar can still reach it and fits in it;
 * 2. it is the same opening: 90 % of the places the avatar's axis can be in it (its axis points)
 *    lie within `near` of a place it could be in the original one (a new opening elsewhere does
 *    not count);
 * 3. it is not much smaller: at least `keepShare` (80 %) of the original's axis points stay
 *    `margin` clear of the simplified surface (the rule the decomposition merged for openings
 *    follows for all of them, opening-merge.ts; a simplified surface always cuts a little into
 *    the space, so most, not all).
 * Of those, the least simplified one whose weight is at most `floorWeight` (below it a lighter
 * shape no longer lowers land impact) wins, keeping the closest fit; else the lightest.
 *
 * The fit away from the opening is loose (the pelvis' 46-triangle shape strays up to about 45 cm
 * from its 2.6 m surface): the shape is for walking and colliding, and the bounding box, the
 * loosest candidate auto has, is judged the same way. Deterministic; pure.
 */

import { triangleMeshPhysicsCost } from '../cost/physics-cost.js';
import type { PhysicsCostSettings } from '../constants.js';
import { compactVertices, withoutZeroAreaTriangles } from '../geometry/indexed-mesh.js';
import { boxSize, emptyBox, growBox } from '../geometry/object-geometry.js';
import { weldMesh } from '../geometry/weld-mesh.js';
import { TriangleBvh } from '../lod/hausdorff.js';
import { type AvatarOpening, type AvatarOpeningOptions, avatarOpenings } from './avatar-openings.js';
import type { SimplifyFn } from './physics-mesh.js';

export interface OpeningMeshOptions {
  /** Simplifier, injected (meshoptimizer's `simplify` fits). */
  simplify: SimplifyFn;
  /** The opening the single hull closes, judged on the full surface (with its axis points). */
  opening: AvatarOpening;
  /** The single hull, flat xyz, the frame of the surface. */
  hull: ArrayLike<number>;
  /** How openings are judged (the avatar's size, the up axis). */
  openingOptions: AvatarOpeningOptions;
  /** How far the simplified surface stays from every axis point, metres. */
  margin: number;
  /** The object's land impact floor (download or server weight): lighter than this lowers nothing. */
  floorWeight: number;
  /** Only a mesh lighter than this is returned (the weight of the mesh it would replace). */
  maxWeight: number;
  /** Physics-cost settings. */
  physics?: Partial<PhysicsCostSettings>;
  /** Share of the opening's axis points that must stay `margin` clear. Default 0.8. */
  keepShare?: number;
  /**
   * How near each axis point of the simplified surface's opening lies to one of the original's,
   * metres. Default 0.2: the two grids differ by up to a cell (about 8 cm), and axis points are
   * at least 0.21 m from any surface, so two openings a wall apart are at least 0.42 m apart.
   */
  near?: number;
  /**
   * Other versions of the same surface (same frame) whose simplifications compete too: optimize
   * gives the planned high, already simplified within a pixel, beside the authored surface. A
   * simplifier's path from each differs, and either may end lighter.
   */
  alternatives?: readonly { positions: Float32Array; indices: ArrayLike<number> }[];
  /** Fewest triangles tried. Default 4. */
  minTriangles?: number;
  /** Called between steps; throws to cancel. */
  check?: () => void;
}

export interface OpeningMesh {
  /** The simplified surface, the frame and units of the input (welded: positions shared by its triangles). */
  positions: Float32Array;
  indices: Uint32Array;
  /** Its physics weight (triangle mesh). */
  weight: number;
  triangles: number;
}

/**
 * Share of the simplified opening's axis points that must lie near the original's: a simplified
 * surface ends lower or narrower than the original here and there, and the avatar grid of the new
 * surface is laid out from its own box, so a few places near its edges differ.
 */
const NEAR_SHARE = 0.9;

/** Each simplification aims at this share of the triangles of the one before. */
const STEP = 0.85;

/** A test: is (x, y, z) within `r` of one of `points` (flat xyz)? A hash grid of cell r. */
function pointGrid(points: Float64Array, r: number): (x: number, y: number, z: number) => boolean {
  const cells = new Map<string, number[]>();
  const key = (i: number, j: number, k: number) => `${i},${j},${k}`;
  for (let q = 0; q + 2 < points.length; q += 3) {
    const k = key(Math.floor(points[q] / r), Math.floor(points[q + 1] / r), Math.floor(points[q + 2] / r));
    let list = cells.get(k);
    if (!list) cells.set(k, (list = []));
    list.push(q);
  }
  const r2 = r * r;
  return (x, y, z) => {
    const ci = Math.floor(x / r),
      cj = Math.floor(y / r),
      ck = Math.floor(z / r);
    for (let i = ci - 1; i <= ci + 1; i++)
      for (let j = cj - 1; j <= cj + 1; j++)
        for (let k = ck - 1; k <= ck + 1; k++)
          for (const q of cells.get(key(i, j, k)) ?? []) {
            const dx = points[q] - x,
              dy = points[q + 1] - y,
              dz = points[q + 2] - z;
            if (dx * dx + dy * dy + dz * dz <= r2) return true;
          }
    return false;
  };
}

/**
 * The lightest (or, at the floor, the closest-fitting) simplification of the surface that keeps
 * the opening; undefined when none is lighter than `maxWeight`. See the file comment.
 */
export function openingKeepingMesh(
  positions: Float32Array,
  indices: ArrayLike<number>,
  options: OpeningMeshOptions,
): OpeningMesh | undefined {
  const { opening } = options;
  if (!opening.closes || !opening.points || opening.points.length === 0) return undefined;
  const size = Math.max(...boxSize(growBox(emptyBox(), positions)));
  const minTriangles = options.minTriangles ?? 4;
  const candidates: OpeningMesh[] = [];
  for (const source of [{ positions, indices }, ...(options.alternatives ?? [])]) {
    // 1. The surface welded by position (exports split vertices along seams).
    const w = weldMesh(source.positions, source.indices, 1e-6 * size);
    const p = Float32Array.from(w.positions);
    // 2. Simplifications to half the triangles, then ever fewer (each from the one before).
    let current = withoutZeroAreaTriangles(p, Uint32Array.from(w.indices));
    for (let target = Math.floor(current.length / 6); target >= minTriangles; target = Math.floor(target * STEP)) {
      options.check?.();
      // A step may overshoot its target: never ask for more than the current mesh has.
      const next = withoutZeroAreaTriangles(p, options.simplify(p, current, 3 * Math.min(target, current.length / 3)));
      if (next.length === 0 || next.length >= current.length) continue;
      current = next;
      const weight = triangleMeshPhysicsCost(p, next, options.physics).cost;
      if (weight < options.maxWeight)
        candidates.push({ positions: p, indices: next, weight, triangles: next.length / 3 });
    }
  }
  // 3. The closest fit at the floor, else the lightest, that keeps the opening.
  const pts = opening.points;
  const margin2 = options.margin * options.margin;
  const keepShare = options.keepShare ?? 0.8;
  const nearOriginal = pointGrid(pts, options.near ?? 0.2);
  const keeps = (c: OpeningMesh): boolean => {
    options.check?.();
    // Condition 3 first: a distance per axis point, where the avatar test builds a voxel grid;
    // a surface simplified into the opening fails it without one.
    const bvh = TriangleBvh.build({ positions: c.positions, indices: c.indices });
    let clear = 0;
    for (let i = 0; i + 2 < pts.length; i += 3)
      if (bvh.closestDistanceSquared(pts[i], pts[i + 1], pts[i + 2], margin2) >= margin2) clear++;
    if (clear < keepShare * (pts.length / 3)) return false;
    const [again] = avatarOpenings(c.positions, c.indices, [options.hull], options.openingOptions);
    // A passage stays a passage; a hollow may become one (it opens further: a ring's lower rim).
    if (!again.closes || !again.points || (opening.kind === 'passage' && again.kind !== 'passage')) return false;
    let far = 0;
    for (let i = 0; i + 2 < again.points.length; i += 3)
      if (!nearOriginal(again.points[i], again.points[i + 1], again.points[i + 2])) far++;
    return far <= (1 - NEAR_SHARE) * (again.points.length / 3);
  };
  const floor = options.floorWeight * (1 + 1e-9);
  const atFloor = candidates.filter((c) => c.weight <= floor).sort((a, b) => b.triangles - a.triangles);
  const above = candidates.filter((c) => c.weight > floor).sort((a, b) => a.weight - b.weight);
  const chosen = atFloor.find(keeps) ?? above.find(keeps);
  return (
    chosen && {
      ...compactVertices(chosen.positions, chosen.indices),
      weight: chosen.weight,
      triangles: chosen.triangles,
    }
  );
}
