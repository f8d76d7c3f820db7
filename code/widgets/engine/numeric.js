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
