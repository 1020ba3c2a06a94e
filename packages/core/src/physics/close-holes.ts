/**
 * Closes the holes of an open mesh: each loop of boundary edges (edges one triangle uses) is
 * capped by a triangulation of the loop projected on its best-fit plane (principal axes), wound
 * against the triangles around it so the result is a closed, consistently oriented surface.
 *
 * For the decomposition: cut pieces of a closed mesh are closed too (mesh-clip.ts caps the cuts),
 * so every piece's hull covers its share of the solid and its volume is exact. The caps follow
 * what the six-ray inside test already calls solid: a small hole (the Stanford bunny's base, a
 * teapot's lid seam) is simply closed, an open cup or box becomes solid, a single sheet becomes a
 * two-sided sheet of no volume.
 *
 * Guarantees: no new vertices; loops that do not chain cleanly (boundary vertices used by more
 * than two boundary edges) are left open and counted in `openLoops`. A loop far from planar may
 * get a cap that folds over itself; it still closes the surface.
 */

import type { IndexedMesh } from '../geometry/indexed-mesh.js';
import { boundaryLoops } from '../geometry/boundary-loops.js';
import { ringArea, triangulatePolygon } from '../geometry/polygon-triangulate.js';
import { principalAxes } from '../geometry/principal-axes.js';
import { vertexComponents } from '../geometry/mesh-clip.js';
import { boxSize, emptyBox, growBox } from '../geometry/object-geometry.js';

export interface ClosedMesh extends IndexedMesh<Float64Array> {
  /** Loops capped. */
  capped: number;
  /** Boundary loops left open (tangled boundaries). */
  openLoops: number;
}

/** A cap of one loop: triangles (vertex indices) on the loop's best-fit plane, wound along the loop. */
export function loopCap(p: ArrayLike<number>, loop: readonly number[]): number[] {
  const xy = planeCoordinates(p, loop);
  const ring = loop.map((_, i) => i);
  // Triangles come out counter-clockwise; the cap must follow the loop's own direction.
  const flip = ringArea(xy, ring) < 0;
  const tris = triangulatePolygon(xy, ring);
  const cap: number[] = [];
  for (let t = 0; t < tris.length; t += 3) {
    const a = loop[tris[t]],
      b = loop[tris[t + 1]],
      c = loop[tris[t + 2]];
    if (flip) cap.push(a, c, b);
    else cap.push(a, b, c);
  }
  return cap;
}

export function closeHoles(mesh: IndexedMesh<Float64Array>): ClosedMesh {
  const ix = mesh.indices,
    p = mesh.positions;
  const { loops, openLoops } = boundaryLoops(ix, p.length / 3);
  if (loops.length === 0 && openLoops === 0)
    return { positions: mesh.positions, indices: mesh.indices, capped: 0, openLoops: 0 };
  // 3. A flat sheet with holes (a ring, a wall with windows) is capped as one polygon with holes,
  //    so it becomes a two-sided sheet that keeps them: capping its outer loop alone would cover them.
  const caps: number[] = [];
  const sheetLoops = new Set<number[]>();
  for (const group of flatSheets(mesh, loops)) {
    const cap = capWithHoles(p, group);
    if (!cap) continue;
    caps.push(...cap);
    for (const loop of group) sheetLoops.add(loop);
  }
  // 4. Triangulate each other loop on its best-fit plane.
  for (const loop of loops) if (!sheetLoops.has(loop)) caps.push(...loopCap(p, loop));
  const indices = new Uint32Array(ix.length + caps.length);
  indices.set(ix);
  indices.set(caps, ix.length);
  return { positions: mesh.positions, indices, capped: loops.length, openLoops };
}

/** The vertices `verts` in 2D on their best-fit plane (principal axes), xy pairs in their order. */
function planeCoordinates(p: ArrayLike<number>, verts: readonly number[]): Float64Array {
  const pts = new Float64Array(verts.length * 3);
  verts.forEach((v, i) => {
    for (let k = 0; k < 3; k++) pts[3 * i + k] = p[3 * v + k];
  });
  const pa = principalAxes(pts);
  const [u, w] = [pa.axes[0], pa.axes[1]];
  const xy = new Float64Array(verts.length * 2);
  verts.forEach((v, i) => {
    xy[2 * i] = u[0] * p[3 * v] + u[1] * p[3 * v + 1] + u[2] * p[3 * v + 2];
    xy[2 * i + 1] = w[0] * p[3 * v] + w[1] * p[3 * v + 1] + w[2] * p[3 * v + 2];
  });
  return xy;
}

/** A flat sheet is one whose vertices all lie within this share of its size from its plane. */
const FLAT_SHARE = 1e-5;

/**
 * The loops of each connected part of the mesh that has several loops and is flat (every vertex
 * of the part within FLAT_SHARE of its size from its best-fit plane).
 */
function flatSheets(mesh: IndexedMesh<Float64Array>, loops: number[][]): number[][][] {
  const p = mesh.positions;
  const component = vertexComponents(p.length / 3, mesh.indices);
  const byPart = new Map<number, number[][]>();
  for (const loop of loops) {
    const r = component[loop[0]];
    (byPart.get(r) ?? byPart.set(r, []).get(r)!).push(loop);
  }
  // The vertices of each part with several loops, in one pass.
  const partVerts = new Map<number, number[]>();
  for (const [r, group] of byPart) if (group.length >= 2) partVerts.set(r, []);
  for (let v = 0; v < component.length; v++) partVerts.get(component[v])?.push(v);
  const out: number[][][] = [];
  for (const [r, verts] of partVerts) {
    const group = byPart.get(r)!;
    const pts = new Float64Array(verts.length * 3);
    verts.forEach((v, i) => pts.set(p.subarray(3 * v, 3 * v + 3), 3 * i));
    const pa = principalAxes(pts);
    const n = pa.axes[2];
    let lo = Infinity,
      hi = -Infinity;
    for (let i = 0; i < pts.length; i += 3) {
      const d = n[0] * pts[i] + n[1] * pts[i + 1] + n[2] * pts[i + 2];
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    const size = Math.hypot(...boxSize(growBox(emptyBox(), pts)));
    if (size > 0 && hi - lo <= FLAT_SHARE * size) out.push(group);
  }
  return out;
}

/**
 * The cap of a flat sheet's loops as one polygon with holes, wound like each loop (undefined when
 * the loops are not one outer ring around holes of the opposite winding: capped one by one then).
 */
function capWithHoles(p: Float64Array, group: number[][]): number[] | undefined {
  const all = group.flat();
  // 2D coordinates by position in `all`; each loop a ring of those positions.
  const xy = planeCoordinates(p, all);
  const rings: number[][] = [];
  let at = 0;
  for (const loop of group) {
    rings.push(loop.map((_, i) => at + i));
    at += loop.length;
  }
  const areas = rings.map((ring) => ringArea(xy, ring));
  let outer = 0;
  for (let k = 1; k < rings.length; k++) if (Math.abs(areas[k]) > Math.abs(areas[outer])) outer = k;
  const inside = (x: number, y: number, ring: number[]) => {
    let c = false;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi, xj, yj] = [xy[2 * ring[i]], xy[2 * ring[i] + 1], xy[2 * ring[j]], xy[2 * ring[j] + 1]];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  const holes = rings.filter((_, k) => k !== outer);
  for (const h of holes) {
    const k = rings.indexOf(h);
    if (Math.sign(areas[k]) === Math.sign(areas[outer])) return undefined;
    if (!h.every((q) => inside(xy[2 * q], xy[2 * q + 1], rings[outer]))) return undefined;
  }
  const tris = triangulatePolygon(xy, rings[outer], holes);
  const flip = areas[outer] < 0;
  const cap: number[] = [];
  for (let t = 0; t < tris.length; t += 3) {
    const [a, b, c] = [all[tris[t]], all[tris[t + 1]], all[tris[t + 2]]];
    if (flip) cap.push(a, c, b);
    else cap.push(a, b, c);
  }
  return cap;
}
