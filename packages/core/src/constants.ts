/**
 * Every Second Life number slmesh uses, in one place, each with its source.
 *
 * Tags: [viewer] read in the Second Life viewer source (secondlife/viewer, develop, 7.2.x);
 * [seed] the mission's source texts; [wiki] SL wiki / knowledge base; [opensim] OpenSimulator's
 * reimplementation (MeshCost.cs); [estimate] no public source. See docs/second-life.md.
 *
 * Code takes these as defaults and lets callers override them (the `*Settings` objects), so a
 * user can follow Second Life if it changes a number.
 */

// ---------------------------------------------------------------------------------------------
// 1. Streaming cost (download weight) [viewer]
//    indra/newview/llmeshrepository.cpp LLMeshCostData::init, getRadiusWeightedTris,
//    getRadiusBasedStreamingCost; defaults from indra/newview/app_settings/settings.xml.
// ---------------------------------------------------------------------------------------------

export interface StreamingCostSettings {
  /** MeshMetaDataDiscount: bytes discounted per LOD for LLSD tags and domains. [viewer] 384 (seed 002: 128, older). */
  metadataDiscount: number;
  /** MeshMinimumByteSize: floor on the discounted size so nothing is free. [viewer] 16. */
  minimumByteSize: number;
  /** MeshBytesPerTriangle: compressed bytes assumed per triangle. [viewer] 16. */
  bytesPerTriangle: number;
  /** MeshTriangleBudget: triangles that cost 15000 units. [viewer] 250000. */
  triangleBudget: number;
  /** Area of the circle that encloses a region, m^2. [viewer] 102944 since MAINT-6559 (seed 002: 102932). */
  maxArea: number;
  /** Clamp on each LOD's area, m^2. [viewer] 1. */
  minArea: number;
  /** LOD distances are capped at this many metres. [viewer] 512. */
  maxDistance: number;
  /** Factor applied to static-mesh download weight. 1 by default; 0.85 models the server-side 15 % discount a reposted Linden announcement describes [unverified]. */
  staticMeshDiscountFactor: number;
}

export const STREAMING_COST_DEFAULTS: Readonly<StreamingCostSettings> = Object.freeze({
  metadataDiscount: 384,
  minimumByteSize: 16,
  bytesPerTriangle: 16,
  triangleBudget: 250000,
  maxArea: 102944,
  minArea: 1,
  maxDistance: 512,
  staticMeshDiscountFactor: 1,
});

/** The seed's (2010) values, selectable as a named setting: area 102932, metadata discount 128. [seed] */
export const STREAMING_COST_SEED_2010: Readonly<StreamingCostSettings> = Object.freeze({
  ...STREAMING_COST_DEFAULTS,
  metadataDiscount: 128,
  maxArea: 102932,
});

/** Streaming cost scalar: weighted triangles / budget * 15000. [viewer] */
export const STREAMING_COST_SCALAR = 15000;

/**
 * LOD ratios: a LOD is shown while radius / distance is above its ratio. [viewer] llvolumemgr.cpp
 * BASE_THRESHOLD = 0.03: thresholds 0.03 (low -> lowest), 0.06 (medium -> low), 0.24 (high -> medium).
 */
export const LOD_THRESHOLD_LOWEST = 0.03;
export const LOD_THRESHOLD_LOW = 0.06;
export const LOD_THRESHOLD_MEDIUM = 0.24;

/** Animated objects (animesh): 1.5 per thousand charged triangles, plus 15 once for the animated root. [viewer] llmeshrepository.h */
export const ANIMATED_OBJECT_COST_PER_KTRI = 1.5;
export const ANIMATED_OBJECT_BASE_COST = 15;
/** getEstTrisForStreamingCost: a LOD may keep half the previous LOD's triangles, never fewer than 64, uncharged. [viewer] */
export const ANIMATED_OBJECT_ENFORCE_FLOOR = 64;

// ---------------------------------------------------------------------------------------------
// 2. LOD switching at runtime [viewer] llvovolume.cpp LLVOVolume::calcLOD, computeLODDetail.
// ---------------------------------------------------------------------------------------------

/** RenderVolumeLODFactor of the official viewer by default. [viewer] */
export const LOD_FACTOR_VIEWER_DEFAULT = 1.0;
/** Graphics-preset factors of the official viewer, and Firestorm's default 2.0. [viewer] */
export const LOD_FACTOR_PRESETS: readonly number[] = [1.0, 1.125, 1.25, 1.5, 2.0];
/** Firestorm's default RenderVolumeLODFactor. [viewer: FirestormViewer/phoenix-firestorm] */
export const LOD_FACTOR_FIRESTORM_DEFAULT = 2.0;
/** slmesh's default RenderVolumeLODFactor everywhere (reports, LOD planning, budgets, the preview): Firestorm's. */
export const LOD_FACTOR_DEFAULT = LOD_FACTOR_FIRESTORM_DEFAULT;
/** Highest factor the official viewer allows (Firestorm: 8). [viewer] */
export const LOD_FACTOR_MAX = 4.0;
export const LOD_FACTOR_MAX_FIRESTORM = 8.0;
/** The factors slmesh offers to look at (the preview's choices): the official presets and the official maximum. */
export const LOD_FACTOR_CHOICES: readonly number[] = [...LOD_FACTOR_PRESETS, LOD_FACTOR_MAX];
/** sDistanceFactor = 1 - F * 0.1 scales the camera distance. [viewer] llviewercontrol.cpp */
export const LOD_DISTANCE_FACTOR_PER_LOD_FACTOR = 0.1;
/** Below 2F metres, distance is squared toward zero ("boost LOD when you're REALLY close"). [viewer] */
export const LOD_RAMP_PER_LOD_FACTOR = 2;
/** The adjusted distance is multiplied by pi/3. [viewer] */
export const LOD_DISTANCE_PI_FRACTION = Math.PI / 3;
/** The viewer rounds distance, radius and the tangent to 0.01 before comparing (ll_round). [viewer] */
export const LOD_ROUNDING_STEP = 0.01;

// ---------------------------------------------------------------------------------------------
// 3. The mesh asset [viewer] indra/llprimitive/llmodel.cpp LLModel::writeModel, writeModelToStream;
//    indra/llcommon/llsdserialize.cpp zip_llsd.
// ---------------------------------------------------------------------------------------------

/** Blocks in file order after the header. [viewer] */
export const MESH_BLOCK_ORDER = [
  'skin',
  'physics_convex',
  'lowest_lod',
  'low_lod',
  'medium_lod',
  'high_lod',
  'physics_mesh',
] as const;
export type MeshBlockName = (typeof MESH_BLOCK_ORDER)[number];
/** zlib level of every block: Z_BEST_COMPRESSION. [viewer] */
export const MESH_ZLIB_LEVEL = 9;
/** u16 quantisation range. [viewer] */
export const QUANT_MAX = 65535;
/** Readers reject a header version above this. [viewer] MAX_MESH_VERSION */
export const MAX_MESH_VERSION = 999;
/** Readers assume the header fits in this many bytes. [viewer] MESH_HEADER_SIZE */
export const MESH_HEADER_MAX_BYTES = 4096;
/** A face with fewer vertices is written as {NoGeometry: true}. [viewer] */
export const MIN_FACE_VERTICES = 3;
/** Extents smaller than this are treated as 1 when normalising (F_APPROXIMATELY_ZERO). [viewer] llmodel.cpp normalizeVolumeFaces */
export const F_APPROXIMATELY_ZERO = 0.00001;

// ---------------------------------------------------------------------------------------------
// 4. Upload limits [viewer]
// ---------------------------------------------------------------------------------------------

/** Faces (materials) per mesh object; more are split into linked submodels. [viewer] LL_SCULPT_MESH_MAX_FACES */
export const MAX_FACES_PER_OBJECT = 8;
/** Models per upload. [viewer] */
export const MAX_MODELS_PER_UPLOAD = 768;
/** The glTF importer splits a face at this many vertices (indices are u16). [viewer] */
export const MAX_VERTICES_PER_FACE = 65525;
/** Object scale per axis, metres. [viewer] */
export const MIN_OBJECT_SCALE = 0.01;
export const MAX_OBJECT_SCALE = 64;
/** The importer caps the whole model at 240 m (and each object at 63.9 m, below MAX_OBJECT_SCALE). [viewer] */
export const MAX_IMPORT_MODEL_SIZE = 240;
/** Vertices per convex hull and hulls per decomposition. [viewer] [seed 001] */
export const MAX_HULL_VERTICES = 256;
export const MAX_HULLS = 256;
/** Node-name suffixes of the viewer's importer. [viewer] */
export const LOD_SUFFIXES = { medium: '_LOD2', low: '_LOD1', lowest: '_LOD0', physics: '_PHYS' } as const;

// ---------------------------------------------------------------------------------------------
// 6. Physics weight
// ---------------------------------------------------------------------------------------------

export interface PhysicsCostSettings {
  /** Cost per hull vertex (plus one) of a convex hull. [opensim] 0.04: an 8-vertex box hull costs 0.36. */
  hullCostPerVertex: number;
  /** Triangle mesh: cost per triangle per metre of width. [seed 001] 0.05 (0.5 m wide triangles cost 0.1 each). */
  meshCostConstant: number;
  /** Triangle mesh minimum cost. [seed 001] 0.5 */
  meshMinimumCost: number;
  /** Clamp on the harmonic mean triangle width, metres. [seed 001] 0.001 .. 20 */
  meshMinWidth: number;
  meshMaxWidth: number;
  /** Decomposition: cost per vertex of each hull. [estimate] defaults to the single-hull coefficient. */
  decompositionCostPerVertex: number;
  /** Decomposition: cost per hull on top of its vertices. [estimate] 0.04 (the "+1" of the single-hull formula). */
  decompositionCostPerHull: number;
  /** Physical linkset penalty: base * (1 + k * mean AABB face area). [seed 001] 0.04 */
  physicalPenaltyPerArea: number;
  /** A prim or linkset with a larger unpenalised physics cost cannot be set physical. [seed 001] 32 */
  maxPhysicalCost: number;
}

export const PHYSICS_COST_DEFAULTS: Readonly<PhysicsCostSettings> = Object.freeze({
  hullCostPerVertex: 0.04,
  meshCostConstant: 0.05,
  meshMinimumCost: 0.5,
  meshMinWidth: 0.001,
  meshMaxWidth: 20,
  decompositionCostPerVertex: 0.04,
  decompositionCostPerHull: 0.04,
  physicalPenaltyPerArea: 0.04,
  maxPhysicalCost: 32,
});

/**
 * Server "convexification": a triangle-mesh physics shape (no decomposition) on an object with any
 * side shorter than this, metres, is simulated and charged as its single convex hull.
 * [viewer] indra/llmath/llphysicsshapebuilderutil.cpp, LLPhysicsShapeBuilderUtil::determinePhysicsShape,
 * SHAPE_BUILDER_USER_MESH_CONVEXIFICATION_SIZE (0.5 m; a viewer mirror of the server's rule).
 */
export const USER_MESH_CONVEXIFICATION_SIZE = 0.5;

/**
 * Width of the narrowest gap an avatar is taken to pass through, metres: the physics chooser
 * keeps gaps, doorways and hollows at least this wide open. [estimate] An SL avatar's collision
 * capsule is about 0.4-0.6 m across (default shape); no single public figure.
 */
export const AVATAR_PASSAGE_WIDTH = 0.5;

/**
 * Height of the lowest gap an avatar is taken to pass through upright, metres: the physics chooser
 * judges openings by a capsule this tall and AVATAR_PASSAGE_WIDTH wide, standing along the prim's
 * up axis, so the space under a table or between a figure's legs at life size does not count.
 * [estimate] The viewer's avatar body size is 0.60 m by 0.45 m and as tall as the shape (wiki
 * Avatar_body_size); most adult shapes stand near 1.9-2.1 m. 1.8 m keeps any doorway an adult
 * avatar walks through.
 */
export const AVATAR_PASSAGE_HEIGHT = 1.8;

// ---------------------------------------------------------------------------------------------
// 7. Server weight and land impact [wiki] Mesh/Mesh_Server_Weight
// ---------------------------------------------------------------------------------------------

/** Server weight per prim of a linkset, and per script after the first. [wiki] */
export const SERVER_WEIGHT_PER_PRIM = 0.5;
export const SERVER_WEIGHT_PER_EXTRA_SCRIPT = 0.25;

// ---------------------------------------------------------------------------------------------
// 8. Linkability [seed 000]
// ---------------------------------------------------------------------------------------------

export interface LinkabilitySettings {
  /** Linkable iff the diameter of the smallest sphere enclosing the prim centres is below this, metres. [seed 000] 54; the wiki banner says 64 since 2023 [unverified]. */
  maxSpan: number;
  /** Most prims in a linkset. [viewer] 256 (255 children). The seed's current rule reads N < 256; the viewer caps at 256. */
  maxPrims: number;
  /** Legacy rule: link bonus, metres. [seed 000] 2 */
  legacyLinkBonus: number;
  /** Legacy rule: sides longer than this are clamped (megaprims), metres. [seed 000] 10 */
  legacyMegaprimClamp: number;
  /** Legacy rule: span multiplier on the radii. [seed 000] 3 */
  legacyRadiusFactor: number;
  /** Legacy rule: LARGEST_MAX, the cap on max_link_span, metres. [seed 000] 54 (independent of maxSpan). */
  legacyLargestMax: number;
}

export const LINKABILITY_DEFAULTS: Readonly<LinkabilitySettings> = Object.freeze({
  maxSpan: 54,
  maxPrims: 256,
  legacyLinkBonus: 2,
  legacyMegaprimClamp: 10,
  legacyRadiusFactor: 3,
  legacyLargestMax: 54,
});
