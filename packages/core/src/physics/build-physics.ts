/**
 * The physics shapes of one object, as `slmesh optimize --physics hull|decompose|mesh|none|auto`
 * asks for them: the single convex hull (BoundingVerts) always, plus a convex decomposition or a
 * triangle physics mesh, and the physics weight of the shape the object will use.
 *
 * Modes:
 * - `hull`: the single hull only (convex-hull.ts: at most 256 vertices, containing every vertex).
 * - `decompose`: the convex decomposition (decompose.ts) of the authored physics mesh if there is
 *   one, else of the high LOD. Its weight is an ESTIMATE (no public formula).
 * - `mesh`: a triangle physics mesh (physics-mesh.ts) from the authored physics mesh or a LOD.
 * - `none`: nothing is built; the object is returned as it is, priced on the shape it has.
 * - `auto`: decompose when the decomposition's estimated weight is below the triangle mesh's at
 *   the object's size, else the single hull. A decomposition of one hull is the single hull.
 *
 * `scale` prices (and fits) the object at another size: the decomposition is computed at that
 * size (the tolerance is in world metres) and mapped back to the authored frame, as the asset
 * stores shapes normalised to the object's box.
 */

import { PHYSICS_COST_DEFAULTS, type PhysicsCostSettings } from '../constants.js';
import { convexHull } from './convex-hull.js';
import { DECOMPOSE_DEFAULTS, decompose, type DecomposeOptions, type DecompositionResult } from './decompose.js';
import { lodTriangleCount, lodTriangles, scaledCopy, singleHullSource, type Vec3 } from '../geometry/object-geometry.js';
import { buildPhysicsMesh, type PhysicsMeshOptions, type PhysicsMeshResult } from './physics-mesh.js';
import { convexHullPhysicsCost, decompositionPhysicsCost, triangleMeshPhysicsCost } from '../cost/physics-cost.js';
import type { Diagnostic, LodName, SlObject } from '../types.js';
import { assignDefaults } from '../options.js';

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
  /** Further decomposition settings (air budget, voxel budget, ...). Default DECOMPOSE_DEFAULTS. */
  decompose?: Omit<DecomposeOptions, 'tolerance' | 'maxHulls' | 'maxHullVertices' | 'onProgress' | 'signal'>;
  /** Triangle physics mesh settings (source LOD, snap grid, injected simplifier). */
  mesh?: Omit<PhysicsMeshOptions, 'scale' | 'physics'>;
  /** Physics-cost settings. Default PHYSICS_COST_DEFAULTS. */
  physics?: Partial<PhysicsCostSettings>;
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
  /** The shape built (`auto` resolves to `hull` or `decompose`). */
  mode: 'hull' | 'decompose' | 'mesh' | 'none';
  /** Physics weight of the shape the object uses, at the asked size. */
  weight: number;
  /** True when the weight is an estimate (decompositions: no public formula). */
  estimate: boolean;
  /** The single hull (BoundingVerts). */
  hull: { vertices: number; exactVertices: number; reduced: boolean; boxFallback: boolean; weight: number; source: LodName | 'physics' };
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
  /** The triangle physics mesh, when one was priced (also for `auto`). */
  mesh?: { triangles: number; width: number; weight: number; degenerate: number; source: LodName | 'physics' };
  diagnostics: Diagnostic[];
}



const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toPrecision(2));

/** Builds the object's physics shapes. See the file comment. */
export function buildPhysics(object: SlObject, options: BuildPhysicsOptions): PhysicsBuildResult {
  const f: Vec3 = options.scale ?? [1, 1, 1];
  if (!f.every((v) => Number.isFinite(v) && v > 0)) throw new RangeError(`buildPhysics: scale factors must be positive, got ${f.join(', ')}`);
  const settings = assignDefaults(PHYSICS_COST_DEFAULTS, options.physics);
  const progress = options.onProgress ?? (() => {});
  const diagnostics: Diagnostic[] = [];
  const name = object.name;
  const add = (severity: Diagnostic['severity'], code: string, message: string) => diagnostics.push({ severity, code, message: `${name}: ${message}`, object: name });
  progress(0);

  // 1. The single hull, always (every asset carries one).
  const src = singleHullSource(object);
  const single = convexHull(src.positions);
  if (single.boxFallback && single.points.length > 0) add('info', 'physics-hull-box', `the ${src.source} LOD is flat or degenerate; the single hull is its bounding box, as the viewer does`);
  const hullInfo = {
    vertices: single.points.length / 3,
    exactVertices: single.exactVertexCount,
    reduced: single.reduced,
    boxFallback: single.boxFallback,
    weight: convexHullPhysicsCost(single.points.length / 3, settings),
    source: src.source,
  };
  const out: SlObject = { ...object, hull: single.points };
  const result = (mode: PhysicsBuildResult['mode'], weight: number, estimate: boolean, extra: Partial<PhysicsBuildResult> = {}): PhysicsBuildResult => {
    progress(1);
    return { object: out, requested: options.mode, mode, weight, estimate, hull: hullInfo, diagnostics, ...extra };
  };

  // 2. None: price what the object has.
  if (options.mode === 'none') {
    const plain: SlObject = { ...object };
    if (object.decomposition && object.decomposition.length > 0) {
      const d = decompositionPhysicsCost(object.decomposition.map((h) => h.length / 3), settings);
      return { ...result('none', d.cost, true), object: plain };
    }
    if (object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0) {
      const t = lodTriangles(object.physicsMesh);
      return { ...result('none', triangleMeshPhysicsCost(scaledCopy(t.positions, f), t.indices, settings).cost, false), object: plain };
    }
    const hullWeight = object.hull ? convexHullPhysicsCost(object.hull.length / 3, settings) : hullInfo.weight;
    return { ...result('none', hullWeight, false), object: plain };
  }
  if (options.mode === 'hull') {
    delete out.decomposition;
    delete out.physicsMesh;
    return result('hull', hullInfo.weight, false);
  }

  // 3. The triangle mesh (mode mesh, and auto's yardstick).
  let meshResult: PhysicsMeshResult | undefined;
  const meshInfo = () => meshResult && { triangles: meshResult.cost.triangles, width: meshResult.cost.width, weight: meshResult.cost.cost, degenerate: meshResult.cost.degenerate, source: meshResult.source };
  if (options.mode === 'mesh' || options.mode === 'auto') {
    meshResult = buildPhysicsMesh(object, { ...options.mesh, scale: f, physics: settings });
    if (options.mode === 'mesh') {
      diagnostics.push(...meshResult.diagnostics);
      out.physicsMesh = meshResult.mesh;
      delete out.decomposition;
      return result('mesh', meshResult.cost.cost, false, { mesh: meshInfo() });
    }
  }

  // 4. The decomposition, at the world size; hulls mapped back to the authored frame.
  const geometry = object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0 ? object.physicsMesh : object.lods.high;
  const tri = lodTriangles(geometry);
  const decomposition: DecompositionResult = decompose(scaledCopy(tri.positions, f), tri.indices, {
    ...options.decompose,
    tolerance: options.tolerance ?? DECOMPOSE_DEFAULTS.tolerance,
    maxHulls: options.maxHulls,
    maxHullVertices: options.maxHullVertices,
    onProgress: (x) => progress(0.05 + 0.9 * x),
    signal: options.signal,
  });
  const hulls = decomposition.hulls.map((h) => scaledCopy(h, f, true));
  const counts = hulls.map((h) => h.length / 3);
  const dCost = decompositionPhysicsCost(counts, settings);
  const dInfo = {
    hulls: hulls.length,
    vertices: counts.reduce((a, b) => a + b, 0),
    weight: dCost.cost,
    estimate: true as const,
    concavity: decomposition.concavity,
    tolerance: decomposition.tolerance,
    airFraction: decomposition.airFraction,
    limited: decomposition.limited,
  };
  const asked = options.tolerance ?? DECOMPOSE_DEFAULTS.tolerance;
  if (decomposition.tolerance > asked * 1.0001) {
    add('info', 'physics-tolerance-raised', `the object is too big for the decomposition's voxel budget at ${fmt(asked * 100)} cm; it was fitted to ${fmt(decomposition.tolerance * 100)} cm`);
  }
  if (decomposition.limited) {
    add('warning', 'physics-decomposition-limited', `the decomposition hit its hull limit before fitting: ${hulls.length} hulls reach up to ${fmt(decomposition.concavity * 100)} cm beyond the model`);
  }
  if (decomposition.holesClosed > 0 || decomposition.open) {
    add('info', 'physics-open-mesh', `the ${geometry === object.lods.high ? 'high LOD' : 'physics mesh'} is not watertight: ${decomposition.holesClosed} holes were closed before decomposing${decomposition.open ? ', and solid the surface leaves open was filled from its voxels' : ''}`);
  }
  if (hulls.length === 0) {
    add('warning', 'physics-decomposition-empty', 'the decomposition found no solid; the single hull is used');
    return result('hull', hullInfo.weight, false, { mesh: meshInfo() });
  }

  // 5. Auto: the decomposition only when it beats the triangle mesh; one hull is just the hull.
  const chooseDecomposition = options.mode === 'decompose' || (meshResult !== undefined && dCost.cost < meshResult.cost.cost && hulls.length > 1);
  if (!chooseDecomposition) {
    delete out.decomposition;
    delete out.physicsMesh;
    return result('hull', hullInfo.weight, false, { decomposition: dInfo, mesh: meshInfo() });
  }
  out.decomposition = hulls;
  delete out.physicsMesh;
  return result('decompose', dCost.cost, true, { decomposition: dInfo, ...(meshResult ? { mesh: meshInfo() } : {}) });
}
