/**
 * The cost report: what Second Life will charge for a model, per object (prim) and for the
 * linkset, computed the way the viewer does.
 *
 * 1. Each object is encoded exactly as the viewer's uploader encodes it (mesh-asset.ts); the
 *    compressed LOD block sizes drive the download weight (streaming-cost.ts).
 * 2. Physics: the shape the uploader would use (decomposition, else physics mesh, else the
 *    single convex hull from physics, low, medium or high, in that order) and its weight
 *    (physics-cost.ts). Decomposition weights are estimates and say so; hulls from a file need
 *    the uploader's Analyze step (`assumes: ['analyze']`). A physics mesh on an object with a
 *    side under 0.5 m is charged as its single hull (the server's convexification).
 * 3. Server weight, land impact, linkability and the upload checks complete it.
 *
 * Asking for another size (`scale`) rescales the object boxes about the linkset's centre: the
 * uploaded asset does not change with in-world resizing, so LOD bytes stay; the radius, the
 * physics mesh's triangle widths and the prim centres change.
 *
 * The report is plain JSON; its schema is docs/cost-report.schema.json (keep them in step).
 */

import {
  ANIMATED_OBJECT_BASE_COST,
  LINKABILITY_DEFAULTS,
  PHYSICS_COST_DEFAULTS,
  type LinkabilitySettings,
  type PhysicsCostSettings,
  type StreamingCostSettings,
} from '../constants.js';
import { convexHull } from '../physics/convex-hull.js';
import { landImpact } from './land-impact.js';
import { linkabilityCurrent, linkabilityLegacy } from './linkability.js';
import { encodeMeshAsset, measureMeshAsset, type MeshAssetInput, type MeshAssetLayout } from '../asset/mesh-asset.js';
import {
  boxCenter,
  boxSize,
  emptyBox,
  lodTriangleCount,
  lodTriangles,
  lodVertexCount,
  singleHullSource,
  unionBox,
  type Vec3,
} from '../geometry/object-geometry.js';
import {
  canBePhysical,
  convexHullPhysicsCost,
  decompositionPhysicsCost,
  physicalLinksetPenalty,
} from './physics-cost.js';
import { serverWeight } from './server-weight.js';
import { splitLargeFaces, splitSubmodels } from '../asset/submodels.js';
import type { DeflateFn, Diagnostic, LodName, PhysicsChoice, SlModel, SlObject } from '../types.js';
import { LOD_NAMES } from '../types.js';
import { checkModel } from '../asset/upload-checks.js';
import { uploadScale } from './upload-scale.js';
import { primPosition, primScale, worldBox } from '../geometry/placement.js';
import { assignDefaults } from '../options.js';
import { priceObjectAtScale } from './object-price.js';
import { LOD_FACTOR_DEFAULT } from '../constants.js';

/** RenderVolumeLODFactor reports use unless told otherwise: Firestorm's default and the official viewer's high presets. */
export const REPORT_LOD_FACTOR_DEFAULT = LOD_FACTOR_DEFAULT;
export const COST_REPORT_SCHEMA_VERSION = 1;

export interface CostReportOptions {
  /**
   * zlib deflate (RFC 1950). Required: the costs depend on compressed sizes. zlibNgDeflate gives the
   * viewer's bytes (zlib-ng level 9), so the sizes the viewer uploads; any other zlib prices them off.
   */
  deflate: DeflateFn;
  /** RenderVolumeLODFactor for the switch distances. Default 2 (REPORT_LOD_FACTOR_DEFAULT). */
  lodFactor?: number;
  /**
   * Ask about another size: per-axis factors applied to the whole linkset. Default [1, 1, 1]. Where
   * they take an object over 63.9 m or the model over 240 m, the uploader's Scale cap shrinks them
   * (cost/upload-scale.ts, diagnostic `scale-capped`): the price is the upload's.
   */
  scaleFactors?: Vec3;
  /** Streaming-cost settings. Default STREAMING_COST_DEFAULTS (the current viewer). */
  streaming?: Partial<StreamingCostSettings>;
  /** Physics-cost settings. Default PHYSICS_COST_DEFAULTS. */
  physics?: Partial<PhysicsCostSettings>;
  /** Linkability settings and rule. Default LINKABILITY_DEFAULTS, rule 'current'. */
  linkability?: Partial<LinkabilitySettings> & { rule?: 'current' | 'legacy' };
  /** Price the model as an animated object (animesh): triangle-based download weight. Default false. */
  animesh?: boolean;
  /** Scripts in the linkset, for server weight. Default 0. */
  scripts?: number;
  /** Keep each object's encoded asset bytes in the result (not in the JSON). Default false. */
  keepAssets?: boolean;
}

export interface LodCost {
  /** Triangles in this LOD (of the LOD the viewer would use: a missing LOD shows the next higher). */
  triangles: number;
  vertices: number;
  /** Compressed bytes the download weight charges for this LOD (a missing LOD takes the next higher's). */
  bytes: number;
  /** Compressed size of this LOD's own block in the asset; 0 when the asset has no such block. */
  blockBytes: number;
  /** True when the model supplied this LOD (authored or generated), false when the next higher stands in. */
  present: boolean;
}

export interface PhysicsCost {
  /** The weight of the shape the object uses (shape type "Prim"). */
  weight: number;
  /** Which shape: the decomposition, the triangle physics mesh, or the single convex hull. */
  shape: 'decomposition' | 'mesh' | 'convex-hull';
  /** True when no public source backs the number (decompositions). */
  estimate: boolean;
  convexHull: { vertices: number; weight: number; source: LodName | 'physics'; reduced: boolean };
  mesh?: { triangles: number; width: number; weight: number; degenerate: number };
  decomposition?: { hulls: number; vertices: number; weight: number; estimate: true };
  /**
   * True when the object has a physics mesh and no decomposition but a side under 0.5 m: the
   * server simulates and charges its single convex hull instead (shape 'convex-hull').
   */
  convexified?: boolean;
  /**
   * Uploader choices the weight assumes: 'analyze' when it prices hulls (a decomposition), which
   * a physics model from a file only becomes when the creator clicks Analyze; without it, the
   * file's physics model is a triangle mesh (`mesh`).
   */
  assumes?: 'analyze'[];
  /** Why this shape, when slmesh chose it (optimize --physics auto): see PhysicsChoice. */
  choice?: PhysicsChoice;
}

export interface ObjectCost {
  name: string;
  /** Size of the object's box, metres (the prim's scale). */
  scale: Vec3;
  /** Centre of the object's box, metres (the prim's position in the linkset). */
  position: Vec3;
  /** 0.5 * |scale|: what LOD switching and download weight use. */
  radius: number;
  faces: number;
  lods: Record<LodName, LodCost>;
  /** Camera distances, metres, at which each lower LOD starts to show, for `lodFactor`. */
  switchDistances: { lodFactor: number; medium: number; low: number; lowest: number };
  /** Download (streaming) weight. */
  streaming: number;
  physics: PhysicsCost;
  server: number;
  landImpact: number;
  /** Compressed size of the whole asset (header and every block). */
  assetBytes: number;
  /** Index of this part when the uploader splits an object of more than 8 faces (0 otherwise). */
  submodelId: number;
}

export interface LinksetCost {
  prims: number;
  streaming: number;
  physics: number;
  /** True when any object's physics weight is an estimate. */
  physicsEstimate: boolean;
  server: number;
  landImpact: number;
  landImpactRounded: number;
  /** Which weight sets the land impact. */
  dominant: 'download' | 'physics' | 'server';
  /** Size of the linkset's box, metres. */
  scale: Vec3;
  physical: { weight: number; canBePhysical: boolean; limit: number };
  linkable: {
    ok: boolean;
    span: number;
    limit: number;
    rule: 'current' | 'legacy';
    prims: number;
    maxPrims: number;
    reason?: string;
  };
}

export interface ModelCost {
  objects: ObjectCost[];
  linkset: LinksetCost;
  diagnostics: Diagnostic[];
  /** Encoded assets by object name, when `keepAssets` was asked. */
  assets?: Map<string, Uint8Array>;
}

/** Costs one object at per-axis scale factors `f` (relative to its authored size). */
function objectCost(
  object: SlObject,
  submodelId: number,
  f: Vec3,
  centre: Vec3,
  options: CostReportOptions,
  physicsSettings: Partial<PhysicsCostSettings>,
) {
  // 1. Physics shapes: the given hull, or the one the uploader would build.
  const src = singleHullSource(object);
  const built = object.hull ? undefined : convexHull(src.positions);
  const hull = object.hull ?? built!.points;

  // 2. Encode exactly as the uploader does; the LOD block sizes are what download weight charges.
  //    An extra object split off a many-material object goes up as the viewer writes it: with
  //    its submodel_id and an empty physics block (its physics is priced from its own hull).
  //    Only the sizes are needed unless the asset itself is kept.
  const asset: MeshAssetInput =
    submodelId > 0
      ? { lods: object.lods, submodelId, frameScale: object.placement?.scale }
      : {
          lods: object.lods,
          physicsMesh: object.physicsMesh,
          hull,
          decomposition: object.decomposition,
          frameScale: object.placement?.scale,
        };
  const encoded: MeshAssetLayout & { bytes?: Uint8Array } = options.keepAssets
    ? encodeMeshAsset(asset, { deflate: options.deflate })
    : measureMeshAsset(asset, { deflate: options.deflate });
  const block = (name: LodName) => encoded.blocks[`${name}_lod`]?.size ?? 0;

  // 3. A missing LOD is shown (and charged) as the next higher one.
  const lods = {} as Record<LodName, LodCost>;
  let above: LodCost | undefined;
  for (const name of LOD_NAMES) {
    const lod = object.lods[name];
    const blockBytes = block(name);
    const present = !!lod && blockBytes > 0;
    const own: LodCost = {
      triangles: lodTriangleCount(lod),
      vertices: lodVertexCount(lod),
      bytes: blockBytes,
      blockBytes,
      present,
    };
    lods[name] = present || !above ? own : { ...above, blockBytes, present: false };
    above = lods[name];
  }
  const bytes = {
    high: lods.high.blockBytes,
    medium: lods.medium.blockBytes,
    low: lods.low.blockBytes,
    lowest: lods.lowest.blockBytes,
  };

  // 4. The size-independent physics costs (the single hull, the decomposition).
  const hullVertices = hull.length / 3;
  const physics0: Pick<PhysicsCost, 'convexHull' | 'decomposition'> = {
    convexHull: {
      vertices: hullVertices,
      weight: convexHullPhysicsCost(hullVertices, physicsSettings),
      source: object.hull ? 'physics' : src.source,
      reduced: built?.reduced ?? false,
    },
  };
  if (object.decomposition && object.decomposition.length > 0) {
    const counts = object.decomposition.map((h) => h.length / 3);
    const d = decompositionPhysicsCost(counts, physicsSettings);
    physics0.decomposition = {
      hulls: counts.length,
      vertices: counts.reduce((a, b) => a + b, 0),
      weight: d.cost,
      estimate: true,
    };
  }

  // 5. Everything that depends on the size: core's one per-object price (object-price.ts).
  const {
    scale,
    position,
    radius,
    switchDistances,
    streaming,
    physics,
    server,
    landImpact: li,
  } = priceObjectAtScale(
    {
      scale: primScale(object),
      position: primPosition(object),
      bytes,
      physics: physics0,
      ...(object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0
        ? { physicsMesh: lodTriangles(object.physicsMesh) }
        : {}),
    },
    f,
    centre,
    {
      lodFactor: options.lodFactor ?? REPORT_LOD_FACTOR_DEFAULT,
      animesh: options.animesh,
      streaming: options.streaming,
      physics: physicsSettings,
    },
  );
  if (object.physicsChoice) physics.choice = object.physicsChoice;
  const cost: ObjectCost = {
    name: object.name,
    scale,
    position,
    radius,
    faces: object.lods.high.faces.length,
    lods,
    switchDistances,
    streaming,
    physics,
    server,
    landImpact: li,
    assetBytes: encoded.length,
    submodelId,
  };
  return { cost, asset: encoded.bytes };
}

/** Splits what the uploader splits (faces over 65525 vertices, objects over 8 faces). */
export function prepareForUpload(model: SlModel): { object: SlObject; submodelId: number }[] {
  return model.objects.flatMap((o) => splitSubmodels(splitLargeFaces(o)));
}

/** What linksetCost needs of each object: its weights and where and how big it is. */
export type LinksetMember = Pick<ObjectCost, 'streaming' | 'position' | 'scale'> & {
  physics: Pick<PhysicsCost, 'weight' | 'estimate'>;
};

/**
 * The linkset's weights from its objects': download and physics add up (plus the animated root
 * once for animesh); server weight, land impact, the physical penalty and linkability are the
 * linkset's. Used by costReport and by the preview when it re-prices at another size.
 */
export function linksetCost(
  objects: readonly LinksetMember[],
  linksetScale: Vec3,
  options: Pick<CostReportOptions, 'animesh' | 'scripts' | 'physics' | 'linkability'> = {},
): LinksetCost {
  const physicsSettings = assignDefaults(PHYSICS_COST_DEFAULTS, options.physics);
  const linkSettings = assignDefaults(LINKABILITY_DEFAULTS, options.linkability);
  const prims = objects.length;
  let streaming = objects.reduce((a, o) => a + o.streaming, 0);
  if (options.animesh && prims > 0) streaming += ANIMATED_OBJECT_BASE_COST;
  const physics = objects.reduce((a, o) => a + o.physics.weight, 0);
  const server = serverWeight(prims, options.scripts ?? 0);
  const li = landImpact({ streaming, physics, server });
  const rule = options.linkability?.rule ?? 'current';
  const linkResult =
    rule === 'legacy'
      ? linkabilityLegacy(
          objects.map((o) => ({ center: o.position, scale: o.scale })),
          linkSettings,
        )
      : linkabilityCurrent(
          objects.flatMap((o) => o.position),
          linkSettings,
        );
  return {
    prims,
    streaming,
    physics,
    physicsEstimate: objects.some((o) => o.physics.estimate),
    server,
    landImpact: li.exact,
    landImpactRounded: li.rounded,
    dominant: li.dominant,
    scale: linksetScale,
    physical: {
      weight: physicalLinksetPenalty(physics, linksetScale, physicsSettings),
      canBePhysical: canBePhysical(physics, physicsSettings),
      limit: physicsSettings.maxPhysicalCost,
    },
    linkable: {
      ok: linkResult.ok,
      span: linkResult.span,
      limit: linkResult.limit,
      rule,
      prims,
      maxPrims: linkSettings.maxPrims,
      ...(linkResult.ok
        ? {}
        : {
            reason:
              linkResult.reason ??
              (prims > linkSettings.maxPrims
                ? `${prims} prims; at most ${linkSettings.maxPrims} can be linked`
                : `span ${linkResult.span.toFixed(2)} m is not below ${linkResult.limit} m`),
          }),
    },
  };
}

export function costReport(model: SlModel, options: CostReportOptions): ModelCost {
  const physicsSettings = assignDefaults(PHYSICS_COST_DEFAULTS, options.physics);
  const linkSettings = assignDefaults(LINKABILITY_DEFAULTS, options.linkability);
  // 0. The size asked for, or the uploader's largest Scale where that is over its limits.
  const upload = uploadScale(model, options.scaleFactors ?? [1, 1, 1]);
  const f = upload.factors;

  // 1. Check what is uploaded; objects with blocking geometry errors are not priced.
  const diagnostics = checkModel(model);
  const parts = prepareForUpload(model);
  const blocked = new Set(
    diagnostics
      .filter(
        (d) => d.severity === 'error' && d.object && ['non-finite-vertex', 'bad-index', 'no-high-lod'].includes(d.code),
      )
      .map((d) => d.object!),
  );

  // 2. The linkset's box at the size asked about.
  let box0 = emptyBox();
  for (const p of parts) box0 = unionBox(box0, worldBox(p.object));
  const centre = boxCenter(box0);
  const size0 = boxSize(box0);
  const linksetScale: Vec3 = [size0[0] * f[0], size0[1] * f[1], size0[2] * f[2]];

  // 3. Each object.
  const objects: ObjectCost[] = [];
  const assets = options.keepAssets ? new Map<string, Uint8Array>() : undefined;
  for (const p of parts) {
    if (blocked.has(p.object.name)) continue;
    const { cost, asset } = objectCost(p.object, p.submodelId, f, centre, options, physicsSettings);
    if (cost.physics.convexHull.reduced) {
      diagnostics.push({
        severity: 'info',
        code: 'hull-reduced',
        object: cost.name,
        message: `${cost.name}: the exact convex hull has more than 256 vertices; slmesh replaced it by a hull of at most 256 that still contains every vertex`,
      });
    }
    objects.push(cost);
    if (assets && asset) assets.set(cost.name, asset);
  }

  // 4. The linkset: weights add up; server weight, land impact and linkability are the linkset's.
  const linkset = linksetCost(objects, linksetScale, {
    ...options,
    physics: physicsSettings,
    linkability: linkSettings,
  });
  if (upload.diagnostic) diagnostics.push(upload.diagnostic);
  if (!linkset.linkable.ok) {
    diagnostics.push({
      severity: 'warning',
      code: 'not-linkable',
      message: `not linkable: ${linkset.linkable.reason}`,
    });
  }
  return { objects, linkset, diagnostics, ...(assets ? { assets } : {}) };
}
