"""A class of ten simulated students through nbgrader's exchange, on assignment ps4 (about
2 CPU minutes: with the hub's tests, the last part of `make check`, and `make hub`).

The teacher generates and releases ps4 into an exchange folder; each student fetches it into a
home of their own, answers it in one of the ways a class does, and submits it; the teacher
collects, autogrades and exports. The grades must be what each kind of answer earns, a broken
submission must not stop the others, and every submitted file must still be there.

What this leaves out (TEACHING.md, "Homework"): the hub itself. The students here are processes
with a ``--student`` name, not hub users with servers of their own and one system user each, so
nothing here tests who can read whose files.
"""
import copy
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest

from bayescomp.book import grading, homework
from tools.course import assignments

NAME = "ps4"
# The automatic points of ps4's questions: exact (2), closed form (2), Monte Carlo (3).
POINTS = {"ps4-t1": 2, "ps4-t2": 2, "ps4-t3": 3}
ALL = sum(POINTS.values())
MONTE_CARLO = "ps4-a3"


def honest_numbers(user):
    """An honest answer to ps4's Monte Carlo question for ``user``: estimate, MCSE."""
    laplace = homework.logistic_reference(grading.student_variant(user, NAME)).laplace
    theta = np.random.default_rng(5).multivariate_normal(laplace.mean, laplace.cov, 20_000)
    values = 1 / (1 + np.exp(-(theta @ np.vstack([np.ones(3), homework.PS4_X_NEW]))))
    return values.mean(axis=0), values.std(axis=0, ddof=1) / np.sqrt(len(theta))


def literal(array):
    return "np.array([" + ", ".join(repr(float(v)) for v in array) + "])"


def correct(nb, solutions):
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata["nbgrader"].get("solution") and cell.cell_type == "code":
            cell.source = solutions[grade_id]
    return nb


def replace_monte_carlo(nb, source):
    for cell in nb.cells:
        if cell.metadata["nbgrader"].get("grade_id") == MONTE_CARLO:
            cell.source = source
    return nb


def biased(nb, solutions):
    # Samples a Gaussian without the correlation: the predictive is biased.
    nb = correct(nb, solutions)
    text = solutions[MONTE_CARLO].replace("multivariate_normal(mode, cov, n_draws)",
                                          "multivariate_normal(mode, np.diag(np.diag(cov)), n_draws)")
    assert text != solutions[MONTE_CARLO]
    return replace_monte_carlo(nb, text)


def wrong_mcse(nb, solutions):
    nb = correct(nb, solutions)
    return replace_monte_carlo(nb, solutions[MONTE_CARLO] + "\nmcse = 3 * mcse")


def copied_from(neighbour):
    def answer(nb, solutions):
        nb = correct(nb, solutions)
        estimate, mcse = honest_numbers(neighbour)
        return replace_monte_carlo(nb, f"estimate = {literal(estimate)}\nmcse = {literal(mcse)}\n"
                                       f"n_draws = 20_000")
    return answer


def cell_deleted(nb, solutions):
    # The closed-form question's answer cell deleted: its test and the print after it fail.
    nb = correct(nb, solutions)
    nb.cells = [c for c in nb.cells if c.metadata["nbgrader"].get("grade_id") != "ps4-a2"]
    return nb


# Ten students: what each does, and the automatic points each should get (None: no row of
# points, the submission could not be graded or was not made).
CLASS = {
    "ana": (correct, ALL),
    "ben": (correct, ALL),
    "cleo": (biased, ALL - POINTS["ps4-t3"]),
    "dev": (wrong_mcse, ALL - POINTS["ps4-t3"]),
    "eli": (copied_from("ana"), ALL - POINTS["ps4-t3"]),
    "fay": (cell_deleted, ALL - POINTS["ps4-t2"]),
    "gus": ("half-written", 0),
    "hal": (None, 0),                 # never submits
    "ivy": (lambda nb, solutions: nb, 0),   # submits the copy as fetched
    "jo": (correct, ALL),
}


def run(*args, cwd, env):
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)
    return done


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    root = tmp_path_factory.mktemp("term")
    course, exchange = root / "course", root / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)
    shutil.copytree(assignments.SOURCE / NAME, course / "source" / NAME)
    shutil.copy(assignments.COURSE / "nbgrader_config.py", course)
    env = os.environ | {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("BAYESCOMP_STUDENT", None)
    ex = f"--Exchange.root={exchange}"

    def teacher(*args):
        done = run(*args, ex, cwd=course, env=env)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done

    for student in CLASS:
        teacher("db", "student", "add", student)
    teacher("generate_assignment", NAME, "--force")
    teacher("release_assignment", NAME, "--force")
    source = nbformat.read(course / "source" / NAME / f"{NAME}.ipynb", as_version=4)
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
                 if c.metadata["nbgrader"].get("solution")}
    submitted = {}
    for student, (answer, _) in CLASS.items():
        home = root / "home" / student
        home.mkdir(parents=True)
        done = run("fetch_assignment", NAME, "--course", "bayescomp", ex, cwd=home, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        path = home / NAME / f"{NAME}.ipynb"
        if answer is None:
            continue
        if answer == "half-written":
            text = path.read_text()
            path.write_text(text[:len(text) // 2])
        else:
            nb = answer(copy.deepcopy(nbformat.read(path, as_version=4)), solutions)
            nbformat.write(nb, path)
        done = run("submit", NAME, "--course", "bayescomp", f"--student={student}", ex,
                   cwd=home, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        submitted[student] = path.read_bytes()
    teacher("collect", NAME)
    graded = run("autograde", NAME, ex, cwd=course, env=env)
    teacher("export")
    with open(course / "grades.csv") as f:
        grades = {row["student_id"]: row for row in csv.DictReader(f)}
    return course, grades, graded, submitted


def test_every_student_gets_what_their_answer_earns(term):
    _, grades, graded, _ = term
    got = {student: float(grades[student]["score"]) for student in CLASS}
    expected = {student: float(points) for student, (_, points) in CLASS.items()}
    assert got == expected, graded.stdout[-2000:] + graded.stderr[-4000:]


def test_a_broken_submission_is_named_and_the_rest_are_graded(term):
    course, _, graded, _ = term
    log = graded.stdout + graded.stderr
    assert "gus" in log and "error" in log.lower()
    for student, (answer, _) in CLASS.items():
        autograded = course / "autograded" / student / NAME / f"{NAME}.ipynb"
        assert autograded.exists() == (answer not in (None, "half-written")), student


def test_no_submitted_file_is_lost(term):
    course, _, _, submitted = term
    for student, content in submitted.items():
        assert (course / "submitted" / student / NAME / f"{NAME}.ipynb").read_bytes() == content


def test_the_visible_check_tells_the_biased_student_what_is_wrong(term):
    course, _, _, _ = term
    nb = json.loads((course / "autograded" / "cleo" / NAME / f"{NAME}.ipynb").read_text())
    cell = next(c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get(
        "grade_id") == "ps4-t3")
    errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
    assert errors and "look for a bias" in errors[0]["evalue"]
