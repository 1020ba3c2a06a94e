/**
 * A convex polytope kept as its vertices and face polygons, cut down one half-space at a time:
 * the intersection of half-spaces, built incrementally (Sutherland-Hodgman on each face, then the
 * new cap face ordered by angle in its plane).
 *
 * Guarantees: a cut never adds volume and never removes a point that satisfies the new half-space
 * by more than `eps`; faces stay outward-oriented (counter-clockwise seen from outside). Used by
 * the single-hull reduction (convex-hull.ts), which cuts a bounding box by the exact hull's face
 * planes until the vertex budget is spent.
 *
 * Plain number arrays, no per-vertex objects; coordinates should be O(1) (callers normalise).
 */

export interface PolytopeFace {
  /** Outward unit normal and offset: the face lies on n.x = d, the polytope in n.x <= d. */
  n: [number, number, number];
  d: number;
  /** Vertex indices, counter-clockwise seen from outside. */
  verts: number[];
}

export class ConvexPolytope {
  /** xyz per vertex; entries of removed vertices stay but are unreferenced. */
  readonly xyz: number[] = [];
  faces: PolytopeFace[] = [];

  /** The axis-aligned box [min, max]. */
  static box(min: readonly number[], max: readonly number[]): ConvexPolytope {
    const p = new ConvexPolytope();
    for (let i = 0; i < 8; i++) p.xyz.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
    // Corner index bits: x = 1, y = 2, z = 4.
    p.faces = [
      { n: [-1, 0, 0], d: -min[0], verts: [0, 4, 6, 2] },
      { n: [1, 0, 0], d: max[0], verts: [1, 3, 7, 5] },
      { n: [0, -1, 0], d: -min[1], verts: [0, 1, 5, 4] },
      { n: [0, 1, 0], d: max[1], verts: [2, 6, 7, 3] },
      { n: [0, 0, -1], d: -min[2], verts: [0, 2, 3, 1] },
      { n: [0, 0, 1], d: max[2], verts: [4, 5, 7, 6] },
    ];
    return p;
  }

  /** Indices of the vertices some face uses, ascending. */
  vertexIndices(): number[] {
    const used = new Set<number>();
    for (const f of this.faces) for (const v of f.verts) used.add(v);
    return [...used].sort((a, b) => a - b);
  }

  vertexCount(): number {
    return this.vertexIndices().length;
  }

  /** Flat xyz of the used vertices. */
  vertices(): Float64Array {
    const idx = this.vertexIndices();
    const out = new Float64Array(idx.length * 3);
    idx.forEach((v, i) => {
      out[3 * i] = this.xyz[3 * v];
      out[3 * i + 1] = this.xyz[3 * v + 1];
      out[3 * i + 2] = this.xyz[3 * v + 2];
    });
    return out;
  }

  /** Volume by the divergence theorem, each face fanned from its first vertex. */
  volume(): number {
    const p = this.xyz;
    let v6 = 0;
    for (const f of this.faces) {
      const a = f.verts[0];
      for (let k = 1; k + 1 < f.verts.length; k++) {
        const b = f.verts[k],
          c = f.verts[k + 1];
        const ax = p[3 * a],
          ay = p[3 * a + 1],
          az = p[3 * a + 2];
        const bx = p[3 * b],
          by = p[3 * b + 1],
          bz = p[3 * b + 2];
        const cx = p[3 * c],
          cy = p[3 * c + 1],
          cz = p[3 * c + 2];
        v6 += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
      }
    }
    return v6 / 6;
  }

  /**
   * Keeps the part with n.x <= d (n need not be unit; eps is in the units of n.x). Returns
   * false and leaves the polytope unchanged when no vertex is beyond the plane by more than eps,
   * or when the plane would cut everything away.
   */
  clip(nx: number, ny: number, nz: number, d: number, eps: number): boolean {
    const p = this.xyz;
    const used = this.vertexIndices();
    const side = new Map<number, number>();
    let above = 0,
      below = 0;
    for (const v of used) {
      const s = nx * p[3 * v] + ny * p[3 * v + 1] + nz * p[3 * v + 2] - d;
      side.set(v, s);
      if (s > eps) above++;
      else if (s < -eps) below++;
    }
    if (above === 0 || below === 0) return false;
    // 1. Clip every face polygon; a crossing edge gets one shared new vertex.
    const cut = new Map<string, number>();
    const capVerts = new Set<number>();
    const crossing = (a: number, b: number): number => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let v = cut.get(key);
      if (v === undefined) {
        const sa = side.get(a)!,
          sb = side.get(b)!;
        const t = sa / (sa - sb);
        v = p.length / 3;
        p.push(
          p[3 * a] + t * (p[3 * b] - p[3 * a]),
          p[3 * a + 1] + t * (p[3 * b + 1] - p[3 * a + 1]),
          p[3 * a + 2] + t * (p[3 * b + 2] - p[3 * a + 2]),
        );
        cut.set(key, v);
      }
      return v;
    };
    const faces: PolytopeFace[] = [];
    for (const f of this.faces) {
      const out: number[] = [];
      const m = f.verts.length;
      for (let i = 0; i < m; i++) {
        const a = f.verts[i],
          b = f.verts[(i + 1) % m];
        const sa = side.get(a)!,
          sb = side.get(b)!;
        if (sa <= eps) {
          out.push(a);
          if (sa >= -eps) capVerts.add(a);
        }
        if ((sa < -eps && sb > eps) || (sa > eps && sb < -eps)) {
          const c = crossing(a, b);
          out.push(c);
          capVerts.add(c);
        }
      }
      if (out.length >= 3) faces.push({ n: f.n, d: f.d, verts: out });
    }
    // 2. The cap: every vertex on the plane, ordered counter-clockwise around n.
    const len = Math.hypot(nx, ny, nz);
    const n: [number, number, number] = [nx / len, ny / len, nz / len];
    const cap = [...capVerts];
    if (cap.length >= 3) {
      let cx = 0,
        cy = 0,
        cz = 0;
      for (const v of cap) {
        cx += p[3 * v];
        cy += p[3 * v + 1];
        cz += p[3 * v + 2];
      }
      cx /= cap.length;
      cy /= cap.length;
      cz /= cap.length;
      // In-plane basis (u, w) with u x w = n.
      const ax = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      let ux = n[1] * ax[2] - n[2] * ax[1],
        uy = n[2] * ax[0] - n[0] * ax[2],
        uz = n[0] * ax[1] - n[1] * ax[0];
      const ul = Math.hypot(ux, uy, uz);
      ux /= ul;
      uy /= ul;
      uz /= ul;
      const wx = n[1] * uz - n[2] * uy,
        wy = n[2] * ux - n[0] * uz,
        wz = n[0] * uy - n[1] * ux;
      const angle = new Map<number, number>();
      for (const v of cap) {
        const dx = p[3 * v] - cx,
          dy = p[3 * v + 1] - cy,
          dz = p[3 * v + 2] - cz;
        angle.set(v, Math.atan2(dx * wx + dy * wy + dz * wz, dx * ux + dy * uy + dz * uz));
      }
      cap.sort((a, b) => angle.get(a)! - angle.get(b)! || a - b);
      faces.push({ n, d: d / len, verts: cap });
    }
    if (faces.length < 4) return false;
    this.faces = faces;
    return true;
  }
}
