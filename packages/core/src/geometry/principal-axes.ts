/**
 * Principal axes of a point set: the eigenvectors of its covariance matrix, largest spread first
 * (cyclic Jacobi rotations on the symmetric 3x3 matrix). Used to orient cut planes along a
 * part's own shape and to find the plane of a flat point set.
 */

export interface PrincipalAxes {
  /** Centroid of the points. */
  center: [number, number, number];
  /** Unit axes, largest variance first. */
  axes: [[number, number, number], [number, number, number], [number, number, number]];
  /** Variances along the axes, descending. */
  variances: [number, number, number];
}

export function principalAxes(points: ArrayLike<number>): PrincipalAxes {
  const n = Math.floor(points.length / 3);
  let cx = 0,
    cy = 0,
    cz = 0;
  for (let i = 0; i < n; i++) {
    cx += points[3 * i];
    cy += points[3 * i + 1];
    cz += points[3 * i + 2];
  }
  if (n > 0) {
    cx /= n;
    cy /= n;
    cz /= n;
  }
  // 1. Covariance.
  const a = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let i = 0; i < n; i++) {
    const d = [points[3 * i] - cx, points[3 * i + 1] - cy, points[3 * i + 2] - cz];
    for (let r = 0; r < 3; r++) for (let c = r; c < 3; c++) a[r][c] += d[r] * d[c];
  }
  for (let r = 0; r < 3; r++) for (let c = r; c < 3; c++) a[c][r] = a[r][c] = n > 0 ? a[r][c] / n : 0;
  // 2. Jacobi sweeps: A = V diag V^T.
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
    const scale = a[0][0] ** 2 + a[1][1] ** 2 + a[2][2] ** 2;
    if (off <= 1e-30 * Math.max(scale, 1e-300)) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      if (a[p][q] === 0) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1),
        s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p],
          akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k],
          aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p],
          vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[j][j] - a[i][i] || i - j);
  const axis = (i: number): [number, number, number] => {
    const x = v[0][i],
      y = v[1][i],
      z = v[2][i];
    const l = Math.hypot(x, y, z) || 1;
    // Sign convention: the largest component positive (deterministic output).
    const m = Math.abs(x) >= Math.abs(y) && Math.abs(x) >= Math.abs(z) ? x : Math.abs(y) >= Math.abs(z) ? y : z;
    const s = m < 0 ? -1 : 1;
    return [(s * x) / l, (s * y) / l, (s * z) / l];
  };
  return {
    center: [cx, cy, cz],
    axes: [axis(order[0]), axis(order[1]), axis(order[2])],
    variances: [
      Math.max(0, a[order[0]][order[0]]),
      Math.max(0, a[order[1]][order[1]]),
      Math.max(0, a[order[2]][order[2]]),
    ],
  };
}
