/**
 * A decomposition made cheap while it keeps an avatar's openings open. The decomposition fits
 * the solid to a few centimetres, which takes many hulls; when auto needs it only because the
 * single hull would close a doorway or an arch, most of that fit buys nothing. This merges its
 * hulls back together (hull-merge.ts: nearby pairs, least added volume first), every hull
 * simplified inside itself to `hullError` (hull-simplify.ts: fewer vertices weigh less), as long as
 * - the merged hull leaves every point where the avatar's axis stands in an opening
 *   (avatar-openings.ts `points`) at least `margin` clear, and
 * - the decomposition's physics weight is still above `floorWeight` (below the object's
 *   download or server weight, a lighter shape no longer lowers its land impact).
 * The smaller concavities close; the openings stay. Deterministic; pure (no Node APIs).
 */

import type { PhysicsCostSettings } from '../constants.js';
import { decompositionPhysicsCost } from '../cost/physics-cost.js';
import { partHull, type PartHull } from './concavity.js';
import { mergeHulls, type MergeCandidate, type MergeNode } from './hull-merge.js';
import { simplifyHull } from './hull-simplify.js';

/** Thickness given to a flat hull, metres (concavity.ts partHull). */
const MIN_THICKNESS = 1e-3;

export interface OpeningMergeOptions {
  /** How far a merged hull must stay from every opening point, metres. */
  margin: number;
  /** Stop once the physics weight is at or below this. Default 0. */
  floorWeight?: number;
  /** Most vertices per hull. Default 256. */
  maxHullVertices?: number;
  /** How far a simplified hull may lie inside its exact hull, metres (it never grows). Default 0.05. */
  hullError?: number;
  /** Only hulls whose boxes are this close are tried as pairs, metres. Default 0.5. */
  reach?: number;
  /** Physics-cost settings (per-hull and per-vertex weight). Default PHYSICS_COST_DEFAULTS. */
  physics?: Partial<PhysicsCostSettings>;
  /** Called between steps (throw to abort). */
  check?: () => void;
}

export interface OpeningMergeResult {
  /** The hulls, flat xyz each. */
  hulls: Float32Array[];
  /**
   * True when one of them still holds an opening point (a decomposition stopped short of its fit
   * by a part or hull limit spans the opening; no merge ever adds such a hull).
   */
  blocksOpening: boolean;
}

/** True when some point lies inside the hull grown by `margin` (box first, then the planes). */
export function blocks(h: PartHull, points: Float64Array, margin: number): boolean {
  const pl = h.planes;
  const faces = pl.length / 4;
  for (let i = 0; i < points.length; i += 3) {
    const x = points[i],
      y = points[i + 1],
      z = points[i + 2];
    if (x < h.min[0] - margin || x > h.max[0] + margin) continue;
    if (y < h.min[1] - margin || y > h.max[1] + margin) continue;
    if (z < h.min[2] - margin || z > h.max[2] + margin) continue;
    let inside = true;
    for (let q = 0; q < faces && inside; q++)
      inside = pl[4 * q] * x + pl[4 * q + 1] * y + pl[4 * q + 2] * z <= pl[4 * q + 3] + margin;
    if (inside) return true;
  }
  return false;
}

/** Merges `hulls` (flat xyz each) while the openings' `points` stay clear. */
export function mergeKeepingOpenings(
  hulls: readonly Float32Array[],
  points: Float64Array,
  options: OpeningMergeOptions,
): OpeningMergeResult {
  const maxVertices = options.maxHullVertices ?? 256;
  const hullError = options.hullError ?? 0.05;
  const weightOf = (h: PartHull) => decompositionPhysicsCost([h.points.length / 3], options.physics).cost;
  /** The hull simplified inside itself to `hullError` (fewer vertices weigh less). */
  const simplified = (exact: PartHull): PartHull => {
    const simple = simplifyHull(exact.points, maxVertices, hullError);
    return simple === exact.points ? exact : (partHull(simple, MIN_THICKNESS) ?? exact);
  };
  const nodes: MergeNode<undefined>[] = [];
  let weight = 0;
  for (const h of hulls) {
    const exact = partHull(Float64Array.from(h), MIN_THICKNESS);
    if (!exact) continue;
    const hull = simplified(exact);
    nodes.push({ hull, data: undefined, alive: true });
    weight += weightOf(hull);
  }
  const floor = options.floorWeight ?? 0;
  const result = (): OpeningMergeResult => {
    const live = nodes.filter((n) => n.alive);
    return {
      hulls: live.map((n) => Float32Array.from(n.hull.points)),
      blocksOpening: live.some((n) => blocks(n.hull, points, 0)),
    };
  };
  // Simplified already light enough (or nothing to pair): the simplified hulls.
  if (nodes.length < 2 || weight <= floor) return result();
  const evaluate = (a: MergeNode<undefined>, b: MergeNode<undefined>): MergeCandidate<undefined> | undefined => {
    const both = new Float64Array(a.hull.points.length + b.hull.points.length);
    both.set(a.hull.points);
    both.set(b.hull.points, a.hull.points.length);
    const exact = partHull(both, MIN_THICKNESS);
    if (!exact || blocks(exact, points, options.margin)) return undefined;
    return { hull: simplified(exact), data: undefined, cost: exact.volume - a.hull.volume - b.hull.volume };
  };
  mergeHulls(nodes, {
    reach: options.reach ?? 0.5,
    target: 1,
    evaluate,
    accept: (c, a, b) => {
      if (weight <= floor) return false;
      weight += weightOf(c.hull) - weightOf(a.hull) - weightOf(b.hull);
      return true;
    },
    stopOnRefusal: true,
    check: options.check,
  });
  return result();
}
