/**
 * Core data model: what one Second Life prim (a mesh "object" of a linkset) is made of.
 *
 * Geometry is flat typed arrays, never objects per vertex. Positions are in metres in the
 * object's **prim frame**: the frame whose axis-aligned box the uploader normalises by, so the
 * high LOD's box size is the prim's scale (spec 4b). Without a `placement` the prim frame is the
 * linkset's (world) frame, Z-up as Second Life uses, with every node transform applied (the
 * older, baking importer; skinned meshes). With one, positions are the mesh-local vertices times
 * the node's scale and `placement` carries the node's rotation and translation (the current
 * importer, viewer #5431).
 */

/** One face of a mesh object: the triangles that share one material. */
export interface Face {
  /** Material name (or a generated one); faces of every LOD line up with high's faces by index. */
  material: string;
  /** xyz per vertex, metres, world frame. */
  positions: Float32Array;
  /** xyz unit normal per vertex, or undefined when the source has none. */
  normals?: Float32Array;
  /** uv per vertex (TEXCOORD_0), or undefined when the source has none. */
  uvs?: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
}

/** One level of detail: exactly as many faces as the object's high LOD (empty faces allowed). */
export interface MeshLod {
  faces: Face[];
}

/** Level-of-detail names, highest first, as creators know them. */
export type LodName = 'high' | 'medium' | 'low' | 'lowest';
export const LOD_NAMES: readonly LodName[] = ['high', 'medium', 'low', 'lowest'];

/** Convex hulls: each hull a flat xyz Float32Array of its vertices, metres, world frame. */
export type Hull = Float32Array;

/**
 * Where a prim frame sits in the linkset's world frame (Z-up, metres): world = rotation * p +
 * translation. `rotation` is a proper rotation, 3x3 row-major.
 */
export interface Placement {
  rotation: [number, number, number, number, number, number, number, number, number];
  translation: [number, number, number];
  /**
   * The node's scale folded into the prim frame (prim = diag(scale) * mesh-local): the asset's
   * NormalizedScale is the mesh-local box size, the prim's box divided by it. Default [1, 1, 1].
   */
  scale?: [number, number, number];
}

/** One prim of a linkset, as the uploader sees it. */
export interface SlObject {
  /** Node name of the high LOD (without any `_LODn` / `_PHYS` suffix). */
  name: string;
  /** The LODs. high is required; a missing lower LOD is absent (the viewer substitutes the next higher). */
  lods: { high: MeshLod; medium?: MeshLod; low?: MeshLod; lowest?: MeshLod };
  /** Authored physics mesh (`_PHYS`), triangle mesh, world frame. */
  physicsMesh?: MeshLod;
  /** Single convex hull (BoundingVerts), at most 256 vertices. */
  hull?: Hull;
  /** Convex decomposition, at most 256 hulls of at most 256 vertices. */
  decomposition?: Hull[];
  /** True for rigged / animated-object meshes (animesh cost model applies when asked). */
  rigged?: boolean;
  /** Prim frame to world; absent means the positions are already in the world frame. */
  placement?: Placement;
  /** Why the physics shape was chosen, when slmesh chose it (buildPhysics auto); carried into the cost report. */
  physicsChoice?: PhysicsChoice;
}

/** A physics shape the chooser considered, priced at the object's size. */
export interface PhysicsCandidate {
  /** The single hull, a convex decomposition, a triangle mesh, or the bounding box (as a one-hull shape). */
  shape: 'hull' | 'decomposition' | 'mesh' | 'box';
  /** Physics weight at the object's size. */
  weight: number;
  /** True when no public formula backs the weight (decompositions). */
  estimate: boolean;
  /** The object's land impact with this shape: max(download, physics, server). */
  landImpact: number;
  /** False when the shape would close an opening an avatar uses (see avatar-openings.ts). */
  keepsOpenings: boolean;
}

/** Which physics shape buildPhysics' auto mode chose, and why. */
export interface PhysicsChoice {
  shape: PhysicsCandidate['shape'];
  /** One short line, e.g. "hull: cheapest, closes no opening an avatar uses". */
  reason: string;
  candidates: PhysicsCandidate[];
}

/** A file's worth of prims: one linkset. */
export interface SlModel {
  objects: SlObject[];
}

/** Axis-aligned box. */
export interface Box3 {
  min: [number, number, number];
  max: [number, number, number];
}

/** Severity of an upload-check finding. */
export type Severity = 'error' | 'warning' | 'info';

/** A finding about the input: returned, not thrown, so a report can list them all. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable code, e.g. `too-many-faces`. See docs/diagnostics.md. */
  code: string;
  /** One human line naming the object and the problem. */
  message: string;
  /** Object (prim) the finding is about, when there is one. */
  object?: string;
}

/**
 * zlib (RFC 1950) compression, injected so core runs without Node: `(data, level) => bytes`.
 * Pricing needs only the compressed lengths: a compressor that can give one without making the
 * bytes says so with `deflatedLength` (core's zlibNgDeflate does); core's `deflatedLength` uses it.
 */
export type DeflateFn = ((data: Uint8Array, level: number) => Uint8Array) & {
  /** `deflate(data, level).length`, computed without the bytes. */
  deflatedLength?: (data: Uint8Array, level: number) => number;
  /** A deflate this one returns the same bytes as (memoizeDeflate's, the one it wraps): lengths remembered for either serve both. */
  same?: DeflateFn;
};
/** zlib (RFC 1950) decompression, injected likewise. */
export type InflateFn = (data: Uint8Array) => Uint8Array;
