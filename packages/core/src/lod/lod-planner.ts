/**
 * The LOD planner: chooses each LOD of an object from what a viewer sees, not from a triangle
 * ratio.
 *
 * For an object of radius r (0.5 * |scale|, at the size it is planned for) and a
 * RenderVolumeLODFactor F, LOD i (medium, low, lowest) starts to show at switch distance D_i
 * (lod-distances.ts). Its screen-space error is its geometric error there in pixels
 * (screen-space-error.ts: 1080 px tall viewport, 60 degree vertical field of view). The planner
 * makes each LOD as small as it can while
 *
 *   1. its measured geometric error, the sampled two-sided Hausdorff distance to high
 *      (hausdorff.ts, not meshoptimizer's estimate), stays within maxErrorPx pixels at D_i (the
 *      LOD chosen is measured again densely on both sides, and searched again densely when that
 *      is over), and
 *   2. it keeps the silhouette: from every one of 7 directions it covers at least `minCoverage`
 *      of high's silhouette (silhouette.ts). This floor holds whatever the pixel bound or budget,
 *      so no LOD ever collapses to nothing to win a budget.
 *
 * With viewerBound (optimize's default), the bounds follow the viewer's own auto-LODs (the
 * uploader's Generate, viewer-auto-lod.ts, measured as the viewer shows them: stretched onto high's
 * box): a LOD whose Generate counterpart is worse than maxErrorPx may be as coarse as that one,
 * and when Generate's whole chain is better than maxErrorPx every LOD (high too) stays within its
 * worst; either way with a margin (VIEWER_BOUND_MARGIN) for sampling noise. So no LOD is worse
 * than Generate's worst LOD. Where the bound comes from the viewer, the fallback's candidates
 * (sloppy simplification, Generate's own LOD) compete with the search's too.
 *
 * The high LOD is planned too (unless keepHigh): simplified only as far as its error stays within
 * maxErrorPx at a near distance, by default the fill distance where the object's bounding sphere
 * fills the view (screen-space-error.ts fillDistance), and kept when that saves under 5 %.
 *
 * Search: for each LOD, simplifier error targets t are tried on a ladder (grown while both tests
 * pass, shrunk when one fails, then bisected) and each candidate is measured. With a `deflate`,
 * the passing candidate whose LOD block costs the fewest charged bytes wins (encoded as the
 * uploader does; among equally cheap ones the most accurate), and low and lowest may take their
 * lean variant (one vertex per point and face); without one, the fewest triangles. Each LOD is
 * simplified from high; for a high over 50,000 triangles each lower LOD is made from the one above
 * (`chain`), which is much faster. In this error mode the fallback cascade keeps the
 * attribute-aware result unless it has more than `maxRatioDrift` (1.25) times the triangles
 * position-only simplification needs for the same error.
 *
 * Big highs (over proxyTriangles, 60,000): every candidate is measured against a proxy, high
 * simplified position-only to 0.4 px at the near distance (seams kept; normal seams dropped where
 * keeping them leaves more than half the triangles and dropping them keeps 1.25 times fewer: a
 * flat-shaded high), and the proxy's own error
 * (high's samples to the proxy, or meshoptimizer's estimate when larger) is added (triangle
 * inequality); the proxy is also the planned high when within its bound. Time and memory follow
 * the proxy.
 *
 * Fallbacks (never a silent copy): a lower LOD whose best result within the bound keeps more than
 * half the LOD above (leaf cards, many small parts) is also tried by sloppy simplification to a
 * third of the LOD above and by the cascade at a doubling bound; the cheaper one that keeps the
 * silhouette floor wins and the plan carries a `lod-fallback` diagnostic (also when nothing
 * shrinks it and it stays a copy). Triangle budgets (maxTriangles, per LOD) reduce a LOD over its
 * budget whatever its error (`lod-max-triangles`). Then the chain is made monotone: a LOD with
 * more triangles or vertices than the one above is replaced by a copy of it. Every LOD has high's
 * face count (empty faces become NoGeometry placeholders when encoded). Objects of identical
 * geometry up to a translation are planned once (planModelLods, planModelForBudget).
 *
 * Last, with `reorderTriangles` and a deflate, each LOD (high too, unless keepHigh) takes that
 * triangle order when its block compresses smaller so: the viewer's importer numbers vertices in
 * first-use order (asset/importer-remap.ts), so the order decides the bytes.
 *
 * Budget mode (planModelForBudget, a target land impact instead of a pixel bound) is
 * lod-budget.ts.
 */

import { REPORT_LOD_FACTOR_DEFAULT } from '../cost/cost-report.js';
import { SlmeshError } from '../errors.js';
import { weightsAgainst } from '../format.js';
import {
  maxDistanceToMesh,
  prepareHausdorffSide,
  twoSidedDistance,
  sampleSurface,
  strayVertices,
  type HausdorffSide,
} from './hausdorff.js';
import {
  prepareLodSource,
  simplifyLodSource,
  simplifyToError,
  attributesKeepAtLeast,
  simplifyToTriangles,
  weldByPosition,
  hasUvSeams,
  UV_SEAM_MODES,
  type CascadeOptions,
  type LodSource,
  type LodSourceOptions,
  type MeshSimplifier,
  type SimplifiedLod,
  type SimplifyMode,
} from './lod-generator.js';
import { deflatedLength } from '../asset/deflate-cache.js';
import { writeLlsdBinary } from '../asset/llsd-binary.js';
import { VIEWER_LOD_DECIMATION, viewerAutoLods, viewerTargetIndexCount } from './viewer-auto-lod.js';
import { cardsLod } from './lod-cards.js';
import { splitFace } from '../asset/submodels.js';
import {
  computeUploadNormalization,
  encodeLodBlock,
  normalizeNormals,
  normalizePoints,
  type UploadNormalization,
} from '../asset/mesh-asset.js';
import { positionDomain, snapLod, type PositionDomain } from '../asset/vertex-precision.js';
import { convexHull } from '../physics/convex-hull.js';
import { convexHullPhysicsCost } from '../cost/physics-cost.js';
import { serverWeight } from '../cost/server-weight.js';
import { MESH_ZLIB_LEVEL, STREAMING_COST_DEFAULTS } from '../constants.js';
import {
  boxSize,
  lodTriangleCount,
  lodPositions,
  lodTriangles,
  lodVertexCount,
  lodBox,
  objectBox,
  radiusOfScale,
  type Vec3,
} from '../geometry/object-geometry.js';
import {
  LOWER_LODS,
  errorForPixels,
  fillDistance,
  lodErrorBounds,
  screenSpaceError,
  type LowerLodName,
  type ScreenSpaceSettings,
} from './screen-space-error.js';
import { silhouetteCoverage, silhouetteReference, type SilhouetteReference } from './silhouette.js';
import type { Box3, DeflateFn, Diagnostic, LodName, MeshLod, SlModel, SlObject } from '../types.js';
import { assignDefaults } from '../options.js';
import type { IndexedMesh } from '../geometry/indexed-mesh.js';
import {
  boxStretch,
  conformLod,
  conformMaxAddedTriangles,
  displayedLod,
  flatAxes,
  LOD_BOX_TOLERANCE,
} from './lod-conform.js';
import { streamingCost } from '../cost/streaming-cost.js';

export interface LodPlanOptions extends CascadeOptions, Omit<LodSourceOptions, 'checkExactWeld'> {
  /** meshoptimizer's MeshoptSimplifier, ready. Required. */
  simplifier: MeshSimplifier;
  /** RenderVolumeLODFactor the chain is planned for. Default 2 (Firestorm's default). */
  lodFactor?: number;
  /** Screen-space error bound, pixels, at each LOD's switch distance. Default 1. */
  maxErrorPx?: number;
  /** Reference screen. Default 1080 px tall, 60 degrees vertical field of view. */
  screen?: Partial<ScreenSpaceSettings>;
  /** Uniform factor from the model's size to the size it is planned for. Default 1. */
  sizeFactor?: number;
  /** Silhouette floor: from every view, each LOD covers at least this fraction of high's silhouette (within 1/64 of the object's size). Default 0.9. */
  minCoverage?: number;
  /** Grid cells per side of each silhouette view. Default 64. */
  silhouetteResolution?: number;
  /** Area samples per surface for the Hausdorff distance (fewer for small meshes: 32 per high triangle, at least 256). Default 4096. */
  samples?: number;
  /** Most vertices per surface used as Hausdorff samples. Default 16384. */
  maxVertexSamples?: number;
  /** Candidates tried per LOD (at most 5 for sources over 20k triangles, 3 over 100k). Default 8. */
  maxProbes?: number;
  /**
   * zlib deflate. With it, candidates are compared by the bytes download weight charges for them
   * (their LOD block encoded as the uploader does, less the 384-byte allowance): the cheapest
   * passing candidate wins, and among equally cheap ones the most accurate. Without it, the one
   * with the fewest triangles. Default: none.
   */
  deflate?: DeflateFn;
  /** Let low and lowest use the lean variant (one vertex per point and face; weldByPosition) when it costs fewer bytes. Default true. */
  leanFarLods?: boolean;
  /** Simplify each lower LOD from the LOD above instead of from high: 'auto' does so when high has more than 50,000 triangles (fast), else each LOD comes from high (more accurate). Default 'auto'. */
  chain?: boolean | 'auto';
  /** Leave the high LOD as it is. Default false: high is simplified as far as stays within maxErrorPx at `highDistance`. */
  keepHigh?: boolean;
  /** Camera distance, metres at the planned size, at which the high LOD is judged. Default: the fill distance, where the object's bounding sphere fills the view's height (screen-space-error.ts fillDistance). */
  highDistance?: number;
  /** Most triangles per LOD (creator's budgets); a LOD over its budget is simplified to it whatever the error (`lod-max-triangles`). Default: none. */
  maxTriangles?: Partial<Record<LodName, number>>;
  /** A lower LOD that cannot shrink to half the LOD above within the bound is made with a relaxed bound or sloppy simplification (`lod-fallback`). Default true. */
  fallback?: boolean;
  /** A high over this many triangles is measured against through a simplified proxy (its own error added). Default 60,000. */
  proxyTriangles?: number;
  /** Called after each object is planned (planModelLods): objects done, objects in all. Default: none. */
  onObjectPlanned?: (done: number, total: number) => void;
  /**
   * A triangle order for compression (meshoptimizer's vertex-cache strip order fits): returns a
   * face's triangles, the same vertex indices, reordered. With a `deflate`, every planned LOD is
   * written in that order when its block compresses smaller so (the importer numbers vertices in
   * first-use order, importer-remap.ts, so the triangle order decides the bytes). Default: none.
   */
  reorderTriangles?: TriangleOrderFn;
  /**
   * Never stricter than the viewer where the viewer is worse, never worse than the viewer where it
   * is better: each lower LOD's bound is the larger of its own viewer auto-LOD's error (the
   * uploader's Generate at that level, viewer-auto-lod.ts, measured densely as the planner measures)
   * and min(maxErrorPx, W), W the viewer chain's worst; the high LOD's is min(maxErrorPx, W) at the
   * near distance. Every bound taken from the viewer is scaled by VIEWER_BOUND_MARGIN (0.85) so
   * sampling noise cannot put a LOD over the viewer's. So no LOD is over maxErrorPx unless Generate's
   * LOD at that level is worse, and the chain's worst error never exceeds Generate's worst. Costs
   * the viewer's three simplifications and their measures per object. Default false: every LOD
   * within maxErrorPx.
   *
   * A big high (over proxyTriangles, measured on its proxy) is the exception: Generate's LODs of it
   * (a third, a ninth, a 27th of a high over 60,000 triangles) are made only when the plan needs
   * them: a fallback for a LOD the search left at LAZY_STUCK_FRACTION or more of the LOD above,
   * with nothing cheaper within its bound (its ceiling is Generate's worst) or nothing keeping the
   * silhouette floor (Generate's coverage is then the floor), or a level whose planned LOD is
   * within GENERATE_LAZY_SLACK of Generate's triangle target there (where Generate's LOD could be
   * the smaller or the cheaper one: 2f, 2g and the fallback's candidates). A plan that made them
   * is made again with them (the eager plan). Otherwise the bounds are min(maxErrorPx, the proxy's
   * error), not loosened by Generate's errors: never looser than the eager plan's, but where
   * Generate's LODs are coarser than that and nothing asked for them, the plan may cost more than
   * the eager one. Generate's three whole-input simplifications and their measures were a fifth of
   * the CPU time of optimize on a 252k-triangle Suzanne, whose Generate LODs (84k, 28k and 9k
   * triangles, 0.35 px at most) bound nothing there.
   */
  viewerBound?: boolean;
  /**
   * Vertex precision (needs a deflate): each LOD's vertices are moved, within half of its error
   * bound (a quarter when that fails) and never more than its error leaves of it, so that the uploader
   * quantises them to values with cleared low bits, which its deflate codes shorter
   * (asset/vertex-precision.ts); normals to 8 bits in their two smaller components and texture
   * coordinates to 1/8192 (high; coarser in proportion to a lower LOD's distance). Kept only where
   * the LOD's block gets smaller. High only without keepHigh. Default false.
   */
  quantize?: boolean;
}

/** Reorders a face's triangles (three vertex indices each); returns a new array of the same indices. */
export type TriangleOrderFn = (indices: Uint32Array, vertexCount: number) => Uint32Array;

export const LOD_PLAN_DEFAULTS = {
  lodFactor: REPORT_LOD_FACTOR_DEFAULT,
  maxErrorPx: 1,
  sizeFactor: 1,
  minCoverage: 0.9,
  silhouetteResolution: 64,
  samples: 4096,
  maxVertexSamples: 16384,
  maxProbes: 8,
  chain: 'auto' as boolean | 'auto',
  maxRatioDrift: 1.25,
  leanFarLods: true,
  keepHigh: false,
  fallback: true,
  proxyTriangles: 60_000,
  viewerBound: false,
  quantize: false,
};

/** What the planner decided for one lower LOD. */
export interface LodLevelPlan {
  name: LowerLodName;
  triangles: number;
  vertices: number;
  /** Measured two-sided Hausdorff distance to high, metres at the planned size. */
  error: number;
  /** `error` in pixels at `switchDistance`. */
  screenErrorPx: number;
  /** The error allowed by the pixel bound, metres at the planned size (Infinity when the LOD never shows). */
  maxError: number;
  /** Camera distance, metres, from which this LOD shows. */
  switchDistance: number;
  /** Smallest silhouette coverage of high over the views, 0..1. */
  coverage: number;
  /** How it was made: a simplification mode, the viewer's own LOD, impostor-like cards, or a copy of the LOD above. */
  mode: SimplifyMode | 'viewer' | 'cards' | 'copy';
  /** meshoptimizer's target error for the accepted candidate, metres at the model's size. */
  simplifierTarget: number;
  /** Set when the LOD could not be made within the bound (see the plan's diagnostics). */
  fallback?: LodFallback;
}

/**
 * Why a LOD is not the plain result of the pixel bound: 'relaxed-bound' (it could not shrink to
 * half the LOD above within the bound; made with a larger error or sloppy simplification),
 * 'no-shrink' (nothing shrinks it without losing the silhouette: a copy of the LOD above),
 * 'max-triangles' (reduced to the creator's triangle budget).
 */
export type LodFallback = 'relaxed-bound' | 'no-shrink' | 'max-triangles';

/** What the planner decided for the high LOD. */
export interface HighLodPlan {
  triangles: number;
  vertices: number;
  /** Measured two-sided Hausdorff distance to the input's high LOD, metres at the planned size (0 when kept). */
  error: number;
  /** `error` in pixels at `nearDistance`. */
  screenErrorPx: number;
  /** The error allowed by the pixel bound at `nearDistance`, metres at the planned size. */
  maxError: number;
  /** Camera distance, metres, at which high is judged (the fill distance unless set). */
  nearDistance: number;
  /** Smallest silhouette coverage of the input's high over the views, 0..1. */
  coverage: number;
  /** How it was made: a simplification mode, 'proxy' (a big high's position-only proxy), or 'kept' (the input's high as it is). */
  mode: SimplifyMode | 'viewer' | 'proxy' | 'kept';
  /** With mode 'proxy', how the proxy was simplified: 'attributes' (every seam kept) or 'no-normals' (normal seams dropped, flat shading and hard edges restored from the input's normals). */
  proxyMode?: SimplifyMode;
  fallback?: LodFallback;
}

export interface ObjectLodPlan {
  name: string;
  /** 0.5 * |scale| at the planned size. */
  radius: number;
  lodFactor: number;
  maxErrorPx: number;
  /** The input's high LOD triangles. */
  highTriangles: number;
  /** The high LOD written (simplified unless keepHigh, or kept). */
  high: HighLodPlan;
  levels: LodLevelPlan[];
  /** Largest screenErrorPx over the lower levels. */
  worstScreenErrorPx: number;
  /**
   * With viewerBound: the worst screen-space error of the viewer's own auto-LODs (Generate) at
   * their switch distances, measured as the planner measures. Absent for a big high whose plan did
   * not need Generate's LODs (LodPlanOptions.viewerBound).
   */
  viewerWorstPx?: number;
  /** Fallbacks and budgets applied (`lod-fallback`, `lod-max-triangles`), for the report. */
  diagnostics: Diagnostic[];
}

/** The `lod-generate-level` note: a level that is Generate's own LOD, smaller than the planned one. */
function generateLevelMessage(
  lodName: LowerLodName,
  theirs: number,
  ours: number,
  triangles: number,
  plannedTriangles: number,
  px: number,
  distance: number,
): string {
  return `${lodName}: the viewer's own auto-LOD (the uploader's Generate) is smaller (${theirs} bytes against ${ours}, ${triangles} triangles against ${plannedTriangles}) and within the level's bound: taken, ${px.toFixed(2)} px at ${distance.toFixed(1)} m`;
}

/**
 * Why a LOD is stuck, for its lod-fallback diagnostic: nothing within the bound shrinks it, or the
 * best that does keeps more than FALLBACK_KEEP_FRACTION of the LOD above (said with its count: it
 * did shrink). Typical causes, not a diagnosis: assimp's Wuson character is stuck because
 * meshoptimizer's collapses fold its surface past the bound once they remove more than a few
 * triangles (3,726 of 3,732 kept within it).
 */
function stuckMessage(found: Candidate | undefined, aboveTriangles: number, boundPx: number): string {
  const within = `within ${boundPx.toFixed(2)} px`;
  const typical = 'as disconnected parts, leaf cards or flat detail often are';
  return found && found.result.triangles < aboveTriangles
    ? `the best simplification ${within} keeps ${found.result.triangles} of ${aboveTriangles} triangles, more than half (${typical})`
    : `no simplification ${within} shrinks it (${typical})`;
}

/** How the lod-fallback diagnostic names a relaxed search's method. */
const FALLBACK_METHOD: Partial<Record<SimplifiedLod['mode'], string>> = {
  sloppy: 'sloppy simplification',
  viewer: "the viewer's own auto-LOD method (the uploader's Generate)",
  cards: 'impostor-like cards (crossed two-sided quads per material)',
};

interface Candidate<M extends string = SimplifiedLod['mode']> {
  result: SimplifiedLod<M>;
  error: number;
  coverage: number;
  target: number;
  /** What the candidate costs: charged bytes with a deflate, else triangles. */
  cost: number;
}

/** Bytes download weight charges for a LOD block: max(bytes - MeshMetaDataDiscount, MeshMinimumByteSize). */
function chargedBytes(bytes: number): number {
  return Math.max(bytes - STREAMING_COST_DEFAULTS.metadataDiscount, STREAMING_COST_DEFAULTS.minimumByteSize);
}

/**
 * Compressed size of a LOD's block as the uploader writes it, in the high LOD's unit frame. A
 * face over the importer's vertex limit is split as the importer splits it (submodels.ts: a kept
 * high of a big input).
 */
export function lodBlockBytes(lod: MeshLod, normalization: UploadNormalization, deflate: DeflateFn): number {
  const unit: MeshLod = {
    faces: lod.faces
      .flatMap((face) => splitFace(face))
      .map((f) => ({
        ...f,
        positions: normalizePoints(f.positions, normalization),
        normals: f.normals ? normalizeNormals(f.normals, normalization) : undefined,
      })),
  };
  return deflatedLength(deflate, writeLlsdBinary(encodeLodBlock(unit, normalization.inverseScale)), MESH_ZLIB_LEVEL);
}

const TINY = 1e-12;
/** Sources above this many triangles get the fast search (see search()). */
const BIG_SOURCE_TRIANGLES = 50_000;
/** First candidate's error target at most this fraction of the object's largest side. */
const LOOSE_START = 0.03;
/** A big high's proxy is simplified position-only to this many pixels at the near distance (meshoptimizer's estimate). */
const PROXY_ERROR_PX = 0.4;
/**
 * A big high's vertices farther from its proxy than this many times the proxy's target are locked
 * and the proxy made again: the real distance of a vertex routinely reaches about twice
 * meshoptimizer's estimate (V-HACD-sized meshes, the 252k Blender Suzanne: 2.2x at most), a
 * needle's goes far beyond. 2.5 x PROXY_ERROR_PX is 1 px, the default bound.
 */
const PROXY_LOCK_FACTOR = 2.5;
/** Most times the proxy is made again with more vertices locked. */
const PROXY_LOCK_ROUNDS = 3;
/**
 * A big high's proxy keeps every seam unless that leaves more than this fraction of high's
 * triangles (it cannot shrink: a flat-shaded high, every point on a normal seam); then it drops
 * its normal seams where that keeps PROXY_MERGE_GAIN times fewer triangles. Never its UV seams:
 * the proxy may be the high LOD, seen close, where a texture pulled across a seam would show
 * (restoreWedges picks a corner's wedge by normal).
 */
const PROXY_STUCK_FRACTION = 0.5;
/** See PROXY_STUCK_FRACTION (the lower LODs' cascade allows the same drift, maxRatioDrift's default). */
const PROXY_MERGE_GAIN = 1.25;
/** A planned high that keeps more than this fraction of the triangles is not worth it: high is kept as it is. */
const HIGH_KEEP_FRACTION = 0.95;
/** A lower LOD is "stuck" when the best result within the bound keeps more than this fraction of the LOD above. */
const FALLBACK_KEEP_FRACTION = 0.5;
/** LODs above this few triangles are never worth a fallback (they cost next to nothing). */
const FALLBACK_MIN_TRIANGLES = 128;
/** The fallback's sloppy candidate keeps 1/3 of the LOD above, the viewer's auto-LOD ratio (spec section 5). */
const FALLBACK_DECIMATION = 3;
/** Error targets tried by the fallback: the bound times 2, 4, ... 2^FALLBACK_STEPS. */
const FALLBACK_STEPS = 8;
/**
 * The chosen LOD is measured again with this many area samples and every triangle's centroid on
 * both sides (its own and high's): the search's samples miss up to a third of how far a LOD's surface strays
 * from high's (V-HACD's teapot medium: 42.7 mm with 4,096, 56.8 mm with 65,536).
 */
const VERIFY_SAMPLES = 16_384;
/** A dense error this far over the bound sends the LOD back to the search, measuring densely, once. */
const VERIFY_SLACK = 0.02;
/**
 * Step 4 (quantize): the shares of a LOD's error bound its positions may move by, tried in turn
 * (each measured); then only normals and texture coordinates move.
 */
const PRECISION_SHARES = [0.5, 0.25];
/** ... of a bound of at most 1/this of the object's largest side. */
const PRECISION_MAX_SHARE_OF_SIZE = 64;
/** ... when the LOD's error leaves at least this fraction of its bound (else only normals and texture coordinates move). */
const PRECISION_MIN_ROOM = 1e-3;
/** Largest move of a texture coordinate in the high LOD, UV units: 1/8 of a texel of a 1024 texture. */
const UV_ERROR = 1 / 8192;
/** A lower LOD's texture coordinates move by at most this many times UV_ERROR. */
const MAX_UV_DISTANCE_RATIO = 16;
/** Low bits cleared in a normal's two smaller components: 8-bit precision, about 0.3 degrees at most. */
const NORMAL_BITS = 8;
/**
 * Bounds taken from the viewer's own LODs (viewerBound) are this fraction of the viewer's measured
 * error, since the promise is to be no worse than the viewer's under any measure: a sampled
 * Hausdorff distance moves with the samples and even the triangle order (V-HACD's cow: its planned
 * high 0.82 px to the planner, 0.89 px with 32,768 samples, 1.01 px with the same samples once its
 * triangles are reordered for compression), and the dense check allows VERIFY_SLACK over a bound.
 */
export const VIEWER_BOUND_MARGIN = 0.85;
/**
 * A level follows the viewer's own LOD (its bound is that LOD's error, and the fallback's
 * candidates compete there) when that error is at least every other bound, and visible: a
 * twentieth of a pixel or more. At the chain's worst level the two are equal whenever the pixel
 * bound reaches Generate's worst (a chain finer than 1 px, or a large --max-error-px); a cube's
 * Generate LOD is the cube, 0 px, and follows nothing.
 */
const VIEWER_LEVEL_MIN_PX = 0.05;

/**
 * Whether Generate's medium, low and lowest (the viewer's own auto-LODs) can stand under a
 * planned high `top` as they are (plan() step 2g): none empty, and vertices never growing down
 * the chain (the upload check's rule). Triangles may grow, as Generate's own do (0 A.D.'s elm: a
 * 67-triangle lowest under a 54-triangle low): the chain is the baseline as the uploader takes it.
 */
export function generateChainFits(
  top: { vertices: number },
  levels: readonly { triangles: number; vertices: number }[],
): boolean {
  return levels.every((x, i) => x.triangles > 0 && x.vertices <= (i === 0 ? top : levels[i - 1]).vertices);
}

/** A LOD's error under one measure as far as known: exact, or only over a limit (the value measured then). */
interface KnownError {
  exact?: number;
  over?: { limit: number; error: number };
}

/** What the planner's measures found of one LOD: its error sampled as the search does and densely, and its silhouette coverage. */
interface LodMeasures {
  sampled: KnownError;
  dense: KnownError;
  coverage?: number;
}

/**
 * An error measured with a limit is exact when it is under the limit; a measure stopped at the
 * limit gives the first distance past it, which rounding can leave a hair under the limit. Errors
 * within this fraction of the limit are therefore remembered only as over it.
 */
const EXACT_BELOW_LIMIT = 1e-9;

/** What the planner measures candidates against: high itself, or for a big high a simplified proxy of it. */
interface MeasureReference {
  side: HausdorffSide;
  silhouette: SilhouetteReference;
  /** Measured Hausdorff distance from the reference to high, model metres (0 when the reference is high). */
  error: number;
  /** The proxy as a simplification source (big highs only). */
  source?: LodSource;
  /** The proxy itself (big highs only). */
  lod?: MeshLod;
  /** How the proxy was simplified (big highs only): 'attributes' (every seam kept) or 'no-normals'. */
  mode?: SimplifyMode;
  vertices?: number;
  triangles: number;
}

/** The viewer's own auto-LOD at one level, its error measured densely (as chosen LODs are verified) and its coverage. */
/** 2f: the viewer's LOD at a level is priced only when it has at most this many times the planned LOD's triangles. */
const GENERATE_LEVEL_TRIANGLE_SLACK = 1.25;
/**
 * For a big high (LodPlanOptions.viewerBound), Generate's LODs are made for a level's 2f, 2g or
 * fallback candidate only when Generate's triangle target there (a third, a ninth, a 27th of
 * high) is at most this many times the planned LOD's (or the LOD above's) triangles: its LOD can
 * be a candidate only at up to GENERATE_LEVEL_TRIANGLE_SLACK times the planned LOD, and
 * meshoptimizer stops at its target, so this leaves room for a result at half its target. A
 * heuristic, not a bound: the viewer's sloppy retries can keep a result far under the target
 * (viewer-auto-lod.ts keeps an over-decimated first run), and such a Generate LOD is then not
 * considered. That can cost bytes, never error: the bounds are never looser without it.
 */
const GENERATE_LAZY_SLACK = 2 * GENERATE_LEVEL_TRIANGLE_SLACK;
/**
 * For a big high (LodPlanOptions.viewerBound), a stuck LOD that the search shrank to under this
 * fraction of the LOD above keeps the search's LOD or a cheaper fallback within the bound and the
 * silhouette floor; only one it could not shrink further may go over the bound (up to Generate's
 * worst) or under the floor (down to Generate's coverage), which makes Generate's LODs.
 */
const LAZY_STUCK_FRACTION = 0.9;

interface ViewerLevel {
  result: SimplifiedLod;
  error: number;
  coverage: number;
}

type PerLowerLodPx = Record<LowerLodName, number>;

/** One link of the chain being built. */
interface ChainLink {
  lod: MeshLod;
  triangles: number;
  vertices: number;
  error: number;
  coverage: number;
  source: LodSource | undefined;
  target: number;
}

/** A candidate's error is within `bound`, or it is the viewer's own LOD at its level (which may reach its own error). */
function withinBound(c: Candidate, bound: number): boolean {
  return c.error <= bound * (1 + 1e-9) || c.result.mode === 'viewer';
}

/** A chosen candidate as the link the next LOD is made from (its simplification source made when needed). */
function linkOf(c: Candidate): ChainLink {
  const { lod, triangles, vertices } = c.result;
  return { lod, triangles, vertices, error: c.error, coverage: c.coverage, source: undefined, target: c.target };
}

/** Sets `lock` for each vertex in `vertices` and every vertex sharing a triangle with one. */
function lockWithNeighbours(lock: Uint8Array, vertices: number[], indices: Uint32Array): void {
  const mark = new Uint8Array(lock.length);
  for (const v of vertices) mark[v] = 1;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t],
      b = indices[t + 1],
      c = indices[t + 2];
    if (mark[a] || mark[b] || mark[c]) lock[a] = lock[b] = lock[c] = 1;
  }
}

/**
 * Everything about one object the planner reuses across plans (the budget search plans the same
 * object many times): its welded high LOD, the reference candidates are measured against (high's
 * Hausdorff samples and BVH and its silhouettes, or a proxy's for a big high).
 */
export class ObjectLodPlanner {
  readonly object: SlObject;
  private readonly options: LodPlanOptions & typeof LOD_PLAN_DEFAULTS;
  private readonly highSource: LodSource;
  private readonly reference: MeasureReference;
  private readonly modelRadius: number;
  private readonly maxSide: number;
  private readonly normalization: UploadNormalization;
  /** The viewer's own auto-LODs of this object, measured (made when a fallback first needs them). */
  private viewerLevels?: Record<LowerLodName, ViewerLevel>;
  /** LODs as plan() writes them (written()): reordered for compression, or kept as they are. */
  private readonly reordered = new WeakMap<MeshLod, { lod: MeshLod; bytes: () => number }>();
  private readonly asIs = new WeakMap<MeshLod, { lod: MeshLod; bytes: () => number }>();
  /** The reference's surface sampled densely (made when a dense measure first needs it), its BVH shared. */
  private denseReference?: HausdorffSide;
  /**
   * What the measures found of each LOD measured, by identity: a simplification asked for again is
   * the same object (simplifyLodSource), and the levels' searches and a big high's second plan ask
   * for many of the same (CGAL's fandisk_large: 460 ms of its 1.6 s of measures were LODs measured
   * before, against another bound).
   */
  private readonly measures = new WeakMap<MeshLod, LodMeasures>();
  /** Each LOD measured, as written (asWritten), by identity. */
  private readonly conformed = new WeakMap<MeshLod, MeshLod>();
  /** High's box, which every LOD is conformed to (made when first needed). */
  private highBox?: Box3;
  /** High's box in the upload's unit frame, the domain step 4 moves positions against (made when first needed). */
  private unitDomain?: PositionDomain;

  /** A big high with viewerBound: Generate's LODs are made only when the plan needs them (see viewerBound). */
  private get lazyGenerate(): boolean {
    return !!this.options.viewerBound && this.reference.lod !== undefined && !this.viewerLevels;
  }

  /**
   * Whether Generate's LOD at `lodName` could be a candidate where the planned LOD (or the LOD
   * above, for a fallback) has `triangles`: always, unless lazyGenerate and Generate's triangle
   * target there is over GENERATE_LAZY_SLACK times that (lazyGenerate is false once they are made).
   */
  private generateMayMatter(lodName: LowerLodName, triangles: number): boolean {
    if (!this.lazyGenerate) return true;
    const k = LOWER_LODS.indexOf(lodName) + 1;
    const target = viewerTargetIndexCount(this.highSource.indices.length, VIEWER_LOD_DECIMATION ** k) / 3;
    return target <= GENERATE_LAZY_SLACK * triangles;
  }

  constructor(object: SlObject, options: LodPlanOptions) {
    if (!options?.simplifier)
      throw new SlmeshError(
        'USAGE',
        'LOD planner: a meshoptimizer simplifier is required (options.simplifier = MeshoptSimplifier)',
      );
    this.object = object;
    this.options = assignDefaults(LOD_PLAN_DEFAULTS, options);
    const o = this.options;
    if (!(o.sizeFactor > 0) || !Number.isFinite(o.sizeFactor))
      throw new SlmeshError('USAGE', `LOD planner: size factor must be a positive number (got ${o.sizeFactor})`);
    if (!(o.minCoverage >= 0 && o.minCoverage <= 1))
      throw new SlmeshError(
        'USAGE',
        `LOD planner: silhouette coverage floor must be between 0 and 1 (got ${o.minCoverage})`,
      );
    if (o.highDistance !== undefined && !(o.highDistance > 0))
      throw new SlmeshError(
        'USAGE',
        `LOD planner: high LOD distance must be a positive number of metres (got ${o.highDistance})`,
      );
    for (const [name, n] of Object.entries(o.maxTriangles ?? {})) {
      if (n !== undefined && !(Number.isInteger(n) && n > 0))
        throw new SlmeshError(
          'USAGE',
          `LOD planner: the ${name} triangle budget must be a whole number > 0 (got ${n})`,
        );
    }
    const high = object.lods.high;
    // Its weld checked, so the viewer's auto-LODs can start from it too (viewerLevel).
    this.highSource = prepareLodSource(high, { ...o, checkExactWeld: true });
    this.maxSide = this.highSource.maxSide;
    const mesh = lodTriangles(high);
    this.modelRadius = radiusOfScale(boxSize(objectBox(object)));
    this.normalization = computeUploadNormalization(high);
    // 1. The reference. A big high is measured once against a position-only proxy of it (seams
    //    kept, vertices in place) and every candidate is measured against the proxy, its error
    //    added (the triangle inequality): memory and time then follow the proxy, not the input.
    if (this.highSource.triangles > o.proxyTriangles) {
      const radius = this.modelRadius * o.sizeFactor;
      const near = o.highDistance ?? fillDistance(radius, o.screen);
      const proxyError = errorForPixels(PROXY_ERROR_PX, near, o.screen) / o.sizeFactor;
      // Every seam kept, unless that leaves the proxy stuck: a high whose every point sits on a
      // normal seam (a dense mesh exported flat-shaded, Blender's default) keeps nearly all its
      // triangles so. Then its normal seams are dropped ('no-normals': hard edges and flat shading
      // come back through the wedges; UV seams stay) where that keeps PROXY_MERGE_GAIN times fewer.
      const all = this.highSource.triangles;
      const stuck = (n: number) => n > PROXY_STUCK_FRACTION * all;
      const mayMerge = !o.modes || o.modes.includes('no-normals');
      const makeProxy = (lock?: Uint8Array): SimplifiedLod<SimplifyMode> => {
        const settings = { ...o, normalWeight: 0, uvWeight: 0, updatePositions: false, ...(lock ? { lock } : {}) };
        const seams = () => simplifyLodSource(this.highSource, 'attributes', 0, proxyError, settings);
        if (!mayMerge) return seams();
        // At least this many stay with every seam kept, known without simplifying (0 with a lock).
        const floor = attributesKeepAtLeast(this.highSource, proxyError, settings);
        const kept = stuck(floor) ? undefined : seams();
        if (kept && !stuck(kept.triangles)) return kept;
        const merged = simplifyLodSource(this.highSource, 'no-normals', 0, proxyError, settings);
        const better = (withSeams: number) => merged.triangles * PROXY_MERGE_GAIN <= withSeams;
        if (kept) return better(kept.triangles) ? merged : kept;
        // The floor alone may settle it; else the seams' result is made to compare.
        if (better(floor)) return merged;
        const withSeams = seams();
        return better(withSeams.triangles) ? merged : withSeams;
      };
      /** A proxy worth measuring against: something left, and fewer triangles than high. */
      const smaller = (p: SimplifiedLod) => p.triangles > 0 && p.triangles < this.highSource.triangles;
      let proxy = makeProxy();
      if (smaller(proxy)) {
        // Every vertex of high is measured to the proxy. meshoptimizer's error weighs triangles by
        // their area, so a needle (a spike of sliver triangles) can vanish at an error it calls
        // next to nothing (assimp's subdivided Suzanne from Blender 2.52: one vertex 10 mm off at
        // 2 m, 3.5 px where the estimate gave 0.9). Vertices farther than PROXY_LOCK_FACTOR times
        // the target are locked with their neighbours (the needle's triangles stay whole) and the
        // proxy made again, a few rounds at most.
        const measured = (lod: MeshLod) => {
          const proxyMesh = lodTriangles(lod);
          const side = prepareHausdorffSide(proxyMesh, { samples: o.samples, maxVertexSamples: o.maxVertexSamples });
          const stray = strayVertices(this.highSource.positions, side.bvh, PROXY_LOCK_FACTOR * proxyError);
          return { proxyMesh, side, stray };
        };
        let m = measured(proxy.lod);
        let lock: Uint8Array | undefined;
        for (let round = 0; round < PROXY_LOCK_ROUNDS && m.stray.far.length > 0; round++) {
          lock ??= new Uint8Array(this.highSource.positions.length / 3);
          lockWithNeighbours(lock, m.stray.far, this.highSource.indices);
          const again = makeProxy(lock);
          if (!smaller(again)) break;
          proxy = again;
          m = measured(proxy.lod);
        }
        const { proxyMesh, side, stray } = m;
        // The proxy's error: high's vertices (every one) and area samples measured to the proxy;
        // the other direction (the proxy's surface to high's) is meshoptimizer's estimate, since
        // the proxy's vertices are high's own and a BVH over the whole of high would cost more
        // than the rest of the plan.
        const error = Math.max(
          stray.max,
          maxDistanceToMesh(
            sampleSurface(mesh, { samples: o.samples, maxVertexSamples: 0 }),
            side.bvh,
            Infinity,
            stray.max,
          ),
          proxy.simplifierError,
        );
        this.reference = {
          side,
          silhouette: silhouetteReference(proxyMesh, { resolution: o.silhouetteResolution }),
          error,
          source: prepareLodSource(proxy.lod, o),
          lod: proxy.lod,
          mode: proxy.mode,
          vertices: proxy.vertices,
          triangles: proxy.triangles,
        };
        return;
      }
    }
    this.reference = {
      side: prepareHausdorffSide(mesh, {
        samples: this.sampleCount(mesh.indices.length / 3),
        maxVertexSamples: o.maxVertexSamples,
      }),
      silhouette: silhouetteReference(mesh, { resolution: o.silhouetteResolution }),
      error: 0,
      triangles: this.highSource.triangles,
    };
  }

  /** Area samples per surface: `samples`, fewer for small meshes (32 per high triangle, at least 256). */
  private sampleCount(highTriangles: number): number {
    return Math.min(this.options.samples, Math.max(256, 32 * highTriangles));
  }

  /**
   * Measured error (metres at the model's size: against the reference, plus the reference's own)
   * and silhouette coverage of a candidate LOD. With `limit`, a candidate whose error is over it
   * is measured no further: its error is only known to be over `limit`, its coverage is 0. With
   * `minCoverage`, the silhouette is measured first and a candidate under it is measured no
   * further: its error is Infinity (the silhouette costs a fraction of a dense error).
   */
  measure(lod: MeshLod, dense = false, limit = Infinity, minCoverage?: number): { error: number; coverage: number } {
    const mesh = lodTriangles(this.asWritten(lod));
    if (mesh.indices.length === 0) return { error: Infinity, coverage: 0 };
    const known = this.measuresOf(lod);
    const coverage = () => (known.coverage ??= silhouetteCoverage(this.reference.silhouette, mesh).coverage);
    if (minCoverage !== undefined) {
      const c = coverage();
      return { error: c < minCoverage ? Infinity : this.knownError(known, mesh, dense, limit), coverage: c };
    }
    const error = this.knownError(known, mesh, dense, limit);
    if (error > limit) return { error, coverage: 0 };
    return { error, coverage: coverage() };
  }

  /** A LOD's dense error (VERIFY_SAMPLES and every centroid on both sides); Infinity when empty. */
  private denseError(lod: MeshLod): number {
    const mesh = lodTriangles(this.asWritten(lod));
    return mesh.indices.length === 0 ? Infinity : this.knownError(this.measuresOf(lod), mesh, true, Infinity);
  }

  /**
   * A LOD as it is written: conformed to high's box and materials (lod-conform.ts). The pass
   * clamps into high's box the vertices a simplifier moved past it and pulls the nearest onto a
   * side the LOD misses, which can add to the error: CGAL's sphere966 at 2 m, a 44-triangle lowest
   * 1.48 units off as made and 1.81 as written, said to be 1.00 px and shown at 1.23. Measured as
   * written, a LOD's stated error is the written one's. Every LOD is conformed to the input high,
   * whose box the written high keeps, and plan() returns them so: the writer's pass (gltf-plugin
   * conformModel) has nothing left to change.
   */
  private asWritten(lod: MeshLod): MeshLod {
    const high = this.object.lods.high;
    if (lod === high) return lod;
    let written = this.conformed.get(lod);
    if (!written) {
      this.highBox ??= lodBox(high);
      written = conformLod(high, lod, this.highBox);
      this.conformed.set(lod, written);
    }
    return written;
  }

  /**
   * A LOD's block bytes as written (lodBlockBytes of asWritten): with what conforming adds, above
   * all a triangle of high for each material the LOD lost (lod-conform.ts step 4), which a LOD
   * made empty of a material (Generate's, a sloppy or card LOD) pays for in every comparison of
   * bytes. Priced before conforming, a CC-0 kitchen cabinet's Generate low (2 of its 7 materials,
   * test-assets/lower-cabinet.glb) was compared at 470 bytes and written at 691.
   */
  private blockBytes(lod: MeshLod, deflate: DeflateFn): number {
    return lodBlockBytes(this.asWritten(lod), this.normalization, deflate);
  }

  private measuresOf(lod: MeshLod): LodMeasures {
    let known = this.measures.get(lod);
    if (!known) {
      known = { sampled: {}, dense: {} };
      this.measures.set(lod, known);
    }
    return known;
  }

  /**
   * errorOf, from what is known of the LOD when that answers it: its exact error, or an error
   * found over a limit at least this one (a measure stopped there). A measure stopped at its limit
   * returns at least about that limit; one within EXACT_BELOW_LIMIT of it is kept only as over.
   */
  private knownError(known: LodMeasures, mesh: IndexedMesh<Float32Array>, dense: boolean, limit: number): number {
    const k = dense ? known.dense : known.sampled;
    if (k.exact !== undefined) return k.exact;
    if (k.over !== undefined && limit <= k.over.limit) return k.over.error;
    const error = this.errorOf(mesh, dense, limit);
    if (error < limit * (1 - EXACT_BELOW_LIMIT)) k.exact = error;
    else if (!k.over || limit > k.over.limit) k.over = { limit, error };
    return error;
  }

  /** A non-empty candidate's error (see measure), its sides sampled as the search does or densely (VERIFY_SAMPLES, centroids, edge midpoints). */
  private errorOf(mesh: IndexedMesh<Float32Array>, dense: boolean, limit = Infinity): number {
    const ref = this.reference;
    const side = prepareHausdorffSide(mesh, {
      samples: dense ? VERIFY_SAMPLES : this.sampleCount(ref.triangles),
      maxVertexSamples: this.options.maxVertexSamples,
      centroids: dense,
      edgeMidpoints: dense,
    });
    return twoSidedDistance(dense ? this.denseSide() : ref.side, side, limit - ref.error) + ref.error;
  }

  /** The reference side with VERIFY_SAMPLES, every centroid and edge midpoint on its surface (high's, or the proxy's), its BVH shared. */
  private denseSide(): HausdorffSide {
    if (!this.denseReference) {
      const ref = this.reference;
      const mesh = lodTriangles(ref.lod ?? this.object.lods.high);
      this.denseReference = {
        samples: sampleSurface(mesh, {
          samples: VERIFY_SAMPLES,
          maxVertexSamples: this.options.maxVertexSamples,
          centroids: true,
          edgeMidpoints: true,
        }),
        bvh: ref.side.bvh,
        triangles: ref.side.triangles,
      };
    }
    return this.denseReference;
  }

  /**
   * `search`, its result checked densely (VERIFY_SAMPLES and every triangle's centroid on both
   * sides): its error becomes the larger of the two measures, and when that is over the bound,
   * the search runs once more measuring every candidate densely; the better of the two is kept
   * (within the bound if either is). `keepSeams`: only candidates that keep the source's UV seams
   * (see search).
   */
  private verifiedSearch(
    source: LodSource,
    bound: number,
    spent: number,
    lean: boolean,
    fast: boolean,
    unwanted = Infinity,
    keepSeams = false,
  ): Candidate<SimplifyMode> | undefined {
    const found = this.search(source, bound, spent, lean, fast, false, unwanted, keepSeams);
    if (!found) return found;
    const first = { ...found, error: Math.max(found.error, this.denseError(found.result.lod)) };
    const within = (c: Candidate) => c.error <= bound * (1 + VERIFY_SLACK);
    if (within(first)) return first;
    const second = this.search(source, bound, spent, lean, fast, true, unwanted, keepSeams);
    if (!second) return first;
    if (within(second) !== within(first)) return within(second) ? second : first;
    return second.error < first.error ? second : first;
  }

  /** The chain for a pixel bound: the object with its planned high and generated medium, low and lowest LODs, and the plan. */
  plan(maxErrorPx = this.options.maxErrorPx): { object: SlObject; plan: ObjectLodPlan } {
    // A big high whose proxy (within PROXY_ERROR_PX of it) keeps at least 1/GENERATE_LAZY_SLACK of
    // Generate's medium target resists simplification (parts, cards): Generate's LODs of it may be
    // coarse enough to loosen the bounds, and are made from the start (the eager plan).
    if (this.lazyGenerate && this.generateMayMatter('medium', this.reference.triangles)) this.viewerLevel('medium');
    const lazy = this.lazyGenerate;
    const first = this.planOnce(maxErrorPx);
    // A big high's plan that needed Generate's LODs after all is made again with them, so its
    // bounds are what they give (pebbles: Generate's medium is coarser than 1 px and lets the
    // planned medium be too); with them made, the second plan is the one a small high gets.
    return lazy && this.viewerLevels ? this.planOnce(maxErrorPx) : first;
  }

  private planOnce(maxErrorPx: number): { object: SlObject; plan: ObjectLodPlan } {
    const o = this.options;
    const k = o.sizeFactor;
    const radius = this.modelRadius * k;
    const bounds = lodErrorBounds(radius, o.lodFactor, maxErrorPx, o.screen);
    const pxAt = (error: number, distance: number) =>
      Number.isFinite(distance) ? screenSpaceError(error * k, distance, o.screen) : 0;
    // The distance high is judged at: the fill distance unless highDistance is given.
    const nearDistance = o.highDistance ?? fillDistance(radius, o.screen);
    // With viewerBound, each bound follows the viewer's own LOD where that is worse, and none is
    // over the viewer chain's worst (see LodPlanOptions.viewerBound).
    let highPx = maxErrorPx;
    let viewerPx: PerLowerLodPx | undefined;
    let viewerWorstPx: number | undefined;
    /** Generate's errors per level (made now if not yet: a big high's plan asks only when it needs them). */
    const viewerLevelsPx = (): PerLowerLodPx => (viewerPx ??= this.viewerErrorsPx(bounds.distances, pxAt));
    /** Generate's worst. */
    const viewerWorst = (): number => {
      if (viewerWorstPx === undefined) {
        const px = viewerLevelsPx();
        viewerWorstPx = Math.max(px.medium, px.low, px.lowest);
      }
      return viewerWorstPx;
    };
    /** The levels whose bound is their viewer LOD's own error (at least the rest allow: VIEWER_LEVEL_MIN_PX). */
    const fromViewer = new Set<LowerLodName>();
    /** Whether high's bound (and so every level's) is Generate's worst, under the pixel bound. */
    let highFromViewer = false;
    if (o.viewerBound) {
      // A big high's proxy (about PROXY_ERROR_PX at the near distance) stays an acceptable high:
      // keeping a big input high whole is what the proxy exists to avoid (and a face over 65,535
      // vertices cannot be written).
      const proxyPx = this.reference.lod
        ? screenSpaceError(this.reference.error * k, nearDistance, o.screen) * (1 + 1e-6)
        : 0;
      if (this.lazyGenerate) {
        // A big high: the bounds are not loosened by Generate's errors (see viewerBound).
        highPx = Math.min(maxErrorPx, proxyPx);
        for (const l of LOWER_LODS)
          if (Number.isFinite(bounds.distances[l]))
            bounds.maxError[l] = errorForPixels(highPx, bounds.distances[l], o.screen);
      } else {
        highPx = Math.min(maxErrorPx, Math.max(VIEWER_BOUND_MARGIN * viewerWorst(), proxyPx));
        highFromViewer = highPx < maxErrorPx;
        for (const l of LOWER_LODS) {
          const own = VIEWER_BOUND_MARGIN * viewerLevelsPx()[l];
          if (own >= highPx && own >= VIEWER_LEVEL_MIN_PX) fromViewer.add(l);
          if (Number.isFinite(bounds.distances[l]))
            bounds.maxError[l] = errorForPixels(Math.max(own, highPx), bounds.distances[l], o.screen);
        }
      }
    }
    const high = this.object.lods.high;
    const highTriangles = lodTriangleCount(high);
    const fast = this.highSource.triangles > BIG_SOURCE_TRIANGLES;
    const diagnostics: Diagnostic[] = [];
    const name = this.object.name;
    const note = (severity: Diagnostic['severity'], code: string, message: string) =>
      diagnostics.push({ severity, code, message: `${name}: ${message}`, object: name });

    // 1. High: simplified only as far as stays within the pixel bound at the near distance, unless
    //    keepHigh. A big high starts from the proxy.
    const highBound = Math.min(errorForPixels(highPx, nearDistance, o.screen) / k, this.maxSide);
    const start = this.reference.source ?? this.highSource;
    /** The input's high as the chain's top, as given (step 1 without simplifying, or step 2h). */
    const inputTop = (): ChainLink => ({
      lod: high,
      triangles: highTriangles,
      vertices: lodVertexCount(high),
      error: 0,
      coverage: 1,
      source: this.reference.source ? undefined : this.highSource,
      target: 0,
    });
    let top = inputTop();
    let highMode: SimplifyMode | 'viewer' | 'proxy' | 'kept' = 'kept';
    let highFallback: LodFallback | undefined;
    if (!o.keepHigh && this.reference.lod && this.reference.error <= highBound) {
      // A big high: its proxy is within the bound already (position-only, seams kept); searching
      // further would cost a pass over the whole input per candidate.
      // Its coverage is 1: it is the silhouette reference (high's own, within its sub-pixel error).
      const ref = this.reference;
      top = {
        lod: ref.lod!,
        triangles: ref.triangles,
        vertices: ref.vertices!,
        error: ref.error,
        coverage: 1,
        source: ref.source,
        target: 0,
      };
      highMode = 'proxy';
    } else if (!o.keepHigh) {
      // Seen closest, high keeps its UV seams: a candidate made by a mode that merges them is no
      // candidate (the search goes on), and no candidate leaves high as given.
      const found = this.verifiedSearch(
        this.highSource,
        highBound,
        0,
        false,
        fast,
        Math.ceil(HIGH_KEEP_FRACTION * highTriangles),
        true,
      );
      if (found && found.result.triangles > 0 && found.result.triangles < HIGH_KEEP_FRACTION * highTriangles) {
        top = linkOf(found);
        highMode = found.result.mode;
      }
    }
    const highMax = o.maxTriangles?.high;
    if (highMax !== undefined && top.triangles > highMax) {
      const forced = this.forceTriangles(o.keepHigh ? this.highSource : start, highMax);
      top = { ...forced, source: undefined };
      highMode = forced.mode;
      highFallback = 'max-triangles';
      note(
        'info',
        'lod-max-triangles',
        `high: reduced to the triangle budget ${highMax} (${forced.triangles} triangles, ${pxAt(forced.error, nearDistance).toFixed(2)} px at ${nearDistance.toFixed(1)} m)`,
      );
    }
    const highPlan: HighLodPlan = {
      triangles: top.triangles,
      vertices: top.vertices,
      error: top.error * k,
      screenErrorPx: pxAt(top.error, nearDistance),
      maxError: highBound * k,
      nearDistance,
      coverage: top.coverage,
      mode: highMode,
      ...(highMode === 'proxy' && this.reference.mode ? { proxyMode: this.reference.mode } : {}),
      ...(highFallback ? { fallback: highFallback } : {}),
    };

    // 2. The lower LODs, each from high (or, for a big high, from the LOD above).
    let above = top;
    const levels: LodLevelPlan[] = [];
    const lods: Partial<Record<LowerLodName, MeshLod>> = {};
    for (const lodName of LOWER_LODS) {
      // 2a. The bound in model metres; an error beyond the object's own size means nothing.
      const bound = Math.min(bounds.maxError[lodName] / k, this.maxSide);
      const chain = o.chain === 'auto' ? fast : o.chain;
      const source = chain
        ? (above.source ??=
            above.lod === high && this.reference.source ? this.reference.source : prepareLodSource(above.lod, o))
        : this.highSource;
      const spent = chain ? (above.lod === high ? this.reference.error : above.error) : 0;
      const lean = lodName !== 'medium' && o.leanFarLods;
      // 2b. Search within the bound.
      let found: Candidate | undefined = this.verifiedSearch(source, bound, spent, lean, fast && lodName === 'medium');
      let fallback: LodFallback | undefined;
      const distance = bounds.distances[lodName];
      // 2c. Stuck (leaf cards, many small parts): relax the bound step by step until it shrinks, and say so.
      const stuck = !found || found.result.triangles > FALLBACK_KEEP_FRACTION * above.triangles;
      // A bound taken from the viewer's own (as coarse or coarser) LOD: the fallback's candidates (sloppy, the
      // viewer's LOD itself) often beat the search there, within the same bound and floor.
      const loose = fromViewer.has(lodName);
      if (
        o.fallback &&
        Number.isFinite(distance) &&
        ((stuck && above.triangles > FALLBACK_MIN_TRIANGLES) || (loose && above.triangles > 1))
      ) {
        const relaxed = this.relaxedSearch(
          source,
          bound,
          Math.floor(FALLBACK_KEEP_FRACTION * above.triangles),
          lean,
          lodName,
          above,
          // With viewerBound, a fallback over the bound never passes Generate's worst (margin as the
          // bounds'). A big high's LOD that the search did shrink (under LAZY_STUCK_FRACTION of the
          // one above) stays within the bound: Generate's LODs, which that ceiling needs, are made
          // for a big high only when a LOD cannot shrink (see LodPlanOptions.viewerBound).
          this.lazyGenerate && found && found.result.triangles < LAZY_STUCK_FRACTION * above.triangles
            ? undefined
            : o.viewerBound
              ? () => errorForPixels(VIEWER_BOUND_MARGIN * viewerWorst(), distance, o.screen) / k
              : () => Infinity,
          found?.cost,
          stuck ? Infinity : found?.result.triangles,
        );
        const cheaper = relaxed && (!found || relaxed.cost < found.cost);
        // At a level that follows Generate, a stuck search's cheaper candidate within the bound
        // and the floor is no fallback either (V-HACD's lamp, its edge midpoints measured: a
        // 2,168-triangle medium at 0.72 px against a bound of 0.81, where the search kept 3,264).
        if (
          cheaper &&
          (!stuck || loose) &&
          relaxed.coverage >= o.minCoverage &&
          withinBound(relaxed, bound) &&
          (!found || this.writtenCost(relaxed) < this.writtenCost(found))
        ) {
          // Within the bound (or the viewer's own LOD) and the floor: no fallback, a cheaper way there.
          if (found && relaxed.result.mode === 'viewer')
            note(
              'info',
              'lod-generate-level',
              generateLevelMessage(
                lodName,
                this.written(relaxed.result.lod, true).bytes(),
                this.written(found.result.lod).bytes(),
                relaxed.result.triangles,
                found.result.triangles,
                pxAt(relaxed.error, distance),
                distance,
              ),
            );
          found = relaxed;
        } else if (cheaper && stuck) {
          const why = stuckMessage(found, above.triangles, pxAt(bound, distance));
          found = relaxed;
          fallback = 'relaxed-bound';
          note(
            'warning',
            'lod-fallback',
            `${lodName}: ${why}; made by ${FALLBACK_METHOD[relaxed.result.mode] ?? 'simplification with a relaxed bound'} instead: ${relaxed.result.triangles} of ${above.triangles} triangles, ${pxAt(relaxed.error, distance).toFixed(2)} px at ${distance.toFixed(1)} m${relaxed.coverage < o.minCoverage ? `; nothing keeps the silhouette floor ${o.minCoverage}: it covers ${relaxed.coverage.toFixed(2)}, no less than the viewer's own LOD` : ''}`,
          );
        } else if (!found || found.result.triangles >= above.triangles) {
          note(
            'warning',
            'lod-fallback',
            `${lodName}: no simplification shrinks it without losing the silhouette (coverage floor ${o.minCoverage}); it is a copy of the LOD above`,
          );
          fallback = 'no-shrink';
        }
      }
      // 2d. A triangle budget the creator set overrides the bound. It keeps room for what the
      //     conformance pass may add (high's box sides and materials: lod-conform.ts).
      const budget = o.maxTriangles?.[lodName];
      const max = budget === undefined ? undefined : Math.max(1, budget - conformMaxAddedTriangles(high));
      if (max !== undefined && Math.min(found?.result.triangles ?? Infinity, above.triangles) > max) {
        const forced = this.forceTriangles(source, max);
        found = this.priced(
          {
            lod: forced.lod,
            triangles: forced.triangles,
            vertices: forced.vertices,
            simplifierError: 0,
            mode: forced.mode,
          },
          forced.error,
          forced.coverage,
          forced.target,
          lean,
        );
        fallback = 'max-triangles';
        note(
          'info',
          'lod-max-triangles',
          `${lodName}: reduced to the triangle budget ${budget} (${forced.triangles} triangles, ${pxAt(forced.error, distance).toFixed(2)} px at ${distance.toFixed(1)} m)`,
        );
      }
      // 2e. Monotone: never more triangles or vertices than the LOD above.
      const aboveTriangles = above.triangles;
      let level: LodLevelPlan;
      if (
        !found ||
        found.result.triangles > above.triangles ||
        found.result.vertices > above.vertices ||
        found.result.triangles === 0
      ) {
        lods[lodName] = above.lod;
        level = this.level(
          lodName,
          distance,
          bounds.maxError[lodName],
          above.triangles,
          above.vertices,
          above.error,
          above.coverage,
          'copy',
          above.target,
        );
      } else {
        lods[lodName] = found.result.lod;
        level = this.level(
          lodName,
          distance,
          bounds.maxError[lodName],
          found.result.triangles,
          found.result.vertices,
          found.error,
          found.coverage,
          found.result.mode,
          found.target,
        );
        above = linkOf(found);
      }
      if (
        !fallback &&
        !o.fallback &&
        stuck &&
        level.triangles >= aboveTriangles &&
        aboveTriangles > FALLBACK_MIN_TRIANGLES
      ) {
        // Fallbacks off (optimize's joined objects): said, never a silent copy.
        fallback = 'no-shrink';
        note(
          'warning',
          'lod-fallback',
          `${lodName}: ${stuckMessage(found, aboveTriangles, pxAt(bound, distance))} and fallbacks are off; it is a copy of the LOD above`,
        );
      }
      if (!fallback && level.mode === 'copy' && level.error > bounds.maxError[lodName] * (1 + 1e-9)) {
        // A copy of a LOD above that was itself made by a fallback: over this bound too.
        fallback = 'no-shrink';
        note(
          'warning',
          'lod-fallback',
          `${lodName}: a copy of the LOD above (itself a fallback), ${level.screenErrorPx.toFixed(2)} px at ${distance.toFixed(1)} m`,
        );
      }
      if (fallback) level.fallback = fallback;
      levels.push(level);
    }
    // 2f. Level by level, the viewer's own LOD where it is smaller. Its error is the baseline's at
    //     that level (the same triangles, in Generate's order), within what the bounds allow
    //     there (the viewer's own error where that is coarser; never over the chain's worst);
    //     where it keeps the silhouette floor (or as much as the planned LOD does), it is as good
    //     a LOD as the planned one by every rule here; the download
    //     weight is a weighted sum of each LOD's bytes, so the cheapest mix of the two chains that
    //     stays monotone wins.
    let plannedWeight: number | undefined;
    // A big high: only where Generate's LOD could be the smaller one (see viewerBound).
    const withGenerate =
      o.viewerBound &&
      levels.length === LOWER_LODS.length &&
      Number.isFinite(radius) &&
      LOWER_LODS.some((l, i) => this.generateMayMatter(l, levels[i].triangles));
    if (withGenerate && o.deflate) {
      const mixed = this.takeSmallerViewerLevels(top, lods, levels, radius, note);
      plannedWeight = mixed.before;
      // The fallbacks said of the LODs replaced no longer hold.
      const replaced = mixed.taken.map((l) => `${name}: ${l}: `);
      for (let i = diagnostics.length - 1; i >= 0; i--)
        if (diagnostics[i].code === 'lod-fallback' && replaced.some((p) => diagnostics[i].message.startsWith(p)))
          diagnostics.splice(i, 1);
    }
    // 2g. Never costlier than the viewer's own chain (the uploader's Generate, with the input's
    //     high): where the planned chain would cost more download weight at the planned size,
    //     Generate's lower LODs are taken under the planned high. Their errors are Generate's own
    //     (the baseline's), so no LOD is worse than Generate's; the silhouette floor may not hold,
    //     and a note says so.
    if (withGenerate && o.deflate) {
      const deflate = o.deflate;
      const v = LOWER_LODS.map((l) => this.viewerLevel(l));
      // Each LOD's bytes as written (plan() step 3): the planned ones in the order that
      // compresses smaller, Generate's in its own.
      const ourBytes = (i: number) => this.written(lods[LOWER_LODS[i]]!, levels[i].mode === 'viewer').bytes();
      const highBytes = () => this.written(top.lod, o.keepHigh).bytes();
      /** The planned chain's download weight (made only where 2g or 2h compares with it). */
      const ours = () =>
        streamingCost({ high: highBytes(), medium: ourBytes(0), low: ourBytes(1), lowest: ourBytes(2) }, radius)
          .streaming;
      /** Medium, low and lowest become Generate's own: the diagnostics said of the LODs replaced (fallbacks, 2f's levels) no longer hold. */
      const takeGenerate = () => {
        LOWER_LODS.forEach((lodName, i) => {
          lods[lodName] = v[i].result.lod;
          levels[i] = this.viewerLevelPlan(lodName, levels[i]);
        });
        const replaced = LOWER_LODS.map((l) => `${name}: ${l}: `);
        for (let i = diagnostics.length - 1; i >= 0; i--)
          if (
            (diagnostics[i].code === 'lod-fallback' || diagnostics[i].code === 'lod-generate-level') &&
            replaced.some((p) => diagnostics[i].message.startsWith(p))
          )
            diagnostics.splice(i, 1);
      };
      const worstPx = () => Math.max(...levels.map((l) => l.screenErrorPx)).toFixed(2);
      const underFloor = () =>
        levels.some((l) => l.coverage < o.minCoverage)
          ? `; below the silhouette floor ${o.minCoverage}, as Generate's are`
          : '';
      if (
        generateChainFits(
          top,
          v.map((x) => x.result),
        )
      ) {
        const bytes = (lod: MeshLod) => this.blockBytes(lod, deflate);
        const planned = ours();
        // Generate's LODs under the planned high, smallest first, stopping as soon as even the rest
        // at one byte would cost as much (the weight only grows with each LOD's bytes; 0 would
        // mean a missing LOD, priced as the one above): a big input's Generate chain is large, and
        // compressing it whole costs more than the plan.
        const theirsBytes = { high: highBytes(), medium: 1, low: 1, lowest: 1 };
        let theirs = 0;
        for (let i = LOWER_LODS.length - 1; i >= 0; i--) {
          theirsBytes[LOWER_LODS[i]] = this.written(v[i].result.lod, true).bytes();
          theirs = streamingCost(theirsBytes, radius).streaming;
          if (theirs >= planned * (1 - 1e-9)) break;
        }
        // ... and the baseline itself, the input's high with Generate's LODs, only then.
        const cheaper = theirs < planned * (1 - 1e-9);
        const baseline =
          cheaper && top.lod !== high ? streamingCost({ ...theirsBytes, high: bytes(high) }, radius).streaming : theirs;
        // Judged on the chain as planned (before 2f's mix): Generate's whole chain is taken where
        // that would cost more than the baseline and Generate's is cheaper than the mix too.
        const asPlanned = plannedWeight ?? planned;
        if (cheaper && asPlanned > baseline * (1 + 1e-9)) {
          takeGenerate();
          note(
            'info',
            'lod-generate-cheaper',
            `the planned LODs would cost more download weight than the viewer's own auto-LODs (the uploader's Generate) at the planned size (${weightsAgainst(asPlanned, baseline)}): medium, low and lowest are Generate's, with its errors, under the planned high (${theirs.toFixed(3)}) (worst ${worstPx()} px)${underFloor()}`,
          );
        }
      } else if (
        top.lod !== high &&
        !this.lazyGenerate &&
        highMax === undefined &&
        generateChainFits(
          { vertices: lodVertexCount(high) },
          v.map((x) => x.result),
        )
      ) {
        // 2h. Generate's LODs cannot stand under the planned high (its medium has more vertices
        //     than that high), but they can under the input's: where that chain, the baseline
        //     itself, costs less download weight than the one planned, it is taken whole, the
        //     input's high kept (0 px) and Generate's LODs with their errors (the baseline's).
        //     A plank bench at 8 m: the planned high of 132 triangles (from 484) with a copy of
        //     it at medium cost more than the 484 with Generate's 160-triangle medium.
        const kept = this.written(high);
        const baseline = streamingCost(
          {
            high: kept.bytes(),
            medium: this.written(v[0].result.lod, true).bytes(),
            low: this.written(v[1].result.lod, true).bytes(),
            lowest: this.written(v[2].result.lod, true).bytes(),
          },
          radius,
        ).streaming;
        const planned = ours();
        if (baseline < planned * (1 - 1e-9)) {
          top = inputTop();
          Object.assign(highPlan, {
            triangles: top.triangles,
            vertices: top.vertices,
            error: 0,
            screenErrorPx: 0,
            coverage: 1,
            mode: 'kept',
          });
          takeGenerate();
          note(
            'info',
            'lod-generate-cheaper',
            `the planned LODs would cost more download weight than the viewer's own chain (the input's high with the uploader's Generate LODs) at the planned size (${weightsAgainst(planned, baseline)}), and Generate's medium has more vertices than the planned high: the high is kept as given, and medium, low and lowest are Generate's, with its errors (worst ${worstPx()} px)${underFloor()}`,
          );
        }
      }
    }
    const worst = Math.max(0, ...levels.map((l) => l.screenErrorPx));
    // 3. Each LOD in the triangle order that compresses best (the same geometry); with keepHigh,
    //    high stays exactly as given. A level that is the viewer's own LOD (Generate's) keeps
    //    Generate's order: then it is the baseline's LOD triangle for triangle, and any measure of
    //    its error, which a sampled one depends on the order for, gives the baseline's figure (in
    //    another order the same triangles measured 0.05 % more on 0 A.D.'s kart_wall_gate).
    const order = (lod: MeshLod, level?: LodLevelPlan) => this.written(lod, level?.mode === 'viewer');
    const as = {
      high: this.written(top.lod, o.keepHigh),
      medium: order(lods.medium!, levels[0]),
      low: order(lods.low!, levels[1]),
      lowest: order(lods.lowest!, levels[2]),
    };
    const written = { high: as.high.lod, medium: as.medium.lod, low: as.low.lod, lowest: as.lowest.lod };
    /** Each written LOD's block bytes (the moved ones counted by snapped()). */
    const writtenBytes = { high: as.high.bytes, medium: as.medium.bytes, low: as.low.bytes, lowest: as.lowest.bytes };
    // 4. Vertex precision (quantize): each LOD's vertices moved within a share of its bound so the
    //    uploader's 16-bit values end in zero bits, when its error stays within the bound and its
    //    block gets smaller. High only when it may change (not keepHigh).
    if (o.quantize && o.deflate) {
      if (!o.keepHigh) {
        // The high is the silhouette reference: a kept one covers 1, which any move lowers a
        // little; it is held to the floor the lower LODs are held to, which its error bound (a
        // pixel where the object fills the view, a silhouette cell is 17) keeps far off anyway.
        const snapped = this.snapped(
          as.high,
          highPlan.maxError / k,
          highPlan.error / k,
          Math.min(highPlan.coverage, o.minCoverage),
          1,
          highFromViewer,
        );
        if (snapped) {
          written.high = snapped.lod;
          writtenBytes.high = () => snapped.bytes;
          highPlan.coverage = snapped.coverage ?? highPlan.coverage;
          if (snapped.error * k > highPlan.error) {
            highPlan.error = snapped.error * k;
            highPlan.screenErrorPx = pxAt(snapped.error, nearDistance);
          }
        }
      }
      const lower = (lodName: LowerLodName, i: number, keeps?: (lod: MeshLod) => boolean) => {
        const l = levels[i];
        const far = Number.isFinite(l.switchDistance) ? l.switchDistance / nearDistance : MAX_UV_DISTANCE_RATIO;
        const snapped = this.snapped(
          as[lodName],
          l.maxError / k,
          l.error / k,
          l.coverage,
          far,
          highFromViewer || fromViewer.has(lodName),
          keeps,
        );
        written[lodName] = snapped?.lod ?? as[lodName].lod;
        writtenBytes[lodName] = snapped ? () => snapped.bytes : as[lodName].bytes;
        if (snapped && snapped.error * k > l.error)
          levels[i] = { ...l, error: snapped.error * k, screenErrorPx: pxAt(snapped.error, l.switchDistance) };
      };
      const planned = [...levels];
      LOWER_LODS.forEach((lodName, i) => lower(lodName, i));
      // The uploader takes the single hull from low (without a physics model), 0.04 per vertex:
      // where moving low's vertices gave that hull more of them and it would weigh more than the
      // object's download and server weight, low moves again without growing it (V-HACD's beshon
      // at 1.5 m: 36 -> 37 hull vertices, 1.48 -> 1.52 over a download weight of 0.6, land impact
      // 1 -> 2). Where the download weight is higher, the extra vertex costs nothing.
      const hullVertices = (lod: MeshLod) => convexHull(lodPositions(lod)).points.length / 3;
      const hullBefore = hullVertices(as.low.lod);
      const hullAfter = written.low === as.low.lod ? hullBefore : hullVertices(written.low);
      if (hullAfter > hullBefore) {
        const download = streamingCost(
          {
            high: writtenBytes.high(),
            medium: writtenBytes.medium(),
            low: writtenBytes.low(),
            lowest: writtenBytes.lowest(),
          },
          radius,
        ).streaming;
        if (convexHullPhysicsCost(hullAfter) > Math.max(download, serverWeight(1))) {
          levels[1] = planned[1];
          lower('low', 1, (lod) => hullVertices(lod) <= hullBefore);
        }
      }
    }
    // As written: every LOD conformed to high's box and materials (asWritten), as it was measured.
    return {
      object: {
        ...this.object,
        lods: {
          high: this.asWritten(written.high),
          medium: this.asWritten(written.medium),
          low: this.asWritten(written.low),
          lowest: this.asWritten(written.lowest),
        },
      },
      plan: {
        name,
        radius,
        lodFactor: o.lodFactor,
        maxErrorPx,
        highTriangles,
        high: highPlan,
        levels,
        worstScreenErrorPx: worst,
        ...(viewerWorstPx !== undefined ? { viewerWorstPx } : {}),
        diagnostics,
      },
    };
  }

  /**
   * Step 4 of plan(): `lod` (as written) with its vertices moved within a share of `bound` (model
   * units) so that its block compresses smaller (asset/vertex-precision.ts), with that block's
   * bytes, or undefined when nothing saves bytes. Its positions move only while its error (`error` now, model units) stays
   * within the bound and its silhouette coverage does not drop below its `coverage` now (the
   * silhouette is kept as planned): a LOD already over its bound (a fallback, Generate's own)
   * keeps them.
   * Positions may move by PRECISION_SHARES of the bound, each measured densely like every planned
   * LOD, and where the bound is taken from Generate's errors (`fromViewer`) by no more than the
   * bound less the LOD's error; the last try moves only normals and texture coordinates, which no geometric error sees
   * (nor is a share measured that leaves every position as it was). `as` is the LOD as written(),
   * its bytes counted once there.
   * Texture coordinates move by at most UV_ERROR times `far` (the LOD's switch distance over
   * high's near distance, at most MAX_UV_DISTANCE_RATIO): a LOD seen from farther off shows a
   * texel shift proportionally smaller.
   */
  private snapped(
    as: { lod: MeshLod; bytes: () => number },
    bound: number,
    error: number,
    coverage: number,
    far: number,
    fromViewer: boolean,
    keeps?: (lod: MeshLod) => boolean,
  ): { lod: MeshLod; error: number; coverage?: number; bytes: number } | undefined {
    const { lod } = as;
    if (lodTriangleCount(lod) === 0) return undefined;
    const deflate = this.options.deflate!;
    const before = as.bytes();
    if (!this.unitDomain) {
      const box = objectBox(this.object);
      this.unitDomain = positionDomain(box.min as Vec3, box.max as Vec3, this.normalization);
    }
    const domain = this.unitDomain;
    const uvError = Math.min(UV_ERROR * Math.max(far, 1), UV_ERROR * MAX_UV_DISTANCE_RATIO);
    // A LOD at its bound has no room to move: a big high's proxy is its own bound by construction
    // (its error sets the high's bound), and every measured move of it failed (two dense measures
    // of its 11,531 triangles, 0.22 s of the 252k Suzanne's plan).
    const room = error < bound * (1 - PRECISION_MIN_ROOM);
    for (const share of [...(room ? PRECISION_SHARES : []), 0]) {
      // A bound taken from Generate's errors is a promise to be no worse than the viewer under any
      // measure: there the move is never more than what the LOD's error leaves of the bound. The
      // error of a LOD whose vertices move by d is at most its error plus d (the triangle
      // inequality), so that bound holds by construction, not only under this sampled measure (an
      // independent, denser one found up to 10 % more when moves were only measured: V-HACD's
      // bunny 0.80 px against Generate's 0.78). The pixel bound is held as every planned LOD's is,
      // by the dense measure below: it applies only where Generate's worst is at least
      // 1/VIEWER_BOUND_MARGIN of it, more than such a measure's spread.
      // Never more than a silhouette cell either, 1/64 of the size (a LOD that never shows has no bound).
      const move = share * Math.min(bound, this.maxSide / PRECISION_MAX_SHARE_OF_SIZE);
      const positionError = fromViewer ? Math.min(move, Math.max(0, bound - error)) : move;
      const { lod: snapped, stats } = snapLod(lod, this.normalization, domain, {
        positionError,
        uvError,
        normalBits: NORMAL_BITS,
      });
      const bytes = this.blockBytes(snapped, deflate);
      const smaller = bytes < before;
      // No position bit to clear (nor at any smaller share, the last one moving none): the LOD's
      // geometry is as it was, so are its error and silhouette.
      if (stats.positionBits.every((b) => b === 0)) return smaller ? { lod: snapped, error, bytes } : undefined;
      if (!smaller) continue;
      if (keeps && !keeps(snapped)) continue;
      // The silhouette first: it fails most moves that fail (112 of 138 on the land-impact corpus);
      // the dense error then stops at the first sample over the bound.
      const m = this.measure(snapped, true, bound, coverage);
      if (m.error <= bound && m.coverage >= coverage)
        return { lod: snapped, error: m.error, coverage: m.coverage, bytes };
    }
    return undefined;
  }

  /**
   * What a candidate costs as plan() writes it: its charged bytes in the triangle order written()
   * gives it (a planned LOD reordered when that compresses smaller, a viewer's LOD as it is), or its
   * cost without a deflate. A search's candidate is priced before that reordering, which can make
   * a viewer's LOD look the cheaper one when written it is not (V-HACD's bunny at 6.8 m: Generate's
   * medium 12,766 bytes against the planned one's 11,750 once reordered).
   */
  private writtenCost(c: Candidate): number {
    if (!this.options.deflate) return c.cost;
    return chargedBytes(this.written(c.result.lod, c.result.mode === 'viewer').bytes());
  }

  /**
   * `lod` as plan() writes it, and its block's compressed bytes (needs a deflate): with its faces'
   * triangles in `reorderTriangles`'s order when its block compresses smaller so, else as it is;
   * with `keepOrder` (a viewer's own LOD, see plan() step 3, or high under keepHigh) always as it
   * is. Made once per LOD.
   */
  private written(lod: MeshLod, keepOrder = false): { lod: MeshLod; bytes: () => number } {
    const cache = keepOrder ? this.asIs : this.reordered;
    let w = cache.get(lod);
    if (!w) {
      const { reorderTriangles, deflate } = this.options;
      const size = (l: MeshLod) => this.blockBytes(l, deflate!);
      let out = lod;
      let bytes: number | undefined;
      if (!keepOrder && reorderTriangles && deflate && lodTriangleCount(lod) >= 2) {
        const reordered: MeshLod = {
          faces: lod.faces.map((f) =>
            f.indices.length >= 6 ? { ...f, indices: reorderTriangles(f.indices, f.positions.length / 3) } : f,
          ),
        };
        const [a, b] = [size(reordered), size(lod)];
        [out, bytes] = a < b ? [reordered, a] : [lod, b];
      }
      w = { lod: out, bytes: () => (bytes ??= size(out)) };
      cache.set(lod, w);
    }
    return w;
  }

  /**
   * The viewer's own auto-LODs' errors in pixels at `distances` (0 where a LOD never shows),
   * measured densely as the planner's chosen LODs are; a level
   * the viewer leaves empty (no finite error) counts as 0, so it bounds nothing.
   */
  private viewerErrorsPx(
    distances: Record<LowerLodName, number>,
    pxAt: (error: number, distance: number) => number,
  ): PerLowerLodPx {
    const px = (l: LowerLodName) => {
      const e = this.viewerLevel(l).error;
      return Number.isFinite(e) ? pxAt(e, distances[l]) : 0;
    };
    return { medium: px('medium'), low: px('low'), lowest: px('lowest') };
  }

  /**
   * The viewer's auto-LOD at this level (viewer-auto-lod.ts: 1/3, 1/9, 1/27 of high), its error
   * measured once, densely: it bounds chosen LODs, which are verified densely too.
   */
  private viewerLevel(lodName: LowerLodName): ViewerLevel {
    if (!this.viewerLevels) {
      const { lods } = viewerAutoLods(this.object, this.options.simplifier, this.highSource);
      // As the viewer shows it: stretched onto high's box (the same bytes; spec 4b).
      const level = (raw: MeshLod) => {
        const lod = displayedLod(this.object.lods.high, raw);
        const result: SimplifiedLod = {
          lod,
          triangles: lodTriangleCount(lod),
          vertices: lodVertexCount(lod),
          simplifierError: 0,
          mode: 'viewer',
        };
        // Its coverage only when asked (a fallback, the mix or the ceiling): a silhouette per level
        // is a cost a big input's plan, whose Generate LODs are far larger than its own, never uses.
        const mesh = lodTriangles(lod);
        if (mesh.indices.length === 0) return { result, error: Infinity, coverage: 0 };
        const error = this.errorOf(mesh, true);
        let coverage: number | undefined;
        const silhouette = this.reference.silhouette;
        return {
          result,
          error,
          get coverage(): number {
            coverage ??= silhouetteCoverage(silhouette, mesh).coverage;
            return coverage;
          },
        };
      };
      this.viewerLevels = { medium: level(lods.medium), low: level(lods.low), lowest: level(lods.lowest) };
    }
    return this.viewerLevels[lodName];
  }

  /**
   * The fallback for a stuck LOD. Candidates: sloppy simplification and the cascade to a third of
   * the LOD above (the viewer's ratio; sloppy merges what the cascade cannot collapse: leaf cards,
   * disconnected parts), the cascade to half the LOD above, the cascade at error targets from
   * twice the bound upward (doubling) until it gets to at most `maxTriangles`, and the viewer's
   * own auto-LOD at this level (when it is no bigger than the LOD above), and for the lowest LOD
   * impostor-like cards (lod-cards.ts: one card per material, and up to three, when they need no
   * more vertices than the LOD above). Of those that keep the
   * silhouette floor, the cheapest whose error is within the bound or the viewer's own LOD's error
   * wins, so a fallback never looks worse than the uploader's "Generate" would at that LOD; when
   * none is, the one with the least error if that is at most `ceiling` (plan() passes Generate's
   * worst with viewerBound, so no fallback passes it). When none keeps the floor, the same choice among those
   * that cover at least as much as the viewer's own LOD (the viewer's LOD among them): no worse
   * than Generate in error or silhouette, where the alternative is a copy of the LOD above.
   * Undefined when none does, or when no candidate costs less than `mustBeat` (what the search
   * found: the caller takes only a cheaper one). `searched`: the triangles of the LOD the search
   * found where it shrank (a level that only follows Generate, not stuck): the cascade's
   * candidates aimed at that many triangles or more (to the third and the half of the LOD above)
   * are not made. They are the stuck level's candidates: the cascade stopped at as many triangles
   * as the search's LOD or more, which the search's error target took further, so they keep as
   * many triangles or more at a coarser error, which leaves step 4 less room to snap them (the
   * CC-0 ceiling fan at 2 m: a 79-triangle lowest 3 % smaller than the search's before snapping,
   * 16 % larger after, download weight 1.43 against 1.03); on a big source they cost the most (a
   * flat-shaded 1M-triangle Suzanne: a 335,870- and a 503,807-triangle medium simplified, measured
   * and compressed against the search's 8,583; their simplification alone 5.3 s). Sloppy simplification merges vertices the
   * cascade keeps: its candidate is made whatever its target (the CC-0 radiator at 2 m: 160
   * triangles, 451 bytes, against the search's 142 triangles, 516 bytes). Without `ceiling`, only candidates within the
   * bound that keep the floor count. `ceiling` and Generate's LOD (its coverage, and
   * as a candidate: generateMayMatter) are asked for only when they can change the answer, so a
   * big high's plan makes Generate's LODs only then (LodPlanOptions.viewerBound).
   */
  private relaxedSearch(
    source: LodSource,
    bound: number,
    maxTriangles: number,
    lean: boolean,
    lodName: LowerLodName,
    above: { triangles: number; vertices: number },
    ceiling: (() => number) | undefined,
    mustBeat = Infinity,
    searched = Infinity,
  ): Candidate | undefined {
    const o = this.options;
    const big = source.triangles > BIG_SOURCE_TRIANGLES;
    const opts = big ? { ...o, updatePositions: false } : o;
    const found: Candidate[] = [];
    // Generate's LOD at this level, made when first needed (a big high's plan may not need it).
    const viewer = () => this.viewerLevel(lodName);
    const consider = (result: SimplifiedLod, t: number): boolean => {
      if (result.triangles === 0 || result.triangles > maxTriangles) return false;
      const { error, coverage } = this.measure(result.lod);
      found.push(this.priced(result, error, coverage, t, lean));
      return true;
    };
    // maxTriangles is half the LOD above: a third of that LOD is 2/3 of it.
    const third = Math.max(1, Math.floor((2 * maxTriangles) / FALLBACK_DECIMATION));
    consider(simplifyLodSource(source, 'sloppy', third, this.maxSide, opts), this.maxSide);
    if (third < searched) consider(simplifyToTriangles(source, third, this.maxSide, opts), this.maxSide);
    if (maxTriangles < searched) consider(simplifyToTriangles(source, maxTriangles, this.maxSide, opts), this.maxSide);
    for (let step = 1; step <= FALLBACK_STEPS; step++) {
      const t = Math.min(Math.max(bound, TINY) * 2 ** step, this.maxSide);
      if (consider(simplifyToError(source, t, opts), t) || t >= this.maxSide) break;
    }
    // The lowest LOD's last resort: impostor-like cards, one to three per face (lod-cards.ts).
    // Measured as written: after the conformance pass (high's box on every LOD, lod-conform.ts),
    // which bends a card tilted against the prim frame's box (0 A.D.'s cypress: 5.43 px as made,
    // 7.72 px conformed); cards across the prim frame's axes it leaves as they are. A LOD flat
    // where high is not (one card across a prim axis) would not keep high's box: not a candidate.
    if (lodName === 'lowest') {
      const high = this.object.lods.high;
      const highBox = lodBox(high);
      const tol = LOD_BOX_TOLERANCE * Math.max(...boxSize(highBox));
      for (const frame of ['prim', 'principal'] as const)
        for (const maxCards of [1, 3]) {
          const cards = cardsLod(source, { maxCards, frame });
          const lod = conformLod(high, cards.lod);
          const flat = flatAxes(highBox, lodBox(lod), tol).length > 0;
          const vertices = lodVertexCount(lod);
          if (!flat && vertices <= above.vertices)
            consider({ ...cards, lod, triangles: lodTriangleCount(lod), vertices }, this.maxSide);
        }
    }
    if (this.generateMayMatter(lodName, above.triangles)) {
      const { result: v, error, coverage } = viewer();
      if (v.triangles > 0 && v.triangles <= above.triangles && v.vertices <= above.vertices)
        found.push(this.priced(v, error, coverage, this.maxSide, lean));
    }
    // The caller takes a fallback only when it costs less than what the search found: when none
    // does, nothing here can matter (and Generate's LODs, for the ceiling or the floor, are not needed).
    if (!found.some((c) => c.cost < mustBeat)) return undefined;
    // With viewerBound the bound holds the viewer's own error already (less a margin for sampling
    // noise): only the viewer's LOD itself may reach its own error.
    const allowed = o.viewerBound ? bound : Math.max(bound, viewer().error);
    const ok = (c: Candidate) => withinBound(c, allowed);
    const pickSampled = (pool: Candidate[]): Candidate | undefined => {
      let best: Candidate | undefined;
      for (const c of pool) if (ok(c) && (!best || c.cost < best.cost)) best = c;
      // None within: the least error, if it is under the ceiling (Generate's worst, with
      // viewerBound: 0 A.D.'s kart_ship_quinquereme got a 4.47 px medium where Generate's worst is
      // 3.56 px). Else nothing: the caller keeps what the search found within the bound, or a copy.
      if (!best && pool.length > 0 && ceiling) {
        const limit = ceiling() * (1 + 1e-9);
        for (const c of pool) if (c.error <= limit && (!best || c.error < best.error)) best = c;
      }
      return best;
    };
    // The pick is checked densely (VERIFY_SAMPLES and every centroid on both sides), as the
    // search's is: the candidates were measured with the search's samples, which can miss a third
    // of a LOD's error (CGAL's elephant at 2 m: a medium taken at 0.89 px measured 1.03 px densely,
    // over Generate's own 1.05 px by the benchmark's measure). A pick whose dense error no longer
    // passes is picked again with that error (a dense error is measured once per LOD: measure()
    // remembers it); Generate's own LOD is the baseline as it is.
    const pick = (pool: Candidate[]): Candidate | undefined => {
      for (;;) {
        const best = pickSampled(pool);
        if (!best || best.result.mode === 'viewer') return best;
        const dense = this.denseError(best.result.lod);
        if (dense <= best.error) return best;
        pool[pool.indexOf(best)] = { ...best, error: dense };
      }
    };
    // The silhouette floor; when nothing keeps it, the viewer's own LOD's coverage if that is
    // lower (a LOD no worse than the viewer's then beats a copy of the one above).
    const kept = pick(found.filter((c) => c.coverage >= o.minCoverage));
    if (kept || found.length === 0 || !ceiling) return kept;
    const floor = Math.min(o.minCoverage, viewer().coverage);
    return pick(found.filter((c) => c.coverage >= floor));
  }

  /** A LOD of at most `max` triangles from `source`, whatever its error: the cascade, then sloppy with ever smaller targets. */
  private forceTriangles(source: LodSource, max: number): ChainLink & { mode: SimplifyMode | 'viewer' } {
    const o = this.options;
    let r = simplifyToTriangles(source, max, this.maxSide, { ...o, maxRatioDrift: 1 });
    for (
      let target = max, i = 0;
      (r.triangles > max || r.triangles === 0) && i < 12;
      i++, target = Math.floor(target * 0.7)
    ) {
      r = simplifyLodSource(source, 'sloppy', Math.max(1, target), this.maxSide, o);
    }
    // Its error as the plan says it: measured densely too, as every chosen LOD is.
    const { error: sampled, coverage } = this.measure(r.lod);
    const error = Math.max(sampled, this.denseError(r.lod));
    return {
      lod: r.lod,
      triangles: r.triangles,
      vertices: r.vertices,
      error,
      coverage,
      source: undefined,
      target: 0,
      mode: r.mode,
    };
  }

  /**
   * Step 2f of plan(): per lower level, the planned LOD or the viewer's own (Generate's), the mix
   * with the least download weight at the planned size that keeps triangles and vertices from
   * growing down the chain. Generate's LOD is a candidate at a level when it has triangles (its
   * error is the baseline's own there: no margin, see VIEWER_BOUND_MARGIN), it keeps
   * the silhouette floor (or the planned LOD's coverage, if lower), fits the level's triangle
   * budget and has at most 1.25 times the planned triangles (more is never fewer bytes in
   * practice, and a big input's Generate LODs are costly to compress). Rewrites `lods` and
   * `levels` in place, notes each level taken (`lod-generate-level`) and returns their names and
   * the planned chain's download weight before (undefined when nothing could be taken).
   */
  private takeSmallerViewerLevels(
    top: ChainLink,
    lods: Partial<Record<LowerLodName, MeshLod>>,
    levels: LodLevelPlan[],
    radius: number,
    note: (severity: Diagnostic['severity'], code: string, message: string) => void,
  ): { taken: LowerLodName[]; before?: number } {
    const o = this.options;
    const v = LOWER_LODS.map((l) => this.viewerLevel(l));
    const sameBox = !boxStretch(lodBox(this.object.lods.high), lodBox(top.lod)).mismatch;
    const usable = LOWER_LODS.map((l, i) => {
      const x = v[i].result;
      const budget = o.maxTriangles?.[l];
      return (
        x.triangles > 0 &&
        lods[l] !== x.lod &&
        x.triangles <= GENERATE_LEVEL_TRIANGLE_SLACK * levels[i].triangles &&
        (budget === undefined || x.triangles <= budget) &&
        // Under a high with the input's box, its error is the baseline's own at this level (the
        // same triangles, written in Generate's order and shown unstretched), so it needs no
        // margin (the level's bound, 0.85 of that error where it follows the viewer's, kept 0
        // A.D.'s elm from taking Generate's 104-triangle medium over a planned 154). Under a
        // high of another box it is stretched differently from the baseline's (V-HACD's bunny:
        // 0.82 px against 0.78): within the level's bound only.
        (sameBox || v[i].error <= (levels[i].maxError / o.sizeFactor) * (1 + 1e-9)) &&
        v[i].coverage >= Math.min(o.minCoverage, levels[i].coverage)
      );
    });
    if (!usable.some(Boolean)) return { taken: [] };
    // Bytes as written (plan() step 3): the planned LODs in the order that compresses smaller,
    // Generate's in its own.
    const highBytes = this.written(top.lod, o.keepHigh).bytes();
    const ours = LOWER_LODS.map((l, i) => this.written(lods[l]!, levels[i].mode === 'viewer').bytes());
    const theirs = LOWER_LODS.map((_, i) => (usable[i] ? this.written(v[i].result.lod, true).bytes() : Infinity));
    const pick = (mask: number, i: number) => (mask >> i) & 1;
    let bestMask = 0,
      bestCost = Infinity;
    for (let mask = 0; mask < 1 << LOWER_LODS.length; mask++) {
      if (LOWER_LODS.some((_, i) => pick(mask, i) && !usable[i])) continue;
      const chain = LOWER_LODS.map((_, i) =>
        pick(mask, i) ? v[i].result : { triangles: levels[i].triangles, vertices: levels[i].vertices },
      );
      const monotone = chain.every((x, i) => {
        const above = i === 0 ? top : chain[i - 1];
        return x.triangles <= above.triangles && x.vertices <= above.vertices;
      });
      if (!monotone) continue;
      const b = LOWER_LODS.map((_, i) => (pick(mask, i) ? theirs[i] : ours[i]));
      const cost = streamingCost({ high: highBytes, medium: b[0], low: b[1], lowest: b[2] }, radius).streaming;
      if (cost < bestCost * (1 - 1e-9)) {
        bestCost = cost;
        bestMask = mask;
      }
    }
    const before = streamingCost({ high: highBytes, medium: ours[0], low: ours[1], lowest: ours[2] }, radius).streaming;
    if (bestMask === 0) return { taken: [], before };
    const taken = LOWER_LODS.filter((_, i) => pick(bestMask, i));
    LOWER_LODS.forEach((lodName, i) => {
      if (!pick(bestMask, i)) return;
      const x = v[i];
      const was = levels[i];
      lods[lodName] = x.result.lod;
      levels[i] = this.viewerLevelPlan(lodName, was);
      note(
        'info',
        'lod-generate-level',
        generateLevelMessage(
          lodName,
          theirs[i],
          ours[i],
          x.result.triangles,
          was.triangles,
          levels[i].screenErrorPx,
          was.switchDistance,
        ),
      );
    });
    return { taken, before };
  }

  /** The plan of a level whose LOD is the viewer's own (Generate's) instead of `was`: its triangles, error and coverage. */
  private viewerLevelPlan(lodName: LowerLodName, was: LodLevelPlan): LodLevelPlan {
    const x = this.viewerLevel(lodName);
    return this.level(
      lodName,
      was.switchDistance,
      was.maxError,
      x.result.triangles,
      x.result.vertices,
      x.error,
      x.coverage,
      'viewer',
      this.maxSide,
    );
  }

  private level(
    name: LowerLodName,
    distance: number,
    maxError: number,
    triangles: number,
    vertices: number,
    error: number,
    coverage: number,
    mode: SimplifyMode | 'viewer' | 'cards' | 'copy',
    target: number,
  ): LodLevelPlan {
    const k = this.options.sizeFactor;
    const e = error * k;
    return {
      name,
      triangles,
      vertices,
      error: e,
      screenErrorPx: Number.isFinite(distance) ? screenSpaceError(e, distance, this.options.screen) : 0,
      maxError,
      switchDistance: distance,
      coverage,
      mode,
      simplifierTarget: target,
    };
  }

  /** A passing result as a candidate: its cost, and its lean variant instead when that is cheaper. */
  private priced<M extends string>(
    result: SimplifiedLod<M>,
    error: number,
    coverage: number,
    target: number,
    lean: boolean,
  ): Candidate<M> {
    const deflate = this.options.deflate;
    if (!deflate) return { result, error, coverage, target, cost: result.triangles };
    let cost = chargedBytes(this.blockBytes(result.lod, deflate));
    if (lean && cost > STREAMING_COST_DEFAULTS.minimumByteSize) {
      const leanLod = weldByPosition(result.lod);
      const leanCost = chargedBytes(this.blockBytes(leanLod, deflate));
      if (leanCost < cost) {
        let vertices = 0;
        for (const f of leanLod.faces) vertices += f.positions.length / 3;
        result = { ...result, lod: leanLod, vertices };
        cost = leanCost;
      }
    }
    return { result, error, coverage, target, cost };
  }

  /**
   * The cheapest candidate from `source` whose measured error is within `bound` and whose
   * silhouette coverage passes the floor; undefined when no candidate passes. Candidates use
   * simplifier targets t = base * sqrt(2)^e on an integer ladder e: galloping up from e = 0 while
   * candidates pass (down while they fail), then bisecting between the last pass and first fail.
   *
   * `unwanted`: a result of this many triangles or more is of no use to the caller (the high's
   * HIGH_KEEP_FRACTION). A fast search whose first candidate keeps that many gives up before
   * measuring it: passing, it would be returned and dropped; failing, the search would go on to
   * smaller errors, which keep more. (A later candidate that keeps that many counts as failing,
   * unmeasured: it too could only be dropped.) A big high that cannot shrink (800 Blender
   * icospheres joined, 1,024,000 triangles) spent 9 s of its plan measuring and pricing its own copy.
   *
   * `keepSeams` (the high's search): a candidate made by a mode that merges the source's UV seams
   * ('no-uvs', sloppy) fails unmeasured. The cascade's choice is not changed (its reference stays
   * position-only); only what it returns past the seams is refused.
   */
  private search(
    source: LodSource,
    bound: number,
    spent: number,
    lean: boolean,
    fast: boolean,
    dense = false,
    unwanted = Infinity,
    keepSeams = false,
  ): Candidate<SimplifyMode> | undefined {
    // For a heavy high every candidate costs a measurement against it: start at half the bound,
    // where the first candidate usually passes, and keep the first pass. A big source also leaves
    // vertices in place (moving them costs twice the time; later LODs, made from this one, do).
    const big = source.triangles > BIG_SOURCE_TRIANGLES;
    const o = big ? { ...this.options, updatePositions: false } : this.options;
    let probes = fast ? Math.min(3, o.maxProbes) : source.triangles > 20_000 ? Math.min(5, o.maxProbes) : o.maxProbes;
    // Where the pixel bound is loose, the silhouette floor binds, usually at a few percent of the size.
    const base =
      (fast ? 0.5 : 1) * Math.max(Math.min(Math.max(bound - spent, 0.5 * bound), LOOSE_START * this.maxSide), TINY);
    const tried = new Map<number, Candidate<SimplifyMode> | null>();
    let best: Candidate<SimplifyMode> | undefined;
    let givenUp = false;
    const passes = (e: number): boolean => {
      const seen = tried.get(e);
      if (seen !== undefined) return seen !== null;
      probes--;
      const t = base * Math.SQRT2 ** e;
      const result = simplifyToError(source, t, o);
      if (fast && result.triangles >= unwanted) {
        givenUp = true;
        return false;
      }
      let error = Infinity,
        coverage = 0;
      // A candidate over the bound fails whatever its coverage: its measure stops there. With
      // keepSeams, one made by a mode that merges the source's UV seams fails too (UV_SEAM_MODES).
      const mergedSeams = keepSeams && !UV_SEAM_MODES.includes(result.mode) && hasUvSeams(source);
      if (result.triangles > 0 && !mergedSeams) ({ error, coverage } = this.measure(result.lod, dense, bound));
      const ok = error <= bound && coverage >= o.minCoverage;
      const c = ok ? this.priced(result, error, coverage, t, lean) : null;
      tried.set(e, c);
      if (
        c &&
        (!best ||
          c.cost < best.cost ||
          (c.cost === best.cost && (o.deflate ? c.error < best.error : c.result.triangles < best.result.triangles)))
      )
        best = c;
      return ok;
    };
    const maxUp = Math.ceil(2 * Math.log2(Math.max(this.maxSide, TINY) / base)) + 1;
    let lo: number, hi: number;
    const firstPasses = passes(0);
    if (givenUp) return undefined;
    if (firstPasses) {
      if (fast) return best;
      // Gallop up: 1, 3, 7 ... steps while passing.
      lo = 0;
      hi = Infinity;
      for (let step = 1; probes > 0 && lo < maxUp; step *= 2) {
        const e = Math.min(lo + step, maxUp);
        if (passes(e)) lo = e;
        else {
          hi = e;
          break;
        }
      }
      if (!Number.isFinite(hi)) return best;
    } else {
      hi = 0;
      lo = -Infinity;
      for (let step = 2; probes > 0 && step <= 64; step *= 2) {
        if (passes(hi - step)) {
          lo = hi - step;
          break;
        }
        hi -= step;
      }
      if (!Number.isFinite(lo)) return best;
    }
    // Bisect (in log t, finer than the ladder) between a passing lo and a failing hi.
    while (probes > 0 && hi - lo > 0.3) {
      const mid = (lo + hi) / 2;
      if (passes(mid)) lo = mid;
      else hi = mid;
    }
    return best;
  }
}

/** Plans one object's LOD chain (see the file comment). */
export function planObjectLods(object: SlObject, options: LodPlanOptions): { object: SlObject; plan: ObjectLodPlan } {
  return new ObjectLodPlanner(object, options).plan();
}

/**
 * Objects with the same high LOD up to a translation and their material names (linked
 * duplicates, a very common build, often recoloured) share one plan: the key is the high LOD
 * relative to its box's minimum corner, face by face, normals and UVs to 1/65536, without the
 * faces' material names (a plan never looks at them; planFor renames them).
 */
export function geometryKey(object: SlObject): { key: string; origin: [number, number, number] } {
  const origin = boxOrigin(object);
  let h1 = 0x811c9dc5,
    h2 = 0x01000193;
  const mix = (x: number) => {
    h1 = Math.imul(h1 ^ x, 0x01000193);
    h2 = Math.imul(h2 ^ x, 0x5bd1e995) ^ (h2 >>> 13);
  };
  const f = new Float32Array(1),
    u = new Uint32Array(f.buffer);
  const bitsOf = (x: number) => {
    f[0] = x + 0;
    return u[0];
  };
  for (const face of object.lods.high.faces) {
    for (let i = 0; i < face.positions.length; i++) mix(bitsOf(Math.fround(face.positions[i] - origin[i % 3])));
    // Normals and UVs to 1/65536, finer than the asset's 16-bit quantisation: an importer that
    // turns each copy's normals by its node's rotation and back leaves them an ulp apart.
    if (face.normals) for (let i = 0; i < face.normals.length; i++) mix(Math.round(face.normals[i] * 65536));
    if (face.uvs) for (let i = 0; i < face.uvs.length; i++) mix(Math.round(face.uvs[i] * 65536));
    for (let i = 0; i < face.indices.length; i++) mix(face.indices[i]);
  }
  return { key: `${faceCounts(object)}#${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`, origin };
}

function boxOrigin(object: SlObject): [number, number, number] {
  const box = objectBox(object);
  return [box.min[0], box.min[1], box.min[2]];
}

/** Each face's array lengths and attributes: objects of the same geometry have the same. */
function faceCounts(object: SlObject): string {
  return object.lods.high.faces
    .map((face) => `${face.positions.length}:${face.indices.length}:${face.normals ? 1 : 0}${face.uvs ? 1 : 0}`)
    .join('|');
}

/**
 * geometryKey of each object, hashing only objects whose face counts another object shares: an
 * object alone with its counts gets a key of its own (no other can have its geometry), so a
 * model of one big object is not hashed at all.
 */
export function geometryKeys(objects: readonly SlObject[]): { key: string; origin: [number, number, number] }[] {
  const counts = objects.map(faceCounts);
  const shared = new Map<string, number>();
  for (const c of counts) shared.set(c, (shared.get(c) ?? 0) + 1);
  return objects.map((obj, i) =>
    shared.get(counts[i])! > 1 ? geometryKey(obj) : { key: `${counts[i]}#alone${i}`, origin: boxOrigin(obj) },
  );
}

/**
 * `lod` moved by `d`, its faces renamed by `material`: one object per move and renaming of one
 * LOD object, so a copy priced again (the LOD budget prices every chain it tries, each copy of a
 * geometry moved anew) is the same object and its remembered block lengths serve
 * (measureMeshAsset).
 */
function translatedLod(lod: MeshLod, d: [number, number, number], material: Map<string, string>): MeshLod {
  const key = `${d.join()}\0${lod.faces.map((f) => material.get(f.material) ?? f.material).join('\0')}`;
  let moved = TRANSLATED.get(lod);
  if (!moved) TRANSLATED.set(lod, (moved = new Map()));
  const known = moved.get(key);
  if (known) return known;
  const out: MeshLod = {
    faces: lod.faces.map((f) => {
      const positions = new Float32Array(f.positions.length);
      for (let i = 0; i < positions.length; i++) positions[i] = f.positions[i] + d[i % 3];
      return { ...f, material: material.get(f.material) ?? f.material, positions };
    }),
  };
  moved.set(key, out);
  return out;
}

/** translatedLod's copies by LOD, move and renaming. */
const TRANSLATED = new WeakMap<MeshLod, Map<string, MeshLod>>();

/**
 * A plan made for `source` (its result `planned`, at `plannedOrigin`), moved to `target` of the
 * same geometry (geometryKey), its faces renamed to the target's materials.
 */
export function planFor(
  target: SlObject,
  targetOrigin: [number, number, number],
  source: SlObject,
  planned: SlObject,
  plannedOrigin: [number, number, number],
  plan: ObjectLodPlan,
): { object: SlObject; plan: ObjectLodPlan } {
  const d: [number, number, number] = [
    targetOrigin[0] - plannedOrigin[0],
    targetOrigin[1] - plannedOrigin[1],
    targetOrigin[2] - plannedOrigin[2],
  ];
  // Same geometry face by face (geometryKey): the planned object's face i is the target's face i.
  const material = new Map<string, string>();
  const sourceFaces = source.lods.high.faces;
  target.lods.high.faces.forEach((f, i) => material.set(sourceFaces[i].material, f.material));
  // A kept high is the target's own, unless the plan wrote it otherwise (triangles reordered,
  // vertices moved for precision): then the copy gets that too, as its lower LODs.
  const high =
    plan.high.mode === 'kept' && planned.lods.high === source.lods.high
      ? target.lods.high
      : translatedLod(planned.lods.high, d, material);
  const lods = {
    high,
    medium: translatedLod(planned.lods.medium!, d, material),
    low: translatedLod(planned.lods.low!, d, material),
    lowest: translatedLod(planned.lods.lowest!, d, material),
  };
  const rename = (m: string) =>
    m.startsWith(`${plan.name}: `) ? `${target.name}: ${m.slice(plan.name.length + 2)}` : m;
  const diagnostics = plan.diagnostics.map((x) => ({ ...x, object: target.name, message: rename(x.message) }));
  return { object: { ...target, lods }, plan: { ...plan, name: target.name, diagnostics } };
}

/** A model's objects by geometry (geometryKeys): each object's key and origin, and the first object of each key, in order. */
export interface ModelGeometries {
  keys: { key: string; origin: [number, number, number] }[];
  /** Index of the first object of each distinct geometry: the objects planModelLods plans (the rest are copies). */
  firsts: number[];
}

export function modelGeometries(objects: readonly SlObject[]): ModelGeometries {
  const keys = geometryKeys(objects);
  const seen = new Set<string>();
  const firsts: number[] = [];
  keys.forEach(({ key }, i) => {
    if (seen.has(key)) return;
    seen.add(key);
    firsts.push(i);
  });
  return { keys, firsts };
}

/**
 * The model's plan from its distinct geometries' plans: `planOf(i)` for each index of
 * `geometries.firsts` (called once each, in order), every copy placed and renamed from its
 * geometry's first (planFor). planModelLods plans them here; a caller that planned them
 * elsewhere (in worker threads: @slmesh/gltf-plugin) gives their results and gets the same model.
 */
export function assembleModelPlans(
  model: SlModel,
  geometries: ModelGeometries,
  planOf: (index: number) => { object: SlObject; plan: ObjectLodPlan },
  onObjectPlanned?: (done: number, total: number) => void,
): { model: SlModel; plans: ObjectLodPlan[] } {
  const done = new Map<
    string,
    { source: SlObject; object: SlObject; plan: ObjectLodPlan; origin: [number, number, number] }
  >();
  const results = model.objects.map((obj, i) => {
    const { key, origin } = geometries.keys[i];
    const seen = done.get(key);
    const r = seen ? planFor(obj, origin, seen.source, seen.object, seen.origin, seen.plan) : planOf(i);
    if (!seen) done.set(key, { ...r, source: obj, origin });
    onObjectPlanned?.(i + 1, model.objects.length);
    return r;
  });
  return { model: { ...model, objects: results.map((r) => r.object) }, plans: results.map((r) => r.plan) };
}

/**
 * Plans every object of a model with the same pixel bound (objects of identical geometry are
 * planned once; `geometries`: the model's, when the caller has them already).
 */
export function planModelLods(
  model: SlModel,
  options: LodPlanOptions,
  geometries: ModelGeometries = modelGeometries(model.objects),
): { model: SlModel; plans: ObjectLodPlan[] } {
  return assembleModelPlans(
    model,
    geometries,
    (i) => planObjectLods(model.objects[i], options),
    options.onObjectPlanned,
  );
}
