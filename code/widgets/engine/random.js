// Sources of randomness. The engine never calls Math.random: every stochastic function takes a
// source with uniform() in [0, 1) and normal() ~ N(0, 1), so tests can replay NumPy's draws.

/** Replays recorded draws in order; running out is an error, not a silent new draw. */
export function replaySource({ uniforms = [], normals = [] }) {
  let u = 0;
  let z = 0;
  return {
    uniform() {
      if (u >= uniforms.length) throw new Error(`replay source: all ${uniforms.length} uniforms used`);
      return uniforms[u++];
    },
    normal() {
      if (z >= normals.length) throw new Error(`replay source: all ${normals.length} normals used`);
      return normals[z++];
    },
    used() {
      return { uniforms: u, normals: z };
    },
  };
}

// splitmix32 spreads a seed over the state (Steele et al., 2014).
function splitmix32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 16), 0x85ebca6b);
    t = Math.imul(t ^ (t >>> 13), 0xc2b2ae35);
    return (t ^ (t >>> 16)) >>> 0;
  };
}

/**
 * A seeded source for the browser: xoshiro128** (Blackman and Vigna, 2018) for uniforms with
 * 53 random bits, and Marsaglia's polar method for normals.
 */
export function seededSource(seed) {
  const mix = splitmix32(seed);
  const s = new Uint32Array([mix(), mix(), mix(), mix()]);
  const rotl = (x, k) => (x << k) | (x >>> (32 - k));
  const next32 = () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  };
  let spare = null;
  const uniform = () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
  return {
    uniform,
    normal() {
      if (spare !== null) {
        const value = spare;
        spare = null;
        return value;
      }
      let a;
      let b;
      let r2;
      do {
        a = 2 * uniform() - 1;
        b = 2 * uniform() - 1;
        r2 = a * a + b * b;
      } while (r2 >= 1 || r2 === 0);
      const factor = Math.sqrt((-2 * Math.log(r2)) / r2);
      spare = b * factor;
      return a * factor;
    },
  };
}
