/**
 * @slmesh/core: Second Life mesh geometry, asset encoding and cost models, in pure TypeScript
 * (no Node imports: platform pieces such as deflate and the simplifier are passed in).
 *
 * This file is the package's public API, by concern. Modules not listed here (the decomposition's
 * internals: quickhull, cut planes, solid fields, hull merging, mesh clipping, ...) are internal
 * and may change without notice.
 */

// ─── Data model, Second Life constants, errors ───────────────────────────────────────────────
export {
  type Face,
  type MeshLod,
  type LodName,
  LOD_NAMES,
  type Hull,
  type SlObject,
  type SlModel,
  type Box3,
  type Placement,
  type Severity,
  type Diagnostic,
  type DeflateFn,
  type InflateFn,
  type PhysicsCandidate,
  type PhysicsChoice,
} from './types.js';
export * from './constants.js';
export { type SlmeshErrorCode, SlmeshError, isSlmeshError } from './errors.js';
export { assignDefaults } from './options.js';

// ─── Geometry: boxes, scale, radius, enclosing spheres ───────────────────────────────────────
export {
  type Vec3,
  emptyBox,
  isEmptyBox,
  growBox,
  unionBox,
  lodBox,
  objectBox,
  sameLod,
  boxSize,
  boxCenter,
  radiusOfScale,
  faceTriangleCount,
  faceVertexCount,
  lodTriangleCount,
  lodVertexCount,
  emptyFace,
  lodPositions,
  lodTriangles,
  scaleAbout,
  scaledCopy,
} from './geometry/object-geometry.js';
export {
  identityPlacement,
  placePoint,
  placePositions,
  primPosition,
  primScale,
  primUpAxis,
  worldBox,
  bakePlacement,
  linksetSurroundings,
  nearParts,
} from './geometry/placement.js';
export { type Sphere, type MinEnclosingSphereOptions, minEnclosingSphere } from './geometry/min-enclosing-sphere.js';
export { minEnclosingSphereOfSpheres } from './geometry/min-enclosing-sphere-of-spheres.js';
export { type IndexedMesh, triangleArea, triangleCross, isZeroAreaTriangle } from './geometry/indexed-mesh.js';
export { type WeldedMesh, type WeldOptions, weldMesh } from './geometry/weld-mesh.js';
export { mulberry32 } from './geometry/seeded-random.js';
export { bytesOf, hashBytes } from './geometry/equal-keys.js';

// ─── The mesh asset: binary LLSD, encoder, decoder, the importer's splitting and checks ──────
export {
  type LlsdInteger,
  llsdInt,
  type LlsdUuid,
  type LlsdDate,
  type LlsdUri,
  type LlsdMap,
  type LlsdValue,
  isLlsdMap,
  writeLlsdBinary,
  type LlsdReadOptions,
  type LlsdReadResult,
  LLSD_DEFAULT_MAX_DEPTH,
  LLSD_MAX_DEPTH_LIMIT,
  readLlsdBinary,
} from './asset/llsd-binary.js';
export {
  type MeshAssetInput,
  type MeshAssetOptions,
  type MeshBlockRange,
  type EncodedMeshAsset,
  type MeshAssetLayout,
  type UploadNormalization,
  computeUploadNormalization,
  normalizePoints,
  denormalizePoints,
  quantizeU16,
  type MeshAssetLlsd,
  buildMeshAssetLlsd,
  encodeMeshAsset,
  measureMeshAsset,
} from './asset/mesh-asset.js';
export {
  type DecodedFace,
  type DecodedPhysicsConvex,
  type MeshAssetHeader,
  type DecodedMeshAsset,
  type MeshAssetDecodeOptions,
  readMeshHeader,
  inflateMeshBlock,
  decodeLodBlock,
  decodeConvexBlock,
  decodeMeshAsset,
} from './asset/mesh-asset-decode.js';
export { deflatedLength, memoizeDeflate } from './asset/deflate-cache.js';
export { zlibNgDeflate, zlibNgDeflatedLength } from './asset/zlib-ng-deflate.js';
export { type SubmodelPart, splitLargeFaces, splitSubmodels, submodelName } from './asset/submodels.js';
export { countDegenerateTriangles, checkObject, checkModel } from './asset/upload-checks.js';

// ─── Cost: download, physics and server weight, land impact, LOD distances, linkability ──────
export * from './cost/streaming-cost.js';
export * from './cost/physics-cost.js';
export * from './cost/server-weight.js';
export * from './cost/land-impact.js';
export * from './cost/lod-distances.js';
export * from './cost/linkability.js';
export * from './cost/cost-report.js';
export { uploadScale, uploadScaleCap, IMPORT_MAX_OBJECT_SIZE, type UploadScale } from './cost/upload-scale.js';
export {
  type ObjectPriceInput,
  type ObjectPriceOptions,
  type ObjectPrice,
  priceObjectAtScale,
} from './cost/object-price.js';

// ─── LODs: generation, planning by screen-space error, the viewer's own auto-LODs ────────────
export {
  type SimplifierFlag,
  type MeshSimplifier,
  type SimplifyMode,
  SIMPLIFY_MODES,
} from './lod/lod-generator.js';
export {
  type LodPlanOptions,
  type TriangleOrderFn,
  LOD_PLAN_DEFAULTS,
  type LodLevelPlan,
  type ObjectLodPlan,
  type HighLodPlan,
  type LodFallback,
  planObjectLods,
  planModelLods,
  modelGeometries,
  assembleModelPlans,
  type ModelGeometries,
  VIEWER_BOUND_MARGIN,
} from './lod/lod-planner.js';
export {
  type LodBudgetOptions,
  LOD_BUDGET_DEFAULTS,
  type LodBudgetResult,
  planModelForBudget,
  planModelForBudgetWith,
  planModelSharper,
  planModelSharperWith,
  localBoundPlanner,
  type BoundPlanner,
  type BoundPlannerMaker,
  type PlannedObject,
  SHARPER_LOD_DEFAULTS,
  type SharperLodOptions,
  type SharperLodResult,
  type PhysicsFields,
} from './lod/lod-budget.js';
export { VIEWER_LOD_DECIMATION, viewerAutoLod, viewerAutoLods } from './lod/viewer-auto-lod.js';
export { CARD_AREA_SHARE, cardsLod, type CardsOptions } from './lod/lod-cards.js';
export {
  LOD_BOX_TOLERANCE,
  conformLod,
  conformPhysicsMesh,
  conformHulls,
  conformObject,
  writtenHull,
  boxStretch,
  displayedLod,
  faceHasArea,
} from './lod/lod-conform.js';
export {
  type ScreenSpaceSettings,
  SCREEN_SPACE_DEFAULTS,
  metresPerPixel,
  screenSpaceError,
  errorForPixels,
  fillDistance,
  type LodErrorBounds,
  lodErrorBounds,
  lodScreenErrors,
} from './lod/screen-space-error.js';
export { type HausdorffResult, hausdorffDistance, lodHausdorffDistance } from './lod/hausdorff.js';
export {
  type SilhouetteOptions,
  SILHOUETTE_DEFAULTS,
  type SilhouetteReference,
  silhouetteReference,
  type SilhouetteCoverage,
  silhouetteCoverage,
} from './lod/silhouette.js';

// ─── Physics shapes: single hull, decomposition, triangle mesh, and what the writer writes ───
export { type ConvexHullResult, convexHull, convexHullMesh } from './physics/convex-hull.js';
export { type DecomposeOptions, DECOMPOSE_DEFAULTS, type DecompositionResult, decompose } from './physics/decompose.js';
export { DecompositionMemo, DECOMPOSITION_MEMO_BYTES } from './physics/decomposition-memo.js';
export {
  type SimplifyFn,
  type PhysicsMeshOptions,
  PHYSICS_MESH_DEFAULTS,
  type PhysicsMeshResult,
  buildPhysicsMesh,
} from './physics/physics-mesh.js';
export { convexPieces } from './physics/convex-pieces.js';
export {
  type PhysicsMode,
  type BuildPhysicsOptions,
  type PhysicsBuildResult,
  buildPhysics,
  OPENING_COST_LIMIT,
} from './physics/build-physics.js';
export {
  type AvatarOpeningOptions,
  type AvatarOpening,
  type OpeningSurroundings,
  AVATAR_OPENING_DEFAULTS,
  avatarOpenings,
  mayHaveOpenings,
  openingCellsPerObject,
} from './physics/avatar-openings.js';
export { shortNumber, weightsAgainst } from './format.js';
