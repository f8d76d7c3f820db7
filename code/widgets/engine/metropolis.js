// Random-walk Metropolis (Metropolis et al., 1953), in any dimension d. Each step draws d
// normals z, then one uniform (the book's protocol order), proposes x + L z, and moves when
// log u < log p~(proposal) - log p~(current). L is the lower-triangular factor `chol` (the
// book's 1.1 cholesky(H^-1)) or the diagonal `scale`, one number or one per coordinate (the
// package's proposal_chol = diag(scale)); both give the package's draws exactly.

/**
 * One chain that can be stepped, shaped like HMCChain(target, start, options, rng).
 *
 * target: { logDensity(x) }. options: `chol` (d x d, lower-triangular: its upper part is not
 * read) or `scale`; keepDraws (default true) keeps every state, proposal and accept decision,
 * one typed array per coordinate that grows from `capacity` (series(p) reads them); with
 * keepDraws = false only the current state and the last proposal are kept (a widget reads each
 * new state itself).
 */
export class MetropolisChain {
  constructor(target, start, { chol, scale, keepDraws = true, capacity = 1024 } = {}, rng) {
    const d = start.length;
    if ((chol === undefined) === (scale === undefined)) {
      throw new Error('MetropolisChain needs one of chol (a lower-triangular factor) or scale');
    }
    if (chol !== undefined) {
      if (chol.length !== d || !chol.every((row) => row.length === d)) {
        throw new Error(`chol must be ${d} x ${d}, as the start; got ${JSON.stringify(chol)}`);
      }
      this.factor = chol.map((row, i) => Float64Array.from(row.slice(0, i + 1)));
    } else {
      const s = typeof scale === 'number' ? new Float64Array(d).fill(scale) : Float64Array.from(scale);
      if (s.length !== d || !s.every((v) => v > 0)) {
        throw new Error(`scale must be > 0, one number or one per coordinate (${d}); got ${scale}`);
      }
      this.scale = s;
    }
    this.target = target;
    this.rng = rng;
    this.keepDraws = keepDraws;
    this.start = Float64Array.from(start);
    this.current = Float64Array.from(start);
    this.currentLogDensity = target.logDensity(this.current);
    if (!Number.isFinite(this.currentLogDensity)) throw new Error(`log density is not finite at the start ${JSON.stringify(start)}`);
    this.length = 0;
    this.accepts = 0;
    this.lastProposal = null;
    const size = keepDraws ? capacity : 0;
    this.draws = Array.from({ length: d }, () => new Float64Array(size));
    this.proposals = Array.from({ length: d }, () => new Float64Array(size));
    this.accepted = new Uint8Array(size);
  }

  grow() {
    const size = Math.max(1, this.accepted.length * 2);
    const widen = (old) => {
      const next = new old.constructor(size);
      next.set(old);
      return next;
    };
    this.draws = this.draws.map(widen);
    this.proposals = this.proposals.map(widen);
    this.accepted = widen(this.accepted);
  }

  /** The proposal x + L z for the normals z. */
  propose(z) {
    const d = z.length;
    const proposal = new Float64Array(d);
    if (this.scale) {
      for (let i = 0; i < d; i += 1) proposal[i] = this.current[i] + this.scale[i] * z[i];
      return proposal;
    }
    for (let i = 0; i < d; i += 1) {
      const row = this.factor[i];
      let shift = row[0] * z[0];
      for (let j = 1; j <= i; j += 1) shift += row[j] * z[j];
      proposal[i] = this.current[i] + shift;
    }
    return proposal;
  }

  step() {
    const d = this.current.length;
    const z = new Float64Array(d);
    for (let i = 0; i < d; i += 1) z[i] = this.rng.normal();
    const logU = Math.log(this.rng.uniform());
    const proposal = this.propose(z);
    const proposalLogDensity = this.target.logDensity(proposal);
    const move = logU < proposalLogDensity - this.currentLogDensity;
    if (move) {
      this.current = proposal;
      this.currentLogDensity = proposalLogDensity;
      this.accepts += 1;
    }
    this.lastProposal = proposal;
    if (this.keepDraws) {
      if (this.length === this.accepted.length) this.grow();
      const t = this.length;
      for (let i = 0; i < d; i += 1) {
        this.draws[i][t] = this.current[i];
        this.proposals[i][t] = proposal[i];
      }
      this.accepted[t] = move ? 1 : 0;
    }
    this.length += 1;
    return move;
  }

  /** The chain's current position (every chain of the engine has one). */
  get state() {
    return this.current;
  }

  acceptRate() {
    return this.length ? this.accepts / this.length : NaN;
  }

  /** The draws of parameter p from step `from` on, as a view (no copy). */
  series(p, from = 0) {
    return this.draws[p].subarray(from, this.length);
  }
}

/** Run nSteps at once, as the package's metropolis_chain with record_proposals. */
export function metropolisChain(target, start, chol, nSteps, rng) {
  const chain = new MetropolisChain(target, start, { chol, capacity: nSteps }, rng);
  for (let t = 0; t < nSteps; t += 1) chain.step();
  return {
    draws: chain.draws.map((d) => d.slice(0, nSteps)),
    proposals: chain.proposals.map((d) => d.slice(0, nSteps)),
    accepted: chain.accepted.slice(0, nSteps),
    acceptRate: chain.acceptRate(),
  };
}
