/**
 * Inside tests for a triangle mesh that need not be watertight.
 *
 * `MeshInsideTest` casts the six axis half-rays from a point and, on each, adds up the crossings:
 * +1 where the ray leaves through a triangle (its normal points along the ray), -1 where it enters.
 * For a closed, outward-facing mesh every half-ray gives the winding number (1 inside, 0 outside,
 * 2 where two closed shells overlap). A half-ray that counts at least 1 votes "inside"; the point
 * is inside when at least 4 of the 6 vote so. This is a discrete generalized winding number
 * (Jacobson et al. 2013, "Robust inside-outside segmentation using generalized winding numbers")
 * sampled along six directions:
 * - overlapping and self-intersecting closed parts count as solid (non-zero rule);
 * - a hole in the surface only misleads the rays that pass through it, so it is outvoted;
 * - an open single surface (a plane) has at most one ray per point that sees it from inside,
 *   so it encloses nothing; a bowl is solid where most rays see its inner side;
 * - a mesh whose faces all point inward is turned around (by the sign of its volume).
 * Crossings exactly on an edge or vertex are counted once, by a top-left rule on edge functions
 * evaluated in a canonical vertex order (as rasterisers do), so shared edges never double count.
 *
 * `classifyGrid` answers the same question for every cell centre of a regular grid, one sorted
 * crossing list per grid line. `generalizedWindingNumber` is the exact solid-angle sum (O(n) per
 * query), for tests and small meshes.
 *
 * Triangles are binned per axis in a 2D grid over the other two coordinates.
 */

export const INSIDE_VOTES_REQUIRED = 4;

interface AxisBins {
  /** Bin grid over coordinates (b, c) = ((a+1)%3, (a+2)%3). */
  nb: number;
  nc: number;
  min: [number, number];
  inv: [number, number];
  start: Uint32Array;
  items: Uint32Array;
}

export class MeshInsideTest {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
  /** +1, or -1 when the mesh's faces point inward overall. */
  readonly orientation: number;
  private readonly bins: AxisBins[];
  private readonly lo: number[];
  private readonly hi: number[];

  constructor(positions: ArrayLike<number>, indices: ArrayLike<number>) {
    this.positions = Float64Array.from(positions);
    this.indices = Uint32Array.from(indices);
    const p = this.positions,
      ix = this.indices;
    this.lo = [Infinity, Infinity, Infinity];
    this.hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        if (p[i + k] < this.lo[k]) this.lo[k] = p[i + k];
        if (p[i + k] > this.hi[k]) this.hi[k] = p[i + k];
      }
    }
    // 1. Orientation from the signed volume.
    let v6 = 0;
    for (let t = 0; t < ix.length; t += 3) {
      const a = 3 * ix[t],
        b = 3 * ix[t + 1],
        c = 3 * ix[t + 2];
      v6 +=
        p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
        p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
        p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
    }
    this.orientation = v6 < 0 ? -1 : 1;
    // 2. Bins per axis.
    const tris = ix.length / 3;
    const g = Math.max(4, Math.min(256, Math.round(Math.sqrt(tris))));
    this.bins = [0, 1, 2].map((a) => this.buildBins(a, g));
  }

  private buildBins(a: number, g: number): AxisBins {
    const b = (a + 1) % 3,
      c = (a + 2) % 3;
    const p = this.positions,
      ix = this.indices;
    const min: [number, number] = [this.lo[b], this.lo[c]];
    const span = [Math.max(this.hi[b] - this.lo[b], 1e-30), Math.max(this.hi[c] - this.lo[c], 1e-30)];
    const inv: [number, number] = [g / span[0], g / span[1]];
    const range = (t: number) => {
      let b0 = Infinity,
        b1 = -Infinity,
        c0 = Infinity,
        c1 = -Infinity;
      for (let k = 0; k < 3; k++) {
        const v = 3 * ix[t + k];
        b0 = Math.min(b0, p[v + b]);
        b1 = Math.max(b1, p[v + b]);
        c0 = Math.min(c0, p[v + c]);
        c1 = Math.max(c1, p[v + c]);
      }
      const clampI = (x: number) => Math.max(0, Math.min(g - 1, Math.floor(x)));
      return [
        clampI((b0 - min[0]) * inv[0]),
        clampI((b1 - min[0]) * inv[0]),
        clampI((c0 - min[1]) * inv[1]),
        clampI((c1 - min[1]) * inv[1]),
      ];
    };
    const count = new Uint32Array(g * g + 1);
    for (let t = 0; t < ix.length; t += 3) {
      const [i0, i1, j0, j1] = range(t);
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) count[j * g + i + 1]++;
    }
    for (let k = 1; k <= g * g; k++) count[k] += count[k - 1];
    const start = count.slice();
    const fill = count.slice();
    const items = new Uint32Array(start[g * g]);
    for (let t = 0; t < ix.length; t += 3) {
      const [i0, i1, j0, j1] = range(t);
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) items[fill[j * g + i]++] = t / 3;
    }
    return { nb: g, nc: g, min, inv, start, items };
  }

  /**
   * Crossings of the line through (qb, qc) parallel to axis `a`: pushes (coordinate along a,
   * sign) pairs, sign +1 where a ray in +a leaves the solid.
   */
  crossings(a: number, qb: number, qc: number, out: number[]): void {
    const bins = this.bins[a];
    const i = Math.floor((qb - bins.min[0]) * bins.inv[0]);
    const j = Math.floor((qc - bins.min[1]) * bins.inv[1]);
    if (i < 0 || j < 0 || i >= bins.nb || j >= bins.nc) return;
    const k = j * bins.nb + i;
    const b = (a + 1) % 3,
      c = (a + 2) % 3;
    const p = this.positions,
      ix = this.indices;
    for (let s = bins.start[k]; s < bins.start[k + 1]; s++) {
      const t = 3 * bins.items[s];
      const v0 = ix[t],
        v1 = ix[t + 1],
        v2 = ix[t + 2];
      const b0 = p[3 * v0 + b],
        c0 = p[3 * v0 + c];
      const b1 = p[3 * v1 + b],
        c1 = p[3 * v1 + c];
      const b2 = p[3 * v2 + b],
        c2 = p[3 * v2 + c];
      const area = (b1 - b0) * (c2 - c0) - (c1 - c0) * (b2 - b0);
      if (area === 0) continue;
      const sigma = area > 0 ? 1 : -1;
      const e01 = edgeFn(v0, b0, c0, v1, b1, c1, qb, qc) * sigma;
      if (e01 < 0 || (e01 === 0 && !topLeft(sigma > 0 ? b1 - b0 : b0 - b1, sigma > 0 ? c1 - c0 : c0 - c1))) continue;
      const e12 = edgeFn(v1, b1, c1, v2, b2, c2, qb, qc) * sigma;
      if (e12 < 0 || (e12 === 0 && !topLeft(sigma > 0 ? b2 - b1 : b1 - b2, sigma > 0 ? c2 - c1 : c1 - c2))) continue;
      const e20 = edgeFn(v2, b2, c2, v0, b0, c0, qb, qc) * sigma;
      if (e20 < 0 || (e20 === 0 && !topLeft(sigma > 0 ? b0 - b2 : b2 - b0, sigma > 0 ? c0 - c2 : c2 - c0))) continue;
      const sum = e01 + e12 + e20;
      if (!(sum > 0)) continue;
      const at = (e12 * p[3 * v0 + a] + e20 * p[3 * v1 + a] + e01 * p[3 * v2 + a]) / sum;
      // The triangle's normal along a has the sign of its projected area (b, c, a right-handed).
      out.push(at, sigma * this.orientation);
    }
  }

  /** Half-rays (of the six along the axes) from the point that see it inside (0..6). */
  votes(x: number, y: number, z: number): number {
    const q = [x, y, z];
    if (x < this.lo[0] || y < this.lo[1] || z < this.lo[2] || x > this.hi[0] || y > this.hi[1] || z > this.hi[2])
      return 0;
    let votes = 0;
    const list: number[] = [];
    for (let a = 0; a < 3; a++) {
      list.length = 0;
      this.crossings(a, q[(a + 1) % 3], q[(a + 2) % 3], list);
      let plus = 0,
        minus = 0;
      for (let i = 0; i < list.length; i += 2) {
        if (list[i] > q[a]) plus += list[i + 1];
        else if (list[i] < q[a]) minus -= list[i + 1];
      }
      if (plus >= 1) votes++;
      if (minus >= 1) votes++;
    }
    return votes;
  }

  contains(x: number, y: number, z: number): boolean {
    return this.votes(x, y, z) >= INSIDE_VOTES_REQUIRED;
  }

  /**
   * Votes for every cell centre origin + (i + 0.5, j + 0.5, k + 0.5) * cell of a grid of
   * dims[0] x dims[1] x dims[2] cells, index i + dims[0] * (j + dims[1] * k).
   */
  gridVotes(origin: readonly number[], cell: number, dims: readonly number[]): Uint8Array {
    const [nx, ny] = dims;
    const votes = new Uint8Array(dims[0] * dims[1] * dims[2]);
    const list: number[] = [];
    let ts = new Float64Array(64),
      ss = new Float64Array(64);
    const stride = [1, nx, nx * ny];
    for (let a = 0; a < 3; a++) {
      const b = (a + 1) % 3,
        c = (a + 2) % 3;
      for (let jc = 0; jc < dims[c]; jc++) {
        const qc = origin[c] + (jc + 0.5) * cell;
        for (let jb = 0; jb < dims[b]; jb++) {
          const qb = origin[b] + (jb + 0.5) * cell;
          list.length = 0;
          this.crossings(a, qb, qc, list);
          if (list.length === 0) continue;
          // Sort the crossings along a (insertion sort: lines cross the surface a few times).
          const m = list.length / 2;
          if (m > ts.length) {
            ts = new Float64Array(2 * m);
            ss = new Float64Array(2 * m);
          }
          let total = 0;
          for (let i = 0; i < m; i++) {
            const t = list[2 * i],
              sg = list[2 * i + 1];
            total += sg;
            let k = i;
            while (k > 0 && ts[k - 1] > t) {
              ts[k] = ts[k - 1];
              ss[k] = ss[k - 1];
              k--;
            }
            ts[k] = t;
            ss[k] = sg;
          }
          // Sweep along a: before = sum of signs of crossings passed so far.
          let at = 0,
            before = 0;
          const base = jb * stride[b] + jc * stride[c];
          for (let ia = 0; ia < dims[a]; ia++) {
            const qa = origin[a] + (ia + 0.5) * cell;
            while (at < m && ts[at] < qa) before += ss[at++];
            let on = 0;
            for (let k = at; k < m && ts[k] === qa; k++) on += ss[k];
            const plus = total - before - on;
            const minus = -before;
            votes[base + ia * stride[a]] += (plus >= 1 ? 1 : 0) + (minus >= 1 ? 1 : 0);
          }
        }
      }
    }
    return votes;
  }
}

/** Edge function of (i -> j) at q, evaluated in a canonical vertex order so it is exactly antisymmetric. */
function edgeFn(i: number, bi: number, ci: number, j: number, bj: number, cj: number, qb: number, qc: number): number {
  if (i < j) return (bj - bi) * (qc - ci) - (cj - ci) * (qb - bi);
  return -((bi - bj) * (qc - cj) - (ci - cj) * (qb - bj));
}

/** Top-left rule for a counter-clockwise edge direction (db, dc): points on it belong to the triangle. */
function topLeft(db: number, dc: number): boolean {
  return dc > 0 || (dc === 0 && db < 0);
}

/**
 * The generalized winding number of the mesh at q: the sum of the signed solid angles of its
 * triangles over 4 pi (Van Oosterom and Strackee's formula). 1 inside a closed outward mesh, 0
 * outside, fractional near holes. O(triangles).
 */
export function generalizedWindingNumber(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  x: number,
  y: number,
  z: number,
): number {
  let sum = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    const ax = positions[a] - x,
      ay = positions[a + 1] - y,
      az = positions[a + 2] - z;
    const bx = positions[b] - x,
      by = positions[b + 1] - y,
      bz = positions[b + 2] - z;
    const cx = positions[c] - x,
      cy = positions[c + 1] - y,
      cz = positions[c + 2] - z;
    const la = Math.hypot(ax, ay, az),
      lb = Math.hypot(bx, by, bz),
      lc = Math.hypot(cx, cy, cz);
    const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    const den =
      la * lb * lc +
      (ax * bx + ay * by + az * bz) * lc +
      (bx * cx + by * cy + bz * cz) * la +
      (cx * ax + cy * ay + cz * az) * lb;
    sum += 2 * Math.atan2(det, den);
  }
  return sum / (4 * Math.PI);
}
