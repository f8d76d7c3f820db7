"""Report (not a test): how often the homework's grading fails honest students, and how often
it catches the faults it must catch, over many simulated students.

Writes _build/reports/grading.md: for each assignment's Monte Carlo question, the share of
honest answers that fail (the false-fail rate, which must be at most 1 %; the bound's normal
tail is each key's alpha: bayescomp.book.grading.FALSE_FAIL_RATE, ps3's
bayescomp.book.homework.PS3_FALSE_FAIL_RATE), with a Wilson 95 % interval; then the share of
wrong answers that fail (a wrong acceptance ratio, an MCSE off by a factor of 3, the book's
own answer, a neighbour's numbers). The quick versions are in tests/package/test_grading.py.

Usage: python -m tools.course.rates [--students N]   (make grading-report; about 10 min)
"""
import argparse
import time

import numpy as np

import bayescomp as bc
from bayescomp import book
from bayescomp.book import grading, homework

from ..toc import ROOT
from . import simulate

REPORT = ROOT / "_build" / "reports" / "grading.md"
USERS = tuple(f"student{k:02d}" for k in range(1, 11))


def row(label, fails, must_fail):
    count, trials = int(np.sum(fails)), np.size(fails)
    value, (low, high) = count / trials, bc.wilson_interval(count, trials)
    # Honest answers: at most 1 % observed, and a Wilson interval that excludes 2 %.
    verdict = value >= 0.99 if must_fail else value <= 0.01 and high <= 0.02
    return (f"| {label} | {count} of {trials} | {value:.2%} | [{low:.2%}, {high:.2%}] | "
            f"{'ok' if verdict else 'NOT OK'} |")


def honest(name, n_students, rng):
    """Honest answers to ``name`` from each of USERS, with whether each failed its own key."""
    per_user = max(1, n_students // len(USERS))
    answers, fails = [], []
    for user in USERS:
        variant = grading.student_variant(user, name)
        if name == "ps2":
            reference = homework.logistic_reference(variant)
            got = simulate.importance_answers(reference, homework.PS2_MIN_DRAWS, per_user, rng)
        elif name == "ps3":
            got = simulate.metropolis_answers(homework.logistic_reference(variant), per_user, rng)
        elif name == "ps4":
            got = simulate.predictive_answers(variant, 20_000, per_user, rng)
        else:
            got = simulate.hierarchical_answers(variant, per_user, rng)
        answers.append((variant, got))
        fails.append(simulate.grade_against_key(got, variant))
    return answers, np.concatenate(fails)


def scaled_mcse(answers, factor):
    fails = [simulate.grade_against_key(got._replace(mcse=factor * got.mcse), variant)
             for variant, got in answers]
    return np.concatenate(fails)


def neighbours(answers):
    """Each user's honest answers graded against the next user's key."""
    fails = [simulate.grade_against_key(got, answers[(k + 1) % len(answers)][0])
             for k, (_, got) in enumerate(answers)]
    return np.concatenate(fails)


def wrong_ratio(n_students, rng):
    rows = []
    for fault in simulate.FAULTS[1:]:
        fails = []
        for user in USERS:
            variant = grading.student_variant(user, "ps3")
            got = simulate.metropolis_answers(homework.logistic_reference(variant),
                                              max(1, n_students // len(USERS)), rng, fault=fault)
            fails.append(simulate.grade_against_key(got, variant))
        rows.append(row(f"ps3, Metropolis with a {fault}", np.concatenate(fails), True))
    return rows


def books_answer(n_users):
    # The book's chains, answering ps3's question (means and variances) on the book's data.
    lecture = book.run_lecture(methods=("mcmc",))
    values = homework.mean_and_variance(lecture.chains.draws)
    estimate, mcse = values.mean(axis=(0, 1)), bc.mcse_mean(values)
    n_draws = lecture.chains.draws[..., 0].size
    fails = []
    for k in range(n_users):
        variant = grading.student_variant(f"reader{k:03d}", "ps3")
        key = homework.key(variant, n_draws)
        fails.append(not key.grade(estimate, mcse).passed)
    return np.array(fails)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=1000, help="honest students per assignment")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(20261202)
    start = time.perf_counter()
    lines = ["# Grading random answers: error rates", "",
             f"Written by `python -m tools.course.rates --students {args.students}`. The bound's "
             f"normal tail: {grading.FALSE_FAIL_RATE:.1%} of honest answers (all components "
             f"together; ps3, with four components from short chains: "
             f"{homework.PS3_FALSE_FAIL_RATE:.1%}); the course allows 1 %. A reported MCSE "
             f"passes within a factor "
             f"{grading.MCSE_FACTOR:g} of the expected one.", "",
             "| answers | failed | rate | Wilson 95 % | verdict |", "|---|---|---|---|---|"]
    REPORT.parent.mkdir(parents=True, exist_ok=True)

    def add(*new_lines):
        # The report is rewritten after every row, so a long run that stops keeps what it had.
        lines.extend(new_lines)
        print(*new_lines, sep="\n", flush=True)
        REPORT.write_text("\n".join(lines) + "\n")

    for name in homework.ASSIGNMENTS:
        answers, fails = honest(name, args.students, rng)
        add(row(f"{name}, honest ({homework.ASSIGNMENTS[name]})", fails, False))
        for factor in (3.0, 1 / 3):
            add(row(f"{name}, honest estimate, MCSE x {factor:.3g}",
                    scaled_mcse(answers, factor), True))
        add(row(f"{name}, a neighbour's honest answer", neighbours(answers), True))
    add(*wrong_ratio(max(50, args.students // 10), rng))
    add(row("ps3, the book's own MCMC answer, 20 variants", books_answer(20), True))
    add("", f"{time.perf_counter() - start:.0f} s in all.")


if __name__ == "__main__":
    main()
