/**
 * A lighter triangle-mesh physics shape for an object whose single hull closes an opening an
 * avatar uses (avatar-openings.ts: a bowl, a ring, an arch, a room). The triangle mesh keeps such
 * an opening, but made from a LOD it is often the costliest shape there is: its weight is
 * K * triangles / harmonic-mean width (physics-cost.ts), so many small triangles cost a lot (V-HACD's
 * pelvis at 2.6 m: 257 triangles of a low LOD, 63.4, where its download weight is 6.3).
 *
 * Candidates, from the object's surface (welded by position) and from each of its `alternatives`:
 * - simplifications with the injected simplifier to half, then ever fewer of its triangles;
 * - the surface with the holes no avatar needs capped (cappedSurface: windows), simplified too;
 * - each of those with its flat regions re-triangulated from their outlines (planar-remesh.ts),
 *   as they are and snapped to a few centimetres' grid: a simplifier cannot close a hole, and a
 *   wall's openings leave slivers no simplification removes (FlightGear's Montserrat house).
 * A candidate is kept only when it still keeps the opening and fits:
 * 1. the avatar test run on it still finds an opening that the hull closes, a passage where the
 *    original was one (a hollow may become a passage: it opens further): the avatar can still
 *    reach it and fits in it;
 * 2. it is the same opening: 90 % of the places the avatar's axis can be in it (its axis points)
 *    lie within `near` (or 1.2 lattice spacings) of a place it could be in the original one (a
 *    new opening elsewhere does not count);
 * 3. it is not much smaller: at least `keepShare` (80 %) of the original's axis points stay
 *    `margin` clear of it (the rule the decomposition merged for openings follows for all of
 *    them, opening-merge.ts; a simplified surface always cuts a little into the space);
 * 4. no wall is gone: at most an avatar's area, or 5 % of the original surface, lies farther
 *    than `maxStray` (two avatar widths) from it.
 * Of those, the closest fit (mean distance between the surfaces) whose weight is at most
 * `floorWeight` (below it a lighter shape no longer lowers land impact) wins; else the lightest.
 *
 * The fit away from the opening is otherwise loose (the pelvis' 46-triangle shape strays up to
 * about 45 cm from its 2.6 m surface): the shape is for walking and colliding, and the bounding
 * box, the loosest candidate auto has, is judged the same way. Deterministic; pure.
 */

import { triangleMeshPhysicsCost } from '../cost/physics-cost.js';
import type { PhysicsCostSettings } from '../constants.js';
import { compactVertices, surfaceArea, withoutZeroAreaTriangles } from '../geometry/indexed-mesh.js';
import { boxSize, emptyBox, growBox } from '../geometry/object-geometry.js';
import { planarRemesh } from '../geometry/planar-remesh.js';
import { weldMesh } from '../geometry/weld-mesh.js';
import { sampleSurface, TriangleBvh } from '../lod/hausdorff.js';
import { type AvatarOpening, type AvatarOpeningOptions, avatarOpenings, PASSAGE_STEP } from './avatar-openings.js';
import { boundaryLoops } from '../geometry/boundary-loops.js';
import { loopCap } from './close-holes.js';
import { AVATAR_PASSAGE_HEIGHT, AVATAR_PASSAGE_WIDTH } from '../constants.js';
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
  /**
   * How far the candidate may be from the original surface, metres: at most an avatar's area
   * (width x height / 2), or 5 % of the original, may lie farther (the fit away from the opening
   * is loose, but a wall may not vanish). Default two avatar widths (1 m).
   */
  maxStray?: number;
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
  /** How it was made, for the report: "simplified", "windows capped, re-triangulated", "snapped to 10 cm, re-triangulated", ... */
  made: string;
}

/**
 * Share of the simplified opening's axis points that must lie near the original's: a simplified
 * surface ends lower or narrower than the original here and there, and the avatar grid of the new
 * surface is laid out from its own box, so a few places near its edges differ.
 */
const NEAR_SHARE = 0.9;

/** Snap grids tried before re-triangulating flat regions, as shares of the avatar's width (5, 10 and 20 cm). */
const SNAP_SHARES = [0.1, 0.2, 0.4];

/** Points of two openings are near when within this many lattice spacings (see `within`). */
const NEAR_SPACINGS = 1.2;

/** OpeningMeshOptions.keepShare's default. */
const KEEP_SHARE = 0.8;

/** Share of the original surface that may lie farther than maxStray from a candidate (or an avatar's area, if larger). */
const FIT_STRAY_SHARE = 0.05;

/** Area samples of the original surface for the fit check (maxStray). */
const FIT_SAMPLES = 4096;

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

/** A cap's normal may lean this far from level and still count as a wall's (a window's, not a ceiling's). */
const STEEP_CAP = 0.5;

/**
 * The surface with the holes no avatar needs capped: a simplifier cannot close a hole, so a wall
 * with windows keeps every window's slivers however far it is simplified (FlightGear's
 * Montserrat house, held out: 79 triangles of walls, a doorway and eight windows; the lightest
 * mesh that kept the doorway weighed 2.76, its windowless walls weigh a fraction of that).
 * Capped are loops an avatar cannot pass through (their box's diagonal under its width) and
 * loops wholly above a step from the ground (no passage starts there; PASSAGE_STEP) whose cap
 * stands like a wall (its normal within STEEP_CAP of level: a window, not a ceiling over a room
 * or a pen open to the sky). The capping is kept only when the capped surface still has the same
 * opening (`same`), so a doorway, or an upper room entered by its windows, stays open. Undefined
 * when it does not, or there is nothing to cap.
 */
function cappedSurface(
  p: Float32Array,
  indices: Uint32Array,
  options: OpeningMeshOptions,
  same: (again: AvatarOpening) => boolean,
): Uint32Array | undefined {
  const { loops } = boundaryLoops(indices, p.length / 3);
  if (loops.length === 0) return undefined;
  const up = options.openingOptions.up ?? 2;
  const width = options.openingOptions.width ?? AVATAR_PASSAGE_WIDTH;
  let base = Infinity;
  for (let t = 0; t < indices.length; t++) base = Math.min(base, p[3 * indices[t] + up]);
  const chosen: number[][] = [];
  for (const loop of loops) {
    const box = emptyBox();
    for (const v of loop) growBox(box, [p[3 * v], p[3 * v + 1], p[3 * v + 2]]);
    const [sx, sy, sz] = boxSize(box);
    if (Math.hypot(sx, sy, sz) < width) chosen.push(loop);
    else if (box.min[up] >= base + PASSAGE_STEP) {
      // Newell's normal of the loop: how level its cap lies.
      const n = [0, 0, 0];
      for (let i = 0; i < loop.length; i++) {
        const a = 3 * loop[i],
          b = 3 * loop[(i + 1) % loop.length];
        n[0] += (p[a + 1] - p[b + 1]) * (p[a + 2] + p[b + 2]);
        n[1] += (p[a + 2] - p[b + 2]) * (p[a] + p[b]);
        n[2] += (p[a] - p[b]) * (p[a + 1] + p[b + 1]);
      }
      const len = Math.hypot(n[0], n[1], n[2]);
      if (len > 0 && Math.abs(n[up]) / len < STEEP_CAP) chosen.push(loop);
    }
  }
  if (chosen.length === 0) return undefined;
  options.check?.();
  const caps = chosen.flatMap((loop) => loopCap(p, loop));
  const capped = new Uint32Array(indices.length + caps.length);
  capped.set(indices);
  capped.set(caps, indices.length);
  const [again] = avatarOpenings(p, capped, [options.hull], options.openingOptions);
  if (same(again)) return capped;
  return undefined;
}

/** What judges whether an opening found on a candidate is the one the hull closes (the file comment's conditions 1 and 2). */
type OpeningCheckOptions = Pick<OpeningMeshOptions, 'opening' | 'hull' | 'openingOptions' | 'keepShare' | 'near'>;

/**
 * Conditions 1 and 2 of the file comment for an opening the avatar test found on a candidate
 * (`same`; `whole` adds that keepShare of the original's axis points lie near the candidate's),
 * and `kept`: condition 1, and keepShare of the original's axis points lie near the candidate's
 * (the opening is still where it was, whatever else opened).
 */
function sameOpeningAs(options: Pick<OpeningCheckOptions, 'opening' | 'keepShare' | 'near'>): {
  same: (again: AvatarOpening, whole?: boolean) => boolean;
  kept: (again: AvatarOpening) => boolean;
} {
  const opening = options.opening;
  const pts = opening.points ?? new Float64Array(0);
  // The same opening: a passage stays a passage (a hollow may become one: it opens further, a
  // ring's lower rim), and NEAR_SHARE of its axis points lie near the original's (a new opening
  // elsewhere does not count). `whole`: also keepShare of the original's lie near the new one's
  // (nothing of it was closed: a capped window's upper room).
  const keepShare = options.keepShare ?? KEEP_SHARE;
  const near = options.near ?? 0.2;
  // Two openings' points lie on lattices of their own (avatar-openings.ts): near enough is within
  // a spacing (and a little) of a point of the other.
  const within = (o: AvatarOpening) => Math.max(near, NEAR_SPACINGS * (o.spacing ?? 0));
  const nearOriginal = pointGrid(pts, within(opening));
  const found = (again: AvatarOpening): again is AvatarOpening & { points: Float64Array } =>
    again.closes && !!again.points && (opening.kind !== 'passage' || again.kind === 'passage');
  const originalKept = (again: AvatarOpening & { points: Float64Array }): boolean => {
    const nearAgain = pointGrid(again.points, within(again));
    let kept = 0;
    for (let i = 0; i + 2 < pts.length; i += 3) if (nearAgain(pts[i], pts[i + 1], pts[i + 2])) kept++;
    return kept >= keepShare * (pts.length / 3);
  };
  const same = (again: AvatarOpening, whole = false): boolean => {
    if (!found(again)) return false;
    let far = 0;
    for (let i = 0; i + 2 < again.points.length; i += 3)
      if (!nearOriginal(again.points[i], again.points[i + 1], again.points[i + 2])) far++;
    if (far > (1 - NEAR_SHARE) * (again.points.length / 3)) return false;
    return !whole || originalKept(again);
  };
  return { same, kept: (again) => found(again) && originalKept(again) };
}

/**
 * Whether the opening the hull closes on a surface is still there on `candidate` (a surface in
 * the same frame and units): the avatar test run on it finds an opening the hull closes (a passage
 * still a passage), and keepShare (80 %) of the original's axis points lie near its own. Auto asks
 * it of the mesh made from a LOD, which a coarse LOD may have closed (0 A.D.'s Hellenic gate at
 * 36 m: a 10-triangle low LOD, its 14 m passage gone). A LOD is held to no more: whatever else
 * opens in it (the Gaulish smithy's low LOD at 8 m keeps 95 % of its hollow, and its thinner walls
 * leave more room beside it) is the planner's visual error, and conditions 3 and 4 bound how far a
 * simplification made for physics alone may go. True when there is no such opening.
 */
export function keepsOpening(
  candidate: { positions: Float32Array; indices: ArrayLike<number> },
  options: OpeningCheckOptions,
): boolean {
  const { opening } = options;
  if (!opening.closes || !opening.points || opening.points.length === 0) return true;
  const [again] = avatarOpenings(candidate.positions, candidate.indices, [options.hull], options.openingOptions);
  return sameOpeningAs(options).kept(again);
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
  const sameOpening = sameOpeningAs(options).same;
  const pts = opening.points;
  const keepShare = options.keepShare ?? KEEP_SHARE;
  const width = options.openingOptions.width ?? AVATAR_PASSAGE_WIDTH;
  const candidates: OpeningMesh[] = [];
  for (const source of [{ positions, indices }, ...(options.alternatives ?? [])]) {
    // 1. The surface welded by position (exports split vertices along seams), and the same with
    //    the holes no avatar needs capped (cappedSurface).
    const w = weldMesh(source.positions, source.indices, 1e-6 * size);
    const p = Float32Array.from(w.positions);
    const welded = withoutZeroAreaTriangles(p, Uint32Array.from(w.indices));
    const capped = cappedSurface(p, welded, options, (again) => sameOpening(again, true));
    // Each also with its flat regions re-triangulated by their outlines (planar-remesh.ts): a
    // candidate itself, since a simplifier keeps the slivers a wall's openings leave.
    const surfaces: { ix: Uint32Array; made: string }[] = [{ ix: welded, made: '' }];
    if (capped) surfaces.push({ ix: capped, made: 'windows capped' });
    const add = (positions: Float32Array, ix: Uint32Array, made: string) => {
      const weight = triangleMeshPhysicsCost(positions, ix, options.physics).cost;
      if (weight < options.maxWeight)
        candidates.push({ positions, indices: ix, weight, triangles: ix.length / 3, made });
    };
    const and = (a: string, b: string) => (a ? `${a}, ${b}` : b);
    for (const { ix, made } of [...surfaces]) {
      const remeshed = planarRemesh(p, ix);
      if (remeshed.length >= ix.length) continue;
      surfaces.push({ ix: remeshed, made: and(made, 'flat walls re-triangulated') });
      add(p, remeshed, and(made, 'flat walls re-triangulated'));
    }
    // And snapped to a grid of a share of the avatar's width first: a door's frame, a few
    // centimetres of threshold or jamb, leaves slivers no outline avoids (the Montserrat house's
    // outlines alone: 34 triangles 0.20 m wide on average, 8.3); the opening check below still
    // rules out a grid that closes the opening.
    for (const { ix, made } of surfaces.slice(0, capped ? 2 : 1))
      for (const share of SNAP_SHARES) {
        const q = weldMesh(p, ix, share * width, { snap: true, dropDuplicates: true });
        const qp = Float32Array.from(q.positions);
        const remeshed = planarRemesh(qp, withoutZeroAreaTriangles(qp, q.indices));
        if (remeshed.length > 0)
          add(qp, remeshed, and(made, `snapped to ${Math.round(share * width * 100)} cm, flat walls re-triangulated`));
      }
    for (const { ix, made } of surfaces) {
      // 2. Simplifications to half the triangles, then ever fewer: each from the one before, and
      //    each from the surface itself. The simplifier's paths differ: chained, its errors add
      //    up (FlightGear's cooling tower at 8 m: its 62-triangle shell so made left a rim 1.5 m
      //    off, where the surface simplified to 60 at once strays 0.35 m); at once, it may keep
      //    what a chain drops (V-HACD's torus2 at 2.47 m: 1.75 chained, 2.88 at once).
      // Both series' first step is the same simplification of the surface: the direct one
      // starts after it, from where the chained one's first step left off.
      const half = Math.floor(ix.length / 6);
      let afterFirst = ix;
      for (const chained of [true, false]) {
        let current = chained ? ix : afterFirst;
        for (
          let target = chained ? half : Math.floor(half * STEP);
          target >= minTriangles;
          target = Math.floor(target * STEP)
        ) {
          options.check?.();
          const from = chained ? current : ix;
          // A step may overshoot or fall short of its target: keep only ever fewer triangles.
          const next = withoutZeroAreaTriangles(p, options.simplify(p, from, 3 * Math.min(target, from.length / 3)));
          if (next.length === 0 || next.length >= current.length) continue;
          current = next;
          if (chained && target === half) afterFirst = next;
          add(p, next, and(made, 'simplified'));
        }
      }
    }
  }
  // 3. The closest fit at the floor, else the lightest, that keeps the opening.
  const margin2 = options.margin * options.margin;
  // The fit: at most an avatar's area (width x height / 2), or FIT_STRAY_SHARE of the surface,
  // lies farther than `maxStray` (two avatar widths) from the candidate: a wall may move, a coarse
  // ring may cut its corners, a threshold or a keel may go, but no wall vanishes. (One avatar
  // width and an avatar's area alone refused V-HACD's torus at 10 m simplified to a coarse ring:
  // 2.91 -> 3.34; its torus2 at 9.87 m kept 2.2 % of its surface over 1 m off: 1.38 -> 2.11.)
  const maxStray = options.maxStray ?? 2 * width;
  const original = { positions, indices: Uint32Array.from(indices) };
  const fitSamples = sampleSurface(original, { samples: FIT_SAMPLES, maxVertexSamples: 0 });
  const perSample = surfaceArea(positions, indices) / (fitSamples.length / 3);
  const mayStray = Math.max(
    (width * (options.openingOptions.height ?? AVATAR_PASSAGE_HEIGHT)) / 2,
    FIT_STRAY_SHARE * perSample * (fitSamples.length / 3),
  );
  const stray2 = maxStray * maxStray;
  // Each candidate's BVH, built once for the fit, the clearance and the closest-fit measure.
  const bvhs = new Map<OpeningMesh, TriangleBvh>();
  const bvhOf = (c: OpeningMesh): TriangleBvh => {
    let bvh = bvhs.get(c);
    if (!bvh) bvhs.set(c, (bvh = TriangleBvh.build({ positions: c.positions, indices: c.indices })));
    return bvh;
  };
  const keeps = (c: OpeningMesh): boolean => {
    options.check?.();
    const bvh = bvhOf(c);
    let strayArea = 0;
    for (let i = 0; i + 2 < fitSamples.length && strayArea <= mayStray; i += 3)
      if (bvh.closestDistanceSquared(fitSamples[i], fitSamples[i + 1], fitSamples[i + 2], stray2) > stray2)
        strayArea += perSample;
    if (strayArea > mayStray) return false;
    // Condition 3 first: a distance per axis point, where the avatar test builds a voxel grid;
    // a surface simplified into the opening fails it without one.
    let clear = 0;
    for (let i = 0; i + 2 < pts.length; i += 3)
      if (bvh.closestDistanceSquared(pts[i], pts[i + 1], pts[i + 2], margin2) >= margin2) clear++;
    if (clear < keepShare * (pts.length / 3)) return false;
    const [again] = avatarOpenings(c.positions, c.indices, [options.hull], options.openingOptions);
    return sameOpening(again);
  };
  const floor = options.floorWeight * (1 + 1e-9);
  // The closest fit: the mean distance between the two surfaces, sampled both ways (the most
  // triangles is no measure of it once the outlines and snapped grids compete with simplifications:
  // a simplification can cover half a doorway in as many triangles as the re-triangulated walls).
  const originalBvh = TriangleBvh.build(original);
  const meanDistance = (c: OpeningMesh): number => {
    const bvh = bvhOf(c);
    const own = sampleSurface(
      { positions: c.positions, indices: c.indices },
      { samples: FIT_SAMPLES, maxVertexSamples: 0 },
    );
    let sum = 0;
    for (let i = 0; i + 2 < fitSamples.length; i += 3)
      sum += Math.sqrt(bvh.closestDistanceSquared(fitSamples[i], fitSamples[i + 1], fitSamples[i + 2]));
    for (let i = 0; i + 2 < own.length; i += 3)
      sum += Math.sqrt(originalBvh.closestDistanceSquared(own[i], own[i + 1], own[i + 2]));
    return sum / ((fitSamples.length + own.length) / 3);
  };
  const atFloor = candidates
    .filter((c) => c.weight <= floor)
    .map((c) => ({ c, d: meanDistance(c) }))
    .sort((a, b) => a.d - b.d || b.c.triangles - a.c.triangles)
    .map((x) => x.c);
  const above = candidates.filter((c) => c.weight > floor).sort((a, b) => a.weight - b.weight);
  const chosen = atFloor.find(keeps) ?? above.find(keeps);
  return (
    chosen && {
      ...compactVertices(chosen.positions, chosen.indices),
      weight: chosen.weight,
      triangles: chosen.triangles,
      made: chosen.made,
    }
  );
}
