/**
 * Physics weight (physics resource cost) of a mesh object's physics shapes, and of a physical
 * linkset.
 *
 * Sources and confidence:
 * - Convex hull [opensim, MeshCost.cs, which states it matches SL for convex shapes]:
 *   0.04 * (vertices + 1); an 8-vertex box hull costs 0.36.
 * - Triangle mesh [seed 001, mesh-physics.md]: max(K * triangles / width, 0.5), width = harmonic
 *   mean of the triangles' widths at the object's current scale, clamped to [0.001, 20] m,
 *   K = 0.05 (0.5 m wide triangles cost 0.1 each). The seed says the server's width is itself
 *   "only an approximation of the exact triangle width"; we compute the exact width.
 * - Convex decomposition: [estimate] no public formula; the sum over hulls of the single-hull
 *   formula, with settable coefficients. Reports must say "estimate".
 * - Physical linkset penalty and the limit of 32 [seed 001].
 * - Convexification [viewer, LLPhysicsShapeBuilderUtil::determinePhysicsShape]: a triangle mesh
 *   (no decomposition) on an object with any side under 0.5 m is simulated, and charged, as its
 *   single convex hull (meshConvexified).
 *
 * Triangle width. The seed defines it as the shorter side of the tightest (minimum-area) bounding
 * rectangle of the triangle. A minimum-area rectangle around a convex polygon has a side on one
 * of its edges; for a triangle the rectangle on edge e has sides h_e = 2A / |e| (the height over e)
 * and the extent of the triangle along e, which is |e| unless the triangle is obtuse at an end
 * of e. The rectangle on the LONGEST edge has no such overhang (both angles there are acute), so
 * its area is 2A, the least any rectangle around a triangle can have (a triangle fills at most
 * half of a rectangle). Non-obtuse triangles tie (every edge gives 2A); among the tied rectangles
 * the longest edge's one has the shortest short side, because h_min = 2A / |e_max| is no longer
 * than any other height or edge. So width = 2A / (longest edge) = the smallest altitude, which is
 * also the triangle's minimal width in the geometric sense.
 */

import { PHYSICS_COST_DEFAULTS, USER_MESH_CONVEXIFICATION_SIZE, type PhysicsCostSettings } from '../constants.js';
import { SlmeshError } from '../errors.js';
import { assignDefaults } from '../options.js';

function settingsOf(settings: Partial<PhysicsCostSettings>): PhysicsCostSettings {
  return assignDefaults(PHYSICS_COST_DEFAULTS, settings);
}

/** Physics weight of a single convex hull of `vertexCount` vertices: hullCostPerVertex * (n + 1). [opensim] */
export function convexHullPhysicsCost(vertexCount: number, settings: Partial<PhysicsCostSettings> = {}): number {
  const s = settingsOf(settings);
  return s.hullCostPerVertex * (vertexCount + 1);
}

export interface TriangleMeshPhysicsCost {
  /** Physics weight: max(meshCostConstant * triangles / width, meshMinimumCost). [seed 001] */
  cost: number;
  /** Triangles counted (degenerate ones excluded). */
  triangles: number;
  /** Harmonic mean triangle width, metres, clamped to [meshMinWidth, meshMaxWidth]; 0 when there are no triangles. */
  width: number;
  /** Zero-area triangles (up to rounding) found and left out. The uploader refuses a physics mesh that has any. */
  degenerate: number;
}

/** Relative area below which a triangle counts as degenerate: |cross| <= this * longest edge^2. */
const DEGENERATE_RELATIVE_AREA = 1e-12;

/**
 * Physics weight of a triangle-mesh physics shape (shape type Prim with a physics mesh).
 *
 * @param positions xyz per vertex, metres, at the object's current scale (the caller scales).
 * @param indices three vertex indices per triangle.
 * Degenerate (zero-area) triangles are counted in `degenerate` and left out of the triangle count
 * and the mean width: the uploader would reject them, so the cost is that of the mesh without them.
 */
export function triangleMeshPhysicsCost(
  positions: Float32Array,
  indices: Uint32Array,
  settings: Partial<PhysicsCostSettings> = {},
): TriangleMeshPhysicsCost {
  const s = settingsOf(settings);
  if (indices.length % 3 !== 0) {
    throw new SlmeshError('INPUT_INVALID', `triangle list length ${indices.length} is not a multiple of 3`);
  }
  const vertexCount = Math.floor(positions.length / 3);
  let triangles = 0;
  let degenerate = 0;
  let inverseWidthSum = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t];
    const b = indices[t + 1];
    const c = indices[t + 2];
    if (a >= vertexCount || b >= vertexCount || c >= vertexCount) {
      throw new SlmeshError('INPUT_INVALID', `triangle ${t / 3} uses vertex ${Math.max(a, b, c)} of ${vertexCount}`);
    }
    // 1. Edges and twice the area.
    const ax = positions[3 * a],
      ay = positions[3 * a + 1],
      az = positions[3 * a + 2];
    const ux = positions[3 * b] - ax,
      uy = positions[3 * b + 1] - ay,
      uz = positions[3 * b + 2] - az;
    const vx = positions[3 * c] - ax,
      vy = positions[3 * c + 1] - ay,
      vz = positions[3 * c + 2] - az;
    const wx = vx - ux,
      wy = vy - uy,
      wz = vz - uz;
    const cx = uy * vz - uz * vy,
      cy = uz * vx - ux * vz,
      cz = ux * vy - uy * vx;
    const twiceArea = Math.sqrt(cx * cx + cy * cy + cz * cz);
    const longestSquared = Math.max(
      ux * ux + uy * uy + uz * uz,
      vx * vx + vy * vy + vz * vz,
      wx * wx + wy * wy + wz * wz,
    );
    // 2. Degenerate triangles are counted apart.
    if (!(longestSquared > 0) || !(twiceArea > DEGENERATE_RELATIVE_AREA * longestSquared)) {
      degenerate++;
      continue;
    }
    // 3. Width = 2A / longest edge (see the file comment); accumulate 1/width.
    inverseWidthSum += Math.sqrt(longestSquared) / twiceArea;
    triangles++;
  }
  if (triangles === 0) return { cost: s.meshMinimumCost, triangles: 0, width: 0, degenerate };
  // 4. Harmonic mean, clamped, then the cost.
  const mean = triangles / inverseWidthSum;
  const width = Math.min(Math.max(mean, s.meshMinWidth), s.meshMaxWidth);
  const cost = Math.max((s.meshCostConstant * triangles) / width, s.meshMinimumCost);
  return { cost, triangles, width, degenerate };
}

export interface DecompositionPhysicsCost {
  /** [estimate] Sum over hulls of (decompositionCostPerHull + decompositionCostPerVertex * vertices). */
  cost: number;
  /** Always true: Second Life's formula for decompositions is not public. */
  estimate: true;
}

/**
 * ESTIMATED physics weight of a convex decomposition (shape type Prim with a decomposition):
 * there is no public formula. Modelled as the sum over hulls of the single-hull formula
 * (defaults 0.04 per hull + 0.04 per vertex = 0.04 * (n + 1) per hull); both coefficients are settings.
 */
export function decompositionPhysicsCost(
  hullVertexCounts: readonly number[],
  settings: Partial<PhysicsCostSettings> = {},
): DecompositionPhysicsCost {
  const s = settingsOf(settings);
  let cost = 0;
  for (const n of hullVertexCounts) cost += s.decompositionCostPerHull + s.decompositionCostPerVertex * n;
  return { cost, estimate: true };
}

/**
 * Physics weight of a linkset once it is set physical: base * (1 + physicalPenaltyPerArea * A),
 * A = mean face area of the linkset's axis-aligned bounding box, (xy + yz + xz) / 3. [seed 001]
 * The penalty does not decide whether the linkset may be set physical (see canBePhysical).
 */
export function physicalLinksetPenalty(
  baseCost: number,
  linksetSize: readonly [number, number, number] | readonly number[],
  settings: Partial<PhysicsCostSettings> = {},
): number {
  const s = settingsOf(settings);
  const [x, y, z] = linksetSize;
  const meanFaceArea = (x * y + y * z + x * z) / 3;
  return baseCost * (1 + s.physicalPenaltyPerArea * meanFaceArea);
}

/** Whether a prim or linkset with this unpenalised physics weight may be set physical (<= 32). [seed 001] */
export function canBePhysical(unpenalisedCost: number, settings: Partial<PhysicsCostSettings> = {}): boolean {
  return unpenalisedCost <= settingsOf(settings).maxPhysicalCost;
}

/**
 * The server's "convexification": whether a triangle-mesh physics shape (with no decomposition)
 * on an object of this size (its box sides, metres, at its in-world scale) is replaced by its
 * single convex hull: true when any side is under USER_MESH_CONVEXIFICATION_SIZE (0.5 m).
 * [viewer] LLPhysicsShapeBuilderUtil::determinePhysicsShape, SHAPE_BUILDER_USER_MESH_CONVEXIFICATION_SIZE.
 */
export function meshConvexified(scale: readonly number[], minSide = USER_MESH_CONVEXIFICATION_SIZE): boolean {
  return scale.slice(0, 3).some((side) => side < minSide);
}
