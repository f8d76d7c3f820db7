// Two-by-two linear algebra, matrices as [[a, b], [c, d]]. The book's posterior has two
// parameters; writing the formulas out keeps the engine free of dependencies.

export function det2(m) {
  return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}

export function inv2(m) {
  const det = det2(m);
  if (!(Math.abs(det) > 0)) throw new Error(`matrix is singular: ${JSON.stringify(m)}`);
  return [
    [m[1][1] / det, -m[0][1] / det],
    [-m[1][0] / det, m[0][0] / det],
  ];
}

/** Solve m x = b. */
export function solve2(m, b) {
  const det = det2(m);
  if (!(Math.abs(det) > 0)) throw new Error(`matrix is singular: ${JSON.stringify(m)}`);
  return [(m[1][1] * b[0] - m[0][1] * b[1]) / det, (m[0][0] * b[1] - m[1][0] * b[0]) / det];
}

/** Lower Cholesky factor of a symmetric positive definite matrix. */
export function chol2(m) {
  if (!(m[0][0] > 0)) throw new Error(`matrix is not positive definite: ${JSON.stringify(m)}`);
  const l00 = Math.sqrt(m[0][0]);
  const l10 = m[1][0] / l00;
  const rest = m[1][1] - l10 * l10;
  if (!(rest > 0)) throw new Error(`matrix is not positive definite: ${JSON.stringify(m)}`);
  return [
    [l00, 0],
    [l10, Math.sqrt(rest)],
  ];
}

export function matvec2(m, v) {
  return [m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1]];
}

export function scale2(m, s) {
  return [
    [m[0][0] * s, m[0][1] * s],
    [m[1][0] * s, m[1][1] * s],
  ];
}

/** Eigen-decomposition of a symmetric matrix: values descending, unit vectors. */
export function eigSym2(m) {
  const a = m[0][0];
  const b = m[0][1];
  const d = m[1][1];
  const mid = (a + d) / 2;
  const radius = Math.hypot((a - d) / 2, b);
  const values = [mid + radius, mid - radius];
  // (b, lambda - a) is an eigenvector for lambda unless b = 0.
  const angle = b === 0 ? (a >= d ? 0 : Math.PI / 2) : Math.atan2(values[0] - a, b);
  return { values, angle, vectors: [[Math.cos(angle), Math.sin(angle)], [-Math.sin(angle), Math.cos(angle)]] };
}

/** Points on the n-sd ellipse of N(mean, cov), closed. */
export function ellipsePoints(mean, cov, nSd = 2, count = 96) {
  const { values, angle } = eigSym2(cov);
  const ra = nSd * Math.sqrt(Math.max(values[0], 0));
  const rb = nSd * Math.sqrt(Math.max(values[1], 0));
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const points = [];
  for (let i = 0; i <= count; i += 1) {
    const t = (2 * Math.PI * i) / count;
    const u = ra * Math.cos(t);
    const v = rb * Math.sin(t);
    points.push([mean[0] + c * u - s * v, mean[1] + s * u + c * v]);
  }
  return points;
}
