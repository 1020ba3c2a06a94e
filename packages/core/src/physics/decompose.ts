/**
 * Convex decomposition for Second Life physics: the fewest, simplest convex hulls that fit a
 * mesh's solid within a tolerance in metres, keeping open the holes, doorways and gaps an avatar
 * must pass through. At most 256 hulls of at most 256 vertices (the asset's limits).
 *
 * Follows CoACD's shape (Wei et al. 2022: cut the mesh itself by planes until every part's hull
 * fits, then merge hulls back while they still fit), with a collision-oriented fit measure
 * (concavity.ts: how far a hull's surface reaches into empty space, against a voxel distance
 * field of the solid), a global budget of enclosed air (V-HACD's volume error, as a share of the
 * solid) and a greedy cut search (cut-plane.ts) instead of a tree search:
 *
 * 1. Weld the mesh (glTF splits vertices at UV and normal seams), build the inside test and the
 *    solid's distance field (solid-field.ts), close its holes (close-holes.ts) and start from
 *    its connected pieces.
 * 2. Reach: take the worst part; if its hull reaches no farther than `tolerance` from the solid,
 *    keep it, else cut it (mesh-clip.ts) into connected pieces and repeat.
 * 3. Air: while the hulls enclose more empty space than `maxAirFraction` of the solid, cut the
 *    hull holding the most (its pieces go through step 2), down to `cutAirShare` of the budget.
 * 4. Open meshes: solid no piece's hull covers (uncovered-solid.ts) becomes closed voxel parts,
 *    which go through steps 2 and 3.
 * 5. Merge (hull-merge.ts): pairs whose merged hull still reaches no farther than `tolerance`,
 *    least added air first, while the air stays within budget (cutting below it and merging
 *    back up lets the cheapest merges win) and no merge adds more than `maxMergeAir` of the
 *    solid (a hull saved is not worth more: a ring keeps its arcs short, a blob merges freely).
 *    Still over `maxHulls` (the air budget is lost then: more pieces than it may cut spend it
 *    before any merge), every further merge within `tolerance` and `maxMergeAir`, as many as
 *    there are; then the cheapest pairs regardless of fit.
 * 6. Simplify each hull to the fewest vertices within `hullError`, inside it (hull-simplify.ts),
 *    at most `maxHullVertices`, the hulls together keeping all but `hullVolumeLoss` of their
 *    volume (shared by the square root of each one's volume: volumeFloors).
 *
 * Convex input gives one hull. Non-watertight or self-intersecting input: the fit is measured
 * against what the six-ray vote of mesh-inside.ts calls solid, plus a sheet of voxels along every
 * triangle, so open surfaces act as thin walls; holes are capped before cutting (a single sheet
 * becomes a two-sided sheet, given `minThickness` as a hull); overlapping closed parts are cut
 * separately and merged where their union fits; a boundary too tangled to cap leaves the mesh
 * open, and step 4 fills what its cut-up pieces leave out. Deterministic: no randomness, stable
 * orders. Pure: no Node APIs; progress and cancellation through options.
 */

import { hullAir, hullConcavity, partHull, type Concavity, type PartHull } from './concavity.js';
import { MAX_HULL_VERTICES, MAX_HULLS } from '../constants.js';
import { exactConvexHull, fastConvexHull } from './convex-hull.js';
import { type ClosedMesh, closeHoles } from './close-holes.js';
import { checkAbort, chooseCut } from './cut-plane.js';
import { type MergeCandidate, mergeHulls, type MergeNode } from './hull-merge.js';
import { simplifyHull } from './hull-simplify.js';
import { connectedComponents, splitByPlane } from '../geometry/mesh-clip.js';
import { MeshInsideTest } from '../geometry/mesh-inside.js';
import { buildSolidField, type SolidField } from './solid-field.js';
import { uncoveredSolid } from './uncovered-solid.js';
import { weldMesh, type WeldedMesh } from '../geometry/weld-mesh.js';
import { type IndexedMesh, surfaceArea } from '../geometry/indexed-mesh.js';
import type { SimplifyFn } from './physics-mesh.js';

export interface DecomposeOptions {
  /** Fit tolerance, metres: how far a hull may reach beyond the solid. Default 0.05 (5 cm: well under an avatar's width). */
  tolerance?: number;
  /** Empty space all hulls together may enclose, as a share of the solid's volume (estimated on the voxel field when the mesh is open). Default 0.045. */
  maxAirFraction?: number;
  /**
   * Cutting lowers the air to this share of the budget; merging may then spend the rest where it
   * saves the most hulls for the least air. Default 0.6.
   */
  cutAirShare?: number;
  /** A merge may add at most this share of the solid's volume in air (saving one hull is not worth more). Default 0.003. */
  maxMergeAir?: number;
  /** Most hulls. Default 256 (MAX_HULLS). */
  maxHulls?: number;
  /** Most vertices per hull. Default 256 (MAX_HULL_VERTICES). */
  maxHullVertices?: number;
  /** How far a simplified hull may lie inside its exact hull, metres. Default 0.8 * tolerance (HULL_ERROR_SHARE). */
  hullError?: number;
  /** Share of their summed volume the simplified hulls may lose together (see volumeFloors). Default 0.025. */
  hullVolumeLoss?: number;
  /** Thickness given to flat parts (open sheets), metres. Default 0.005. */
  minThickness?: number;
  /** Most voxels in the solid's distance field; the cell grows to stay within it. Default 1,000,000. */
  maxCells?: number;
  /** Most parts the cutting may produce before merging. Default 2 * maxHulls, at least 64. */
  maxParts?: number;
  /**
   * Inputs with more triangles are decomposed on a simplified proxy of about this many (bounds
   * the work of every cut on big meshes: a 1M-triangle scan or a whole car). Default 20,000.
   */
  maxTriangles?: number;
  /**
   * Most triangles the cuts may add to the parts (split triangles and caps); past it no part is
   * cut again (`limited`). Default CUT_GROWTH (64) times the input's triangles, at least 65,536.
   */
  maxCutTriangles?: number;
  /** Simplifier for the proxy (meshoptimizer's `simplify` fits). Default: none; vertices are then clustered on a grid. */
  simplify?: SimplifyFn;
  /** Called with the fraction done, 0 to 1, now and then. */
  onProgress?: (fraction: number) => void;
  /** Aborts the decomposition (throws the signal's reason, an AbortError by default). */
  signal?: AbortSignal;
}

/**
 * A hull is simplified inside itself within this share of the fit tolerance (and loses at most
 * hullVolumeLoss of its volume). Chosen on the tuned set of bench physics (V-HACD's meshes and
 * the generated ones): 0.8 and 3.5 % weighed 11 to 21 % less than 0.5 and 2 % (bunny 40.8 -> 32.4,
 * teapot 38.0 -> 30.5, torus1 24.8 -> 22.0) and kept every IoU at or above V-HACD's. Since the
 * simplification stopped spending vertices neither bound asks for (hull-simplify.ts), the volume
 * loss is the largest step of 0.5 % that keeps them there: 2.5 % (the generated torus 0.959 against
 * V-HACD's 0.958; 3 % took it to 0.957), the tuned set's weight 151.7 -> 146.4 in all.
 */
const HULL_ERROR_SHARE = 0.8;

/** Forced merges (down to maxHulls) pair each hull with this many nearest hulls first. */
const FORCED_MERGE_NEIGHBOURS = 8;

export const DECOMPOSE_DEFAULTS = {
  tolerance: 0.05,
  maxAirFraction: 0.045,
  cutAirShare: 0.6,
  maxMergeAir: 0.003,
  maxHulls: MAX_HULLS,
  maxHullVertices: MAX_HULL_VERTICES,
  hullVolumeLoss: 0.025,
  minThickness: 0.005,
  maxCells: 1_000_000,
  maxTriangles: 20_000,
} as const;

export interface DecompositionResult {
  /** The hulls, flat xyz each, in the input's frame. */
  hulls: Float32Array[];
  /** How far the farthest hull reaches beyond the solid, metres (before simplification, which only shrinks hulls). */
  concavity: number;
  /** Empty space the hulls enclose, as a share of the solid's volume (estimated, before simplification). */
  airFraction: number;
  /** Tolerance used, metres: the one asked for, or 1.5 voxels when the field is coarser (big objects). */
  tolerance: number;
  /** Voxel size of the solid's distance field, metres (the resolution of the fit measure). */
  cell: number;
  /** Holes closed before cutting (boundary loops capped; see close-holes.ts). */
  holesClosed: number;
  /** True when some of the mesh's boundary could not be closed; its solid is then estimated on the voxel field. */
  open: boolean;
  /** Parts the cutting produced, cuts made, merges done within the fit, merges forced by maxHulls. */
  stats: { parts: number; cuts: number; merges: number; forcedMerges: number };
  /** True when a limit (maxParts, maxHulls) stopped the decomposition short of the tolerance or the air budget. */
  limited: boolean;
  /** Triangles of the simplified proxy decomposed instead of the input, when it had more than maxTriangles. */
  proxyTriangles?: number;
}

interface Part {
  mesh: IndexedMesh<Float64Array>;
  hull: PartHull;
  concavity: Concavity;
  /** Surface area of the part's mesh. */
  area: number;
  /** Volume of the part's own mesh (meaningful when the input is closed: cut pieces are capped). */
  volume: number;
  /** Empty space in its hull (set once the part reaches). */
  air: number;
  /** False once a cut failed to split it. */
  cuttable: boolean;
}

interface Context {
  tol: number;
  /** The input is closed: air is measured exactly. */
  closed: boolean;
  field: SolidField;
  spacing: number;
  minThickness: number;
  eps: number;
}

/** Probes per hull at most (the spacing grows on big hulls). */
const MAX_PROBES = 2000;

function signedVolume(m: IndexedMesh<Float64Array>): number {
  const p = m.positions,
    ix = m.indices;
  let v6 = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t],
      b = 3 * ix[t + 1],
      c = 3 * ix[t + 2];
    v6 +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return v6 / 6;
}

function makePart(mesh: IndexedMesh<Float64Array>, ctx: Context): Part | undefined {
  const hull = partHull(mesh.positions, ctx.minThickness);
  if (!hull) return undefined;
  return {
    mesh,
    hull,
    concavity: hullConcavity(hull, ctx.field, ctx.spacing, MAX_PROBES),
    area: surfaceArea(mesh.positions, mesh.indices),
    volume: Math.abs(signedVolume(mesh)),
    air: 0,
    cuttable: true,
  };
}

/**
 * Air in a hull. Closed input: exact, the hull's volume less the solid it holds (cut pieces are
 * capped, so their volume is known). Open input: estimated on the field, the larger of the air
 * under the hull's surface (thin layers) and the air counted on a lattice inside it (deep
 * pockets). A thickened sheet's own thickness is not air.
 */
function airOf(hull: PartHull, solid: number, c: Concavity, ctx: Context, samples = 4096): number {
  if (hull.thickened) return 0;
  if (ctx.closed) return Math.max(0, hull.volume - solid);
  return Math.max(c.air, hullAir(hull, ctx.field, samples));
}

function largest(h: PartHull): number {
  return Math.max(h.max[0] - h.min[0], h.max[1] - h.min[1], h.max[2] - h.min[2]);
}

/**
 * Decomposes the solid of a triangle mesh (flat xyz positions in metres, three indices per
 * triangle) into convex hulls. See the file comment.
 */
export function decompose(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  options: DecomposeOptions = {},
): DecompositionResult {
  let tol = options.tolerance ?? DECOMPOSE_DEFAULTS.tolerance;
  const maxAir = options.maxAirFraction ?? DECOMPOSE_DEFAULTS.maxAirFraction;
  const cutAirShare = options.cutAirShare ?? DECOMPOSE_DEFAULTS.cutAirShare;
  const maxMergeAir = options.maxMergeAir ?? DECOMPOSE_DEFAULTS.maxMergeAir;
  const maxHulls = Math.max(1, Math.min(MAX_HULLS, Math.floor(options.maxHulls ?? DECOMPOSE_DEFAULTS.maxHulls)));
  const maxHullVertices = Math.max(
    4,
    Math.min(MAX_HULL_VERTICES, Math.floor(options.maxHullVertices ?? DECOMPOSE_DEFAULTS.maxHullVertices)),
  );
  const hullError = options.hullError ?? HULL_ERROR_SHARE * tol;
  const hullVolumeLoss = options.hullVolumeLoss ?? DECOMPOSE_DEFAULTS.hullVolumeLoss;
  const minThickness = options.minThickness ?? DECOMPOSE_DEFAULTS.minThickness;
  const maxCells = options.maxCells ?? DECOMPOSE_DEFAULTS.maxCells;
  const maxParts = options.maxParts ?? Math.max(64, 2 * maxHulls);
  // Progress never goes back: a cut part's pieces and the second attempt report from where their step began.
  let shown = -Infinity;
  const report = (f: number) => {
    if (f <= shown) return;
    shown = f;
    options.onProgress?.(f);
  };
  const signal = options.signal;
  if (!(tol > 0)) throw new RangeError(`decompose: tolerance must be positive, got ${tol}`);
  checkAbort(signal);
  report(0);
  const result = (hulls: Float32Array[], extra: Partial<DecompositionResult>): DecompositionResult => ({
    hulls,
    concavity: 0,
    airFraction: 0,
    tolerance: tol,
    cell: 0,
    holesClosed: 0,
    open: false,
    stats: { parts: 0, cuts: 0, merges: 0, forcedMerges: 0 },
    limited: false,
    ...extra,
  });

  // 1. Weld; the inside test and the distance field; the connected pieces.
  let lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i],
      y = positions[i + 1],
      z = positions[i + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    lo = [Math.min(lo[0], x), Math.min(lo[1], y), Math.min(lo[2], z)];
    hi = [Math.max(hi[0], x), Math.max(hi[1], y), Math.max(hi[2], z)];
  }
  if (!(lo[0] <= hi[0])) return result([], {});
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  let welded = weldMesh(positions, indices, Math.max(extent, 1e-9) * 1e-7);
  if (welded.indices.length === 0) return result([], {});
  // A big input is decomposed on a proxy of about maxTriangles triangles.
  const maxTriangles = Math.max(1000, options.maxTriangles ?? DECOMPOSE_DEFAULTS.maxTriangles);
  let proxyTriangles: number | undefined;
  if (welded.indices.length / 3 > maxTriangles) {
    welded = proxyMesh(welded, maxTriangles, options.simplify);
    proxyTriangles = welded.indices.length / 3;
  }
  let cell = tol / 4;
  const cellsAt = (h: number) => [0, 1, 2].reduce((acc, k) => acc * (Math.ceil((hi[k] - lo[k]) / h) + 4), 1);
  while (cellsAt(cell) > maxCells) cell *= 1.1;
  const inside = new MeshInsideTest(welded.positions, welded.indices);
  const field = buildSolidField(welded.positions, welded.indices, { cell, inside });
  // The field cannot judge a fit finer than about a cell and a half: a coarse field (a big object
  // within maxCells) raises the tolerance, and the result says so.
  tol = Math.max(tol, 1.5 * cell);
  // Holes are capped so that cut pieces stay closed; `open` if some boundary could not be.
  const capped = welded.boundaryEdges > 0 ? closeHoles(welded) : { ...welded, capped: 0, openLoops: 0 };
  // What the cuts of one attempt may add (see CUT_GROWTH).
  const growthBudget = options.maxCutTriangles ?? Math.max(CUT_GROWTH_MIN, CUT_GROWTH * (welded.indices.length / 3));
  if (capped.capped === 0) return attempt(capped, 0, 1, false);
  // Caps can make a solid the cutting never fits: a frame's outer outline capped roofs it over,
  // a loop round a sawtooth roof or round a shed's three walls folds. FlightGear's models at 8 m:
  // Industrial100x90's 12-triangle parapet cut into 512 parts and forced into 256 hulls (58.4);
  // brick-shed's 8-triangle walls ended in 38 hulls reaching 2.4 m beyond them (11.1), no cut
  // left that helped. When the capped solid reaches a limit (its decomposition then stops there)
  // or ends beyond the tolerance, the mesh is decomposed again as open sheets (thin walls, step
  // 4); that result is taken when it fits (within the limits and the tolerance), else the capped
  // one.
  const fits = (r: DecompositionResult) => !r.limited && r.concavity <= r.tolerance * (1 + 1e-9);
  /** An attempt that stops at its first limit: undefined then. */
  const stopping = (mesh: ClosedMesh, p0: number, p1: number): DecompositionResult | undefined => {
    try {
      return attempt(mesh, p0, p1, true);
    } catch (e) {
      if (e !== STOPPED_AT_LIMIT) throw e;
      return undefined;
    }
  };
  const first = stopping(capped, 0, RETRY_PROGRESS);
  let chosen = first && fits(first) ? first : undefined;
  if (!chosen) {
    // The welded mesh left open: every boundary loop stays one.
    const again = stopping({ ...welded, capped: 0, openLoops: 1 }, RETRY_PROGRESS, 1);
    chosen = again && (fits(again) || !first) ? again : (first ?? attempt(capped, RETRY_PROGRESS, 1, false));
  }
  report(1);
  return chosen;

  /**
   * Steps 2 to 6 on the mesh as capped (or left open: `openLoops`), progress reported from p0 to
   * p1; with `stopAtLimit`, throws STOPPED_AT_LIMIT as soon as a limit is reached.
   */
  function attempt(mesh: ClosedMesh, p0: number, p1: number, stopAtLimit: boolean): DecompositionResult {
    const open = mesh.openLoops > 0;
    const progress = (f: number) => report(p0 + (p1 - p0) * f);
    // The solid's volume: exact for a closed mesh, else the cells the vote puts inside.
    let solidVolume = Math.abs(signedVolume(mesh));
    if (open) {
      let insideCells = 0;
      for (let i = 0; i < field.distance.length; i++) if (field.distance[i] < 0) insideCells++;
      solidVolume = insideCells * cell * cell * cell;
    }
    // Sheets enclose nothing (open walls, leaf cards): each stands for a slab as thick as the
    // tolerance, so the air budget is not zero (it was, and every sheet was cut to pieces).
    if (open) solidVolume = Math.max(solidVolume, surfaceArea(mesh.positions, mesh.indices) * tol);
    const airBudget = maxAir * solidVolume;
    const ctx: Context = {
      tol,
      closed: !open,
      field,
      spacing: Math.max(cell, tol / 2),
      minThickness,
      eps: Math.max(extent, 1e-9) * 1e-9,
    };
    const totalArea = Math.max(surfaceArea(mesh.positions, mesh.indices), 1e-30);
    progress(0.1);
    checkAbort(signal);

    // 2. Reach: cut the part that reaches farthest until every part is within tolerance.
    const done: Part[] = [];
    let cuts = 0;
    // Triangles the cuts have added (split triangles, caps), up to growthBudget.
    let grown = 0;
    let limited = false;
    const limit = () => {
      limited = true;
      if (stopAtLimit) throw STOPPED_AT_LIMIT;
    };
    let doneArea = 0;
    const minPartSize = Math.max(2 * cell, tol);
    const cutPart = (part: Part): Part[] | undefined => {
      if (!part.cuttable || largest(part.hull) < minPartSize) return undefined;
      if (grown > growthBudget) {
        limit();
        return undefined;
      }
      const air = ctx.closed ? Math.max(0, part.hull.volume - part.volume) : hullAir(part.hull, field);
      const cut = chooseCut(part.mesh, {
        area: part.area,
        worst: part.concavity.worst,
        eps: ctx.eps,
        minGain: (0.1 * air) / Math.max(part.hull.volume, 1e-30),
        minSide: Math.max(cell, tol / 4),
        signal,
      });
      if (!cut) return undefined;
      const split = splitByPlane(part.mesh, cut.n[0], cut.n[1], cut.n[2], cut.d, ctx.eps);
      const pieces = [...split.below, ...split.above];
      if (pieces.length < 2) return undefined;
      for (const m of pieces) grown += m.indices.length / 3;
      grown -= part.mesh.indices.length / 3;
      return pieces.map((m) => makePart(m, ctx)).filter((x): x is Part => !!x);
    };
    const reach = (pending: Part[], from: number, to: number) => {
      while (pending.length > 0) {
        checkAbort(signal);
        let wi = 0;
        for (let i = 1; i < pending.length; i++) if (pending[i].concavity.value > pending[wi].concavity.value) wi = i;
        const part = pending.splice(wi, 1)[0];
        let children: Part[] | undefined;
        if (part.concavity.value > tol) {
          if (done.length + pending.length + 2 > maxParts) limit();
          else children = cutPart(part);
        }
        if (children) {
          cuts++;
          pending.push(...children);
          continue;
        }
        part.air = airOf(part.hull, part.volume, part.concavity, ctx);
        done.push(part);
        doneArea += part.area;
        progress(from + (to - from) * Math.min(1, doneArea / totalArea));
      }
    };
    const initial = connectedComponents(mesh)
      .map((m) => makePart(m, ctx))
      .filter((x): x is Part => !!x);
    reach(initial, 0.1, 0.5);

    // 3. Air: cut the hull holding the most empty space while the total is over budget.
    let air = 0;
    const lowerAir = (from: number, to: number) => {
      air = done.reduce((a, d) => a + d.air, 0);
      const target = cutAirShare * airBudget;
      const air0 = Math.max(air - target, 1e-30);
      while (air > target) {
        checkAbort(signal);
        let wi = -1;
        for (let i = 0; i < done.length; i++)
          if (done[i].cuttable && done[i].air > 0 && (wi < 0 || done[i].air > done[wi].air)) wi = i;
        if (wi < 0) break;
        if (done.length + 2 > maxParts) {
          limit();
          break;
        }
        const part = done[wi];
        const children = cutPart(part);
        if (!children) {
          part.cuttable = false;
          continue;
        }
        cuts++;
        done.splice(wi, 1);
        const before = done.length;
        reach(children, from, from);
        let childAir = 0;
        for (let i = before; i < done.length; i++) childAir += done[i].air;
        air += childAir - part.air;
        progress(from + (to - from) * Math.min(1, 1 - (air - target) / air0));
      }
    };
    lowerAir(0.5, 0.65);

    // 4. Open meshes: solid no hull covers (a cut-up open shell leaves its core out) becomes closed
    //    voxel parts, which reach and lower their air like the rest.
    if (open) {
      const fill = uncoveredSolid(
        field,
        done.map((d) => d.hull),
        2 * cell,
      )
        .map((m) => makePart(m, ctx))
        .filter((x): x is Part => !!x);
      if (fill.length > 0) {
        reach(fill, 0.65, 0.65);
        lowerAir(0.65, 0.7);
      }
    }
    progress(0.7);

    // 5. Merge within the fit and the air budget, then down to maxHulls at any cost.
    type Data = { air: number; solid: number; concavity: number };
    const nodes: MergeNode<Data>[] = done.map((p) => ({
      hull: p.hull,
      data: { air: p.air, solid: p.volume, concavity: p.concavity.value },
      alive: true,
    }));
    const start = nodes.length;
    let airLeft = airBudget - air;
    const onMerge = () => progress(0.7 + (0.15 * (start - nodes.filter((n) => n.alive).length)) / Math.max(1, start));
    /** A merge within the fit: the merged hull's concavity within the tolerance, scored by the air it adds. */
    const withinFit = (a: MergeNode<Data>, b: MergeNode<Data>) => {
      const m = mergedHull(a.hull, b.hull, minThickness);
      if (!m) return undefined;
      const c = hullConcavity(m, field, ctx.spacing, MAX_PROBES, tol);
      if (c.value > tol) return undefined;
      const solid = a.data.solid + b.data.solid;
      const mAir = airOf(m, solid, c, ctx, 1024);
      const added = mAir - a.data.air - b.data.air;
      return {
        hull: m,
        data: { air: mAir, solid, concavity: c.value },
        cost: added + 1e-6 * (m.volume - a.hull.volume - b.hull.volume),
      };
    };
    const addedAir = (c: MergeCandidate<Data>, a: MergeNode<Data>, b: MergeNode<Data>) =>
      c.data.air - a.data.air - b.data.air;
    // Merging within the fit, down to one hull if the fit allows: how both rounds below merge.
    const fitMerge = { reach: tol, target: 1, check: () => checkAbort(signal), onMerge, evaluate: withinFit };
    let merges = mergeHulls(nodes, {
      ...fitMerge,
      accept: (c, a, b) => {
        const added = addedAir(c, a, b);
        if (added > airLeft || added > maxMergeAir * solidVolume) return false;
        airLeft -= added;
        return true;
      },
      stopOnRefusal: true,
    });
    // Still over maxHulls, the air budget is lost whatever follows (a model of more separate
    // pieces than maxHulls spends it before any merge): first every merge that keeps the fit (each
    // adding at most maxMergeAir), as many as there are, so that the forced merges below, which
    // ignore it, are left the fewest pairs. 0 A.D.'s curtain wall with towers at 2 m, 540 pieces:
    // 256 hulls by forced merges alone (88.3), 36 so (16.6). Each hull's nearest few first, as
    // the forced merges do; all its neighbours within reach only when still over (its foliage
    // card set, 520 parts: 5 s that way, 10 s with all at once; the theater needs all).
    for (const neighbours of [FORCED_MERGE_NEIGHBOURS, Infinity]) {
      if (nodes.filter((n) => n.alive).length <= maxHulls) break;
      merges += mergeHulls(nodes, {
        ...fitMerge,
        neighbours,
        accept: (c, a, b) => addedAir(c, a, b) <= maxMergeAir * solidVolume,
      });
    }
    let forcedMerges = 0;
    // Each hull is paired with its nearest few (each pair costs a hull of both); every pair only
    // when those run out. Every pair at once took 42 s on a 2,000-triangle engine part cut into
    // 512 parts.
    for (const neighbours of [FORCED_MERGE_NEIGHBOURS, Infinity]) {
      if (nodes.filter((n) => n.alive).length <= maxHulls) break;
      limit();
      forcedMerges += mergeHulls(nodes, {
        reach: Infinity,
        neighbours,
        target: maxHulls,
        check: () => checkAbort(signal),
        evaluate: (a, b) => {
          const m = mergedHull(a.hull, b.hull, minThickness);
          if (!m) return undefined;
          return {
            hull: m,
            data: {
              air: a.data.air + b.data.air,
              solid: a.data.solid + b.data.solid,
              concavity: Math.max(a.data.concavity, b.data.concavity),
            },
            cost: m.volume - a.hull.volume - b.hull.volume,
          };
        },
      });
    }
    progress(0.85);

    // 6. Simplify each hull.
    const kept = nodes.filter((n) => n.alive);
    const hulls: Float32Array[] = [];
    let concavity = 0,
      keptAir = 0;
    const floors = volumeFloors(
      kept.map((n) => n.hull.volume),
      hullVolumeLoss,
    );
    kept.forEach((node, i) => {
      checkAbort(signal);
      concavity = Math.max(concavity, node.data.concavity);
      keptAir += node.data.air;
      const simple = Float32Array.from(simplifyHull(node.hull.points, maxHullVertices, hullError, floors[i]));
      // Rounded to float32, a point may fall onto a face or an edge: keep only the hull's vertices
      // (quickhull3d merges coplanar faces, so a point on a flat side is dropped).
      const clean = exactConvexHull(Float64Array.from(simple)) ?? fastConvexHull(Float64Array.from(simple));
      hulls.push(clean && clean.points.length <= simple.length ? Float32Array.from(clean.points) : simple);
    });
    progress(1);
    return result(hulls, {
      concavity,
      airFraction: solidVolume > 0 ? keptAir / solidVolume : 0,
      cell,
      holesClosed: mesh.capped,
      open,
      stats: { parts: done.length, cuts, merges, forcedMerges },
      limited,
      ...(proxyTriangles !== undefined ? { proxyTriangles } : {}),
    });
  }
}

/**
 * The cuts of one attempt may add at most CUT_GROWTH times the input's triangles (at least
 * CUT_GROWTH_MIN) to its parts, in split triangles and caps; past that no part is cut again, as
 * at any other limit. Caps are fans, and a cut through earlier caps crosses each of their
 * slivers, so on a folded solid every section grows: FlightGear's brick-farm roof, 4 triangles
 * capped into a thin fold, had its cuts add 1,045,068 triangles (sections of 18,697 vertices,
 * 49 s). Elsewhere the cuts add at most 51 times the input (assimp's jeep1 left open; the bunny 7,
 * sydney 20, regr01 48).
 */
const CUT_GROWTH = 64;
const CUT_GROWTH_MIN = 65_536;

/** Where the first of two attempts ends its progress (the mesh decomposed again left open). */
const RETRY_PROGRESS = 0.85;

/** Thrown by an attempt that stops at a limit (see decompose's caps). */
const STOPPED_AT_LIMIT = Symbol('stopped at a limit');

/**
 * Each hull's volume floor in step 6: together the hulls may lose `loss` of their summed volume,
 * shared in proportion to the square root of each one's volume (LOSS_SHARE_EXPONENT). Small hulls
 * (fingers, ears, handles) get a larger share of their own volume than large ones: a vertex they
 * drop costs little volume, so the same loss buys more vertices there, and a large hull keeps
 * more of the shape that carries the fit. Exponent 1 is an equal share each (the old rule).
 */
export function volumeFloors(volumes: readonly number[], loss: number): number[] {
  const total = volumes.reduce((a, v) => a + v, 0);
  const shares = volumes.map((v) => Math.max(0, v) ** LOSS_SHARE_EXPONENT);
  const sum = shares.reduce((a, s) => a + s, 0);
  return volumes.map((v, i) => (sum > 0 ? Math.max(0, v - (loss * total * shares[i]) / sum) : v));
}

/**
 * How step 6 shares the volume loss among the hulls (see volumeFloors). Chosen on the tuned set
 * of bench physics at hullVolumeLoss 2.5 %, among 0, 0.25, 0.5, 0.75 and 1, as the one of least
 * summed weight that keeps every IoU at or above V-HACD's: 1 (an equal share, before) 146.4,
 * 0.75 132.6, 0.5 130.4, 0.25 132.1, 0 135.1 (the teapot 28.6 -> 17.8 at 0.5, its IoU 0.968 ->
 * 0.973; the torus 0.959 -> 0.960). 3 % at 0.5 takes the torus to 0.957, under V-HACD's 0.958.
 */
const LOSS_SHARE_EXPONENT = 0.5;

/**
 * A proxy of about `target` triangles: the injected simplifier's result when it gets there
 * (within 1.5x), else vertices clustered on a grid grown until it does (each vertex moves by at
 * most half a cell diagonal; duplicate and collapsed triangles dropped).
 */
function proxyMesh(mesh: WeldedMesh, target: number, simplify: SimplifyFn | undefined): WeldedMesh {
  let current = mesh;
  if (simplify) {
    const kept = simplify(Float32Array.from(mesh.positions), mesh.indices, 3 * target);
    const again = weldMesh(mesh.positions, kept, 0, { dropDuplicates: true });
    if (again.indices.length > 0) current = again;
    if (current.indices.length / 3 <= 1.5 * target) return current;
  }
  // Grid cell from the surface area: about target / 2 vertices spread over it.
  let cell = Math.sqrt((2 * surfaceArea(current.positions, current.indices)) / target);
  for (let i = 0; i < 20; i++) {
    const clustered = weldMesh(current.positions, current.indices, cell, { dropDuplicates: true });
    if (clustered.indices.length / 3 <= 1.5 * target && clustered.indices.length > 0) return clustered;
    cell *= 1.4;
  }
  return current;
}

function mergedHull(a: PartHull, b: PartHull, minThickness: number): PartHull | undefined {
  const pts = new Float64Array(a.points.length + b.points.length);
  pts.set(a.points);
  pts.set(b.points, a.points.length);
  return partHull(pts, minThickness);
}
