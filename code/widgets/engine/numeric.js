// Small numerical helpers shared by the engine's modules.

/** log sum_i exp(v_i), shifting by the maximum so that exp never overflows. */
export function logSumExp(values) {
  let top = -Infinity;
  for (const v of values) if (v > top) top = v;
  if (top === -Infinity) return -Infinity;
  let total = 0;
  for (const v of values) total += Math.exp(v - top);
  return top + Math.log(total);
}

export function logAddExp(a, b) {
  return logSumExp([a, b]);
}

/**
 * Normalized exponentials w_i = exp(v_i - max) / sum_j exp(v_j - max), and log sum_i exp(v_i).
 * Subtracting the maximum first keeps the largest term at exp(0) = 1.
 */
export function softmax(values) {
  let top = -Infinity;
  for (const v of values) if (v > top) top = v;
  const weights = new Float64Array(values.length);
  let total = 0;
  for (let i = 0; i < values.length; i += 1) {
    weights[i] = Math.exp(values[i] - top);
    total += weights[i];
  }
  for (let i = 0; i < weights.length; i += 1) weights[i] /= total;
  return { weights, logTotal: top + Math.log(total) };
}

// Wichura (1988), "Algorithm AS 241: the percentage points of the normal distribution", Applied
// Statistics 37(3):477-484, PPND16: three rational approximations, each accurate to about 1e-16
// relative; the package's normal_quantile (bayescomp/_special.py) has the same coefficients.
// Highest power first, as numpy.polyval takes them.
const AS241 = {
  // Central region |p - 1/2| <= 0.425, in r = 0.180625 - q^2.
  central: [[2509.0809287301226727, 33430.575583588128105, 67265.770927008700853,
    45921.953931549871457, 13731.693765509461125, 1971.5909503065514427,
    133.14166789178437745, 3.387132872796366608],
  [5226.495278852854561, 28729.085735721942674, 39307.89580009271061,
    21213.794301586595867, 5394.1960214247511077, 687.1870074920579083,
    42.313330701600911252, 1.0]],
  // Intermediate tails, r = sqrt(-log(min(p, 1 - p))) - 1.6 for r <= 5.
  near: [[7.7454501427834140764e-4, 0.0227238449892691845833, 0.24178072517745061177,
    1.27045825245236838258, 3.64784832476320460504, 5.7694972214606914055,
    4.6303378461565452959, 1.42343711074968357734],
  [1.05075007164441684324e-9, 5.475938084995344946e-4, 0.0151986665636164571966,
    0.14810397642748007459, 0.68976733498510000455, 1.6763848301838038494,
    2.05319162663775882187, 1.0]],
  // Far tails, r = sqrt(-log(min(p, 1 - p))) - 5.
  far: [[2.01033439929228813265e-7, 2.71155556874348757815e-5, 0.0012426609473880784386,
    0.026532189526576123093, 0.29656057182850489123, 1.7848265399172913358,
    5.4637849111641143699, 6.6579046435011037772],
  [2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
    7.868691311456132591e-4, 0.0148753612908506148525, 0.13692988092273580531,
    0.59983220655588793769, 1.0]],
};

/** num(r) / den(r) by Horner's rule, in numpy.polyval's order of operations. */
function rational([num, den], r) {
  let top = 0;
  let bottom = 0;
  for (const c of num) top = top * r + c;
  for (const c of den) bottom = bottom * r + c;
  return top / bottom;
}

/**
 * The standard normal quantile Phi^-1(p), by Wichura's AS241 (above): with q = p - 1/2, the
 * centre is q R1(0.180625 - q^2), the tails +-R2,3(sqrt(-log min(p, 1 - p))). -Infinity at 0,
 * Infinity at 1, NaN outside [0, 1].
 */
export function normalQuantile(p) {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : (p === 1 ? Infinity : NaN);
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) return q * rational(AS241.central, 0.180625 - q * q);
  // The tails work with the smaller tail probability, so 1 - p loses no accuracy near p = 1.
  const r = Math.sqrt(-Math.log(Math.min(p, 1 - p)));
  const tail = r <= 5 ? rational(AS241.near, r - 1.6) : rational(AS241.far, r - 5);
  return q < 0 ? -tail : tail;
}
