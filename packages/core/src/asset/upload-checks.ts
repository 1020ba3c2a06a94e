/**
 * The uploader's checks (spec section 4), returned as diagnostics with stable codes rather than
 * thrown, so one report lists every problem. Codes are documented in docs/diagnostics.md.
 *
 * Errors block an upload (or the viewer refuses the model); warnings are what the viewer warns
 * about or what costs creators land impact for no visible gain; info notes what the importer
 * will do by itself (split faces, split objects).
 */

import {
  MAX_FACES_PER_OBJECT,
  MAX_HULL_VERTICES,
  MAX_HULLS,
  MAX_MODELS_PER_UPLOAD,
  MAX_VERTICES_PER_FACE,
  MIN_OBJECT_SCALE,
} from '../constants.js';
import {
  boxSize,
  emptyBox,
  faceVertexCount,
  growBox,
  lodBox,
  lodTriangleCount,
  lodVertexCount,
} from '../geometry/object-geometry.js';
import { boxStretch } from '../lod/lod-conform.js';
import type { Box3, Diagnostic, Face, LodName, MeshLod, SlModel, SlObject } from '../types.js';
import { LOD_NAMES } from '../types.js';
import { isZeroAreaTriangle } from '../geometry/indexed-mesh.js';
import { shortNumber } from '../format.js';

const fmt = shortNumber;

/** "by 8.5 % on x, 2.0 % on z" from per-axis stretch factors (high size / model size). */
function stretchText(f: [number, number, number]): string {
  const parts = f
    .map((v, k) =>
      Math.abs(v - 1) < 5e-5
        ? ''
        : `${Number.isFinite(v) ? ((v - 1) * 100).toFixed(1) : 'infinitely'}${Number.isFinite(v) ? ' %' : ''} on ${'xyz'[k]}`,
    )
    .filter(Boolean);
  return parts.length ? `by ${parts.join(', ')}` : '(same size, shifted)';
}

function hasNonFinite(a: Float32Array | undefined): boolean {
  if (!a) return false;
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return true;
  return false;
}

function badIndex(face: Face): boolean {
  const n = faceVertexCount(face);
  for (let i = 0; i < face.indices.length; i++) if (face.indices[i] >= n) return true;
  return face.indices.length % 3 !== 0;
}

/** Zero-area triangles (repeated index or collinear corners): they block a physics-mesh upload. */
export function countDegenerateTriangles(lod: MeshLod): number {
  let n = 0;
  for (const f of lod.faces) {
    for (let t = 0; t + 2 < f.indices.length; t += 3) {
      if (isZeroAreaTriangle(f.positions, f.indices[t], f.indices[t + 1], f.indices[t + 2])) n++;
    }
  }
  return n;
}

/** What checkObject reads of one LOD: its first face with bad data, and its box. */
interface LodFacts {
  /** The first face with non-finite vertex data or an index out of range (checked in that order). */
  problem?: { code: 'non-finite-vertex' | 'bad-index'; material: string };
  /** lodBox; not to be changed. */
  box: Box3;
}

/**
 * LodFacts, remembered by LOD object (meshes are never changed once made): the LOD budget checks
 * every chain it tries, and the same LODs come back in each.
 */
function lodFacts(lod: MeshLod): LodFacts {
  let facts = LOD_FACTS.get(lod);
  if (facts) return facts;
  facts = { box: lodBox(lod) };
  for (const f of lod.faces) {
    if (hasNonFinite(f.positions) || hasNonFinite(f.normals) || hasNonFinite(f.uvs)) {
      facts.problem = { code: 'non-finite-vertex', material: f.material };
      break;
    }
    if (badIndex(f)) {
      facts.problem = { code: 'bad-index', material: f.material };
      break;
    }
  }
  LOD_FACTS.set(lod, facts);
  return facts;
}

const LOD_FACTS = new WeakMap<MeshLod, LodFacts>();

/**
 * Checks one object (a prim) of the model at its own size. An object over 64 m is not an error:
 * the uploader's Scale never takes it past 63.9 m (cost/upload-scale.ts caps the price's factors
 * and says so with `scale-capped`).
 */
export function checkObject(object: SlObject): Diagnostic[] {
  const out: Diagnostic[] = [];
  const name = object.name;
  const add = (severity: Diagnostic['severity'], code: string, message: string) =>
    out.push({ severity, code, message: `${name}: ${message}`, object: name });

  const high = object.lods.high;
  // 1. Geometry must be finite and indices in range.
  for (const lodName of LOD_NAMES) {
    const lod = object.lods[lodName];
    const problem = lod && lodFacts(lod).problem;
    if (problem?.code === 'non-finite-vertex')
      add('error', problem.code, `${lodName} LOD has NaN or infinite vertex data (material ${problem.material})`);
    else if (problem)
      add('error', problem.code, `${lodName} LOD has a triangle index out of range (material ${problem.material})`);
  }
  // 2. High is required and must have triangles.
  if (lodTriangleCount(high) === 0) add('error', 'no-high-lod', 'high LOD has no triangles');
  // 3. Faces per object and vertices per face.
  if (high.faces.length > MAX_FACES_PER_OBJECT) {
    const extra = Math.ceil(high.faces.length / MAX_FACES_PER_OBJECT) - 1;
    add(
      'warning',
      'too-many-faces',
      `${high.faces.length} materials; Second Life allows ${MAX_FACES_PER_OBJECT} per object, so the uploader splits it into ${extra + 1} linked objects`,
    );
  }
  for (const f of high.faces) {
    if (faceVertexCount(f) > MAX_VERTICES_PER_FACE) {
      add(
        'info',
        'face-split',
        `material ${f.material} has ${faceVertexCount(f)} vertices; the uploader splits faces at ${MAX_VERTICES_PER_FACE}`,
      );
    }
  }
  // 4. Every LOD has high's faces, uses a subset of high's materials, and is no heavier than the one above.
  let above: { name: LodName; lod: MeshLod } = { name: 'high', lod: high };
  for (const lodName of LOD_NAMES.slice(1)) {
    const lod = object.lods[lodName];
    if (!lod) continue;
    if (lod.faces.length !== high.faces.length) {
      add(
        'error',
        'lod-face-count',
        `${lodName} LOD has ${lod.faces.length} faces, high has ${high.faces.length}; every LOD must have the same number of faces`,
      );
    }
    const highMats = new Set(high.faces.map((f) => f.material));
    for (const f of lod.faces) {
      if (!highMats.has(f.material))
        add('error', 'lod-material', `${lodName} LOD uses material ${f.material}, which high does not have`);
    }
    if (lodTriangleCount(high) > 0 && lodTriangleCount(lod) > 0) {
      const missing = high.faces
        .filter((h) => !lod.faces.some((f) => f.material === h.material && f.indices.length >= 3))
        .map((h) => h.material);
      if (missing.length > 0) {
        add(
          'warning',
          'lod-material-missing',
          `${lodName} LOD has no triangles of material ${missing.join(', ')}; the official viewer does not keep placeholders, so later materials of that LOD show the wrong textures (Firestorm keeps them)`,
        );
      }
      const stretch = boxStretch(lodFacts(high).box, lodFacts(lod).box);
      if (stretch.mismatch)
        add(
          'warning',
          'lod-box-mismatch',
          `${lodName} LOD's bounding box differs from high's; the uploader normalises it by its own box and stretches it ${stretchText(stretch.factors)} to fit high's`,
        );
    }
    if (lodVertexCount(lod) > lodVertexCount(above.lod)) {
      add(
        'warning',
        'lod-more-vertices',
        `${lodName} LOD has more vertices (${lodVertexCount(lod)}) than ${above.name} (${lodVertexCount(above.lod)})`,
      );
    }
    above = { name: lodName, lod };
  }
  // 5. Scale: under 1 cm on an axis, the prim is made 1 cm there.
  const size = boxSize(lodFacts(high).box);
  if (lodTriangleCount(high) > 0 && size.some((s) => s < MIN_OBJECT_SCALE)) {
    add(
      'warning',
      'scale-too-small',
      `size ${size.map(fmt).join(' x ')} m is below Second Life's ${MIN_OBJECT_SCALE} m minimum on an axis; the prim will be at least ${MIN_OBJECT_SCALE} m`,
    );
  }
  // 6. Physics limits.
  if (object.hull && object.hull.length / 3 > MAX_HULL_VERTICES) {
    add(
      'error',
      'hull-vertices',
      `convex hull has ${object.hull.length / 3} vertices; the limit is ${MAX_HULL_VERTICES}`,
    );
  }
  if (object.decomposition) {
    if (object.decomposition.length > MAX_HULLS)
      add(
        'error',
        'too-many-hulls',
        `decomposition has ${object.decomposition.length} hulls; the limit is ${MAX_HULLS}`,
      );
    object.decomposition.forEach((h, i) => {
      if (h.length / 3 > MAX_HULL_VERTICES)
        add(
          'error',
          'hull-vertices',
          `decomposition hull ${i} has ${h.length / 3} vertices; the limit is ${MAX_HULL_VERTICES}`,
        );
    });
  }
  if (lodTriangleCount(high) > 0) {
    const physicsBox =
      object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0
        ? lodBox(object.physicsMesh)
        : object.decomposition && object.decomposition.length > 0
          ? object.decomposition.reduce((b, h) => growBox(b, h), emptyBox())
          : object.hull && object.hull.length >= 12
            ? growBox(emptyBox(), object.hull)
            : undefined;
    const stretch = physicsBox && boxStretch(lodFacts(high).box, physicsBox);
    if (stretch?.mismatch)
      add(
        'warning',
        'physics-box-mismatch',
        `the physics model's bounding box differs from high's; the uploader normalises it by its own box and stretches it ${stretchText(stretch.factors)} to fit high's`,
      );
  }
  if (object.physicsMesh) {
    const degenerate = countDegenerateTriangles(object.physicsMesh);
    if (degenerate > 0)
      add(
        'error',
        'physics-degenerate',
        `physics mesh has ${degenerate} degenerate (zero-area) triangles, which block the upload`,
      );
  }
  return out;
}

/**
 * Checks the whole model: every object, plus model-wide limits. A model over 240 m is the
 * uploader's Scale cap too (cost/upload-scale.ts).
 */
export function checkModel(model: SlModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (model.objects.length === 0) {
    out.push({ severity: 'error', code: 'no-mesh', message: 'the file has no triangle meshes' });
  }
  if (model.objects.length > MAX_MODELS_PER_UPLOAD) {
    out.push({
      severity: 'error',
      code: 'too-many-models',
      message: `${model.objects.length} objects; the uploader takes at most ${MAX_MODELS_PER_UPLOAD}`,
    });
  }
  for (const o of model.objects) out.push(...checkObject(o));
  return out;
}
