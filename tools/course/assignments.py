"""Write the course's nbgrader source notebooks, course/source/<name>/<name>.ipynb.

The notebooks are generated from the cell lists below, so that the four assignments share one
layout: a locked first cell that makes the student's variant, then questions of three kinds:
exact answers (code checked against the package to tight tolerances), one Monte Carlo answer
(an estimate with its MCSE, graded by bayescomp.book.homework against the variant's exact
reference), and one short written answer, graded by hand with the rubric in its solution.
Solutions sit between nbgrader's ``### BEGIN SOLUTION`` / ``### END SOLUTION`` markers, hidden
tests between ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS``.

Usage: python -m tools.course.assignments          (rewrite the notebooks)
       python -m tools.course.assignments --check  (exit 1 if a committed notebook is stale)
"""
import argparse
import sys

import nbformat

from ..toc import ROOT

COURSE = ROOT / "course"
SOURCE = COURSE / "source"


def _cell(kind, source, grade_id, grade=False, solution=False, locked=True, points=None):
    make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    cell = make(source.strip("\n"), id=grade_id, metadata={"nbgrader": meta})
    return cell


def text(grade_id, source):
    """Instructions (read-only)."""
    return _cell("markdown", source, grade_id)


def given(grade_id, source):
    """Code the student runs but does not change (read-only)."""
    return _cell("code", source, grade_id)


def answer(grade_id, source):
    """Code with a solution region."""
    return _cell("code", source, grade_id, solution=True, locked=False)


def tests(grade_id, points, source):
    """A test cell: the visible "check my answer" lines, then the hidden tests."""
    return _cell("code", source, grade_id, grade=True, points=points)


def written(grade_id, points, source):
    """A written answer, graded by hand: the model answer and rubric are its solution."""
    return _cell("markdown", source, grade_id, grade=True, solution=True, locked=False,
                 points=points)


def first_cell(name):
    return given(f"{name}-variant", f"""
import numpy as np
import bayescomp as bc
from bayescomp.book import homework

# Your own variant, from your hub user name. The grader re-derives it from the name of the
# submission's owner, so do not change VARIANT anywhere in this notebook.
VARIANT = homework.start("{name}")
""")


MONTE_CARLO_RULE = """
Your Monte Carlo answer is graded against the exact answer of **your** variant, in units of the
Monte Carlo standard error that an honest run of your length has: it passes when every component
lies within the bound the check prints (about 3 MCSEs; an honest run fails less than 1 % of the
time). Your own MCSE must lie within a factor of 2 of the expected one. A fixed seed of your
choice is fine; a different seed must give an answer that passes too.
"""


def ps2():
    return [
        text("ps2-intro", """
# Assignment 2: importance sampling

Chapter 2 reweighted draws from a proposal. Here you estimate the posterior mean of **your own**
data set (made from your variant) with the prior as the proposal.

Run the cells in order. Each "check" cell tells you what is wrong without giving the answer away;
the grader runs further, hidden tests."""),
        first_cell("ps2"),
        given("ps2-problem", """
data, target, settings = homework.logistic_problem(VARIANT)
print(f"{len(data.y)} observations, prior variance {settings.prior_var}")
"""),
        text("ps2-q1", """
## 1. The log weight (exact; 2 points)

Write `log_weights(theta)`: $\\log\\tilde p(\\theta) - \\log q(\\theta)$ for the proposal
$q = N(0, \\tau^2 I)$ with $\\tau^2$ = `settings.prior_var`, for `theta` of shape `(n, 2)`.
Then show, as code, that with the prior as proposal the log weight is the log-likelihood plus a
constant."""),
        answer("ps2-a1", """
def log_weights(theta):
    ### BEGIN SOLUTION
    prior = bc.gaussian_log_density(theta, np.zeros(2), settings.prior_var * np.eye(2))
    return target.log_density(theta) - prior
    ### END SOLUTION
"""),
        tests("ps2-t1", 2, """
points = np.random.default_rng(0).normal(size=(50, 2))
assert np.shape(log_weights(points)) == (50,), "log_weights must return one value per row of theta"
### BEGIN HIDDEN TESTS
key_data, key_target, key_settings = homework.logistic_problem(VARIANT)
eta = points @ key_data.design.T
log_likelihood = np.sum(key_data.y * eta - np.logaddexp(0.0, eta), axis=-1)
assert np.ptp(log_weights(points) - log_likelihood) < 1e-8, "not the log-likelihood plus a constant"
### END HIDDEN TESTS
"""),
        text("ps2-q2", """
## 2. The weight ESS (exact; 1 point)

Write `ess(weights)` for self-normalized weights (they sum to one)."""),
        answer("ps2-a2", """
def ess(weights):
    ### BEGIN SOLUTION
    return 1.0 / np.sum(np.asarray(weights) ** 2)
    ### END SOLUTION
"""),
        tests("ps2-t2", 1, """
assert np.isclose(ess(np.full(8, 1 / 8)), 8.0), "equal weights: the ESS is the number of draws"
### BEGIN HIDDEN TESTS
w = np.random.default_rng(1).random(100)
w /= w.sum()
assert np.isclose(ess(w), bc.weight_ess(w), rtol=1e-12)
assert np.isclose(ess(np.r_[1.0, np.zeros(9)]), 1.0)
### END HIDDEN TESTS
"""),
        text("ps2-q3", """
## 3. The posterior mean, by importance sampling (Monte Carlo; 4 points)

Draw at least 20,000 points from the prior with `rng`, weight them with `log_weights`, and set
`draws` (shape `(n_draws, 2)`), `weights` (normalized), `estimate` (the weighted mean, shape
`(2,)`), `mcse` (its delta-method standard error, shape `(2,)`) and `n_draws`.
""" + MONTE_CARLO_RULE),
        answer("ps2-a3", """
rng = np.random.default_rng(2026)
### BEGIN SOLUTION
n_draws = 20_000
draws = rng.multivariate_normal(np.zeros(2), settings.prior_var * np.eye(2), n_draws)
log_w = log_weights(draws)
weights = np.exp(log_w - log_w.max())
weights /= weights.sum()
estimate = weights @ draws
mcse = np.sqrt(weights**2 @ (draws - estimate) ** 2)
### END SOLUTION
print("estimate", estimate, "MCSE", mcse, "ESS", ess(weights))
"""),
        tests("ps2-t3", 4, """
assert np.shape(draws) == (n_draws, 2), "draws must have shape (n_draws, 2)"
assert np.allclose(weights @ draws, estimate), "estimate must be the weighted mean of draws"
homework.check(VARIANT, estimate, mcse, n_draws)
### BEGIN HIDDEN TESTS
homework.grade(VARIANT, estimate, mcse, n_draws)
### END HIDDEN TESTS
"""),
        text("ps2-q4", """
## 4. Written answer (graded by hand; 2 points)

Your ESS is a small share of your 20,000 draws. In two to four sentences: why, and why would a
Gaussian proposal centred at the mode, with the Laplace covariance, not be safe to use without a
further check?"""),
        written("ps2-w4", 2, """
### BEGIN SOLUTION
*Model answer.* The prior is much wider than the posterior, so most draws land where the
likelihood is tiny and carry almost no weight; only the few near the posterior count. The Laplace
Gaussian puts its draws where the posterior is, but its tails may be lighter than the
posterior's (the posterior here is skewed): then the weights have infinite variance, the rare
draw in the heavy tail dominates, and the ESS and the MCSE can look good while being wrong.
Check with Pareto k-hat, or use a wider, heavier-tailed (Student-t or defensive) proposal.

*Rubric (2 points).* 1 point: the prior's mass lies mostly where the likelihood is negligible,
so few draws carry the weight. 1 point: light proposal tails relative to the target make the
weight variance infinite (or the ESS unreliable), with a remedy or a check named (k-hat,
t or defensive proposal). No point for "more draws" alone.
### END SOLUTION
"""),
    ]


def ps3():
    return [
        text("ps3-intro", """
# Assignment 3: Markov chain Monte Carlo

Chapter 3 built random-walk Metropolis. Here you write the acceptance step yourself, run four
chains on **your own** data set, and report the posterior means and variances with their MCSEs."""),
        first_cell("ps3"),
        given("ps3-problem", """
data, target, settings = homework.logistic_problem(VARIANT)
laplace = bc.laplace_approximation(target, np.zeros(2))
proposal_chol = 1.1 * np.linalg.cholesky(laplace.cov)
starts = np.array(settings.mcmc_starts)
"""),
        text("ps3-q1", """
## 1. The acceptance probability (exact; 2 points)

Write `accept_probability(log_p_current, log_p_proposal)`: the probability that random-walk
Metropolis accepts the proposal. It must work on arrays, and never overflow."""),
        answer("ps3-a1", """
def accept_probability(log_p_current, log_p_proposal):
    ### BEGIN SOLUTION
    difference = np.asarray(log_p_proposal, dtype=float) - np.asarray(log_p_current, dtype=float)
    return np.exp(np.minimum(difference, 0.0))
    ### END SOLUTION
"""),
        tests("ps3-t1", 2, """
assert np.isclose(accept_probability(0.0, -np.log(2.0)), 0.5), "a proposal half as likely: 1/2"
### BEGIN HIDDEN TESTS
current, proposal = np.random.default_rng(3).normal(scale=5, size=(2, 100))
assert np.allclose(accept_probability(current, proposal), np.minimum(1, np.exp(proposal - current)))
with np.errstate(over="raise"):
    assert accept_probability(-1000.0, 1000.0) == 1.0, "an uphill move is always accepted"
### END HIDDEN TESTS
"""),
        text("ps3-q2", """
## 2. Four chains (Monte Carlo; 4 points)

Write a Metropolis sampler that uses your `accept_probability` and the proposal
$\\theta' = \\theta + L\\varepsilon$ with `proposal_chol` as $L$. Run one chain from each row of
`starts` for 3,000 steps, drop the first 1,000 of each, and set `chains` (shape `(4, 2000, 2)`),
`estimate`: the posterior means and variances $(E[\\theta_0], E[\\theta_1], \\mathrm{Var}[\\theta_0],
\\mathrm{Var}[\\theta_1])$, each as the average of a column of `values` (the draws, and their
squared deviations from their pooled mean: shape `(4, 2000, 4)`), `mcse` (`bc.mcse_mean(values)`)
and `n_draws` (all kept draws).
""" + MONTE_CARLO_RULE),
        answer("ps3-a2", """
rng = np.random.default_rng(2026)
### BEGIN SOLUTION
def metropolis(start, n_steps):
    position, value = np.array(start, dtype=float), target.log_density(start)
    draws = np.empty((n_steps, 2))
    for step in range(n_steps):
        proposal = position + proposal_chol @ rng.standard_normal(2)
        proposed = target.log_density(proposal)
        if rng.random() < accept_probability(value, proposed):
            position, value = proposal, proposed
        draws[step] = position
    return draws

chains = np.stack([metropolis(start, 3_000)[1_000:] for start in starts])
values = np.concatenate([chains, (chains - chains.mean(axis=(0, 1))) ** 2], axis=-1)
estimate = values.mean(axis=(0, 1))
mcse = bc.mcse_mean(values)
n_draws = chains[..., 0].size
### END SOLUTION
print("estimate", estimate)
print("MCSE", mcse)
print("R-hat", bc.rank_normalized_rhat(chains))
"""),
        tests("ps3-t2", 4, """
assert np.shape(chains) == (4, 2000, 2), "chains must have shape (4, 2000, 2)"
assert np.allclose(chains.mean(axis=(0, 1)), estimate[:2]), "estimate[:2]: the means of chains"
assert np.allclose(chains.reshape(-1, 2).var(axis=0), estimate[2:]), "estimate[2:]: the variances"
homework.check(VARIANT, estimate, mcse, n_draws)
### BEGIN HIDDEN TESTS
assert n_draws == chains[..., 0].size
homework.grade(VARIANT, estimate, mcse, n_draws)
### END HIDDEN TESTS
"""),
        text("ps3-q3", """
## 3. Written answer (graded by hand; 2 points)

Your chains accept about half of their proposals. In two to four sentences: why does that not
show that they have converged, and what would?"""),
        written("ps3-w3", 2, """
### BEGIN SOLUTION
*Model answer.* The acceptance rate is a property of the proposal's step size relative to the
local shape of the target; a chain stuck in one region, or not yet out of its start, can accept
just as often. Convergence is judged by comparing chains started apart: split (rank-normalized)
R-hat near 1 (below 1.01), enough bulk and tail ESS (above 400), and traces that overlap.

*Rubric (2 points).* 1 point: acceptance measures the step against the local scale, not
exploration (an example: a stuck or a tiny-step chain accepts often). 1 point: names a
multi-chain check (R-hat, ESS, overlapping traces or rank plots) with its threshold or meaning.
### END SOLUTION
"""),
    ]


def ps4():
    return [
        text("ps4-intro", """
# Assignment 4: Laplace and variational inference

Chapter 4 fitted Gaussians to the posterior. Here you find the mode of **your own** posterior by
Newton's method, write the probit formula, and check it against a Monte Carlo average under the
Laplace Gaussian."""),
        first_cell("ps4"),
        given("ps4-problem", """
data, target, settings = homework.logistic_problem(VARIANT)
x_new = np.array([-2.0, 0.0, 2.0])
"""),
        text("ps4-q1", """
## 1. Newton's method (exact; 2 points)

Write `newton(start, n_steps)`: $\\theta \\leftarrow \\theta + H(\\theta)^{-1}\\nabla\\log\\tilde
p(\\theta)$, with `target.grad_log_density` and `target.neg_hessian` ($H$). Then set `mode`
(12 steps from zero) and `cov` ($H^{-1}$ at the mode)."""),
        answer("ps4-a1", """
def newton(start, n_steps):
    ### BEGIN SOLUTION
    theta = np.array(start, dtype=float)
    for _ in range(n_steps):
        theta = theta + np.linalg.solve(target.neg_hessian(theta), target.grad_log_density(theta))
    return theta
    ### END SOLUTION

mode = newton(np.zeros(2), 12)
### BEGIN SOLUTION
cov = np.linalg.inv(target.neg_hessian(mode))
### END SOLUTION
"""),
        tests("ps4-t1", 2, """
assert np.shape(mode) == (2,) and np.shape(cov) == (2, 2), "mode has shape (2,), cov (2, 2)"
assert np.allclose(cov, cov.T), "a covariance is symmetric"
### BEGIN HIDDEN TESTS
key = homework.logistic_reference(VARIANT).laplace
assert np.allclose(mode, key.mean, atol=1e-8), "not the mode"
assert np.allclose(cov, key.cov, atol=1e-8), "not the inverse Hessian at the mode"
### END HIDDEN TESTS
"""),
        text("ps4-q2", """
## 2. The probit formula (closed form; 2 points)

Write `probit(x_new, mean, cov)`: the approximation
$\\sigma\\big(m/\\sqrt{1 + \\pi s^2/8}\\big)$ of $E[\\sigma(z^\\top\\theta)]$ under
$\\theta \\sim N(\\mu, \\Sigma)$, with $z = (1, x)$, $m = z^\\top\\mu$ and $s^2 = z^\\top\\Sigma z$."""),
        answer("ps4-a2", """
def probit(x_new, mean, cov):
    ### BEGIN SOLUTION
    z = np.column_stack([np.ones(len(x_new)), x_new])
    m, s2 = z @ mean, np.einsum("ki,ij,kj->k", z, cov, z)
    return bc.sigmoid(m / np.sqrt(1 + np.pi * s2 / 8))
    ### END SOLUTION
"""),
        tests("ps4-t2", 2, """
assert np.shape(probit(x_new, mode, cov)) == (3,), "one probability per x"
### BEGIN HIDDEN TESTS
key = homework.logistic_reference(VARIANT).laplace
assert np.allclose(probit(x_new, key.mean, key.cov), bc.probit_predictive(x_new, key.mean, key.cov),
                   rtol=1e-12)
### END HIDDEN TESTS
"""),
        text("ps4-q3", """
## 3. The Laplace predictive by sampling (Monte Carlo; 3 points)

Average $\\sigma(z^\\top\\theta)$ over at least 10,000 draws $\\theta \\sim N$(`mode`, `cov`) at the
three `x_new`. Set `estimate` (shape `(3,)`), `mcse` (the standard error of each average) and
`n_draws`. Compare with `probit(x_new, mode, cov)`.
""" + MONTE_CARLO_RULE),
        answer("ps4-a3", """
rng = np.random.default_rng(2026)
### BEGIN SOLUTION
n_draws = 20_000
theta = rng.multivariate_normal(mode, cov, n_draws)
values = bc.sigmoid(theta @ np.vstack([np.ones(3), x_new]))
estimate = values.mean(axis=0)
mcse = values.std(axis=0, ddof=1) / np.sqrt(n_draws)
### END SOLUTION
print("sampled", estimate, "MCSE", mcse, "probit", probit(x_new, mode, cov))
"""),
        tests("ps4-t3", 3, """
homework.check(VARIANT, estimate, mcse, n_draws)
### BEGIN HIDDEN TESTS
homework.grade(VARIANT, estimate, mcse, n_draws)
### END HIDDEN TESTS
"""),
        text("ps4-q4", """
## 4. Written answer (graded by hand; 2 points)

Mean-field VI on this posterior reports marginal sds smaller than the grid's. In two to four
sentences: why, and which way does it bias a predictive probability near 0.9?"""),
        written("ps4-w4", 2, """
### BEGIN SOLUTION
*Model answer.* Mean-field VI minimizes KL(q || p) over independent Gaussians; with correlated
parameters the best such q matches the conditional widths (the precision's diagonal), which are
narrower than the marginal ones, and reverse KL penalizes mass where p is small, so q stays
inside p. A too-narrow posterior averages the sigmoid over too little uncertainty, which pushes
the predictive towards the plug-in value: a probability near 0.9 comes out too close to the
plug-in one (overconfident, usually a little too high).

*Rubric (2 points).* 1 point: mean-field with correlation matches the conditional (precision)
widths, or reverse KL is zero-forcing. 1 point: the predictive moves towards the plug-in value,
overconfident.
### END SOLUTION
"""),
    ]


def ps7():
    return [
        text("ps7-intro", """
# Assignment 7: a hierarchical model

Chapter 7 ran the eight schools. Here **your own** year of eight schools (from your variant):
one closed form, then the hyperparameters by non-centred random-walk Metropolis."""),
        first_cell("ps7"),
        given("ps7-problem", """
problem = homework.eight_schools(VARIANT)
data = problem.data
print("y =", data.y, "sigma =", data.sigma)
"""),
        text("ps7-q1", """
## 1. $\\mu$ given $\\tau$ (exact; 3 points)

Integrating out each $\\theta_j$ gives $y_j \\mid \\mu, \\tau \\sim N(\\mu, \\sigma_j^2 + \\tau^2)$.
With the prior $\\mu \\sim N(0, 5^2)$ (`data.mu_prior_sd`), write `mu_given_tau(tau)`: the mean
and variance of $\\mu \\mid \\tau, y$, for an array of `tau` values."""),
        answer("ps7-a1", """
def mu_given_tau(tau):
    ### BEGIN SOLUTION
    total = data.sigma**2 + np.asarray(tau, dtype=float)[:, None] ** 2
    var = 1.0 / (1.0 / data.mu_prior_sd**2 + (1.0 / total).sum(axis=1))
    return var * (data.y / total).sum(axis=1), var
    ### END SOLUTION
"""),
        tests("ps7-t1", 3, """
mean, var = mu_given_tau(np.array([0.5, 5.0, 50.0]))
assert np.shape(mean) == (3,) and np.shape(var) == (3,), "one mean and one variance per tau"
assert np.all(np.diff(var) > 0), "a wider tau leaves mu less certain"
### BEGIN HIDDEN TESTS
tau = np.exp(np.linspace(-5, 5, 21))
key = bc.conditional_moments(homework.eight_schools(VARIANT).data, np.log(tau))
mean, var = mu_given_tau(tau)
assert np.allclose(mean, key.mu_mean, rtol=1e-10) and np.allclose(var, key.mu_var, rtol=1e-10)
### END HIDDEN TESTS
"""),
        text("ps7-q2", """
## 2. The hyperparameters by Metropolis (Monte Carlo; 4 points)

Run four chains of random-walk Metropolis on the non-centred target
(`bc.hierarchical_target(data, "non-centred")`), with the diagonal proposal
`np.diag(problem.proposal_sd)` and the starts `homework.eight_schools_starts(VARIANT)`, for
6,000 steps, dropping 2,000. Set `estimate` $= (E[\\mu], E[\\log\\tau])$, `mcse` (with
`bc.mcse_mean`) and `n_draws`. You may use `bc.run_metropolis_chains`.
""" + MONTE_CARLO_RULE),
        answer("ps7-a2", """
rngs = [np.random.default_rng(2026 + c) for c in range(4)]
### BEGIN SOLUTION
target = bc.hierarchical_target(data, "non-centred")
run = bc.run_metropolis_chains(target, homework.eight_schools_starts(VARIANT),
                    np.diag(problem.proposal_sd), 6_000, rngs, 2_000)
hyper = run.draws[..., :2]
estimate = hyper.mean(axis=(0, 1))
mcse = bc.mcse_mean(hyper)
n_draws = hyper[..., 0].size
### END SOLUTION
print("E[mu], E[log tau]:", estimate, "MCSE", mcse)
"""),
        tests("ps7-t2", 4, """
homework.check(VARIANT, estimate, mcse, n_draws)
### BEGIN HIDDEN TESTS
homework.grade(VARIANT, estimate, mcse, n_draws)
### END HIDDEN TESTS
"""),
        text("ps7-q3", """
## 3. Written answer (graded by hand; 2 points)

In two to four sentences: why does a sampler on the centred form visit small $\\tau$ too rarely,
and why does the non-centred form help?"""),
        written("ps7-w3", 2, """
### BEGIN SOLUTION
*Model answer.* In the centred form, as tau shrinks the theta_j are squeezed within about tau
of mu: the posterior is a funnel whose neck is far narrower than its mouth, and a step size fit
to the mouth is rejected (or, in HMC, diverges) in the neck, so the chain rarely enters it and
over-estimates tau. In the non-centred form eta_j = (theta_j - mu)/tau has a prior that does
not depend on tau, so the geometry has no neck and one step size fits everywhere.

*Rubric (2 points).* 1 point: the funnel (the conditional width of theta_j shrinks with tau)
and a fixed step that cannot fit both ends. 1 point: the non-centred coordinates remove the
dependence of the scale on tau.
### END SOLUTION
"""),
    ]


ASSIGNMENTS = {"ps2": ps2, "ps3": ps3, "ps4": ps4, "ps7": ps7}


def notebook(name):
    """The source notebook of assignment ``name``."""
    nb = nbformat.v4.new_notebook(cells=ASSIGNMENTS[name]())
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                  "language": "python"},
                   "language_info": {"name": "python"}}
    return nb


def path(name):
    return SOURCE / name / f"{name}.ipynb"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the committed notebooks")
    args = parser.parse_args(argv)
    stale = []
    for name in ASSIGNMENTS:
        written_text = nbformat.writes(notebook(name)) + "\n"
        target = path(name)
        if args.check:
            if not target.exists() or target.read_text() != written_text:
                stale.append(str(target.relative_to(ROOT)))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(written_text)
    if stale:
        print("stale (run python -m tools.course.assignments):", *stale, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
