"""The course's assignments (course/source, written by tools/course/assignments.py): their form,
and an nbgrader round trip in a temporary course folder.

The round trip (about a minute): ``nbgrader generate_assignment`` makes the students' copies,
two students submit (one with the source notebook, every solution filled in; one with the
released copy, every solution removed), ``nbgrader autograde`` grades them, and ``nbgrader
export`` writes the grades: the first gets every automatic point, the second none.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tools.course import assignments

NAMES = tuple(assignments.ASSIGNMENTS)


def nbgrader_meta(cell):
    return cell.metadata.get("nbgrader", {})


@pytest.fixture(scope="module", params=NAMES)
def source(request):
    return request.param, nbformat.read(assignments.path(request.param), as_version=4)


def test_committed_notebooks_are_fresh():
    assert assignments.main(["--check"]) == 0, "run python -m tools.course.assignments"


def test_each_assignment_has_the_three_kinds_of_answer(source):
    name, nb = source
    first = nb.cells[1]
    assert f'homework.start("{name}")' in first.source and nbgrader_meta(first)["locked"]
    ids = [nbgrader_meta(c)["grade_id"] for c in nb.cells]
    assert len(ids) == len(set(ids)), "grade ids must be unique"
    tests = [c for c in nb.cells if nbgrader_meta(c).get("grade") and c.cell_type == "code"]
    written = [c for c in nb.cells if nbgrader_meta(c).get("grade") and c.cell_type == "markdown"]
    assert all("### BEGIN HIDDEN TESTS" in c.source for c in tests)
    assert all(nbgrader_meta(c)["locked"] for c in tests), "test cells are read-only"
    monte_carlo = [c for c in tests if "homework.grade(VARIANT" in c.source]
    assert len(monte_carlo) == 1 and "homework.check(VARIANT" in monte_carlo[0].source
    assert len(tests) >= 2, "exact answers besides the Monte Carlo one"
    assert len(written) == 1 and "*Rubric" in written[0].source
    assert "### BEGIN SOLUTION" in written[0].source


def test_no_cell_but_the_first_makes_a_variant(source):
    _, nb = source
    assert sum("VARIANT =" in c.source for c in nb.cells) == 1


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every assignment generated, submitted by "solved" and "blank", autograded, exported."""
    course = tmp_path_factory.mktemp("course")
    shutil.copy(assignments.COURSE / "nbgrader_config.py", course)
    shutil.copytree(assignments.SOURCE, course / "source")
    # nbgrader runs alembic (its database migrations) as a command from the same environment.
    env = os.environ | {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("BAYESCOMP_STUDENT", None)

    def nbgrader(*args):
        done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done

    for name in NAMES:
        nbgrader("generate_assignment", name, "--force")
        for student, origin in (("solved", "source"), ("blank", "release")):
            folder = course / "submitted" / student / name
            folder.mkdir(parents=True)
            shutil.copy(course / origin / name / f"{name}.ipynb", folder)
    for name in NAMES:
        nbgrader("autograde", name, "--force")
    nbgrader("export")
    with open(course / "grades.csv") as f:
        return course, {(row["assignment"], row["student_id"]): row for row in csv.DictReader(f)}


def written_points(name):
    nb = nbformat.read(assignments.path(name), as_version=4)
    return sum(nbgrader_meta(c).get("points", 0) for c in nb.cells
               if nbgrader_meta(c).get("grade") and c.cell_type == "markdown")


@pytest.mark.parametrize("name", NAMES)
def test_solutions_filled_in_get_every_automatic_point(graded, name):
    _, grades = graded
    row = grades[name, "solved"]
    assert float(row["score"]) == float(row["max_score"]) - written_points(name), row


@pytest.mark.parametrize("name", NAMES)
def test_solutions_removed_get_none(graded, name):
    _, grades = graded
    assert float(grades[name, "blank"]["score"]) == 0.0


@pytest.mark.parametrize("name", NAMES)
def test_the_release_hides_solutions_and_hidden_tests(graded, name):
    course, _ = graded
    text = (course / "release" / name / f"{name}.ipynb").read_text()
    for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "homework.grade(", "Rubric"):
        assert marker not in text
    assert "homework.check(" in text and "raise NotImplementedError()" in text


@pytest.mark.parametrize("name", NAMES)
def test_a_failed_check_says_what_is_wrong(graded, name):
    course, _ = graded
    nb = json.loads((course / "autograded" / "blank" / name / f"{name}.ipynb").read_text())
    errors = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]
              if o["output_type"] == "error"]
    assert errors and {o["ename"] for o in errors} <= {"NotImplementedError", "NameError"}


def test_the_guide_states_the_rubrics_as_they_are(source):
    # The rubric's one source is the written answer's solution; TEACHING.md's Term plan only
    # says how its points are given, and must agree with every assignment.
    name, nb = source
    guide = (assignments.ROOT / "TEACHING.md").read_text(encoding="utf-8")
    stated = re.search(r"Each written answer is worth (\d+) points: one for naming", guide)
    assert stated, "TEACHING.md no longer says how the written answers are graded"
    points = int(stated.group(1))
    (written,) = [c for c in nb.cells if nbgrader_meta(c).get("grade") and c.cell_type == "markdown"]
    assert nbgrader_meta(written)["points"] == points, name
    assert f"*Rubric ({points} points).*" in written.source, name
    assert written.source.count("1 point:") == points, name
    assert f"course/source/{NAMES[0]}/{NAMES[0]}.ipynb" in guide
