/**
 * LOD and physics conformance: every lower LOD and every physics model gets exactly the high
 * LOD's bounding box and every LOD keeps every material of high, in high's order (spec 4b).
 *
 * Why: the uploader normalises each model (each LOD, the physics model) by its own bounding box
 * and places it with the high LOD's transform (`LLModel::normalizeVolumeFaces`), so a LOD whose
 * box is smaller or larger than high's is stretched to high's box in-world. The official viewer's
 * `LLModel::matchMaterialOrder` only checks that a LOD's materials are a subset of high's and
 * reorders them only when the sets are equal, so a LOD missing a material shows later faces with
 * the wrong textures (Firestorm inserts placeholders; SL does not).
 *
 * A post-pass over whatever LODs exist (generated or authored), in the prim frame:
 *
 * 1. Faces are put in high's material order (a material high lacks is dropped).
 * 2. Every vertex is clamped into high's box (simplifiers move kept vertices, which can grow it).
 * 3. Each of the six box sides the LOD does not reach (within 1e-6 of the object's size): the
 *    LOD's vertex nearest that side (every vertex at that position, in every face, so seams stay
 *    closed) moves onto it along that axis. No triangle is added, so triangle budgets hold. (A
 *    LOD without vertices takes a triangle of high touching the side instead.) Steps 2 and 3 can
 *    add to the LOD's error (that vertex can be farther from the side than the LOD's error): the
 *    planner measures every candidate as conformed (lod-planner.ts asWritten). An axis the LOD
 *    is flat on (extent under the uploader's F_APPROXIMATELY_ZERO) is not stretched by the
 *    uploader, which shows the LOD at the centre of high's box there: the LOD is moved to that
 *    centre on it instead.
 * 4. A face without a non-degenerate triangle gets high's largest triangle of that material (the
 *    one case that adds triangles).
 *
 * Physics: a triangle mesh is clamped and its vertices nearest the sides it misses are moved
 * onto them (triangles that become degenerate are dropped, they would block the upload). Without a
 * decomposition the single hull becomes the hull of the conformed model the uploader takes it from
 * (physics mesh, else low, medium, high); hulls (the single hull with a decomposition, every hull
 * of a decomposition) are clamped and the hull nearest a missed side
 * takes high's extreme vertex. Guarantee: afterwards a lower LOD shows as written (boxStretch
 * finds no mismatch): lodBox(lod) equals high's box exactly on every side that high's triangles
 * touch, except on an axis the LOD is flat on, where it sits at the centre of high's box.
 */

import type { Box3, Face, Hull, LodName, MeshLod, SlObject } from '../types.js';
import {
  boxSize,
  emptyBox,
  growBox,
  isEmptyBox,
  lodBox,
  sameLod,
  singleHullSource,
} from '../geometry/object-geometry.js';
import { convexHull, convexHullMesh } from '../physics/convex-hull.js';
import { F_APPROXIMATELY_ZERO, MAX_HULL_VERTICES } from '../constants.js';

/** Relative tolerance (of the object's largest side) under which a box side counts as reached. */
export const LOD_BOX_TOLERANCE = 1e-6;

/**
 * Most triangles conformLod can add to a LOD of `high`: one per material (face) left without area,
 * and up to six (one per box side) for a LOD with no vertices at all. Triangle budgets keep this
 * much room, so a budget holds after the pass.
 */
export function conformMaxAddedTriangles(high: MeshLod): number {
  return 6 + high.faces.length;
}

/** A triangle of high: face index and the three vertex indices. */
interface SourceTriangle {
  face: number;
  a: number;
  b: number;
  c: number;
  area2: number;
}

function triangleArea2(p: Float32Array, a: number, b: number, c: number): number {
  const ux = p[b * 3] - p[a * 3],
    uy = p[b * 3 + 1] - p[a * 3 + 1],
    uz = p[b * 3 + 2] - p[a * 3 + 2];
  const vx = p[c * 3] - p[a * 3],
    vy = p[c * 3 + 1] - p[a * 3 + 1],
    vz = p[c * 3 + 2] - p[a * 3 + 2];
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}

/** Smallest doubled area a triangle must have to count as non-degenerate, for an object of this box. */
function minArea2(box: Box3): number {
  const s = Math.max(...boxSize(box));
  return Math.max(s * s * 1e-12, Number.MIN_VALUE);
}

/** True when the face has at least one triangle of non-zero area (relative to `box`). */
export function faceHasArea(face: Face, box: Box3): boolean {
  const min = minArea2(box);
  for (let t = 0; t + 2 < face.indices.length; t += 3) {
    if (triangleArea2(face.positions, face.indices[t], face.indices[t + 1], face.indices[t + 2]) > min) return true;
  }
  return false;
}

/** For each of the 6 box sides (axis*2 + (max ? 1 : 0)): high's largest triangle with a vertex on it. */
function sideTriangles(high: MeshLod, box: Box3): (SourceTriangle | undefined)[] {
  const out: (SourceTriangle | undefined)[] = new Array(6).fill(undefined);
  const min = minArea2(box);
  high.faces.forEach((face, fi) => {
    const p = face.positions,
      idx = face.indices;
    for (let t = 0; t + 2 < idx.length; t += 3) {
      const a = idx[t],
        b = idx[t + 1],
        c = idx[t + 2];
      let area2 = -1;
      for (const v of [a, b, c]) {
        for (let k = 0; k < 3; k++) {
          const x = p[v * 3 + k];
          const side = x === box.min[k] ? k * 2 : x === box.max[k] ? k * 2 + 1 : -1;
          if (side < 0) continue;
          if (area2 < 0) area2 = triangleArea2(p, a, b, c);
          const best = out[side];
          // A non-degenerate triangle beats any degenerate one, then the larger wins.
          const better =
            !best || (area2 > min && best.area2 <= min) || (area2 > min === best.area2 > min && area2 > best.area2);
          if (better) out[side] = { face: fi, a, b, c, area2 };
        }
      }
    }
  });
  return out;
}

/**
 * Axes on which `inner` (non-empty) has less extent than the uploader's F_APPROXIMATELY_ZERO
 * while `box` has more than `tol`: the uploader normalises such an axis by 1, not by its size, so
 * the model shows at the centre of high's box there (displayedLod).
 */
export function flatAxes(box: Box3, inner: Box3, tol: number): number[] {
  if (isEmptyBox(inner)) return [];
  return [0, 1, 2].filter((k) => inner.max[k] - inner.min[k] < F_APPROXIMATELY_ZERO && box.max[k] - box.min[k] > tol);
}

/** Every vertex's coordinate on axis k set to `centre`. In place. */
function centreAxis(faces: Face[], k: number, centre: number): void {
  for (const f of faces) for (let i = k; i < f.positions.length; i += 3) f.positions[i] = centre;
}

/** Sides of `box` (0..5) that `inner` does not reach within `tol`. */
function missedSides(box: Box3, inner: Box3, tol: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 3; k++) {
    if (isEmptyBox(inner) || inner.min[k] - box.min[k] > tol) out.push(k * 2);
    if (isEmptyBox(inner) || box.max[k] - inner.max[k] > tol) out.push(k * 2 + 1);
  }
  return out;
}

function clampPositions(positions: Float32Array, box: Box3): Float32Array {
  const out = positions.slice();
  for (let i = 0; i + 2 < out.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      if (out[i + k] < box.min[k]) out[i + k] = box.min[k];
      else if (out[i + k] > box.max[k]) out[i + k] = box.max[k];
    }
  }
  return out;
}

/** `face` plus copies of the given triangles of `src` (same attributes; missing ones are zero). */
function appendTriangles(face: Face, src: Face, tris: SourceTriangle[]): Face {
  if (tris.length === 0) return face;
  const nv = face.positions.length / 3,
    add = tris.length * 3;
  const positions = new Float32Array((nv + add) * 3);
  positions.set(face.positions);
  const hasNormals = !!face.normals || (nv === 0 && !!src.normals);
  const hasUvs = !!face.uvs || (nv === 0 && !!src.uvs);
  const normals = hasNormals ? new Float32Array((nv + add) * 3) : undefined;
  const uvs = hasUvs ? new Float32Array((nv + add) * 2) : undefined;
  if (normals && face.normals) normals.set(face.normals);
  if (uvs && face.uvs) uvs.set(face.uvs);
  const indices = new Uint32Array(face.indices.length + add);
  indices.set(face.indices);
  let v = nv,
    i = face.indices.length;
  for (const t of tris) {
    for (const s of [t.a, t.b, t.c]) {
      positions.set(src.positions.subarray(s * 3, s * 3 + 3), v * 3);
      if (normals && src.normals) normals.set(src.normals.subarray(s * 3, s * 3 + 3), v * 3);
      else if (normals) normals[v * 3 + 2] = 1;
      if (uvs && src.uvs) uvs.set(src.uvs.subarray(s * 2, s * 2 + 2), v * 2);
      indices[i++] = v++;
    }
  }
  return { material: face.material, positions, ...(normals ? { normals } : {}), ...(uvs ? { uvs } : {}), indices };
}

/**
 * Moves, for each missed side, the vertex nearest it (among vertices used by triangles, in any
 * face) onto it along that axis, together with every vertex at the same position. In place.
 */
function snapToSides(faces: Face[], box: Box3, sides: number[]): void {
  for (const side of sides) {
    const k = side >> 1,
      isMax = (side & 1) === 1,
      target = isMax ? box.max[k] : box.min[k];
    let best: [number, number, number] | undefined,
      bestValue = -Infinity;
    for (const f of faces) {
      for (let t = 0; t < f.indices.length; t++) {
        const v = f.indices[t] * 3;
        const value = isMax ? f.positions[v + k] : -f.positions[v + k];
        if (value > bestValue) {
          bestValue = value;
          best = [f.positions[v], f.positions[v + 1], f.positions[v + 2]];
        }
      }
    }
    if (!best) continue;
    for (const f of faces) {
      const p = f.positions;
      for (let i = 0; i + 2 < p.length; i += 3)
        if (p[i] === best[0] && p[i + 1] === best[1] && p[i + 2] === best[2]) p[i + k] = target;
    }
  }
}

/** High's largest triangle of face `fi`, or undefined when it has none. */
function largestTriangle(high: MeshLod, fi: number): SourceTriangle | undefined {
  const face = high.faces[fi];
  let best: SourceTriangle | undefined;
  for (let t = 0; t + 2 < face.indices.length; t += 3) {
    const a = face.indices[t],
      b = face.indices[t + 1],
      c = face.indices[t + 2];
    const area2 = triangleArea2(face.positions, a, b, c);
    if (!best || area2 > best.area2) best = { face: fi, a, b, c, area2 };
  }
  return best;
}

/**
 * A lower LOD with high's box, high's materials in high's order, each with a real triangle.
 * `box` is high's (lodBox), for a caller that conforms many LODs to one big high.
 *
 * Conforming a conformed LOD, or one that needs nothing, gives it back (the same object), and a
 * LOD conformed again to the same high gives the same object as before. Where triangles were
 * added, a second pass moves vertices onto the sides again, since a triangle of high added to a
 * material without one can leave the box (a LOD flat on an axis, centred there, gets its extent
 * back: an LOD of the bundled lower cabinet missed its depth's sides by 0.2 mm until the writer
 * conformed it a second time). So the LOD the planner measured is the one written, and priced
 * once (measureMeshAsset remembers by object).
 */
export function conformLod(high: MeshLod, lod: MeshLod, highBox?: Box3): MeshLod {
  const known = CONFORMED.get(lod);
  if (known?.high === high) return known.out;
  // (High's box only when the LOD is not known: a big high's is a pass over all its points.)
  const box = highBox ?? lodBox(high);
  if (isEmptyBox(box)) return lod;
  // A second pass only moves vertices (it adds no triangle: conformMaxAddedTriangles holds).
  const first = conformOnce(high, lod, box, true);
  let out = first.added ? conformOnce(high, first.lod, box, false).lod : first.lod;
  // A LOD that needed nothing is given back itself.
  if (sameLod(out, lod)) out = lod;
  CONFORMED.set(lod, { high, out });
  CONFORMED.set(out, { high, out });
  return out;
}

/** What conformLod returned for a LOD (and for what it returned: itself), and for which high. */
const CONFORMED = new WeakMap<MeshLod, { high: MeshLod; out: MeshLod }>();

/**
 * One pass of conformLod's steps; `added` when a triangle of high was added to a material. With
 * `adding` false, steps 1 to 3 without adding triangles.
 */
function conformOnce(high: MeshLod, lod: MeshLod, box: Box3, adding: boolean): { lod: MeshLod; added: boolean } {
  const tol = LOD_BOX_TOLERANCE * Math.max(...boxSize(box));
  // 1. High's material order; 2. clamped into high's box.
  const used = new Set<number>();
  const faces: Face[] = high.faces.map((h, fi) => {
    const j =
      lod.faces[fi]?.material === h.material && !used.has(fi)
        ? fi
        : lod.faces.findIndex((f, k) => f.material === h.material && !used.has(k));
    if (j < 0) return { material: h.material, positions: new Float32Array(0), indices: new Uint32Array(0) };
    used.add(j);
    const f = lod.faces[j];
    return { ...f, positions: clampPositions(f.positions, box) };
  });
  // 3. The sides the LOD misses: its nearest vertex moves onto them (a LOD without vertices
  //    takes a triangle of high touching the side). An axis the LOD has no extent on (under the
  //    uploader's F_APPROXIMATELY_ZERO: a flat LOD, as Generate makes of a mushroom) is not
  //    stretched by the uploader: the LOD shows at the centre of high's box on it. It is put
  //    there, as the uploader shows it, instead of being pulled out to both sides (which bent
  //    0 A.D.'s agaric's flat low LOD into a slope: 15.13 px where Generate's flat one is 10.65).
  const add: SourceTriangle[][] = high.faces.map(() => []);
  const flat = flatAxes(box, lodBox({ faces }), tol);
  for (const k of flat) centreAxis(faces, k, (box.min[k] + box.max[k]) / 2);
  const missed = missedSides(box, lodBox({ faces }), tol).filter((side) => !flat.includes(side >> 1));
  if (missed.length > 0 && faces.some((f) => f.indices.length >= 3)) {
    snapToSides(faces, box, missed);
  } else if (missed.length > 0 && adding) {
    const sides = sideTriangles(high, box);
    for (const side of missed) {
      const t = sides[side];
      if (t && !add[t.face].some((u) => u.a === t.a && u.b === t.b && u.c === t.c)) add[t.face].push(t);
    }
  }
  // 4. Every material keeps a triangle with area (a triangle, where high's has none with area).
  for (let fi = 0; fi < faces.length && adding; fi++) {
    if (add[fi].length > 0 || faceHasArea(faces[fi], box)) continue;
    const t = largestTriangle(high, fi);
    if (t && (t.area2 > minArea2(box) || faces[fi].indices.length < 3)) add[fi].push(t);
  }
  return {
    lod: { faces: faces.map((f, fi) => appendTriangles(f, high.faces[fi], add[fi])) },
    added: add.some((a) => a.length > 0),
  };
}

/** A triangle physics mesh with high's box (see the file comment). */
export function conformPhysicsMesh(high: MeshLod, mesh: MeshLod): MeshLod {
  const box = lodBox(high);
  if (isEmptyBox(box)) return mesh;
  const tol = LOD_BOX_TOLERANCE * Math.max(...boxSize(box));
  const min = minArea2(box);
  const faces: Face[] = mesh.faces.map((f) => {
    const positions = clampPositions(f.positions, box);
    const keep: number[] = [];
    for (let t = 0; t + 2 < f.indices.length; t += 3) {
      if (triangleArea2(positions, f.indices[t], f.indices[t + 1], f.indices[t + 2]) > min)
        keep.push(f.indices[t], f.indices[t + 1], f.indices[t + 2]);
    }
    return { ...f, positions, indices: keep.length === f.indices.length ? f.indices : Uint32Array.from(keep) };
  });
  // Snap the vertices nearest the missed sides onto them, then drop what became degenerate.
  const missed = missedSides(box, lodBox({ faces }), tol);
  if (missed.length > 0 && faces.some((f) => f.indices.length >= 3)) {
    snapToSides(faces, box, missed);
    for (let fi = 0; fi < faces.length; fi++) {
      const f = faces[fi];
      const keep: number[] = [];
      for (let t = 0; t + 2 < f.indices.length; t += 3) {
        if (triangleArea2(f.positions, f.indices[t], f.indices[t + 1], f.indices[t + 2]) > min)
          keep.push(f.indices[t], f.indices[t + 1], f.indices[t + 2]);
      }
      if (keep.length !== f.indices.length) faces[fi] = { ...f, indices: Uint32Array.from(keep) };
    }
  }
  const sides = sideTriangles(high, box);
  const tris = missedSides(box, lodBox({ faces }), tol)
    .map((s) => sides[s])
    .filter((t): t is SourceTriangle => !!t && t.area2 > min);
  if (tris.length === 0) return { faces };
  let extra: Face = {
    material: faces[0]?.material ?? high.faces[0].material,
    positions: new Float32Array(0),
    indices: new Uint32Array(0),
  };
  for (const t of tris) {
    const src = high.faces[t.face];
    extra = appendTriangles(extra, { material: extra.material, positions: src.positions, indices: src.indices }, [t]);
  }
  return { faces: [...faces, { material: extra.material, positions: extra.positions, indices: extra.indices }] };
}

/** Hulls (the single hull or a decomposition) whose union has high's box (see the file comment). */
export function conformHulls(high: MeshLod, hulls: Hull[]): Hull[] {
  const box = lodBox(high);
  if (isEmptyBox(box) || hulls.length === 0) return hulls;
  const tol = LOD_BOX_TOLERANCE * Math.max(...boxSize(box));
  const out = hulls.map((h) => clampPositions(h, box));
  const union = out.reduce((b, h) => growBox(b, h), emptyBox());
  for (const side of missedSides(box, union, tol)) {
    const k = side >> 1,
      isMax = (side & 1) === 1,
      target = isMax ? box.max[k] : box.min[k];
    // High's vertex on that side, and the hull that reaches furthest toward it.
    let point: number[] | undefined;
    for (const f of high.faces) {
      for (let i = 0; i + 2 < f.positions.length && !point; i += 3)
        if (f.positions[i + k] === target) point = [f.positions[i], f.positions[i + 1], f.positions[i + 2]];
      if (point) break;
    }
    if (!point) continue;
    let best = 0,
      bestValue = -Infinity;
    out.forEach((h, hi) => {
      for (let i = k; i < h.length; i += 3) {
        const v = isMax ? h[i] : -h[i];
        if (v > bestValue) {
          bestValue = v;
          best = hi;
        }
      }
    });
    const grown = new Float32Array(out[best].length + 3);
    grown.set(out[best]);
    grown.set(point, out[best].length);
    out[best] = grown;
  }
  return out;
}

/**
 * A hull as the writer puts it in the asset: only its points on the hull (clamping to high's box
 * or an added extreme point can leave some inside; a flat one keeps its points), at most 256
 * (MAX_HULL_VERTICES; a hull reduced again when a point took it past that). It is priced by its
 * vertex count.
 */
export function writtenHull(h: Hull): Hull {
  const onHull = convexHullMesh(h).positions;
  const points = onHull.length >= 12 ? onHull : h;
  return points.length / 3 > MAX_HULL_VERTICES ? convexHull(points).points : points;
}

/**
 * The object with every lower LOD and its physics conformed to high (box, materials, order).
 * `hullLimit` is passed to `limitHull` for hulls that grew past it (hull vertices are at most 256).
 */
export function conformObject(object: SlObject, limitHull: (h: Hull) => Hull = (h) => h): SlObject {
  const high = object.lods.high;
  const lods = { ...object.lods };
  for (const name of ['medium', 'low', 'lowest'] as Exclude<LodName, 'high'>[]) {
    const lod = object.lods[name];
    if (lod) lods[name] = conformLod(high, lod);
  }
  const out: SlObject = { ...object, lods };
  if (object.physicsMesh) out.physicsMesh = conformPhysicsMesh(high, object.physicsMesh);
  if (object.decomposition && object.decomposition.length > 0)
    out.decomposition = conformHulls(high, object.decomposition).map(limitHull);
  // The uploader takes the single hull from the physics mesh, else low, medium, high
  // (singleHullSource): without a decomposition, the hull is that conformed model's own, not the
  // old hull patched (a chair leg's hull from its low LOD: 11 vertices, not 15).
  if (object.hull && object.hull.length >= 3)
    out.hull =
      out.decomposition && out.decomposition.length > 0
        ? limitHull(conformHulls(high, [object.hull])[0])
        : convexHull(singleHullSource(out).positions).points;
  return out;
}

/** Per-axis factor by which the uploader stretches a model of box `box` to high's box `high` (1 = same). */
export function boxStretch(high: Box3, box: Box3): { factors: [number, number, number]; mismatch: boolean } {
  const hs = boxSize(high),
    s = boxSize(box);
  const tol = 1e-5 * Math.max(...hs);
  const factors = [0, 1, 2].map((k) => (s[k] > 0 ? hs[k] / s[k] : Infinity)) as [number, number, number];
  let mismatch = isEmptyBox(box);
  const flat = flatAxes(high, box, tol);
  for (let k = 0; k < 3 && !mismatch; k++)
    mismatch = flat.includes(k)
      ? // Flat on this axis: shown at the centre of high's box (displayedLod), stretched by nothing.
        Math.abs((box.min[k] + box.max[k]) / 2 - (high.min[k] + high.max[k]) / 2) > tol
      : Math.abs(box.min[k] - high.min[k]) > tol || Math.abs(box.max[k] - high.max[k]) > tol;
  return { factors, mismatch };
}

/**
 * `lod` as the viewer shows it under an object whose high LOD is `high` (spec 4b): the uploader
 * normalises every model by its own bounding box and places it with high's, so each axis of the
 * LOD's box is stretched onto high's (an axis the LOD has no extent on sits at the centre of
 * high's). The bytes uploaded are the same as `lod`'s (both normalise to the same unit box); only
 * where its surface shows differs. What slmesh writes is conformed instead (conformLod) and shows
 * as written.
 */
export function displayedLod(high: MeshLod, lod: MeshLod): MeshLod {
  const hb = lodBox(high),
    lb = lodBox(lod);
  if (isEmptyBox(hb) || isEmptyBox(lb) || !boxStretch(hb, lb).mismatch) return lod;
  const map = [0, 1, 2].map((k) => {
    const size = lb.max[k] - lb.min[k];
    const centre = (hb.min[k] + hb.max[k]) / 2;
    if (!(size >= F_APPROXIMATELY_ZERO)) return (_v: number) => centre; // normalised by 1: the centre
    const f = (hb.max[k] - hb.min[k]) / size;
    return (v: number) => hb.min[k] + (v - lb.min[k]) * f;
  });
  return {
    ...lod,
    faces: lod.faces.map((face) => {
      const p = new Float32Array(face.positions.length);
      for (let i = 0; i < p.length; i++) p[i] = map[i % 3](face.positions[i]);
      return { ...face, positions: p };
    }),
  };
}
