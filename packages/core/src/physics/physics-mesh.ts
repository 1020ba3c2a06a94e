/**
 * A triangle-mesh physics shape (the asset's physics_mesh block) from one of the object's LODs,
 * optionally simplified (the simplifier is injected, e.g. meshoptimizer's) and snapped to a grid,
 * priced with the seed's width-based formula (physics-cost.ts) at the object's size, with a
 * warning when that price explodes.
 *
 * Why it explodes: the weight is K * triangles / harmonic-mean width, and a harmonic mean is
 * ruled by its smallest terms: a few slivers (near-zero width: long thin triangles, near-coplanar
 * jitter that splits a flat area into needles, tiny triangles at a bevel) drag the mean width
 * down and multiply the weight of the whole mesh. Zero-area triangles block the upload outright.
 * Snapping welds vertices to a grid of `snap` metres and drops the triangles that collapse,
 * flatten to zero area or repeat, which removes slivers and jitter and keeps the shape within
 * half a grid cell.
 */

import { PHYSICS_COST_DEFAULTS, type PhysicsCostSettings } from '../constants.js';
import { boxSize, lodBox, type Vec3 } from '../geometry/object-geometry.js';
import { triangleMeshPhysicsCost, type TriangleMeshPhysicsCost } from '../cost/physics-cost.js';
import type { Diagnostic, Face, LodName, MeshLod, SlObject } from '../types.js';
import { planarRemesh } from '../geometry/planar-remesh.js';
import { weldMesh } from '../geometry/weld-mesh.js';
import { compactVertices, withoutZeroAreaTriangles } from '../geometry/indexed-mesh.js';
import { assignDefaults } from '../options.js';
import { conformPhysicsMesh } from '../lod/lod-conform.js';
import { shortNumber } from '../format.js';

/** Simplifies a triangle list: returns the kept indices (at most about targetIndexCount). meshoptimizer's `simplify` fits. */
export type SimplifyFn = (positions: Float32Array, indices: Uint32Array, targetIndexCount: number) => Uint32Array;

export interface PhysicsMeshOptions {
  /** LOD the physics mesh is made from (a missing one falls back to the next higher). Ignored when the object has an authored physics mesh. Default 'low'. */
  lod?: LodName;
  /** Weld and snap vertices to a grid of this many metres, dropping triangles that collapse or repeat. Default: none. */
  snap?: number;
  /** Simplifier, injected (core has none). Default: none. */
  simplify?: SimplifyFn;
  /** Re-triangulate a LOD's flat regions from their outlines when that weighs less (planar-remesh.ts). Default true. */
  retriangulate?: boolean;
  /** Share of the triangles the simplifier keeps. Default 0.5. */
  simplifyRatio?: number;
  /** Per-axis factors from the authored size to the size priced (the prim's scale in world). Default [1, 1, 1]. */
  scale?: Vec3;
  /** Physics-cost settings. Default PHYSICS_COST_DEFAULTS. */
  physics?: Partial<PhysicsCostSettings>;
}

export const PHYSICS_MESH_DEFAULTS = {
  lod: 'low' as LodName,
  simplifyRatio: 0.5,
  /** The warning fires when the harmonic-mean width is under this share of the median width. */
  costlyWidthRatio: 0.5,
};

export interface PhysicsMeshResult {
  /** The physics mesh (one face per source face, positions and triangles only), authored frame. */
  mesh: MeshLod;
  /** Where it came from. */
  source: LodName | 'physics';
  /** Its weight at the priced size. */
  cost: TriangleMeshPhysicsCost;
  /** Median triangle width at the priced size, metres (0 without triangles). */
  medianWidth: number;
  /** What snapping removed. */
  snapped?: { grid: number; vertices: number; triangles: number };
  /** Triangles fewer after the LOD's flat regions were re-triangulated from their outlines (same surface, lighter). */
  retriangulated?: number;
  /**
   * Set when slivers make the weight explode (the `physics-mesh-costly` warning) and snapping to
   * `grid` (authored metres) would cut it below 0.9 of it: that grid and the weight it gives.
   */
  snapWouldHelp?: { grid: number; weight: number };
  diagnostics: Diagnostic[];
}

const ORDER: LodName[] = ['lowest', 'low', 'medium', 'high'];

/** The LOD asked for, or the next higher one present. */
function sourceLod(object: SlObject, lod: LodName): { name: LodName; lod: MeshLod } {
  for (let i = ORDER.indexOf(lod); i < ORDER.length; i++) {
    const l = object.lods[ORDER[i]];
    if (l?.faces.some((f) => f.indices.length >= 3)) return { name: ORDER[i], lod: l };
  }
  return { name: 'high', lod: object.lods.high };
}

function scaled(positions: ArrayLike<number>, f: Vec3): Float32Array {
  const out = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    out[i] = positions[i] * f[0];
    out[i + 1] = positions[i + 1] * f[1];
    out[i + 2] = positions[i + 2] * f[2];
  }
  return out;
}

/** Per-triangle widths (2 * area / longest edge), zero-area triangles left out. */
function widths(positions: Float32Array, indices: Uint32Array): number[] {
  const out: number[] = [];
  const p = positions;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    const ux = p[b] - p[a],
      uy = p[b + 1] - p[a + 1],
      uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a],
      vy = p[c + 1] - p[a + 1],
      vz = p[c + 2] - p[a + 2];
    const wx = vx - ux,
      wy = vy - uy,
      wz = vz - uz;
    const cx = uy * vz - uz * vy,
      cy = uz * vx - ux * vz,
      cz = ux * vy - uy * vx;
    const twice = Math.sqrt(cx * cx + cy * cy + cz * cz);
    const longest = Math.sqrt(
      Math.max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz),
    );
    if (twice > 1e-12 * longest * longest && longest > 0) out.push(twice / longest);
  }
  return out;
}

/** All faces' triangles as one list, positions scaled by f. */
function merged(lod: MeshLod, f: Vec3): { positions: Float32Array; indices: Uint32Array } {
  let nv = 0,
    ni = 0;
  for (const face of lod.faces) {
    nv += face.positions.length;
    ni += face.indices.length - (face.indices.length % 3);
  }
  const positions = new Float32Array(nv),
    indices = new Uint32Array(ni);
  let vo = 0,
    io = 0;
  for (const face of lod.faces) {
    positions.set(scaled(face.positions, f), vo);
    const n = face.indices.length - (face.indices.length % 3);
    for (let i = 0; i < n; i++) indices[io++] = face.indices[i] + vo / 3;
    vo += face.positions.length;
  }
  return { positions, indices };
}

/** Snaps one face: vertices to the grid; collapsed, flattened and repeated triangles dropped. */
function snapFace(face: Face, grid: number): { face: Face; vertices: number; triangles: number } {
  const w = weldMesh(face.positions, face.indices, grid, { snap: true, dropDuplicates: true });
  const positions = Float32Array.from(w.positions);
  const kept = withoutZeroAreaTriangles(positions, w.indices);
  // Keep only the vertices the kept triangles use.
  const compact = compactVertices(positions, kept);
  return {
    face: { material: face.material, positions: compact.positions, indices: compact.indices },
    vertices: face.positions.length / 3 - compact.positions.length / 3,
    triangles: face.indices.length / 3 - kept.length / 3,
  };
}

/** The weight of a LOD as a physics mesh at scale f, with the median width. */
function price(
  lod: MeshLod,
  f: Vec3,
  settings: Partial<PhysicsCostSettings>,
): { cost: TriangleMeshPhysicsCost; median: number } {
  const m = merged(lod, f);
  const cost = triangleMeshPhysicsCost(m.positions, m.indices, settings);
  const w = widths(m.positions, m.indices).sort((a, b) => a - b);
  return { cost, median: w.length ? w[Math.floor(w.length / 2)] : 0 };
}

const fmt = shortNumber;

/** Builds the triangle-mesh physics shape of an object. See the file comment. */
export function buildPhysicsMesh(object: SlObject, options: PhysicsMeshOptions = {}): PhysicsMeshResult {
  const f: Vec3 = options.scale ?? [1, 1, 1];
  const settings = assignDefaults(PHYSICS_COST_DEFAULTS, options.physics);
  const diagnostics: Diagnostic[] = [];
  const name = object.name;
  const add = (severity: Diagnostic['severity'], code: string, message: string) =>
    diagnostics.push({ severity, code, message: `${name}: ${message}`, object: name });
  // 1. Source: the authored physics mesh, else the LOD asked for.
  let source: LodName | 'physics';
  let lod: MeshLod;
  if (object.physicsMesh?.faces.some((fc) => fc.indices.length >= 3)) {
    source = 'physics';
    lod = object.physicsMesh;
  } else {
    const s = sourceLod(object, options.lod ?? PHYSICS_MESH_DEFAULTS.lod);
    source = s.name;
    lod = s.lod;
  }
  let faces: Face[] = lod.faces.map((fc) => ({
    material: fc.material,
    positions: fc.positions,
    indices: fc.indices.subarray(0, fc.indices.length - (fc.indices.length % 3)),
  }));
  // 2. Simplify (injected).
  if (options.simplify) {
    const ratio = options.simplifyRatio ?? PHYSICS_MESH_DEFAULTS.simplifyRatio;
    faces = faces.map((fc) => {
      if (fc.indices.length < 3) return fc;
      const target = Math.max(3, 3 * Math.floor((fc.indices.length / 3) * ratio));
      return { ...fc, indices: options.simplify!(fc.positions, fc.indices, target) };
    });
  }
  // 3. Snap.
  let snapped: PhysicsMeshResult['snapped'];
  if (options.snap !== undefined && options.snap > 0) {
    let vertices = 0,
      triangles = 0;
    faces = faces.map((fc) => {
      const s = snapFace(fc, options.snap!);
      vertices += s.vertices;
      triangles += s.triangles;
      return s.face;
    });
    snapped = { grid: options.snap, vertices, triangles };
  }
  // 3b. A LOD's flat regions re-triangulated from their outlines (planar-remesh.ts): the same
  //     surface in fewer, wider triangles, which weigh less (K x the sum of inverse widths). An
  //     authored physics model is the creator's and is left as it is.
  let built = merged({ faces }, f);
  let builtCost = triangleMeshPhysicsCost(built.positions, built.indices, settings);
  let retriangulated = 0;
  if (source !== 'physics' && options.retriangulate !== false) {
    const remeshed = faces.map((fc) => {
      const w = weldMesh(fc.positions, fc.indices, 0);
      const positions = Float32Array.from(w.positions);
      const indices = planarRemesh(positions, w.indices);
      return indices.length > 0 && indices.length < fc.indices.length ? { ...fc, positions, indices } : fc;
    });
    const m = merged({ faces: remeshed }, f);
    const mCost = triangleMeshPhysicsCost(m.positions, m.indices, settings);
    if (mCost.cost < builtCost.cost) {
      retriangulated = (built.indices.length - m.indices.length) / 3;
      [faces, built, builtCost] = [remeshed, m, mCost];
    }
  }
  // 4. As written: conformed to high's box (lod-conform.ts), which moves the vertex nearest each
  //    side the mesh misses onto it. That move can make a sliver, and a sliver rules the weight:
  //    Neverball's basic ball (Debian neverball-data) at 8 m, its low LOD, weighed 8.06 as built
  //    and 17.05 as written, so auto took it as 'not raising' a land impact of 13.9 it raised to 17.
  //    Zero-area triangles (they would block the upload) are left out there.
  const degenerate = builtCost.degenerate;
  const mesh = conformPhysicsMesh(object.lods.high, { faces });
  // 5. Price at the size asked, and say when the price explodes.
  const { cost, median } = price(mesh, f, settings);
  if (degenerate > 0) {
    add(
      'info',
      'physics-mesh-degenerate',
      `physics mesh (from ${source}) had ${degenerate} zero-area triangles, which would block the upload: they are left out of what is written`,
    );
  }
  const ratio = PHYSICS_MESH_DEFAULTS.costlyWidthRatio;
  let snapWouldHelp: PhysicsMeshResult['snapWouldHelp'];
  const clamped = cost.triangles > 0 && cost.width <= settings.meshMinWidth;
  if (cost.triangles > 0 && cost.cost > settings.meshMinimumCost && (clamped || cost.width < ratio * median)) {
    // What snapping would do: a grid of a tenth of the median width (at least 1 mm), in the authored frame.
    const size = boxSize(lodBox(object.lods.high));
    const grid = Math.max(
      0.001,
      (0.1 * median) / Math.max(f[0], f[1], f[2], 1e-9),
      1e-6 * Math.max(size[0], size[1], size[2]),
    );
    const trial = price(
      conformPhysicsMesh(object.lods.high, { faces: faces.map((fc) => snapFace(fc, grid).face) }),
      f,
      settings,
    ).cost;
    if (trial.cost < cost.cost * 0.9) snapWouldHelp = { grid, weight: trial.cost };
    add(
      'warning',
      'physics-mesh-costly',
      `physics mesh (from ${source}) weighs ${fmt(cost.cost)}: its thinnest triangles bring the mean width to ${fmt(cost.width)} m against a typical ${fmt(median)} m (slivers, tiny or jittered triangles)` +
        (snapWouldHelp ? `; snapping to a ${fmt(grid * 1000)} mm grid would make it ${fmt(trial.cost)}` : ''),
    );
  }
  return {
    mesh,
    source,
    cost,
    medianWidth: median,
    ...(snapped ? { snapped } : {}),
    ...(retriangulated > 0 ? { retriangulated } : {}),
    ...(snapWouldHelp ? { snapWouldHelp } : {}),
    diagnostics,
  };
}
