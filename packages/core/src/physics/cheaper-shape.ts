/**
 * A lighter physics shape for an object the server convexifies (a side under 0.5 m): its
 * triangle physics mesh is simulated and charged as the mesh's single hull, 0.04 * (vertices + 1).
 * The hull of a low LOD keeps every bump of it (a 5 cm bead: 45 vertices, 1.84, over its download
 * weight 0.78). A `_PHYS` mesh that is that hull reduced to a subset of its own vertices
 * (hull-simplify.ts: inside the hull, within the error of it) is charged for the subset.
 *
 * Errors are tried from an eighth of `maxError` up; the least reduction that brings the weight
 * down to `floorWeight` (the object's download or server weight: below it a lighter shape no
 * longer lowers land impact) wins, else the lightest within `maxError`.
 *
 * (A larger object's triangle mesh is made lighter only where its hull closes an opening an
 * avatar uses, judged by that opening: opening-mesh.ts. By a distance bound alone it gained
 * little: on V-HACD's tori and pelvis, halving the LOD's triangles already moved the surface 15
 * to 86 cm.)
 */

import { PHYSICS_COST_DEFAULTS, type PhysicsCostSettings } from '../constants.js';
import { convexHullPhysicsCost } from '../cost/physics-cost.js';
import { scaledCopy, type Vec3 } from '../geometry/object-geometry.js';
import type { MeshLod } from '../types.js';
import { assignDefaults } from '../options.js';
import { convexHullMesh } from './convex-hull.js';
import { simplifyHull } from './hull-simplify.js';

/** Error steps tried, as fractions of the error allowed (least reduction first). */
const HULL_ERROR_STEPS = [0.125, 0.25, 0.5, 1];

export interface ReducedHull {
  /** The reduced hull's points, authored frame. */
  points: Float32Array;
  /** Its closed hull mesh (one face), authored frame: what `_PHYS` holds. */
  mesh: MeshLod;
  /** 0.04 * (vertices + 1). */
  weight: number;
  /** The error allowed for the step taken, world metres. */
  error: number;
}

/**
 * The hull `points` (authored frame; `f` scales them to world) reduced to fewer vertices within
 * `maxError` world metres, or undefined when no step removes a vertex.
 */
export function reducedHull(
  points: Float32Array,
  f: Vec3,
  maxError: number,
  floorWeight: number,
  physics: Partial<PhysicsCostSettings> = {},
): ReducedHull | undefined {
  const settings = assignDefaults(PHYSICS_COST_DEFAULTS, physics);
  const n = points.length / 3;
  if (n <= 4 || !(maxError > 0)) return undefined;
  const world = Float64Array.from(scaledCopy(points, f));
  let best: { sub: Float64Array; error: number } | undefined;
  for (const step of HULL_ERROR_STEPS) {
    const error = step * maxError;
    const sub = simplifyHull(world, n, error);
    if (sub.length / 3 >= n || sub.length / 3 < 4) continue;
    if (!best || sub.length < best.sub.length) best = { sub, error };
    if (convexHullPhysicsCost(sub.length / 3, settings) <= floorWeight) break;
  }
  if (!best) return undefined;
  const hull = convexHullMesh(scaledCopy(best.sub, f, true));
  if (hull.indices.length < 12) return undefined;
  return {
    points: hull.positions,
    mesh: { faces: [{ material: 'physics', positions: hull.positions, indices: hull.indices }] },
    weight: convexHullPhysicsCost(hull.positions.length / 3, settings),
    error: best.error,
  };
}
