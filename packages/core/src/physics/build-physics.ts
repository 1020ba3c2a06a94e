/**
 * The physics shapes of one object, as `slmesh optimize --physics hull|decompose|mesh|none|auto`
 * asks for them: the single convex hull (BoundingVerts) always, plus a convex decomposition or a
 * triangle physics mesh, and the physics weight of the shape the object will use. The object
 * returned carries exactly what the upload writer writes (each decomposition hull as the closed
 * hull mesh the `_PHYS` node holds, so points inside a hull face are gone), so its price is the
 * price re-reading the written file gives.
 *
 * Modes:
 * - `hull`: the single hull only (convex-hull.ts: at most 256 vertices, containing every vertex).
 * - `decompose`: the convex decomposition (decompose.ts) of the authored physics mesh if there is
 *   one, else of `surface` (optimize: the input's high where it planned a new one), else of the
 *   high LOD. Its weight is an ESTIMATE (no public formula), and it assumes the creator clicks
 *   Analyze in the uploader.
 * - `mesh`: a triangle physics mesh (physics-mesh.ts) from the authored physics mesh or a LOD;
 *   on an object with a side under 0.5 m the server charges it as its single hull.
 * - `none`: nothing is built; the object is returned as it is, priced on the shape it has.
 * - `auto`: every candidate is priced at the object's size (the single hull, the decomposition,
 *   the triangle mesh, the bounding box as a 12-triangle mesh) and judged by the object's land
 *   impact, max(download, physics, server), with `downloadWeight` given by the caller. Shapes
 *   that would close an opening an avatar uses (avatar-openings.ts: passages and hollows an
 *   upright avatar 0.5 m wide and 1.8 m tall fits, at the object's size, up being the world's Z)
 *   are left out, and so is a box much bigger than the hull.
 *   Of the rest, the lowest land impact wins; shapes tied on it (download weight dominates) are
 *   ranked by fit: mesh, decomposition, hull, box. So auto never costs more land impact than the
 *   hull unless the hull closes an opening. `result.choice` says what and why.
 *
 * `scale` prices (and fits) the object at another size: the decomposition is computed at that
 * size (the tolerance is in world metres) and mapped back to the authored frame, as the asset
 * stores shapes normalised to the object's box.
 */

import { AVATAR_PASSAGE_WIDTH, PHYSICS_COST_DEFAULTS, type PhysicsCostSettings } from '../constants.js';
import { checkAbort } from './cut-plane.js';
import { mergeKeepingOpenings } from './opening-merge.js';
import { reducedHull } from './cheaper-shape.js';
import { keepsOpening, openingKeepingMesh } from './opening-mesh.js';
import {
  avatarOpenings,
  type AvatarOpening,
  type AvatarOpeningOptions,
  type OpeningSurroundings,
} from './avatar-openings.js';
import { convexHull, convexHullMesh } from './convex-hull.js';
import { DECOMPOSE_DEFAULTS, decompose, type DecomposeOptions, type DecompositionResult } from './decompose.js';
import type { DecompositionMemo } from './decomposition-memo.js';
import {
  boxSize,
  lodBox,
  lodPositions,
  lodTriangleCount,
  lodTriangles,
  scaledCopy,
  singleHullSource,
  type Vec3,
} from '../geometry/object-geometry.js';
import { buildPhysicsMesh, type PhysicsMeshOptions, type PhysicsMeshResult } from './physics-mesh.js';
import {
  convexHullPhysicsCost,
  decompositionPhysicsCost,
  meshConvexified,
  triangleMeshPhysicsCost,
} from '../cost/physics-cost.js';
import { serverWeight } from '../cost/server-weight.js';
import { primUpAxis } from '../geometry/placement.js';
import type { Diagnostic, LodName, MeshLod, PhysicsCandidate, PhysicsChoice, SlObject } from '../types.js';
import { assignDefaults } from '../options.js';
import { conformHulls, conformLod, conformPhysicsMesh, writtenHull } from '../lod/lod-conform.js';
import { shortNumber } from '../format.js';

export type PhysicsMode = 'auto' | 'hull' | 'decompose' | 'mesh' | 'none';

export interface BuildPhysicsOptions {
  /** Which physics shape to build. */
  mode: PhysicsMode;
  /** Decomposition fit tolerance, world metres. Default 0.05. */
  tolerance?: number;
  /** Per-axis factors from the authored size to the size the object will have in world. Default [1, 1, 1]. */
  scale?: Vec3;
  /** Most hulls in a decomposition. Default 256. */
  maxHulls?: number;
  /** Most vertices per decomposition hull. Default 256. */
  maxHullVertices?: number;
  /**
   * Further decomposition settings (air budget, voxel budget, ...). Default DECOMPOSE_DEFAULTS.
   * Its `simplify` (the proxy's simplifier) also simplifies auto's opening-keeping triangle mesh
   * when `mesh.simplify` is not given (one injected simplifier serves both).
   */
  decompose?: Omit<DecomposeOptions, 'tolerance' | 'maxHulls' | 'maxHullVertices' | 'onProgress' | 'signal'>;
  /** Triangle physics mesh settings (source LOD, snap grid, injected simplifier). */
  mesh?: Omit<PhysicsMeshOptions, 'scale' | 'physics'>;
  /** Physics-cost settings. Default PHYSICS_COST_DEFAULTS. */
  physics?: Partial<PhysicsCostSettings>;
  /**
   * The object's download weight at the asked size (auto judges shapes by land impact, the
   * largest of download, physics and server weight). Default 0: physics weight alone decides.
   */
  downloadWeight?: number;
  /**
   * Auto: among the shapes that tie on the object's land impact (all under its download weight),
   * a closer fit than the lightest is taken only up to this physics weight. `optimize` passes
   * what the rest of the linkset leaves before the linkset's physics weight would pass its
   * download or server weight: a linkset's land impact is the largest of the three sums, so a
   * part's closer fit can raise it even where it raises nothing of the part's own. Default: no
   * limit.
   */
  fitAllowance?: number;
  /**
   * The surface the decomposition, the opening test and auto's opening-keeping mesh are made from
   * when the object has no physics model of its own, in the frame of its LODs. Default: its high
   * LOD. `optimize` passes the input's high when the high is a planned simplification of it: a
   * simplifier may zip a sheet's borders into non-manifold seams that look the same but read as
   * another solid (assimp's regr01 house at 20 m: its outer walls decomposed into 21 hulls from the
   * authored surface, 128 without fitting from the planned one).
   */
  surface?: MeshLod;
  /** How auto finds openings an avatar uses (ball width, voxel budget), or false to skip the test. Default AVATAR_OPENING_DEFAULTS. */
  openings?: AvatarOpeningOptions | false;
  /**
   * The rest of the linkset near this object (core linksetSurroundings: the other objects' high
   * LODs in this object's prim frame, at the authored size; scaled by `scale` here): the opening
   * test counts them as obstacles, so space the object encloses only together with them (walls
   * under a roof that is another object) is not an opening an avatar can reach. Default: none
   * (the object judged alone). A function is called only when the opening test builds its voxel
   * grid, at most once (a closed convex solid whose box is no candidate needs none: a linkset of
   * 800 balls made every ball's surroundings, 33 s, for nothing).
   */
  surroundings?:
    | { positions: Float32Array; indices: Uint32Array }
    | (() => { positions: Float32Array; indices: Uint32Array } | undefined);
  /**
   * Decompositions already made for copies of this part (same surface at the same size, same
   * settings): taken from here instead of made again, and added to it when made. A linkset's
   * copies each get their own build (their surroundings differ) but the same decomposition.
   * Default: none (always made).
   */
  decompositions?: DecompositionMemo;
  /** Called with the fraction done, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Aborts the work (the decomposition throws the signal's reason). */
  signal?: AbortSignal;
}

export interface PhysicsBuildResult {
  /** A copy of the object with `hull`, and `decomposition` or `physicsMesh`, set as the mode asks. */
  object: SlObject;
  /** The mode asked for. */
  requested: PhysicsMode;
  /** The shape built (`auto` resolves to `hull`, `decompose` or `mesh`; the bounding box is a `mesh`). */
  mode: 'hull' | 'decompose' | 'mesh' | 'none';
  /** Auto: the candidates priced and why the shape was chosen (also set on `object.physicsChoice`). */
  choice?: PhysicsChoice;
  /** Uploader choices the weight assumes: 'analyze' for a decomposition (the `_PHYS` file is a triangle mesh without it). */
  assumes: 'analyze'[];
  /** Physics weight of the shape the object uses, at the asked size. */
  weight: number;
  /** True when the weight is an estimate (decompositions: no public formula). */
  estimate: boolean;
  /** The single hull (BoundingVerts). */
  hull: {
    vertices: number;
    exactVertices: number;
    reduced: boolean;
    boxFallback: boolean;
    weight: number;
    source: LodName | 'physics';
  };
  /** The decomposition, when one was computed (also for `auto`, even if not chosen). */
  decomposition?: {
    hulls: number;
    vertices: number;
    /** [estimate] */
    weight: number;
    estimate: true;
    /** How far the farthest hull reaches beyond the solid, metres, and the tolerance used. */
    concavity: number;
    tolerance: number;
    airFraction: number;
    limited: boolean;
  };
  /**
   * The triangle physics mesh, when one was priced (also for `auto`). `weight` is what the server
   * charges: its single hull's when the object has a side under 0.5 m (`convexified`).
   */
  mesh?: {
    triangles: number;
    width: number;
    weight: number;
    degenerate: number;
    source: LodName | 'physics';
    convexified: boolean;
    triangleWeight: number;
    /**
     * Auto made it lighter (cheaper-shape.ts, convexified objects only): the mesh is its source's
     * single hull reduced to fewer of its vertices, within `error` world metres; `weightBefore`
     * is the source mesh's weight.
     */
    reduced?: { error: number; weightBefore: number };
    /**
     * Auto made it lighter (opening-mesh.ts, larger objects whose hull closes an opening): the mesh
     * is the surface made lighter as far as it keeps the opening; `from` is the triangle count,
     * `weightBefore` the weight of the mesh made from the LOD and `made` how (opening-mesh.ts:
     * "simplified", "windows capped, flat walls re-triangulated", ...). `lodClosedOpening`: the
     * mesh of the LOD had closed the opening (a coarse low LOD), so this one is used even where it
     * weighs more.
     */
    simplified?: { from: number; weightBefore: number; made: string; lodClosedOpening?: true };
  };
  diagnostics: Diagnostic[];
}

const fmt = shortNumber;

/** A box may stand in for the hull only when it is at most this much bigger (a nearly boxy object). */
const BOX_MAX_VOLUME_RATIO = 1.25;
/**
 * Fit tolerance of a decomposition auto makes only to keep an opening, metres, when none is asked:
 * the opening test leaves the avatar's axis 0.21 m from any surface, so a hull reaching 10 cm
 * beyond the solid narrows an opening a little and closes none (and the fit costs far fewer cuts).
 */
const OPENING_FIT_TOLERANCE = 0.1;
/** ... and cuts into at most this many parts (no forced merges below 256 hulls; bounded time on shells). */
const OPENING_MAX_PARTS = 128;
/** A decomposition merged for openings keeps each opening's axis points this share of the avatar's width clear. */
const OPENING_MARGIN = 0.25;
/** ... and each of its hulls may shrink by this share of the object's longest side (fewer vertices). */
const OPENING_HULL_ERROR = 0.01;
/** A convexified object's hull may be reduced within this share of its longest side (and the tolerance). */
const HULL_REDUCTION_SHARE = 0.1;
/** Fit rank for ties on land impact: higher fits the model more closely. */
const FIT_RANK: Record<PhysicsCandidate['shape'], number> = { mesh: 3, decomposition: 2, hull: 1, box: 0 };
/**
 * Auto keeps an opening the hull closes unless that costs more than this many times the land
 * impact the hull gives and OPENING_COST_MIN_RISE more: past both the object is unusable either
 * way (0 A.D.'s trireme, its 7.8 m deck kept open only by a triangle mesh of thin planks and oars:
 * 976 against the hull's 52), so the cheapest shape is taken and a warning gives the price of
 * keeping it (`--physics mesh` or `decompose` keeps it). A room's decomposition at 5 times a
 * 0.5 hull, or a house's at twice its hull, is kept.
 */
export const OPENING_COST_LIMIT = 10;
/** ... and this much land impact above the hull's (see OPENING_COST_LIMIT). */
export const OPENING_COST_MIN_RISE = 10;

/**
 * Each hull as its closed hull mesh's vertices (points inside a face dropped; a flat hull dropped).
 * The writer conforms these to high's box and keeps what lod-conform's writtenHull keeps.
 */
function closedHulls(hulls: Float32Array[]): Float32Array[] {
  return hulls.map((h) => convexHullMesh(h).positions).filter((h) => h.length >= 12);
}

/**
 * Where the uploader takes the single hull from (singleHullSource: the physics mesh, else low,
 * medium, high), as the writer conforms it to high's box: the written hull is that model's.
 */
function writtenHullSource(object: SlObject): ReturnType<typeof singleHullSource> {
  const s = singleHullSource(object);
  const high = object.lods.high;
  if (s.source === 'physics') return { ...s, positions: lodPositions(conformPhysicsMesh(high, object.physicsMesh!)) };
  if (s.source === 'high') return s;
  return { ...s, positions: lodPositions(conformLod(high, object.lods[s.source]!)) };
}

/** The 12-triangle mesh of a box, outward. */
function boxMesh(min: Vec3, max: Vec3): MeshLod {
  const positions = new Float32Array(24);
  for (let i = 0; i < 8; i++)
    positions.set([i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]], 3 * i);
  const quads = [
    [0, 4, 6, 2],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 2, 3, 1],
    [4, 5, 7, 6],
  ];
  const indices = new Uint32Array(quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]));
  return { faces: [{ material: 'physics', positions, indices }] };
}

/** The box a set of points spans. */
function pointsBox(p: Float32Array): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity],
    max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[i + k]);
      max[k] = Math.max(max[k], p[i + k]);
    }
  }
  return { min, max };
}

/** Points of a MeshLod, flat. */
function meshPoints(m: MeshLod): Float32Array {
  return lodTriangles(m).positions;
}

/** Builds the object's physics shapes. See the file comment. */
export function buildPhysics(object: SlObject, options: BuildPhysicsOptions): PhysicsBuildResult {
  const f: Vec3 = options.scale ?? [1, 1, 1];
  if (!f.every((v) => Number.isFinite(v) && v > 0))
    throw new RangeError(`buildPhysics: scale factors must be positive, got ${f.join(', ')}`);
  const settings = assignDefaults(PHYSICS_COST_DEFAULTS, options.physics);
  const progress = options.onProgress ?? (() => {});
  const diagnostics: Diagnostic[] = [];
  const name = object.name;
  const add = (severity: Diagnostic['severity'], code: string, message: string) =>
    diagnostics.push({ severity, code, message: `${name}: ${message}`, object: name });
  progress(0);
  // The object's size in world: the server's convexification depends on it.
  const size0 = boxSize(lodBox(object.lods.high));
  const worldSize: Vec3 = [size0[0] * f[0], size0[1] * f[1], size0[2] * f[2]];
  const convexified = meshConvexified(worldSize);

  // 1. The single hull, always (every asset carries one): of the model the uploader takes it
  //    from, as written (conformed to high's box, lod-conform.ts).
  const src = writtenHullSource(object);
  const single = convexHull(src.positions);
  if (single.boxFallback && single.points.length > 0)
    add(
      'info',
      'physics-hull-box',
      `the ${src.source} LOD is flat or degenerate; the single hull is its bounding box, as the viewer does`,
    );
  /** What the report says of a single hull `h` of the uploader's model `source`. */
  const infoOf = (h: ReturnType<typeof convexHull>, source: typeof src.source) => ({
    vertices: h.points.length / 3,
    exactVertices: h.exactVertexCount,
    reduced: h.reduced,
    boxFallback: h.boxFallback,
    weight: convexHullPhysicsCost(h.points.length / 3, settings),
    source,
  });
  const hullInfo = infoOf(single, src.source);
  const out: SlObject = { ...object, hull: single.points };
  delete out.physicsChoice;
  // The hull as the shape: no physics model is written with it, so the uploader takes it from the
  // low LOD (else medium, high), not from a physics model the object came with (lod-authored.glb:
  // its authored 8-vertex box, 0.36, against 1.92 for the hull of its low).
  const bare = (() => {
    if (!object.physicsMesh || lodTriangleCount(object.physicsMesh) === 0)
      return { points: single.points, info: hullInfo };
    const s = writtenHullSource({ ...object, physicsMesh: undefined });
    const h = convexHull(s.positions);
    return { points: h.points, info: infoOf(h, s.source) };
  })();
  const result = (
    mode: PhysicsBuildResult['mode'],
    weight: number,
    estimate: boolean,
    extra: Partial<PhysicsBuildResult> = {},
  ): PhysicsBuildResult => {
    progress(1);
    return {
      object: out,
      requested: options.mode,
      mode,
      weight,
      estimate,
      assumes: mode === 'decompose' ? ['analyze'] : [],
      hull: mode === 'hull' ? bare.info : hullInfo,
      diagnostics,
      ...extra,
    };
  };

  // 2. None: price what the object has.
  if (options.mode === 'none') {
    const plain: SlObject = { ...object };
    if (object.decomposition && object.decomposition.length > 0) {
      const d = decompositionPhysicsCost(
        object.decomposition.map((h) => h.length / 3),
        settings,
      );
      return { ...result('none', d.cost, true), object: plain, assumes: ['analyze'] };
    }
    if (object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0) {
      if (convexified)
        return {
          ...result(
            'none',
            object.hull ? convexHullPhysicsCost(object.hull.length / 3, settings) : hullInfo.weight,
            false,
          ),
          object: plain,
        };
      const t = lodTriangles(object.physicsMesh);
      return {
        ...result('none', triangleMeshPhysicsCost(scaledCopy(t.positions, f), t.indices, settings).cost, false),
        object: plain,
      };
    }
    const hullWeight = object.hull ? convexHullPhysicsCost(object.hull.length / 3, settings) : hullInfo.weight;
    return { ...result('none', hullWeight, false), object: plain };
  }
  /** The single hull as the shape, as written (`bare`). */
  const asHull = (extra: Partial<PhysicsBuildResult> = {}) => {
    delete out.decomposition;
    delete out.physicsMesh;
    out.hull = bare.points;
    return result('hull', bare.info.weight, false, extra);
  };
  if (options.mode === 'hull') return asHull();

  // 3. The triangle mesh (mode mesh, and a candidate of auto). Its single hull (the uploader's
  //    BoundingVerts, from the `_PHYS` model) is what the server charges on a small object.
  let meshResult: PhysicsMeshResult | undefined;
  let meshHull: Float32Array | undefined;
  let meshWeight = 0;
  let meshReduced: NonNullable<PhysicsBuildResult['mesh']>['reduced'];
  let meshSimplified: NonNullable<PhysicsBuildResult['mesh']>['simplified'];
  const meshInfo = () =>
    meshResult && {
      triangles: meshResult.cost.triangles,
      width: meshResult.cost.width,
      weight: meshWeight,
      degenerate: meshResult.cost.degenerate,
      source: meshResult.source,
      convexified,
      triangleWeight: meshResult.cost.cost,
      ...(meshReduced ? { reduced: meshReduced } : {}),
      ...(meshSimplified ? { simplified: meshSimplified } : {}),
    };
  if (options.mode === 'mesh' || options.mode === 'auto') {
    meshResult = buildPhysicsMesh(object, { ...options.mesh, scale: f, physics: settings });
    // Auto prices a mesh without its slivers: when a few thin triangles make it explode, the
    // same mesh snapped to the grid the warning names (a tenth of its median triangle width:
    // the shape moves by at most half a cell) is the mesh candidate. 0 A.D.'s banana plant: a
    // 25-triangle mesh from its low LOD weighed 108.7 for three slivers, snapped 1.96; auto took
    // the 108.7 mesh to keep the space under its leaves open, at land impact 109 instead of 6.
    const snapTo = options.mode === 'auto' && options.mesh?.snap === undefined ? meshResult.snapWouldHelp : undefined;
    if (snapTo)
      meshResult = buildPhysicsMesh(object, { ...options.mesh, snap: snapTo.grid, scale: f, physics: settings });
    meshHull = convexHull(meshPoints(meshResult.mesh)).points;
    meshWeight = convexified ? convexHullPhysicsCost(meshHull.length / 3, settings) : meshResult.cost.cost;
    if (options.mode === 'mesh') {
      diagnostics.push(...meshResult.diagnostics);
      if (convexified)
        add(
          'info',
          'physics-mesh-convexified',
          `the object has a side under 0.5 m: the server simulates and charges the physics mesh as its single hull (${fmt(meshWeight)})`,
        );
      out.physicsMesh = meshResult.mesh;
      out.hull = meshHull;
      delete out.decomposition;
      return result('mesh', meshWeight, false, { mesh: meshInfo() });
    }
  }

  // 4. The decomposition, at the world size; hulls mapped back to the authored frame, as written.
  const fromPhysicsModel = !!object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0;
  const geometry = fromPhysicsModel
    ? object.physicsMesh!
    : options.surface && lodTriangleCount(options.surface) > 0
      ? options.surface
      : object.lods.high;
  const tri = lodTriangles(geometry);
  const worldPositions = scaledCopy(tri.positions, f);
  let hulls: Float32Array[] = [];
  let dCost = { cost: 0 };
  let dInfo: PhysicsBuildResult['decomposition'];
  // Openings an avatar uses (set by auto before it builds the decomposition).
  let hullOpening: AvatarOpening = { closes: false },
    boxOpening: AvatarOpening = { closes: false };
  let decompositionCloses = false;
  // How openings are judged: the avatar's size (options) and the prim's up axis.
  // The surroundings at the world size, made when the grid first needs them.
  const givenSurroundings = options.surroundings;
  let scaledSurroundings: OpeningSurroundings | null | undefined;
  const openingOptions: AvatarOpeningOptions = {
    up: primUpAxis(object),
    ...(givenSurroundings
      ? {
          surroundings: () => {
            if (scaledSurroundings === undefined) {
              const s = typeof givenSurroundings === 'function' ? givenSurroundings() : givenSurroundings;
              scaledSurroundings = s ? { positions: scaledCopy(s.positions, f), indices: s.indices } : null;
            }
            return scaledSurroundings ?? undefined;
          },
        }
      : {}),
    ...(options.openings || {}),
  };
  /**
   * The decomposition's notes: given only when it is the shape used (auto may build one and
   * choose another; its limits are then nobody's concern).
   */
  const dNotes: Diagnostic[] = [];
  const note = (severity: Diagnostic['severity'], code: string, message: string) =>
    dNotes.push({ severity, code, message: `${name}: ${message}`, object: name });
  /**
   * Builds the decomposition (the slow step: voxels and cuts over the world-size solid).
   * `budget`: auto's hull limit, the most hulls that could still weigh less than the best other
   * shape (see hullBudget); the decomposition stops cutting and merges down to it.
   */
  const runDecomposition = (budget?: number, openingParts = OPENING_MAX_PARTS): void => {
    dNotes.length = 0;
    // Auto decomposes to keep an opening: without an asked tolerance it fits more loosely.
    const openingDriven = options.mode === 'auto' && hullOpening.closes;
    const asked = options.tolerance ?? (openingDriven ? OPENING_FIT_TOLERANCE : DECOMPOSE_DEFAULTS.tolerance);
    const maxHulls = Math.min(options.maxHulls ?? DECOMPOSE_DEFAULTS.maxHulls, budget ?? Infinity);
    const fit: DecomposeOptions = {
      ...(options.mesh?.simplify ? { simplify: options.mesh.simplify } : {}),
      ...(openingDriven ? { maxParts: openingParts } : {}),
      ...(budget !== undefined ? { maxParts: Math.max(BUDGET_MIN_PARTS, 2 * maxHulls) } : {}),
      ...options.decompose,
      tolerance: asked,
      maxHulls,
      maxHullVertices: options.maxHullVertices,
    };
    const make = () =>
      decompose(worldPositions, tri.indices, {
        ...fit,
        onProgress: (x) => progress(0.05 + 0.8 * x),
        signal: options.signal,
      });
    // The memo's key names every setting; a function (the simplifier) by its presence only.
    const decomposition: DecompositionResult = options.decompositions
      ? options.decompositions.take(
          worldPositions,
          tri.indices,
          JSON.stringify(fit, (k, v) => (typeof v === 'function' ? `function ${k}` : v)),
          make,
        )
      : make();
    // Auto needs the decomposition for an opening the hull closes: merge what the opening does
    // not need (a statue's limbs, a chair's carving) while the land impact can still go down.
    let fitted = decomposition.hulls;
    if (openingDriven && hullOpening.points) {
      const merged = mergeKeepingOpenings(fitted, hullOpening.points, {
        margin: OPENING_MARGIN * (openingOptions.width ?? AVATAR_PASSAGE_WIDTH),
        floorWeight: Math.max(options.downloadWeight ?? 0, serverWeight(1)),
        maxHullVertices: options.maxHullVertices,
        hullError: Math.max(decomposition.tolerance, asked, OPENING_HULL_ERROR * Math.max(...worldSize)),
        physics: settings,
        check: () => checkAbort(options.signal),
      });
      fitted = merged.hulls;
      // A decomposition stopped short of its fit (a part or hull limit) may still span an opening.
      decompositionCloses = merged.blocksOpening;
      note(
        'info',
        'physics-merged-for-openings',
        `the decomposition's ${decomposition.hulls.length} hulls were merged to ${fitted.length} and simplified where no opening an avatar uses needs the fit: away from the openings it is looser than ${fmt(asked * 100)} cm`,
      );
    }
    hulls = closedHulls(fitted.map((h) => scaledCopy(h, f, true)));
    // Priced as written: conformed to high's box (lod-conform.ts), which can add a vertex.
    const counts = conformHulls(object.lods.high, hulls).map((h) => writtenHull(h).length / 3);
    dCost = decompositionPhysicsCost(counts, settings);
    dInfo = {
      hulls: hulls.length,
      vertices: counts.reduce((a, b) => a + b, 0),
      weight: dCost.cost,
      estimate: true as const,
      concavity: decomposition.concavity,
      tolerance: decomposition.tolerance,
      airFraction: decomposition.airFraction,
      limited: decomposition.limited,
    };
    if (decomposition.tolerance > asked * 1.0001) {
      note(
        'info',
        'physics-tolerance-raised',
        `the object is too big for the decomposition's voxel budget at ${fmt(asked * 100)} cm; it was fitted to ${fmt(decomposition.tolerance * 100)} cm`,
      );
    }
    if (decomposition.proxyTriangles !== undefined) {
      note(
        'info',
        'physics-proxy',
        `${tri.indices.length / 3} triangles: the decomposition was made on a simplified copy of ${decomposition.proxyTriangles}`,
      );
    }
    if (decomposition.limited && budget !== undefined && maxHulls === budget) {
      note(
        'info',
        'physics-decomposition-budget',
        `the decomposition was held to ${maxHulls} hulls, the most that could weigh less than the other shapes; its ${hulls.length} hulls reach up to ${fmt(decomposition.concavity * 100)} cm beyond the model`,
      );
    } else if (decomposition.limited) {
      note(
        'warning',
        'physics-decomposition-limited',
        `the decomposition hit its hull limit before fitting: ${hulls.length} hulls reach up to ${fmt(decomposition.concavity * 100)} cm beyond the model`,
      );
    }
    if (decomposition.holesClosed > 0 || decomposition.open) {
      note(
        'info',
        'physics-open-mesh',
        `the ${fromPhysicsModel ? 'physics mesh' : 'high LOD'} is not watertight: ${decomposition.holesClosed} holes were closed before decomposing${decomposition.open ? ', and solid the surface leaves open was filled from its voxels' : ''}`,
      );
    }
  };
  const useDecomposition = (): PhysicsBuildResult => {
    diagnostics.push(...dNotes);
    out.decomposition = hulls;
    out.hull = convexHull(concat(hulls)).points;
    delete out.physicsMesh;
    return result('decompose', dCost.cost, true, { decomposition: dInfo, ...(meshResult ? { mesh: meshInfo() } : {}) });
  };
  if (options.mode === 'decompose') {
    runDecomposition();
    if (hulls.length === 0) {
      add('warning', 'physics-decomposition-empty', 'the decomposition found no solid; the single hull is used');
      return asHull();
    }
    return useDecomposition();
  }

  // 5. Auto: price every candidate at the object's size, leave out those that close an avatar's
  //    opening, take the lowest land impact, ties to the closest fit.
  const download = options.downloadWeight ?? 0;
  const server = serverWeight(1);
  const li = (w: number) => Math.max(download, w, server);
  const hb = pointsBox(single.points.length > 0 ? single.points : src.positions);
  const bMesh = boxMesh(hb.min, hb.max);
  const boxTri = lodTriangles(bMesh);
  const boxWeight = convexified
    ? convexHullPhysicsCost(8, settings)
    : triangleMeshPhysicsCost(scaledCopy(boxTri.positions, f), boxTri.indices, settings).cost;
  const boxVolume = (hb.max[0] - hb.min[0]) * (hb.max[1] - hb.min[1]) * (hb.max[2] - hb.min[2]);
  const boxFits = single.volume > 0 && boxVolume <= BOX_MAX_VOLUME_RATIO * single.volume;
  // Openings an avatar uses, judged on the world-size surface (the high LOD, or the authored
  // physics mesh). The box only where it is a candidate (it fits): a closed convex solid's own
  // hull closes nothing, and then no voxel grid is needed at all (a ball, a bolt, a barrel).
  if (options.openings !== false) {
    const judged = [scaledCopy(bare.points, f), ...(boxFits ? [scaledCopy(boxTri.positions, f)] : [])];
    [hullOpening, boxOpening = { closes: false }] = avatarOpenings(worldPositions, tri.indices, judged, openingOptions);
  }
  // The decomposition is the slow candidate. It can only win when the cheap shapes leave land
  // impact above the object's floor (its download or server weight) or the hull closes an
  // opening; otherwise it could at best tie, and is not built.
  const floor = Math.max(download, server);
  // A mesh as the writer puts it in `_PHYS` (conformed to high's box, lod-conform.ts), with its
  // weight at the object's size and its single hull: what the uploader charges is that mesh's.
  const asWritten = (mesh: MeshLod) => {
    const conformed = conformPhysicsMesh(object.lods.high, mesh);
    const t = lodTriangles(conformed);
    return {
      mesh: conformed,
      cost: triangleMeshPhysicsCost(scaledCopy(t.positions, f), t.indices, settings),
      hull: convexHull(t.positions).points,
    };
  };
  // What this object's physics may weigh before it raises land impact: its own floor, or less in a
  // linkset whose summed physics would otherwise pass the summed download or server weight.
  const target = options.fitAllowance !== undefined ? Math.min(floor, Math.max(0, options.fitAllowance)) : floor;
  // A lighter mesh candidate (cheaper-shape.ts), when the one from the LOD would raise land
  // impact (the object's, or the linkset's): a convexified object's mesh is charged as its hull,
  // so the `_PHYS` mesh becomes that hull with fewer of its vertices, within 10 % of the object's
  // longest side (at most the tolerance).
  if (
    convexified &&
    !hullOpening.closes &&
    meshResult &&
    meshHull &&
    meshResult.cost.triangles > 0 &&
    meshResult.cost.degenerate === 0 &&
    meshWeight > target * (1 + 1e-9)
  ) {
    const allowed = Math.min(
      options.tolerance ?? DECOMPOSE_DEFAULTS.tolerance,
      HULL_REDUCTION_SHARE * Math.max(...worldSize),
    );
    const r = reducedHull(meshHull, f, allowed, target, settings);
    const w = r && asWritten(r.mesh);
    const weight = w && convexHullPhysicsCost(w.hull.length / 3, settings);
    if (r && w && weight! < meshWeight) {
      meshReduced = { error: r.error, weightBefore: meshWeight };
      meshResult = { ...meshResult, mesh: w.mesh, cost: w.cost };
      meshHull = w.hull;
      meshWeight = weight!;
    }
  }
  // Where the hull closes an opening, the mesh made from a LOD keeps it only if that LOD does: a
  // coarse low LOD may have closed it (0 A.D.'s Hellenic gate at 36 m: its 10-triangle low LOD
  // left none of the 14 m passage, and auto called it "the cheapest shape that keeps it open").
  // The avatar test run on it must find that opening, in the same place (opening-mesh.ts
  // keepsOpening; not the closer rules the lighter mesh below is held to: a LOD is not a
  // simplification made for physics alone).
  const openingChecks = {
    opening: hullOpening,
    hull: scaledCopy(single.points, f),
    openingOptions,
    margin: OPENING_MARGIN * (openingOptions.width ?? AVATAR_PASSAGE_WIDTH),
    check: () => checkAbort(options.signal),
  };
  let meshLosesOpening = false;
  if (!convexified && hullOpening.closes && meshResult && meshResult.cost.triangles > 0) {
    const t = lodTriangles(meshResult.mesh);
    meshLosesOpening = !keepsOpening({ positions: scaledCopy(t.positions, f), indices: t.indices }, openingChecks);
  }
  // A lighter mesh candidate for a larger object whose hull closes an opening (opening-mesh.ts):
  // the surface simplified as far as it keeps the opening (the LOD's small triangles cost most),
  // or the one that keeps it where the LOD's mesh does not.
  const simplify = options.mesh?.simplify ?? options.decompose?.simplify;
  if (
    !convexified &&
    hullOpening.closes &&
    simplify &&
    meshResult &&
    meshResult.cost.triangles > 0 &&
    (meshLosesOpening || li(meshWeight) > floor * (1 + 1e-9))
  ) {
    // The planned high (when the surface is the authored one) is simplified too: either may end lighter.
    const planned = geometry === object.lods.high || fromPhysicsModel ? undefined : lodTriangles(object.lods.high);
    const m = openingKeepingMesh(worldPositions, tri.indices, {
      simplify,
      ...(planned ? { alternatives: [{ positions: scaledCopy(planned.positions, f), indices: planned.indices }] } : {}),
      ...openingChecks,
      floorWeight: floor,
      maxWeight: meshLosesOpening ? Infinity : meshWeight,
      physics: settings,
    });
    const w =
      m &&
      asWritten({ faces: [{ material: 'physics', positions: scaledCopy(m.positions, f, true), indices: m.indices }] });
    if (w && (meshLosesOpening || w.cost.cost < meshWeight)) {
      meshSimplified = {
        from: meshResult.cost.triangles,
        weightBefore: meshWeight,
        made: m.made,
        ...(meshLosesOpening ? { lodClosedOpening: true as const } : {}),
      };
      meshLosesOpening = false;
      meshResult = { ...meshResult, mesh: w.mesh, source: fromPhysicsModel ? 'physics' : 'high', cost: w.cost };
      meshHull = w.hull;
      meshWeight = w.cost.cost;
    }
  }
  const cheapBest = Math.min(
    hullOpening.closes ? Infinity : li(bare.info.weight),
    !hullOpening.closes && !boxOpening.closes && boxFits ? li(boxWeight) : Infinity,
    meshResult &&
      meshResult.cost.triangles > 0 &&
      meshResult.cost.degenerate === 0 &&
      !(convexified && hullOpening.closes) &&
      !meshLosesOpening
      ? li(meshWeight)
      : Infinity,
  );
  // A decomposition is worth building only if it can weigh less than the best other shape: at
  // most as many hulls as that leaves (each weighs at least hullBudget's minimum). One kept for an
  // opening is merged by mergeKeepingOpenings instead: forced merges could close the opening.
  const budget = hullBudget(cheapBest, settings);
  const decompositionSkipped = cheapBest <= floor * (1 + 1e-9) || budget < 1;
  if (!decompositionSkipped) {
    runDecomposition(!hullOpening.closes && Number.isFinite(budget) ? budget : undefined);
    // Stopped short by its parts and still spanning the opening: once more with twice the parts
    // (a CC-0 child's hut at 6 m, its platform frame of 117 sticks: 128 parts left a hull in its
    // 1.70 m hollow, so auto closed it, the mesh at 51.6 being over 10x the hull; 256 keep it
    // open at 2.80, estimate). Not where the caller set the parts itself.
    if (
      options.mode === 'auto' &&
      hullOpening.closes &&
      decompositionCloses &&
      dInfo?.limited &&
      options.decompose?.maxParts === undefined
    )
      runDecomposition(undefined, 2 * OPENING_MAX_PARTS);
  }
  progress(0.95);
  const candidates: PhysicsCandidate[] = [
    {
      shape: 'hull',
      weight: bare.info.weight,
      estimate: false,
      landImpact: li(bare.info.weight),
      keepsOpenings: !hullOpening.closes,
    },
  ];
  // The box only where it may stand in for the hull (a nearly boxy object): only then is it judged.
  if (boxFits)
    candidates.push({
      shape: 'box',
      weight: boxWeight,
      estimate: false,
      landImpact: li(boxWeight),
      keepsOpenings: !hullOpening.closes && !boxOpening.closes,
    });
  // A convexified mesh is simulated as its hull: it keeps what the hull keeps.
  if (meshResult && meshResult.cost.triangles > 0 && meshResult.cost.degenerate === 0) {
    candidates.push({
      shape: 'mesh',
      weight: meshWeight,
      estimate: false,
      landImpact: li(meshWeight),
      keepsOpenings: convexified ? !hullOpening.closes : !meshLosesOpening,
    });
  }
  if (hulls.length > 0)
    candidates.push({
      shape: 'decomposition',
      weight: dCost.cost,
      estimate: true,
      landImpact: li(dCost.cost),
      keepsOpenings: !decompositionCloses,
    });
  let usable = candidates.filter((c) => c.keepsOpenings);
  // Keeping the opening at any price: past OPENING_COST_LIMIT times the hull's land impact, not kept.
  const hullLandImpact = li(bare.info.weight);
  const keeper = usable.reduce<PhysicsCandidate | undefined>(
    (a, c) => (!a || c.landImpact < a.landImpact ? c : a),
    undefined,
  );
  const tooCostly =
    hullOpening.closes &&
    keeper &&
    keeper.landImpact > OPENING_COST_LIMIT * hullLandImpact &&
    keeper.landImpact > hullLandImpact + OPENING_COST_MIN_RISE
      ? keeper
      : undefined;
  if (tooCostly) usable = [];
  const pool = usable.length > 0 ? usable : tooCostly ? candidates : candidates.filter((c) => c.shape === 'hull');
  const least = Math.min(...pool.map((c) => c.landImpact));
  const even = pool.filter((c) => c.landImpact <= least * (1 + 1e-9) + 1e-12);
  // A closer fit than the lightest only within the linkset's allowance (fitAllowance).
  const lightest = Math.min(...even.map((c) => c.weight));
  const cap = Math.max(lightest, options.fitAllowance ?? Infinity) * (1 + 1e-9);
  const tied = even.filter((c) => c.weight <= cap);
  const capped = tied.length < even.length;
  // A convexified mesh is simulated as its hull: it fits no better, and needs a `_PHYS` model.
  // So is a decomposition of one hull (and it needs Analyze).
  const rank = (c: PhysicsCandidate) =>
    (c.shape === 'mesh' && convexified) || (c.shape === 'decomposition' && hulls.length === 1)
      ? 0.5
      : FIT_RANK[c.shape];
  tied.sort((a, b) => rank(b) - rank(a) || a.weight - b.weight);
  const chosen = tied[0];
  // The reason, in one line.
  const opening = hullOpening.closes
    ? `the single hull would close a ${fmt(hullOpening.width ?? 0)} m ${hullOpening.kind === 'passage' ? 'passage' : 'hollow'} an avatar fits (${hullOpening.kind === 'passage' ? 'doorway, arch or gap' : 'room or deep hollow'})`
    : '';
  let reason: string;
  const dominated = download >= chosen.weight && download > server;
  const notKept = tooCostly
    ? `keeping it open would cost land impact ${fmt(tooCostly.landImpact)} (${tooCostly.shape === 'mesh' ? 'a triangle mesh' : 'a convex decomposition'}${tooCostly.estimate ? ', estimate' : ''}), over ${OPENING_COST_LIMIT}x the ${fmt(hullLandImpact)} the single hull gives: not kept (\`--physics ${tooCostly.shape === 'mesh' ? 'mesh' : 'decompose'}\` keeps it; an authored _PHYS can keep it for less)`
    : '';
  if (tooCostly) reason = `${opening}; ${notKept}`;
  else if (hullOpening.closes)
    reason = `${opening}; the cheapest shape that keeps it open${usable.length === 0 ? ' could not be made: hull used' : ''}`;
  else if (dominated)
    reason = `download weight ${fmt(download)} sets the land impact; ${tied.length > 1 ? 'the closest fit' : 'the only shape'} that does not raise it${capped ? " (a closer fit would raise the linkset's physics weight past its download or server weight)" : ''}`;
  else
    reason = `lowest land impact (${fmt(chosen.landImpact)}${chosen.estimate ? ' estimate' : ''}); closes no opening an avatar uses`;
  if (chosen.shape === 'decomposition' && !hullOpening.closes) reason += '; assumes Analyze in the uploader';
  if (decompositionSkipped) reason += '; no decomposition tried (it could not lower the land impact)';
  const choice: PhysicsChoice = { shape: chosen.shape, reason, candidates };
  out.physicsChoice = choice;
  if (tooCostly) add('warning', 'physics-opening-closed', `${opening}: ${notKept}`);
  else if (hullOpening.closes)
    add(
      'info',
      'physics-opening-kept',
      `${opening}: ${chosen.shape === 'hull' ? 'no shape could keep it open' : `physics is ${chosen.shape === 'decomposition' ? 'a convex decomposition' : 'a triangle mesh'}`}`,
    );

  if (chosen.shape === 'decomposition') return { ...useDecomposition(), choice };
  delete out.decomposition;
  if (chosen.shape === 'mesh') {
    diagnostics.push(...meshResult!.diagnostics);
    if (meshSimplified)
      add(
        'info',
        'physics-mesh-simplified',
        meshSimplified.lodClosedOpening
          ? `the physics mesh is the ${meshResult!.source === 'physics' ? 'physics model' : 'high LOD'} simplified (${meshSimplified.made}) to ${meshResult!.cost.triangles} triangles, as far as the ${fmt(hullOpening.width ?? 0)} m ${hullOpening.kind === 'passage' ? 'passage' : 'hollow'} stays open to an avatar and no wall is lost (its fit elsewhere is loose): the mesh of the LOD (${meshSimplified.from} triangles, ${fmt(meshSimplified.weightBefore)}) closed it; ${fmt(meshWeight)}`
          : `the physics mesh is the ${meshResult!.source === 'physics' ? 'physics model' : 'high LOD'} made lighter (${meshSimplified.made}) to ${meshResult!.cost.triangles} triangles, as far as the ${fmt(hullOpening.width ?? 0)} m ${hullOpening.kind === 'passage' ? 'passage' : 'hollow'} stays open to an avatar and no wall is lost (its fit elsewhere is loose): ${fmt(meshSimplified.weightBefore)} -> ${fmt(meshWeight)}`,
      );
    if (meshReduced)
      add(
        'info',
        'physics-mesh-reduced',
        `the physics mesh is the ${meshResult!.source} LOD's hull reduced to ${meshHull!.length / 3} of its vertices (within ${fmt(meshReduced.error * 1000)} mm): the server charges a small object's mesh as its hull, ${fmt(meshReduced.weightBefore)} -> ${fmt(meshWeight)}`,
      );
    out.physicsMesh = meshResult!.mesh;
    out.hull = meshHull;
    return result('mesh', meshWeight, false, { decomposition: dInfo, mesh: meshInfo(), choice });
  }
  if (chosen.shape === 'box') {
    out.physicsMesh = bMesh;
    out.hull = convexHull(boxTri.positions).points;
    return result('mesh', boxWeight, false, { decomposition: dInfo, mesh: meshInfo(), choice });
  }
  return asHull({ decomposition: dInfo, mesh: meshInfo(), choice });
}

/** The fewest vertices a decomposition hull has (a triangle: a flat part's hull). */
const MIN_HULL_VERTICES = 3;
/** A budget-held decomposition may still cut to this many parts before merging down to its budget. */
const BUDGET_MIN_PARTS = 16;

/**
 * The most hulls a decomposition can have and still weigh less than `weight`: each hull weighs at
 * least decompositionCostPerHull + MIN_HULL_VERTICES * decompositionCostPerVertex. Infinity for
 * an unbounded weight (or zero-cost hulls).
 */
export function hullBudget(weight: number, settings: Partial<PhysicsCostSettings> = {}): number {
  const least = decompositionPhysicsCost([MIN_HULL_VERTICES], settings).cost;
  if (!Number.isFinite(weight) || !(least > 0)) return Infinity;
  return Math.floor(weight / least - 1e-9);
}

function concat(arrays: Float32Array[]): Float32Array {
  const out = new Float32Array(arrays.reduce((a, h) => a + h.length, 0));
  let at = 0;
  for (const h of arrays) {
    out.set(h, at);
    at += h.length;
  }
  return out;
}
