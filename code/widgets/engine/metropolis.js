// Random-walk Metropolis (Metropolis et al., 1953). Each step draws two normals, then one
// uniform (the book's protocol order), proposes theta + L eps, and moves when
// log u < log p~(proposal) - log p~(current).

/** One chain that can be stepped, keeping every state, proposal and accept decision. */
export class MetropolisChain {
  constructor(logDensity, start, chol, rng, capacity = 1024) {
    this.logDensity = logDensity;
    this.chol = chol;
    this.rng = rng;
    this.start = [start[0], start[1]];
    this.current = [start[0], start[1]];
    this.currentLogDensity = logDensity(this.current);
    if (!Number.isFinite(this.currentLogDensity)) throw new Error(`log density is not finite at the start ${JSON.stringify(start)}`);
    this.length = 0;
    this.accepts = 0;
    this.draws = [new Float64Array(capacity), new Float64Array(capacity)];
    this.proposals = [new Float64Array(capacity), new Float64Array(capacity)];
    this.accepted = new Uint8Array(capacity);
  }

  grow() {
    const size = this.accepted.length * 2;
    const widen = (old) => {
      const next = new old.constructor(size);
      next.set(old);
      return next;
    };
    this.draws = this.draws.map(widen);
    this.proposals = this.proposals.map(widen);
    this.accepted = widen(this.accepted);
  }

  step() {
    const l = this.chol;
    const e0 = this.rng.normal();
    const e1 = this.rng.normal();
    const logU = Math.log(this.rng.uniform());
    const proposal = [this.current[0] + (l[0][0] * e0 + l[0][1] * e1), this.current[1] + (l[1][0] * e0 + l[1][1] * e1)];
    const proposalLogDensity = this.logDensity(proposal);
    const move = logU < proposalLogDensity - this.currentLogDensity;
    if (move) {
      this.current = proposal;
      this.currentLogDensity = proposalLogDensity;
      this.accepts += 1;
    }
    if (this.length === this.accepted.length) this.grow();
    const t = this.length;
    this.draws[0][t] = this.current[0];
    this.draws[1][t] = this.current[1];
    this.proposals[0][t] = proposal[0];
    this.proposals[1][t] = proposal[1];
    this.accepted[t] = move ? 1 : 0;
    this.length += 1;
    return move;
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
export function metropolisChain(logDensity, start, chol, nSteps, rng) {
  const chain = new MetropolisChain(logDensity, start, chol, rng, nSteps);
  for (let t = 0; t < nSteps; t += 1) chain.step();
  return {
    draws: chain.draws.map((d) => d.slice(0, nSteps)),
    proposals: chain.proposals.map((d) => d.slice(0, nSteps)),
    accepted: chain.accepted.slice(0, nSteps),
    acceptRate: chain.acceptRate(),
  };
}
