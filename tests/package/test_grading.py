"""The grading of random answers (bayescomp.book.grading): the bound, its false-fail rate measured on
honest simulated students, the faults it must catch, and one variant per student.

Quick versions of the report's simulations (`make grading-report` runs many more students).
A rate is tested with a binomial bound: the test fails when the observed count of failed honest
students would have probability below 1e-3 were the true rate 1 %, so a rate above 1 % is
caught without the test ever being flaky (it is seeded, and the bound is far from the count
seen).
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp.book import grading, homework
from tools.course import simulate

ALLOWED = 0.01   # the false-fail rate the course allows


@pytest.fixture(scope="module")
def alice():
    return grading.logistic_reference(grading.logistic_settings(grading.student_variant("alice", "ps3")))


@pytest.fixture(scope="module")
def bob():
    return grading.logistic_reference(grading.logistic_settings(grading.student_variant("bob", "ps3")))


@pytest.fixture(scope="module")
def alice_key(alice):
    """The answer key of alice's Metropolis question: means and variances (bayescomp.book.homework)."""
    n_draws = simulate.CHAINS * (simulate.STEPS - simulate.WARMUP)
    return homework.key(grading.student_variant("alice", "ps3"), n_draws)


def assert_rate_at_most(fails, allowed=ALLOWED):
    count, trials = int(np.sum(fails)), np.size(fails)
    p_value = simulate.binomial_upper_tail(count, trials, allowed)
    assert p_value > 1e-3, (f"{count} of {trials} honest answers failed: more than {allowed:.0%} "
                            f"(binomial P = {p_value:.2g})")


# --- the bound ---------------------------------------------------------------------------------

def test_bound_has_the_stated_normal_tail():
    for rate in (0.01, 0.005, 1e-4):
        for k in (1, 2, 5):
            z = grading.z_bound(rate, k)
            assert grading.normal_false_fail_rate(z, k) == pytest.approx(rate, rel=1e-6)
    assert grading.normal_false_fail_rate(grading.z_bound(), 2) <= ALLOWED
    # A tighter rate means a wider bound; more components, a wider bound.
    assert grading.z_bound(0.001) > grading.z_bound(0.01)
    assert grading.z_bound(0.01, 2) > grading.z_bound(0.01, 1)


def test_bound_matches_a_normal_simulation():
    z = np.random.default_rng(0).standard_normal((200_000, 2))
    rate = np.mean(np.abs(z).max(axis=1) > grading.z_bound(0.01, 2))
    assert 0.009 < rate < 0.0105   # union bound 0.01; independent components 0.00998


@pytest.mark.parametrize("kwargs, message", [
    (dict(false_fail_rate=0.0), "false_fail_rate"), (dict(false_fail_rate=1.0), "false_fail_rate"),
    (dict(n_components=0), "n_components"), (dict(n_components=1.5), "n_components")])
def test_bound_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        grading.z_bound(**kwargs)


def test_false_fail_rate_bad_input():
    with pytest.raises(ValueError, match="bound"):
        grading.normal_false_fail_rate(-1.0)


@pytest.mark.parametrize("kwargs, message", [
    (dict(exact=[0.0]), "exact must have 2"),
    (dict(expected_mcse=[0.1, 0.0]), "expected_mcse must be > 0"),
    (dict(expected_mcse=[0.1]), "expected_mcse must have 2"),
    (dict(reported_mcse=[0.1, -0.1]), "reported_mcse must be > 0"),
    (dict(estimate=[np.nan, 0.0]), "estimate must contain only finite"),
    (dict(mcse_factor=1.0), "mcse_factor must be > 1"),
    (dict(names=["a"]), "names must have one name per component"),
    (dict(false_fail_rate=2.0), "false_fail_rate")])
def test_grade_bad_input(kwargs, message):
    args = dict(estimate=[0.0, 1.0], exact=[0.0, 1.0], expected_mcse=[0.1, 0.1]) | kwargs
    with pytest.raises(ValueError, match=message):
        grading.grade_estimate(**args)


def test_grade_messages_do_not_give_the_exact_value_away():
    grade = grading.grade_estimate([1.234, 5.0], [1.0, 5.0], [0.01, 0.01], [0.05, 0.01],
                                   names=["mean of a", "mean of b"])
    assert not grade.passed and len(grade.problems) == 2
    text = "\n".join(grade.problems)
    assert "mean of a" in text and "larger" in text and "mean of b" not in text
    for revealing in ("1.0", "23.4", "0.234"):
        assert revealing not in text
    with pytest.raises(grading.GradingError, match="mean of a"):
        grading.require(grade)
    assert grading.require(grading.grade_estimate(1.0, 1.0, 0.1)).passed


# --- exact references --------------------------------------------------------------------------

def test_logistic_reference_is_converged(alice):
    finer = grading.logistic_reference(alice.settings, resolution=361, half_width=13.0)
    assert np.abs(finer.grid.mean - alice.grid.mean).max() < 1e-6
    assert np.abs(finer.grid.sd - alice.grid.sd).max() < 1e-6


def test_logistic_reference_on_the_books_data_is_the_wide_box():
    # The design notes' wide box, on which the 241-point grid converges for the book's data.
    data, target = book.lecture_problem()
    wide = bc.grid_posterior(target.log_density, ((-4.0, 3.0), (-1.0, 4.5)), 241)
    ours = grading.logistic_reference(book.LectureSettings())
    assert np.abs(ours.grid.mean - wide.mean).max() < 1e-6


@pytest.fixture(scope="module")
def importance_students(alice):
    """250 honest importance samplers of 2,000 draws each (a short run: a weight ESS near 70)."""
    return simulate.importance_answers(alice, 2_000, 250, np.random.default_rng(2))


def test_importance_expected_mcse_is_the_spread_of_honest_estimates(alice, importance_students):
    answers = importance_students
    expected = grading.importance_expected_mcse(alice.grid, _prior_log_density(alice), 2_000)
    spread = answers.estimates.std(axis=0, ddof=1)
    # 250 estimates give their sd to about 5 %; the MCSEs the students report agree too.
    assert np.all(np.abs(spread / expected - 1) < 0.2)
    assert np.all(np.abs(np.median(answers.mcse, axis=0) / expected - 1) < 0.1)


def _prior_log_density(reference):
    mean, cov = simulate.prior_proposal(reference)
    return lambda theta: bc.gaussian_log_density(theta, mean, cov)


def test_expected_mcse_bad_input(alice):
    with pytest.raises(ValueError, match="grid must be a GridResult"):
        grading.importance_expected_mcse(None, _prior_log_density(alice), 10)
    with pytest.raises(ValueError, match="n_draws"):
        grading.importance_expected_mcse(alice.grid, _prior_log_density(alice), 0)
    with pytest.raises(ValueError, match="reference_draws must have shape"):
        grading.chain_expected_mcse(np.zeros((10, 2)), [1.0, 1.0], 10)
    with pytest.raises(ValueError, match="exact_sd must have 2"):
        grading.chain_expected_mcse(np.zeros((2, 10, 2)), [1.0], 10)
    with pytest.raises(ValueError, match="settings must be a LectureSettings"):
        grading.logistic_reference({"data_seed": 3})


# --- honest students pass, at most 1 % fail ------------------------------------------------------

def test_honest_importance_sampling_fails_at_most_one_percent(alice, importance_students):
    expected = grading.importance_expected_mcse(alice.grid, _prior_log_density(alice), 2_000)
    assert_rate_at_most(simulate.grade_all(importance_students, alice.grid.mean, expected))


def test_honest_metropolis_fails_at_most_one_percent(alice):
    answers = simulate.metropolis_answers(alice, 60, np.random.default_rng(4))
    # graded as ps3 grades it: its key, with its alpha
    assert_rate_at_most(simulate.grade_against_key(answers, grading.student_variant("alice", "ps3")))


def test_ps3_grades_with_its_own_alpha(alice_key):
    default = grading.z_bound(grading.FALSE_FAIL_RATE, 4)
    bound = alice_key.grade(alice_key.exact).bound
    assert alice_key.false_fail_rate == homework.PS3_FALSE_FAIL_RATE < grading.FALSE_FAIL_RATE
    assert bound == pytest.approx(grading.z_bound(homework.PS3_FALSE_FAIL_RATE, 4)) and bound > default
    # an estimate between the two bounds passes ps3's key and fails the package's default bound
    between = alice_key.exact + np.array([0.5 * (default + bound), 0, 0, 0]) * alice_key.expected_mcse
    assert alice_key.grade(between, alice_key.expected_mcse).passed
    assert not grading.grade_estimate(between, alice_key.exact, alice_key.expected_mcse).passed
    # the other assignments keep the package's alpha
    for name in ("ps2", "ps4", "ps7"):
        assert homework.key(grading.student_variant("alice", name), 10_000).false_fail_rate \
            == grading.FALSE_FAIL_RATE


# --- what must fail -------------------------------------------------------------------------------

@pytest.mark.parametrize("fault", ["squared ratio", "square-root ratio"])
def test_a_metropolis_with_a_wrong_acceptance_ratio_fails(fault):
    # On several students' data sets: the variance gives the fault away where the mean may not.
    for user in ("alice", "bob", "student01"):
        variant = grading.student_variant(user, "ps3")
        answers = simulate.metropolis_answers(homework.logistic_reference(variant), 2,
                                              np.random.default_rng(5), fault=fault)
        assert simulate.grade_against_key(answers, variant).all(), user


@pytest.mark.parametrize("factor", [3.0, 1 / 3])
def test_an_mcse_off_by_a_factor_of_3_fails(alice, alice_key, factor):
    answers = simulate.metropolis_answers(alice, 5, np.random.default_rng(6))
    exact, expected = alice_key.exact, alice_key.expected_mcse
    for estimate, mcse in zip(answers.estimates, answers.mcse):
        assert grading.grade_estimate(estimate, exact, expected, mcse).passed
        wrong = grading.grade_estimate(estimate, exact, expected, factor * mcse)
        assert not wrong.passed and "MCSE" in wrong.problems[0]


def test_the_books_own_answer_fails_every_variant(lecture):
    # The book's printed MCMC mean and MCSE, from the package (the lecture's seeds).
    book_mean, book_mcse = lecture.chains.draws.mean(axis=(0, 1)), bc.mcse(lecture.chains.draws)
    for user in ("alice", "bob", "carol", "dan", "erin"):
        reference = grading.logistic_reference(
            grading.logistic_settings(grading.student_variant(user, "ps3")))
        expected = reference.grid.sd * book_mcse / lecture.grid.sd   # generous: the book's own
        grade = grading.grade_estimate(book_mean, reference.grid.mean, expected, book_mcse)
        assert not grade.passed, user


def test_a_neighbours_numbers_fail(bob):
    answers = simulate.metropolis_answers(bob, 5, np.random.default_rng(7))
    assert simulate.grade_against_key(answers, grading.student_variant("alice", "ps3")).all()


# --- one variant per student ------------------------------------------------------------------------

def test_variants_are_stable_across_processes():
    code = "from bayescomp.book import grading; print(grading.student_variant('alice', 'ps3').seed)"
    seeds = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env=os.environ | {"PYTHONHASHSEED": str(salt)}).stdout for salt in (1, 2)}
    assert seeds == {f"{grading.student_variant('alice', 'ps3').seed}\n"}


def test_variants_differ_between_students_and_assignments():
    seeds = {grading.student_variant(user, a).seed for user in ("alice", "bob", "carol")
             for a in ("ps2", "ps3")}
    assert len(seeds) == 6 and min(seeds) >= 1000
    assert book.LectureSettings().data_seed < 1000   # so no variant is the book's data


@pytest.mark.parametrize("user, assignment, message", [
    ("", "ps2", "user"), ("alice", None, "assignment"), (3, "ps2", "user")])
def test_variant_bad_input(user, assignment, message):
    with pytest.raises(ValueError, match=message):
        grading.student_variant(user, assignment)


def test_an_edited_or_borrowed_variant_is_noticed():
    mine = grading.student_variant("alice", "ps2")
    assert grading.check_variant(mine, "alice") == mine
    for recorded in (mine._replace(seed=mine.seed + 1), grading.student_variant("bob", "ps2"),
                     mine._replace(user="bob")):
        with pytest.raises(grading.GradingError, match="alice"):
            grading.check_variant(recorded, "alice")
    with pytest.raises(grading.GradingError, match="Variant"):
        grading.check_variant((mine.user, mine.assignment, mine.seed), "alice")


def test_current_user_prefers_the_graders_name():
    assert grading.current_user({"BAYESCOMP_STUDENT": "bob", "JUPYTERHUB_USER": "alice"}) == "bob"
    assert grading.current_user({"JUPYTERHUB_USER": "alice"}) == "alice"
    assert grading.current_user({"BAYESCOMP_STUDENT": " "}) == __import__("getpass").getuser()


def test_variant_data_differ_from_the_books():
    variant = grading.student_variant("alice", "ps7")
    data = grading.eight_schools_data(variant)
    assert not np.allclose(data.y, bc.hierarchical_data().y)
    assert np.array_equal(data.sigma, bc.hierarchical_data().sigma)
    settings = grading.logistic_settings(variant)
    assert settings.data_seed == variant.seed and settings._replace(
        data_seed=12, theta_true=(-0.4, 1.3)) == book.LectureSettings()
    for function in (grading.eight_schools_data, grading.logistic_settings):
        with pytest.raises(ValueError, match="variant must be a Variant"):
            function(("alice", "ps7", 1234))
    with pytest.raises(ValueError, match="data must be a HierarchicalData"):
        grading.eight_schools_reference(None)
