/**
 * Triangulates a simple polygon with holes in 2D by ear clipping (Eberly, "Triangulation by Ear
 * Clipping", 2002): each hole is first joined to the outer ring by a bridge from its rightmost
 * vertex to a visible ring vertex, then ears are clipped from the single resulting ring. Used to
 * cap the sections mesh-clip.ts cuts, so cut pieces stay closed.
 *
 * Guarantees: uses only the given vertices; the triangles are counter-clockwise; never loops
 * forever: if no ear is found (degenerate or self-touching input), the remaining ring is fanned,
 * which keeps the area right for convex leftovers. O(n^2) per ring.
 */

/** Twice the signed area of a ring of 2D points (xy pairs, by vertex index), positive counter-clockwise. */
export function ringArea(xy: ArrayLike<number>, ring: readonly number[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += (xy[2 * ring[j]] - xy[2 * ring[i]]) * (xy[2 * ring[j] + 1] + xy[2 * ring[i] + 1]);
  }
  return a;
}

/** Unit vectors u, w spanning the plane with unit normal n, such that u x w = n: 2D coordinates in it are (p.u, p.w). */
export function planeBasis(n: readonly number[]): { u: [number, number, number]; w: [number, number, number] } {
  const [nx, ny, nz] = n;
  const ax = Math.abs(nx) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  let ux = ny * ax[2] - nz * ax[1],
    uy = nz * ax[0] - nx * ax[2],
    uz = nx * ax[1] - ny * ax[0];
  const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux /= ul;
  uy /= ul;
  uz /= ul;
  return { u: [ux, uy, uz], w: [ny * uz - nz * uy, nz * ux - nx * uz, nx * uy - ny * ux] };
}

function cross(xy: ArrayLike<number>, a: number, b: number, c: number): number {
  return (
    (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
    (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a])
  );
}

function inTriangle(xy: ArrayLike<number>, a: number, b: number, c: number, p: number): boolean {
  return cross(xy, a, b, p) >= 0 && cross(xy, b, c, p) >= 0 && cross(xy, c, a, p) >= 0;
}

/** Whether segment p-q crosses segment a-b (proper crossing only). */
function crosses(xy: ArrayLike<number>, p: number, q: number, a: number, b: number): boolean {
  const d1 = cross(xy, p, q, a),
    d2 = cross(xy, p, q, b),
    d3 = cross(xy, a, b, p),
    d4 = cross(xy, a, b, q);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/**
 * Triangles (index triples) covering `outer` minus `holes`. `xy` holds 2D coordinates by vertex
 * index; rings are vertex-index lists in any orientation.
 */
export function triangulatePolygon(
  xy: ArrayLike<number>,
  outer: readonly number[],
  holes: readonly (readonly number[])[] = [],
): number[] {
  // 1. Outer ring counter-clockwise, holes clockwise (ringArea is positive for counter-clockwise).
  let ring = ringArea(xy, outer) < 0 ? [...outer].reverse() : [...outer];
  const hs = holes.filter((h) => h.length >= 3).map((h) => (ringArea(xy, h) > 0 ? [...h].reverse() : [...h]));
  // 2. Bridge holes in, rightmost hole first.
  const rightmost = (h: number[]) => h.reduce((best, v, i) => (xy[2 * v] > xy[2 * h[best]] ? i : best), 0);
  hs.sort((a, b) => xy[2 * b[rightmost(b)]] - xy[2 * a[rightmost(a)]]);
  for (const hole of hs) {
    const hi = rightmost(hole);
    const m = hole[hi];
    // Visible ring vertex: the nearest one whose segment to m crosses no ring or hole edge.
    const order = ring
      .map((_, i) => i)
      .sort((i, j) => {
        const di = (xy[2 * ring[i]] - xy[2 * m]) ** 2 + (xy[2 * ring[i] + 1] - xy[2 * m + 1]) ** 2;
        const dj = (xy[2 * ring[j]] - xy[2 * m]) ** 2 + (xy[2 * ring[j] + 1] - xy[2 * m + 1]) ** 2;
        return di - dj || i - j;
      });
    let bridge = order[0];
    for (const i of order) {
      const v = ring[i];
      let blocked = false;
      for (let k = 0; k < ring.length && !blocked; k++) {
        const a = ring[k],
          b = ring[(k + 1) % ring.length];
        if (a !== v && b !== v && crosses(xy, m, v, a, b)) blocked = true;
      }
      // Not through any other vertex (a bridge along a diagonal of a hole touches its corner).
      const mx = xy[2 * m],
        my = xy[2 * m + 1],
        vx = xy[2 * v],
        vy = xy[2 * v + 1];
      const len2 = (vx - mx) ** 2 + (vy - my) ** 2;
      const touches = (w: number) => {
        if (w === m || w === v) return false;
        const t = ((xy[2 * w] - mx) * (vx - mx) + (xy[2 * w + 1] - my) * (vy - my)) / len2;
        return t > 0 && t < 1 && Math.abs(cross(xy, m, v, w)) <= 1e-12 * len2;
      };
      if (ring.some(touches) || hs.some((h) => h.some(touches))) blocked = true;
      // Not across this hole, nor across a hole still to be bridged.
      for (const other of hs) {
        if (other !== hole && ring.includes(other[0])) continue;
        for (let k = 0; k < other.length && !blocked; k++) {
          const a = other[k],
            b = other[(k + 1) % other.length];
          if (a !== m && b !== m && a !== v && b !== v && crosses(xy, m, v, a, b)) blocked = true;
        }
      }
      if (!blocked) {
        bridge = i;
        break;
      }
    }
    // ring[..bridge], hole from m around back to m, ring[bridge..].
    const rotated = [...hole.slice(hi), ...hole.slice(0, hi), m];
    ring = [...ring.slice(0, bridge + 1), ...rotated, ...ring.slice(bridge)];
  }
  // 3. Clip ears. Only reflex vertices can lie inside an ear, so only they are tested.
  const out: number[] = [];
  const v = [...ring];
  const isReflex = (i: number) => cross(xy, v[(i + v.length - 1) % v.length], v[i], v[(i + 1) % v.length]) <= 0;
  let reflex = v.map((_, i) => isReflex(i));
  let guard = 0;
  while (v.length > 3 && guard++ < ring.length + 16) {
    let clipped = false;
    const reflexIds = v.filter((_, i) => reflex[i]);
    for (let i = 0; i < v.length; i++) {
      if (reflex[i]) continue;
      const a = v[(i + v.length - 1) % v.length],
        b = v[i],
        c = v[(i + 1) % v.length];
      let ear = true;
      for (const p of reflexIds) {
        if (p === a || p === b || p === c) continue;
        if (inTriangle(xy, a, b, c, p)) {
          ear = false;
          break;
        }
      }
      if (!ear) continue;
      out.push(a, b, c);
      v.splice(i, 1);
      reflex.splice(i, 1);
      const prev = (i + v.length - 1) % v.length,
        next = i % v.length;
      reflex[prev] = isReflex(prev);
      reflex[next] = isReflex(next);
      clipped = true;
      break;
    }
    if (!clipped) {
      // Degenerate leftovers (collinear runs, touching bridges): drop a flat vertex, or fan.
      const flat = v.findIndex((b, i) => cross(xy, v[(i + v.length - 1) % v.length], b, v[(i + 1) % v.length]) === 0);
      if (flat >= 0) {
        v.splice(flat, 1);
        reflex = v.map((_, i) => isReflex(i));
        continue;
      }
      for (let i = 1; i + 1 < v.length; i++) out.push(v[0], v[i], v[i + 1]);
      return out;
    }
  }
  if (v.length === 3 && cross(xy, v[0], v[1], v[2]) > 0) out.push(v[0], v[1], v[2]);
  return out;
}
