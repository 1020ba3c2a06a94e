/**
 * Sampled two-sided Hausdorff distance between two triangle meshes: how far the surface of one
 * strays from the other, in both directions. This is what slmesh calls the geometric error of a
 * LOD, measured against the high LOD (not the simplifier's own estimate).
 *
 *     h(A, B) = max( max_{a in S(A)} d(a, B), max_{b in S(B)} d(b, A) )
 *
 * where S(X) are points on X's surface and d(p, Y) is the exact distance from p to the nearest
 * point of Y's triangles. S(X) = every vertex used by a triangle (strided down to `maxVertexSamples`
 * when there are more) plus `samples` points spread over the surface in proportion to area
 * (systematic sampling of the cumulative area, barycentric coordinates from the R2 low-discrepancy
 * sequence). Deterministic: the same meshes always give the same number.
 *
 * Guarantees: the result is a lower bound of the true Hausdorff distance that converges to it as
 * the samples grow (the maxima are taken over exact point-to-surface distances); it is 0 for
 * identical meshes, symmetric, and Infinity when exactly one mesh has no triangles.
 *
 * Nearest-triangle queries use a bounding-volume hierarchy (midpoint split on the longest axis of
 * the centroid box, leaves of up to 4 triangles) and the closest-point-on-triangle method of
 * Ericson, Real-Time Collision Detection (2005), 5.1.5. The maximum is found with the early-exit
 * refinement of Hausdorff computation (a query stops as soon as it finds a triangle closer than the
 * running maximum, since that sample cannot raise it): Taha and Hanbury, "An Efficient Algorithm for
 * Calculating the Exact Hausdorff Distance", IEEE TPAMI 37(11), 2015.
 */

import { lodTriangles } from '../geometry/object-geometry.js';
import type { MeshLod } from '../types.js';
import { type IndexedMesh, triangleArea } from '../geometry/indexed-mesh.js';
import { assignDefaults } from '../options.js';

const LEAF_SIZE = 4;

/** A bounding-volume hierarchy over a mesh's triangles, for nearest-point queries. */
export class TriangleBvh {
  /** Triangle corners, 9 floats per triangle, in leaf order. */
  private readonly tri: Float32Array;
  /** Node boxes: minx, miny, minz, maxx, maxy, maxz. */
  private readonly box: Float32Array;
  /** Per node: first child index (inner) or first triangle (leaf). */
  private readonly first: Int32Array;
  /** Per node: triangle count for a leaf, 0 for an inner node (children are first, first + 1). */
  private readonly count: Int32Array;
  readonly triangleCount: number;

  private constructor(
    tri: Float32Array,
    box: Float32Array,
    first: Int32Array,
    count: Int32Array,
    triangleCount: number,
  ) {
    this.tri = tri;
    this.box = box;
    this.first = first;
    this.count = count;
    this.triangleCount = triangleCount;
  }

  static build(mesh: IndexedMesh<Float32Array>): TriangleBvh {
    const { positions: p, indices } = mesh;
    const n = Math.floor(indices.length / 3);
    // 1. Per triangle: its box and centroid, once.
    // (Each loop of the build is its own function: V8 optimises each once, with its own type
    // feedback, instead of recompiling the whole build as each later loop gets hot.)
    const order = new Int32Array(n);
    const centroid = new Float32Array(n * 3);
    const tb = new Float32Array(n * 6);
    triangleBoxes(p, indices, order, tb, centroid);
    let box = new Float32Array(6 * Math.min(2 * n + 1, 1024));
    let first = new Int32Array(box.length / 6);
    let count = new Int32Array(box.length / 6);
    let nodes = 0;
    const newNode = () => {
      if (nodes >= first.length) {
        const cap = first.length * 2;
        const b2 = new Float32Array(cap * 6);
        b2.set(box);
        box = b2;
        const f2 = new Int32Array(cap);
        f2.set(first);
        first = f2;
        const c2 = new Int32Array(cap);
        c2.set(count);
        count = c2;
      }
      return nodes++;
    };
    // 2. Build iteratively: each stack entry is (node, start, end) over `order`.
    const stack: number[] = [newNode(), 0, n];
    while (stack.length) {
      const end = stack.pop()!,
        start = stack.pop()!,
        node = stack.pop()!;
      const nb = NODE_BOUNDS;
      nodeBounds(order, tb, centroid, start, end, nb);
      const o6 = node * 6;
      if (n === 0) box.fill(0, o6, o6 + 6);
      else for (let k = 0; k < 6; k++) box[o6 + k] = nb[k];
      if (end - start <= LEAF_SIZE) {
        first[node] = start;
        count[node] = end - start;
        continue;
      }
      // 3. Split at the midpoint of the centroids' longest axis; fall back to halves by count.
      const ex = nb[9] - nb[6],
        ey = nb[10] - nb[7],
        ez = nb[11] - nb[8];
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      const mid = (nb[6 + axis] + nb[9 + axis]) / 2;
      let split = partitionBelow(order, centroid, start, end, axis, mid);
      if (split === start || split === end) {
        const sub = Array.from(order.subarray(start, end)).sort(
          (a, b) => centroid[a * 3 + axis] - centroid[b * 3 + axis],
        );
        order.set(sub, start);
        split = (start + end) >> 1;
      }
      const left = newNode();
      const right = newNode();
      first[node] = left;
      count[node] = 0;
      stack.push(left, start, split, right, split, end);
    }
    // 4. Triangle corners in leaf order.
    const tri = cornersInOrder(p, indices, order);
    return new TriangleBvh(tri, box.slice(0, nodes * 6), first.slice(0, nodes), count.slice(0, nodes), n);
  }

  /** Squared distance from a point to a node's box (0 inside). */
  private boxDistanceSquared(node: number, x: number, y: number, z: number): number {
    const b = this.box,
      o = node * 6;
    const dx = x < b[o] ? b[o] - x : x > b[o + 3] ? x - b[o + 3] : 0;
    const dy = y < b[o + 1] ? b[o + 1] - y : y > b[o + 4] ? y - b[o + 4] : 0;
    const dz = z < b[o + 2] ? b[o + 2] - z : z > b[o + 5] ? z - b[o + 5] : 0;
    return dx * dx + dy * dy + dz * dz;
  }

  /**
   * The triangle (in leaf order) nearest to the last point `closestDistanceSquared` measured to
   * the end, or the one that stopped it early: the next query tries it first. Samples come in
   * surface order, so a point's nearest triangle is usually its predecessor's, and a query that
   * starts from it either stops at once (early exit) or prunes with a tight bound from the start.
   */
  private lastTriangle = 0;

  /**
   * Squared distance from (x, y, z) to the nearest point of the mesh; Infinity for an empty mesh.
   * With `stopBelowSquared`, returns as soon as some triangle is at most that close (the value
   * returned is then only known to be <= stopBelowSquared).
   */
  closestDistanceSquared(x: number, y: number, z: number, stopBelowSquared = -1): number {
    if (this.triangleCount === 0) return Infinity;
    // The last query's triangle first: its distance bounds the answer from above.
    let best = pointTriangleDistanceSquared(this.tri, this.lastTriangle * 9, x, y, z);
    if (best <= stopBelowSquared) return best;
    const stack = STACK;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp];
      if (this.boxDistanceSquared(node, x, y, z) >= best) continue;
      const c = this.count[node];
      if (c > 0) {
        const f = this.first[node];
        for (let i = f; i < f + c; i++) {
          const d = pointTriangleDistanceSquared(this.tri, i * 9, x, y, z);
          if (d < best) {
            best = d;
            this.lastTriangle = i;
            if (best <= stopBelowSquared) return best;
          }
        }
      } else {
        const l = this.first[node],
          r = l + 1;
        const dl = this.boxDistanceSquared(l, x, y, z),
          dr = this.boxDistanceSquared(r, x, y, z);
        // Push the farther child first so the nearer one is visited next.
        if (dl <= dr) {
          if (dr < best) stack[sp++] = r;
          if (dl < best) stack[sp++] = l;
        } else {
          if (dl < best) stack[sp++] = l;
          if (dr < best) stack[sp++] = r;
        }
      }
    }
    return best;
  }
}

/** Scratch of TriangleBvh.build: a node's box (min xyz, max xyz) and its centroids' box. */
const NODE_BOUNDS = new Float64Array(12);

/** Per triangle: `order` = identity, its box (6 floats) and its centroid. */
function triangleBoxes(
  p: ArrayLike<number>,
  indices: ArrayLike<number>,
  order: Int32Array,
  tb: Float32Array,
  centroid: Float32Array,
): void {
  for (let t = 0; t < order.length; t++) {
    order[t] = t;
    const a = indices[3 * t] * 3,
      b = indices[3 * t + 1] * 3,
      c = indices[3 * t + 2] * 3;
    for (let d = 0; d < 3; d++) {
      const x = p[a + d],
        y = p[b + d],
        z = p[c + d];
      tb[6 * t + d] = x < y ? (x < z ? x : z) : y < z ? y : z;
      tb[6 * t + 3 + d] = x > y ? (x > z ? x : z) : y > z ? y : z;
      centroid[3 * t + d] = (x + y + z) / 3;
    }
  }
}

/** Into out[0..5] the box of triangles order[start..end), into out[6..11] that of their centroids. */
function nodeBounds(
  order: Int32Array,
  tb: Float32Array,
  centroid: Float32Array,
  start: number,
  end: number,
  out: Float64Array,
): void {
  let b0 = Infinity,
    b1 = Infinity,
    b2 = Infinity,
    b3 = -Infinity,
    b4 = -Infinity,
    b5 = -Infinity;
  let cmin0 = Infinity,
    cmin1 = Infinity,
    cmin2 = Infinity,
    cmax0 = -Infinity,
    cmax1 = -Infinity,
    cmax2 = -Infinity;
  for (let i = start; i < end; i++) {
    const t = order[i],
      o = t * 6,
      q = t * 3;
    if (tb[o] < b0) b0 = tb[o];
    if (tb[o + 1] < b1) b1 = tb[o + 1];
    if (tb[o + 2] < b2) b2 = tb[o + 2];
    if (tb[o + 3] > b3) b3 = tb[o + 3];
    if (tb[o + 4] > b4) b4 = tb[o + 4];
    if (tb[o + 5] > b5) b5 = tb[o + 5];
    const x = centroid[q],
      y = centroid[q + 1],
      z = centroid[q + 2];
    if (x < cmin0) cmin0 = x;
    if (x > cmax0) cmax0 = x;
    if (y < cmin1) cmin1 = y;
    if (y > cmax1) cmax1 = y;
    if (z < cmin2) cmin2 = z;
    if (z > cmax2) cmax2 = z;
  }
  out[0] = b0;
  out[1] = b1;
  out[2] = b2;
  out[3] = b3;
  out[4] = b4;
  out[5] = b5;
  out[6] = cmin0;
  out[7] = cmin1;
  out[8] = cmin2;
  out[9] = cmax0;
  out[10] = cmax1;
  out[11] = cmax2;
}

/** Reorders order[start..end) so triangles whose centroid is below `mid` on `axis` come first; returns where the rest start. */
function partitionBelow(
  order: Int32Array,
  centroid: Float32Array,
  start: number,
  end: number,
  axis: number,
  mid: number,
): number {
  let i = start,
    j = end - 1;
  while (i <= j) {
    if (centroid[order[i] * 3 + axis] < mid) i++;
    else {
      const tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
      j--;
    }
  }
  return i;
}

/** Triangle corners (9 floats each) in `order`. */
function cornersInOrder(p: ArrayLike<number>, indices: ArrayLike<number>, order: Int32Array): Float32Array {
  const n = order.length;
  const tri = new Float32Array(n * 9);
  for (let i = 0; i < n; i++) {
    const t = order[i];
    for (let k = 0; k < 3; k++) {
      const v = indices[3 * t + k] * 3;
      tri[9 * i + 3 * k] = p[v];
      tri[9 * i + 3 * k + 1] = p[v + 1];
      tri[9 * i + 3 * k + 2] = p[v + 2];
    }
  }
  return tri;
}

/** Traversal stack shared by queries (queries never nest). Depth is bounded by the tree height, at most ~64 for float input. */
const STACK = new Int32Array(4096);

/** Squared distance from p to the segment ab. */
function segmentDistanceSquared(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  px: number,
  py: number,
  pz: number,
): number {
  const ux = bx - ax,
    uy = by - ay,
    uz = bz - az;
  const l = ux * ux + uy * uy + uz * uz;
  let t = l > 0 ? ((px - ax) * ux + (py - ay) * uy + (pz - az) * uz) / l : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = px - (ax + t * ux),
    dy = py - (ay + t * uy),
    dz = pz - (az + t * uz);
  return dx * dx + dy * dy + dz * dz;
}

/** Squared distance from p to the triangle whose corners are t[o..o+8] (Ericson 5.1.5, closest point by Voronoi regions). */
export function pointTriangleDistanceSquared(
  t: ArrayLike<number>,
  o: number,
  px: number,
  py: number,
  pz: number,
): number {
  const ax = t[o],
    ay = t[o + 1],
    az = t[o + 2];
  const bx = t[o + 3],
    by = t[o + 4],
    bz = t[o + 5];
  const cx = t[o + 6],
    cy = t[o + 7],
    cz = t[o + 8];
  const abx = bx - ax,
    aby = by - ay,
    abz = bz - az;
  const acx = cx - ax,
    acy = cy - ay,
    acz = cz - az;
  const apx = px - ax,
    apy = py - ay,
    apz = pz - az;
  // A triangle with (almost) no area: the nearest of its three edges.
  const nx = aby * acz - abz * acy,
    ny = abz * acx - abx * acz,
    nz = abx * acy - aby * acx;
  const ab2 = abx * abx + aby * aby + abz * abz,
    ac2 = acx * acx + acy * acy + acz * acz;
  if (nx * nx + ny * ny + nz * nz <= 1e-12 * ab2 * ac2) {
    return Math.min(
      segmentDistanceSquared(ax, ay, az, bx, by, bz, px, py, pz),
      segmentDistanceSquared(bx, by, bz, cx, cy, cz, px, py, pz),
      segmentDistanceSquared(ax, ay, az, cx, cy, cz, px, py, pz),
    );
  }
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  let qx: number, qy: number, qz: number;
  if (d1 <= 0 && d2 <= 0) {
    qx = ax;
    qy = ay;
    qz = az;
  } else {
    const bpx = px - bx,
      bpy = py - by,
      bpz = pz - bz;
    const d3 = abx * bpx + aby * bpy + abz * bpz;
    const d4 = acx * bpx + acy * bpy + acz * bpz;
    if (d3 >= 0 && d4 <= d3) {
      qx = bx;
      qy = by;
      qz = bz;
    } else {
      const vc = d1 * d4 - d3 * d2;
      if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const v = d1 - d3 !== 0 ? d1 / (d1 - d3) : 0;
        qx = ax + v * abx;
        qy = ay + v * aby;
        qz = az + v * abz;
      } else {
        const cpx = px - cx,
          cpy = py - cy,
          cpz = pz - cz;
        const d5 = abx * cpx + aby * cpy + abz * cpz;
        const d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0 && d5 <= d6) {
          qx = cx;
          qy = cy;
          qz = cz;
        } else {
          const vb = d5 * d2 - d1 * d6;
          if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            const w = d2 - d6 !== 0 ? d2 / (d2 - d6) : 0;
            qx = ax + w * acx;
            qy = ay + w * acy;
            qz = az + w * acz;
          } else {
            const va = d3 * d6 - d5 * d4;
            if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
              const den = d4 - d3 + (d5 - d6);
              const w = den !== 0 ? (d4 - d3) / den : 0;
              qx = bx + w * (cx - bx);
              qy = by + w * (cy - by);
              qz = bz + w * (cz - bz);
            } else {
              const denom = va + vb + vc;
              if (denom === 0) {
                // Degenerate (zero-area) triangle whose regions did not resolve: nearest corner.
                const da = apx * apx + apy * apy + apz * apz;
                const db = bpx * bpx + bpy * bpy + bpz * bpz;
                const dc = cpx * cpx + cpy * cpy + cpz * cpz;
                return Math.min(da, db, dc);
              }
              const v = vb / denom,
                w = vc / denom;
              qx = ax + abx * v + acx * w;
              qy = ay + aby * v + acy * w;
              qz = az + abz * v + acz * w;
            }
          }
        }
      }
    }
  }
  const dx = px - qx,
    dy = py - qy,
    dz = pz - qz;
  const d = dx * dx + dy * dy + dz * dz;
  // A sliver (thin but not degenerate): the region test loses precision, so also take its edges
  // (each a part of the triangle, so the minimum never undershoots the true distance).
  if (nx * nx + ny * ny + nz * nz <= 1e-6 * ab2 * ac2) {
    return Math.min(
      d,
      segmentDistanceSquared(ax, ay, az, bx, by, bz, px, py, pz),
      segmentDistanceSquared(bx, by, bz, cx, cy, cz, px, py, pz),
      segmentDistanceSquared(ax, ay, az, cx, cy, cz, px, py, pz),
    );
  }
  return d;
}

export interface SurfaceSampleOptions {
  /** Points spread over the surface in proportion to area. Default 4096. */
  samples?: number;
  /** Most mesh vertices to include (every k-th when there are more). Default 16384. */
  maxVertexSamples?: number;
  /**
   * Also each triangle's centroid (every k-th beyond maxVertexSamples): where a flat triangle
   * strays furthest from a curved surface it replaces, sampled whatever the triangle order (the
   * area samples follow the order of the triangles). Default false.
   */
  centroids?: boolean;
  /**
   * Also the midpoints of each triangle's three edges (of every k-th triangle when three for
   * every triangle would pass maxVertexSamples): a long sliver strays furthest along its edges, where area
   * samples rarely land. On a CC-0 coffee brewer's planned high (8,093 triangles) 16,384 area
   * samples and every centroid found 0.99 px, a million area samples 1.34 px, and its 24,279 edge
   * midpoints 1.51 px. Default false.
   */
  edgeMidpoints?: boolean;
}

export const SURFACE_SAMPLE_DEFAULTS: Required<SurfaceSampleOptions> = {
  samples: 4096,
  maxVertexSamples: 16384,
  centroids: false,
  edgeMidpoints: false,
};

/** R2 sequence constants (1/g, 1/g^2 with g the plastic number). */
const R2_A = 0.7548776662466927;
const R2_B = 0.5698402909980532;

/** Points on a mesh's surface: its used vertices (strided) and area-proportional samples. Flat xyz. */
export function sampleSurface(mesh: IndexedMesh<Float32Array>, options: SurfaceSampleOptions = {}): Float32Array {
  const { samples, maxVertexSamples, centroids, edgeMidpoints } = assignDefaults(SURFACE_SAMPLE_DEFAULTS, options);
  const { positions: p, indices } = mesh;
  const n = Math.floor(indices.length / 3);
  if (n === 0) return new Float32Array(0);
  // (Each step is its own function, one loop each: V8 optimises each once with its own type
  // feedback instead of recompiling one big function as each later loop gets hot.)
  // 1. Used vertices, strided when too many.
  const used = new Uint8Array(p.length / 3);
  const usedCount = markUsed(indices, n, used);
  const stride = Math.max(1, Math.ceil(usedCount / Math.max(1, maxVertexSamples)));
  const vertexOut = Math.ceil(usedCount / stride);
  // 2. Cumulative triangle areas.
  const cum = new Float64Array(n);
  const total = cumulativeAreas(p, indices, cum);
  const areaOut = total > 0 ? samples : 0;
  const centroidStride = Math.max(1, Math.ceil(n / Math.max(1, maxVertexSamples)));
  const centroidOut = centroids ? Math.ceil(n / centroidStride) : 0;
  const edgeStride = Math.max(1, Math.ceil((3 * n) / Math.max(3, maxVertexSamples)));
  const edgeOut = edgeMidpoints ? 3 * Math.ceil(n / edgeStride) : 0;
  const out = new Float32Array((vertexOut + areaOut + centroidOut + edgeOut) * 3);
  let o = copyUsedVertices(p, used, stride, out);
  // 3. Systematic area sampling: the s-th point falls at cumulative area (s + 0.5) / samples * total.
  o = areaSamples(p, indices, cum, total, areaOut, out, o);
  // 4. Centroids, when asked.
  o = triangleCentroids(p, indices, n, centroidOut * centroidStride, centroidStride, out, o);
  // 5. Edge midpoints, when asked.
  if (edgeOut) o = edgeMidpointSamples(p, indices, n, edgeStride, out, o);
  return o === out.length ? out : out.subarray(0, o);
}

/** Marks the vertices the first n triangles use; returns how many. */
function markUsed(indices: ArrayLike<number>, n: number, used: Uint8Array): number {
  let usedCount = 0;
  for (let i = 0; i < n * 3; i++) {
    if (!used[indices[i]]) {
      used[indices[i]] = 1;
      usedCount++;
    }
  }
  return usedCount;
}

/** cum[t] = the area of triangles 0..t; returns the total. */
function cumulativeAreas(p: Float32Array, indices: ArrayLike<number>, cum: Float64Array): number {
  let total = 0;
  for (let t = 0; t < cum.length; t++) {
    total += triangleArea(p, indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]);
    cum[t] = total;
  }
  return total;
}

/** Every stride-th used vertex into out from 0; returns the end. */
function copyUsedVertices(p: Float32Array, used: Uint8Array, stride: number, out: Float32Array): number {
  let o = 0,
    k = 0;
  for (let v = 0; v < used.length; v++) {
    if (!used[v]) continue;
    if (k++ % stride === 0) {
      out[o++] = p[3 * v];
      out[o++] = p[3 * v + 1];
      out[o++] = p[3 * v + 2];
    }
  }
  return o;
}

/** `count` area samples into out from o (sampleSurface step 3); returns the end. */
function areaSamples(
  p: Float32Array,
  indices: ArrayLike<number>,
  cum: Float64Array,
  total: number,
  count: number,
  out: Float32Array,
  o: number,
): number {
  const n = cum.length;
  let t = 0;
  for (let s = 0; s < count; s++) {
    const target = ((s + 0.5) / count) * total;
    while (t < n - 1 && cum[t] < target) t++;
    let r1 = (0.5 + R2_A * (s + 1)) % 1,
      r2 = (0.5 + R2_B * (s + 1)) % 1;
    if (r1 + r2 > 1) {
      r1 = 1 - r1;
      r2 = 1 - r2;
    }
    const a = indices[3 * t] * 3,
      b = indices[3 * t + 1] * 3,
      c = indices[3 * t + 2] * 3;
    for (let d = 0; d < 3; d++) out[o++] = p[a + d] + r1 * (p[b + d] - p[a + d]) + r2 * (p[c + d] - p[a + d]);
  }
  return o;
}

/** Centroids of triangles 0, stride, 2 stride, ... below min(end, n) into out from o; returns the end. */
function triangleCentroids(
  p: Float32Array,
  indices: ArrayLike<number>,
  n: number,
  end: number,
  stride: number,
  out: Float32Array,
  o: number,
): number {
  for (let t = 0; t < end && t < n; t += stride) {
    const a = indices[3 * t] * 3,
      b = indices[3 * t + 1] * 3,
      c = indices[3 * t + 2] * 3;
    for (let d = 0; d < 3; d++) out[o++] = (p[a + d] + p[b + d] + p[c + d]) / 3;
  }
  return o;
}

/** The midpoints of the three edges of triangles 0, stride, 2 stride, ... below n into out from o; returns the end. */
function edgeMidpointSamples(
  p: Float32Array,
  indices: ArrayLike<number>,
  n: number,
  stride: number,
  out: Float32Array,
  o: number,
): number {
  for (let t = 0; t < n; t += stride) {
    const a = indices[3 * t] * 3,
      b = indices[3 * t + 1] * 3,
      c = indices[3 * t + 2] * 3;
    for (let d = 0; d < 3; d++) out[o++] = (p[a + d] + p[b + d]) / 2;
    for (let d = 0; d < 3; d++) out[o++] = (p[b + d] + p[c + d]) / 2;
    for (let d = 0; d < 3; d++) out[o++] = (p[c + d] + p[a + d]) / 2;
  }
  return o;
}

/**
 * max over the sample points of the distance to the mesh in `bvh` (0 without samples, Infinity
 * when the mesh is empty). With `limit`, returns as soon as one sample is farther than it: the
 * value returned is then that sample's distance, only known to be over `limit` (a candidate that
 * fails a bound needs no more measuring). With `floor`, samples no farther than it are not
 * measured exactly: the value returned is the larger of `floor` and the true maximum (a second
 * direction needs nothing below the first's distance).
 */
export function maxDistanceToMesh(samples: Float32Array, bvh: TriangleBvh, limit = Infinity, floor = 0): number {
  if (samples.length === 0) return floor;
  if (bvh.triangleCount === 0) return Infinity;
  const limitSq = limit < 0 ? -1 : limit * limit;
  const floorSq = floor > 0 ? floor * floor : 0;
  const maxSq = farthestSquared(samples, bvh, limitSq, floorSq);
  // Nothing above the floor: the floor itself (its square root could differ in the last bit).
  return maxSq > floorSq ? Math.sqrt(maxSq) : Math.max(floor, 0);
}

/**
 * maxDistanceToMesh's loop, squared. Its own function: V8 optimises the loop while it runs (OSR),
 * before the lines after it ever ran, and such code left the loop into lines it had no type
 * feedback for, deoptimising at every call (37 times in one plan).
 */
function farthestSquared(samples: Float32Array, bvh: TriangleBvh, limitSq: number, floorSq: number): number {
  let maxSq = floorSq;
  for (let i = 0; i + 2 < samples.length; i += 3) {
    const d = bvh.closestDistanceSquared(samples[i], samples[i + 1], samples[i + 2], maxSq);
    if (d > maxSq) {
      maxSq = d;
      if (d > limitSq) break;
    }
  }
  return maxSq;
}

/**
 * Every point of `points` (flat xyz) measured to the mesh in `bvh`: the largest distance (exact),
 * and the indices of the points farther than `threshold`. A point no farther than both the
 * running maximum and `threshold` is not measured to the end. 0 without points; Infinity when
 * the mesh is empty.
 */
export function strayVertices(
  points: Float32Array,
  bvh: TriangleBvh,
  threshold: number,
): { max: number; far: number[] } {
  if (points.length < 3) return { max: 0, far: [] };
  if (bvh.triangleCount === 0) return { max: Infinity, far: [] };
  const thresholdSq = threshold * threshold;
  const far: number[] = [];
  let maxSq = 0;
  for (let i = 0; i + 2 < points.length; i += 3) {
    const d = bvh.closestDistanceSquared(points[i], points[i + 1], points[i + 2], Math.min(maxSq, thresholdSq));
    if (d > maxSq) maxSq = d;
    if (d > thresholdSq) far.push(i / 3);
  }
  return { max: Math.sqrt(maxSq), far };
}

export interface HausdorffResult {
  /** The two-sided distance: max(aToB, bToA), metres (the meshes' units). */
  distance: number;
  /** Farthest sample of A from B's surface. */
  aToB: number;
  /** Farthest sample of B from A's surface. */
  bToA: number;
}

/** One side of a comparison, prepared once and reused: its samples and its BVH. */
export interface HausdorffSide {
  samples: Float32Array;
  bvh: TriangleBvh;
  triangles: number;
}

export function prepareHausdorffSide(
  mesh: IndexedMesh<Float32Array>,
  options: SurfaceSampleOptions = {},
): HausdorffSide {
  return {
    samples: sampleSurface(mesh, options),
    bvh: TriangleBvh.build(mesh),
    triangles: Math.floor(mesh.indices.length / 3),
  };
}

/**
 * Two-sided distance between prepared sides. With `limit` (see maxDistanceToMesh), a distance over
 * it is only known to be over it, and when A's side already is, B's is not measured (NaN).
 */
export function hausdorffBetween(a: HausdorffSide, b: HausdorffSide, limit = Infinity): HausdorffResult {
  if (a.triangles === 0 && b.triangles === 0) return { distance: 0, aToB: 0, bToA: 0 };
  if (a.triangles === 0 || b.triangles === 0) return { distance: Infinity, aToB: Infinity, bToA: Infinity };
  const aToB = maxDistanceToMesh(a.samples, b.bvh, limit);
  if (aToB > limit) return { distance: aToB, aToB, bToA: Number.NaN };
  const bToA = maxDistanceToMesh(b.samples, a.bvh, limit);
  return { distance: Math.max(aToB, bToA), aToB, bToA };
}

/**
 * hausdorffBetween's `distance` alone, cheaper: the second direction only measures samples
 * farther than the first direction's distance (the ones that can change the maximum).
 */
export function twoSidedDistance(a: HausdorffSide, b: HausdorffSide, limit = Infinity): number {
  if (a.triangles === 0 && b.triangles === 0) return 0;
  if (a.triangles === 0 || b.triangles === 0) return Infinity;
  const aToB = maxDistanceToMesh(a.samples, b.bvh, limit);
  if (aToB > limit) return aToB;
  return maxDistanceToMesh(b.samples, a.bvh, limit, aToB);
}

/** Sampled two-sided Hausdorff distance between two triangle meshes. */
export function hausdorffDistance(
  a: IndexedMesh<Float32Array>,
  b: IndexedMesh<Float32Array>,
  options: SurfaceSampleOptions = {},
): HausdorffResult {
  return hausdorffBetween(prepareHausdorffSide(a, options), prepareHausdorffSide(b, options));
}

/** Sampled two-sided Hausdorff distance between two LODs (all faces together). */
export function lodHausdorffDistance(a: MeshLod, b: MeshLod, options: SurfaceSampleOptions = {}): HausdorffResult {
  return hausdorffDistance(lodTriangles(a), lodTriangles(b), options);
}
