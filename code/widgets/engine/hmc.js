// Hamiltonian Monte Carlo with a fixed step size and number of leapfrog steps, a diagonal mass
// matrix and divergence flags, as bayescomp/hmc.py. Each iteration draws d normals (the
// momentum) and then one uniform, the package's order; the energy test uses the portable log,
// so replaying NumPy's draws reproduces the package's chain exactly.
import { log, sumLeftToRight } from './portable.js';

// An energy error above this is a divergent transition (Stan's max_deltaH, PyMC's Emax).
export const DIVERGENCE_THRESHOLD = 1000;

function kinetic(momentum, inverseMass) {
  const terms = new Float64Array(momentum.length);
  for (let i = 0; i < momentum.length; i += 1) terms[i] = inverseMass[i] * (momentum[i] * momentum[i]);
  return 0.5 * sumLeftToRight(terms);
}

/** The leapfrog path from (position, momentum): every position, the start first. */
export function leapfrog(grad, position, momentum, stepSize, nLeapfrog, inverseMass, g = grad(position)) {
  const half = 0.5 * stepSize;
  let q = Float64Array.from(position);
  let p = Float64Array.from(momentum);
  let gradient = g;
  const path = [Float64Array.from(q)];
  for (let s = 0; s < nLeapfrog; s += 1) {
    for (let i = 0; i < q.length; i += 1) p[i] += half * gradient[i];
    for (let i = 0; i < q.length; i += 1) q[i] += (stepSize * inverseMass[i]) * p[i];
    gradient = grad(q);
    for (let i = 0; i < q.length; i += 1) p[i] += half * gradient[i];
    path.push(Float64Array.from(q));
  }
  return { path, position: q, momentum: p, grad: gradient };
}

/** One HMC chain that can be stepped; keeps draws (unless keepDraws is false: a widget that
 * reads each new state itself), accept and divergence flags, energies. */
export class HMCChain {
  constructor(target, start, { stepSize, nLeapfrog, mass, keepDraws = true }, rng) {
    if (!(stepSize > 0) || !(nLeapfrog >= 1)) throw new Error('stepSize must be > 0 and nLeapfrog >= 1');
    this.target = target;
    this.stepSize = stepSize;
    this.nLeapfrog = nLeapfrog;
    const masses = mass ?? new Array(start.length).fill(1);
    this.inverseMass = Float64Array.from(masses, (m) => 1 / m);
    this.momentumScale = Float64Array.from(this.inverseMass, (v) => Math.sqrt(1 / v));
    this.rng = rng;
    this.keepDraws = keepDraws;
    this.start = Float64Array.from(start);
    this.position = Float64Array.from(start);
    this.potential = -target.logDensity(this.position);
    this.gradient = target.grad(this.position);
    this.draws = [];
    this.accepted = [];
    this.divergent = [];
    this.energyErrors = [];
    this.energies = [];
    this.lastPath = null;
  }

  step() {
    const d = this.position.length;
    const momentum = new Float64Array(d);
    for (let i = 0; i < d; i += 1) momentum[i] = this.momentumScale[i] * this.rng.normal();
    const logU = log(this.rng.uniform());
    const start = this.position;
    const end = leapfrog(this.target.grad, start, momentum, this.stepSize, this.nLeapfrog,
                         this.inverseMass, this.gradient);
    const endPotential = -this.target.logDensity(end.position);
    const startEnergy = this.potential + kinetic(momentum, this.inverseMass);
    const endEnergy = endPotential + kinetic(end.momentum, this.inverseMass);
    const energyError = Number.isNaN(endEnergy) ? Infinity : endEnergy - startEnergy;
    const accept = logU < -energyError;
    const divergent = energyError > DIVERGENCE_THRESHOLD;
    if (accept) {
      this.position = end.position;
      this.potential = endPotential;
      this.gradient = end.grad;
    }
    this.lastPath = { start, path: end.path, accepted: accept, divergent };
    if (this.keepDraws) this.draws.push(Float64Array.from(this.position));
    this.accepted.push(accept);
    this.divergent.push(divergent);
    this.energyErrors.push(energyError);
    this.energies.push(accept ? endEnergy : startEnergy);
    return this.lastPath;
  }

  /** The chain's current position (every chain of the engine has one). */
  get state() {
    return this.position;
  }

  acceptRate() {
    return this.accepted.length ? this.accepted.filter(Boolean).length / this.accepted.length : NaN;
  }

  /** Gradient evaluations so far: nLeapfrog per iteration (the start's is not counted). */
  gradientEvaluations() {
    return this.accepted.length * this.nLeapfrog;
  }
}

/** Run nSteps at once (the package's hmc_chain). */
export function hmcChain(target, start, settings, nSteps, rng) {
  const chain = new HMCChain(target, start, settings, rng);
  for (let t = 0; t < nSteps; t += 1) chain.step();
  return chain;
}
