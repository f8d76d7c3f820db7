// exp, log and sums that give the same bits as the package's bayescomp/_portable_math.py.
// Both use only + - * /, floor and exact scaling by powers of two, in the same order, so the
// hierarchical model's HMC replays the package's chains bit for bit (HMC on a funnel is
// chaotic: any last-bit difference would grow into a different chain).

const LN2_HI = 6.93147180369123816490e-01; // its low 32 bits are zero: k * LN2_HI is exact
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.44269504088896338700e+00;
const EXP_MAX = 709.782712893384;
const EXP_MIN = -745.1332191019411;
const SQRT_HALF = 0.7071067811865476;

function factorial(j) {
  let product = 1;
  for (let i = 2; i <= j; i += 1) product *= i;
  return product;
}
// Taylor coefficients 1/j!, highest power first (degree 13), and 2/(2j+1) for atanh (j = 11..0).
const EXP_COEFFICIENTS = Array.from({ length: 14 }, (_, i) => 1 / factorial(13 - i));
const LOG_COEFFICIENTS = Array.from({ length: 12 }, (_, i) => 2 / (2 * (11 - i) + 1));

function horner(coefficients, x) {
  let total = coefficients[0];
  for (let i = 1; i < coefficients.length; i += 1) total = total * x + coefficients[i];
  return total;
}

const view = new DataView(new ArrayBuffer(8));
/** 2**k for an integer k in [-1022, 1023], built from its bits (exact). */
function powerOfTwo(k) {
  view.setUint32(0, (k + 1023) << 20);
  view.setUint32(4, 0);
  return view.getFloat64(0);
}

/** x * 2**k rounded once, as C's ldexp (for |x| in [0.5, 2) and k >= -1075). */
export function ldexp(x, k) {
  if (k > 1023) return x * powerOfTwo(1023) * powerOfTwo(k - 1023);
  // Below the normal range: scale exactly to x * 2**(k + 1074), then round once by 2**-1074.
  if (k < -1022) return (x * powerOfTwo(k + 1074)) * Number.MIN_VALUE;
  return x * powerOfTwo(k);
}

/** [m, e] with x = m * 2**e and 0.5 <= |m| < 1, as C's frexp, for finite nonzero x. */
export function frexp(x) {
  view.setFloat64(0, x);
  let biased = (view.getUint32(0) >>> 20) & 0x7ff;
  let scale = 0;
  if (biased === 0) { // subnormal: scale into the normal range first (exact)
    view.setFloat64(0, x * 2 ** 64);
    biased = (view.getUint32(0) >>> 20) & 0x7ff;
    scale = 64;
  }
  const high = view.getUint32(0);
  view.setUint32(0, (high & 0x800fffff) | (1022 << 20)); // exponent of [0.5, 1)
  return [view.getFloat64(0), biased - 1022 - scale];
}

/** e**x from + - * / and a power-of-two scaling (Cody and Waite, 1980). */
export function exp(x) {
  if (!(x <= EXP_MAX)) return Number.isNaN(x) ? NaN : Infinity;
  if (x < EXP_MIN) return 0;
  const k = Math.floor(x * INV_LN2 + 0.5);
  const r = (x - k * LN2_HI) - k * LN2_LO;
  return ldexp(horner(EXP_COEFFICIENTS, r), k);
}

/** log x for x > 0: x = 2**e m, m in [sqrt(1/2), sqrt(2)), log m = 2 atanh((m-1)/(m+1)). */
export function log(x) {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return Infinity;
  let [mantissa, exponent] = frexp(x);
  if (mantissa < SQRT_HALF) {
    mantissa *= 2;
    exponent -= 1;
  }
  const s = (mantissa - 1) / (mantissa + 1);
  return exponent * LN2_HI + (exponent * LN2_LO + s * horner(LOG_COEFFICIENTS, s * s));
}

/** Sum from left to right, starting from 0 (the package's sum_last_axis). */
export function sumLeftToRight(values) {
  let total = 0;
  for (let i = 0; i < values.length; i += 1) total += values[i];
  return total;
}
