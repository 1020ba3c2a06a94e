/**
 * The price of one object at a size: the one computation the cost report (cost-report.ts) and
 * the preview page's re-pricing (packages/preview/src/price.ts) share, so a size asked in the page
 * gives exactly the numbers of `slmesh cost --json --size X`.
 *
 * What does not change with size is given: the compressed LOD block sizes the uploader sends
 * (resizing an object in world does not change its asset), the single hull's and the
 * decomposition's weights. What changes is computed here, in this order: the object's scale,
 * position (scaled about the linkset's centre) and radius; download weight; the physics mesh's
 * weight (its triangles' widths scale); the shape the object uses (decomposition, assuming the
 * uploader's Analyze; else the physics mesh, charged as the single hull when a side is under
 * 0.5 m (the server's convexification); else the single hull); server weight and land impact;
 * the LOD switch distances.
 */

import { LOD_FACTOR_DEFAULT, type StreamingCostSettings, type PhysicsCostSettings } from '../constants.js';
import { radiusOfScale, scaleAbout, scaledCopy, type Vec3 } from '../geometry/object-geometry.js';
import type { PhysicsCost } from './cost-report.js';
import { landImpact } from './land-impact.js';
import { lodSwitchDistances } from './lod-distances.js';
import { meshConvexified, triangleMeshPhysicsCost } from './physics-cost.js';
import { serverWeight } from './server-weight.js';
import { animeshStreamingCost, streamingCost, type AnimeshCostSettings, type LodBytes } from './streaming-cost.js';

export interface ObjectPriceInput {
  /** The prim's scale at its own size (core placement.ts primScale), metres. */
  scale: Vec3;
  /** The prim's position at its own size (core placement.ts primPosition), metres. */
  position: Vec3;
  /** Compressed LOD block bytes charged (a missing LOD already charged as the next higher). */
  bytes: Required<LodBytes>;
  /** The physics shapes' costs at the object's own size: `convexHull`, `decomposition` and `choice` are kept, `mesh` is recomputed. */
  physics: Pick<PhysicsCost, 'convexHull' | 'decomposition' | 'choice'>;
  /** The triangle physics mesh (world positions, exact), when the object has one. */
  physicsMesh?: { positions: Float32Array; indices: Uint32Array };
}

export interface ObjectPriceOptions {
  /** RenderVolumeLODFactor for the switch distances. Default LOD_FACTOR_DEFAULT (2). */
  lodFactor?: number;
  /** Price as animesh (triangle-based download weight). Default false. */
  animesh?: boolean;
  /** Streaming-cost settings (or animesh ones). Default the viewer's. */
  streaming?: Partial<StreamingCostSettings> & Partial<AnimeshCostSettings>;
  /** Physics-cost settings. Default PHYSICS_COST_DEFAULTS. */
  physics?: Partial<PhysicsCostSettings>;
}

export interface ObjectPrice {
  scale: Vec3;
  position: Vec3;
  radius: number;
  switchDistances: { lodFactor: number; medium: number; low: number; lowest: number };
  streaming: number;
  physics: PhysicsCost;
  server: number;
  landImpact: number;
}

/**
 * Prices an object at per-axis scale factors `f` from its own size, its position scaled about
 * `centre` (the linkset's centre). See the file comment.
 */
export function priceObjectAtScale(
  input: ObjectPriceInput,
  f: Vec3,
  centre: Vec3,
  options: ObjectPriceOptions = {},
): ObjectPrice {
  // 1. Scale, position and radius at the size asked about.
  const size0 = input.scale;
  const scale: Vec3 = [size0[0] * f[0], size0[1] * f[1], size0[2] * f[2]];
  const position = scaleAbout(input.position, centre, f);
  const radius = radiusOfScale(scale);

  // 2. Download weight from the block sizes.
  const streaming = options.animesh
    ? animeshStreamingCost(input.bytes, options.streaming).streaming
    : streamingCost(input.bytes, radius, options.streaming).streaming;

  // 3. Physics: the mesh's weight at this size, then the shape the object uses.
  const physics: PhysicsCost = {
    weight: 0,
    shape: 'convex-hull',
    estimate: false,
    convexHull: { ...input.physics.convexHull },
  };
  if (input.physicsMesh) {
    const m = triangleMeshPhysicsCost(
      scaledCopy(input.physicsMesh.positions, f),
      input.physicsMesh.indices,
      options.physics,
    );
    physics.mesh = { triangles: m.triangles, width: m.width, weight: m.cost, degenerate: m.degenerate };
  }
  if (input.physics.decomposition) physics.decomposition = { ...input.physics.decomposition };
  if (physics.decomposition) {
    physics.shape = 'decomposition';
    physics.weight = physics.decomposition.weight;
    physics.estimate = true;
    physics.assumes = ['analyze'];
  } else if (physics.mesh && meshConvexified(scale)) {
    // The server's convexification: a small object's triangle mesh is its single hull.
    physics.convexified = true;
    physics.weight = physics.convexHull.weight;
  } else if (physics.mesh) {
    physics.shape = 'mesh';
    physics.weight = physics.mesh.weight;
  } else {
    physics.weight = physics.convexHull.weight;
  }

  if (input.physics.choice) physics.choice = input.physics.choice;

  // 4. Server weight, land impact, switch distances.
  const server = serverWeight(1);
  const lodFactor = options.lodFactor ?? LOD_FACTOR_DEFAULT;
  return {
    scale,
    position,
    radius,
    switchDistances: { lodFactor, ...lodSwitchDistances(radius, lodFactor) },
    streaming,
    physics,
    server,
    landImpact: landImpact({ streaming, physics: physics.weight, server }).exact,
  };
}
