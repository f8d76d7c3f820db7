"""The assignments' answer keys and checks (bayescomp.book.homework): whose work it is under
nbgrader's autograde, what the visible and hidden checks accept and refuse."""
import numpy as np
import pytest

import bayescomp as bc
from bayescomp.book import grading, homework


@pytest.fixture
def as_alice(monkeypatch):
    monkeypatch.setenv("BAYESCOMP_STUDENT", "alice")
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


def predictive_answer(variant, n_draws, seed):
    """An honest answer to ps4's Monte Carlo question."""
    laplace = homework.logistic_reference(variant).laplace
    theta = np.random.default_rng(seed).multivariate_normal(laplace.mean, laplace.cov, n_draws)
    values = bc.sigmoid(theta @ np.vstack([np.ones(3), homework.PS4_X_NEW]))
    return values.mean(axis=0), values.std(axis=0, ddof=1) / np.sqrt(n_draws), n_draws


def test_the_student_under_autograde_is_the_folders_owner(tmp_path):
    folder = tmp_path / "autograded" / "bob" / "ps2"
    folder.mkdir(parents=True)
    environ = {"NBGRADER_EXECUTION": "autograde", "JUPYTERHUB_USER": "teacher"}
    assert homework.student(environ, folder) == "bob"
    assert homework.student(environ | {"BAYESCOMP_STUDENT": "carol"}, folder) == "carol"
    with pytest.raises(grading.GradingError, match="autograded/<student>/<assignment>"):
        homework.student(environ, tmp_path)
    # When a student validates their own work, the hub's name is theirs.
    assert homework.student({"NBGRADER_EXECUTION": "validate", "JUPYTERHUB_USER": "dan"}) == "dan"


def test_start_names_the_assignment(as_alice, capsys):
    assert homework.start("ps4") == grading.student_variant("alice", "ps4")
    assert "alice" in capsys.readouterr().out
    with pytest.raises(ValueError, match="assignment must be one of"):
        homework.start("ps5")


def test_exact_gaussian_predictive_against_sampling():
    mean, cov = np.array([-0.3, 1.4]), np.array([[0.1, -0.02], [-0.02, 0.08]])
    exact, sd = homework.gaussian_predictive_exact([-2.0, 0.0, 2.0], mean, cov)
    theta = np.random.default_rng(0).multivariate_normal(mean, cov, 400_000)
    values = bc.sigmoid(theta @ np.vstack([np.ones(3), [-2.0, 0.0, 2.0]]))
    assert np.all(np.abs(values.mean(axis=0) - exact) < 4 * sd / np.sqrt(len(theta)))
    assert np.allclose(values.std(axis=0), sd, rtol=0.01)
    finer, _ = homework.gaussian_predictive_exact([-2.0, 0.0, 2.0], mean, cov, n_nodes=160)
    assert np.abs(finer - exact).max() < 1e-12


def test_an_honest_answer_passes_the_check_and_the_grade(as_alice, capsys):
    variant = grading.student_variant("alice", "ps4")
    answer = predictive_answer(variant, 20_000, 1)
    homework.check(variant, *answer)
    assert "passed" in capsys.readouterr().out
    assert homework.grade(variant, *answer) is None


def test_a_neighbours_answer_fails(as_alice):
    mine, theirs = grading.student_variant("alice", "ps4"), grading.student_variant("bob", "ps4")
    copied = predictive_answer(theirs, 20_000, 1)
    with pytest.raises(grading.GradingError, match="farther from the exact value"):
        homework.check(mine, *copied)
    # Borrowing the neighbour's variant as well is noticed by the hidden test.
    with pytest.raises(grading.GradingError, match="not the one of user 'alice'"):
        homework.grade(theirs, *copied)


def test_the_hidden_test_wants_the_run_length_and_a_plausible_mcse(as_alice):
    variant = grading.student_variant("alice", "ps4")
    short = predictive_answer(variant, 2_000, 2)
    homework.check(variant, *short)      # the visible check does not judge the length
    with pytest.raises(grading.GradingError, match="at least 10,000 draws"):
        homework.grade(variant, *short)
    estimate, mcse, n_draws = predictive_answer(variant, 20_000, 3)
    with pytest.raises(grading.GradingError, match="your MCSE"):
        homework.grade(variant, estimate, 3 * mcse, n_draws)


@pytest.mark.parametrize("answer, message", [
    ((None, [0.1, 0.1, 0.1], 100), "estimate must be 3 finite numbers; got nothing"),
    (([0.1, 0.2], [0.1, 0.1, 0.1], 100), r"estimate must be 3 finite numbers; got shape \(2,\)"),
    (([0.1, 0.2, 0.3], [0.1, 0.0, 0.1], 100), "every mcse must be > 0"),
    (([0.1, 0.2, 0.3], [0.1, 0.1, 0.1], 1.5), "n_draws must be the number of draws")])
def test_a_malformed_answer_is_named(as_alice, answer, message):
    with pytest.raises(grading.GradingError, match=message):
        homework.check(grading.student_variant("alice", "ps4"), *answer)


def test_a_variant_of_another_assignment_or_none_is_refused(as_alice):
    with pytest.raises(grading.GradingError, match="the Variant the first cell makes"):
        homework.check(("alice", "ps4", 1234), [0.1] * 3, [0.1] * 3, 100)
    with pytest.raises(grading.GradingError, match="not of 'ps7'"):
        homework.eight_schools(grading.student_variant("alice", "ps4"))
