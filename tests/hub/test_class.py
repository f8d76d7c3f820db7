"""A class on the local hub (ten students; ``CLASS_SIZE`` sets another size): each student clicks the course's nbgitpuller link at the same
time, logs in, gets a server of their own with the book cloned into their home, and the MCMC
chapter open in JupyterLab; all of them run all its cells at once.

It passes when every student's notebook ran with no error and nothing on stderr, every code cell
ran, the chapter's live figure drew and ran in every student's page, no page had any other
script error (anywidget's fixed 2 s model timer is counted apart,
``students.ANYWIDGET_SLOW_START``; JupyterLab's own ``students.KNOWN_PAGE_ERROR`` is left out),
nothing was fetched from outside, and every process of the hub listened on 127.0.0.1 only. Every
wait is bounded: ten students on two shared cores are slow, and a hang must fail, not stall CI.
`make hub` runs the class of ten; `make check` (CI) runs five, which keeps CI's run under 45
minutes (TEACHING.md, "Teaching a class").
"""
import os
import time

from tools.hub.local import REPO_NAME, chapter_path, pull_link
from tools.toc import ROOT

from ..browser.lab import failures, live_figure_call, live_figure_colours, not_run, widget_cells
from .students import Student, chapter_file, wait_all

STUDENTS = int(os.environ.get("CLASS_SIZE", "10"))
CHAPTER = "03_mcmc"
OPEN_TIMEOUT = 900     # log in, spawn, clone and JupyterLab open, for the whole class at once
RUN_TIMEOUT = 900      # Run All for the whole class at once


def test_a_class_runs_the_mcmc_chapter(hub, course, browser):
    assert STUDENTS >= 2, f"CLASS_SIZE must be at least 2 (a class), got {STUDENTS}"
    link = pull_link(course.url, chapter_path(CHAPTER))
    students = [Student(f"student{i:02d}", browser, hub) for i in range(STUDENTS)]
    try:
        start = time.monotonic()
        for student in students:
            student.log_in(link)
        opened = wait_all(students, Student.open_notebook, OPEN_TIMEOUT,
                          "the chapter open in JupyterLab after the link")
        assert set(opened.values()) == {chapter_file(CHAPTER)}, opened
        print(f"\n{STUDENTS} students: chapter open after {time.monotonic() - start:.0f} s")

        # Each student has a server of their own, and the book in their own home.
        pids = {s.name: hub.server_pid(s.name) for s in students}
        assert None not in pids.values() and len(set(pids.values())) == STUDENTS, pids
        for student in students:
            assert (hub.home(student.name) / REPO_NAME / "chapters" / f"{CHAPTER}.ipynb").exists()

        start = time.monotonic()
        for student in students:
            student.start_run_all()
        states = wait_all(students, Student.run_state, RUN_TIMEOUT, "Run All")
        print(f"{STUDENTS} students: Run All done after {time.monotonic() - start:.0f} s")
        for name, state in states.items():
            assert "error" not in state, f"{name}: Run All raised {state['error']}"
            result = state["result"]
            assert failures(result) == [], f"{name}: errors or stderr: {failures(result)[:3]}"
            assert result["ok"], f"{name}: Run All did not complete"
            assert not_run(result) == [], f"{name}: cells not run: {not_run(result)}"

        figures = widget_cells(CHAPTER)
        assert figures, f"{CHAPTER} has no live figure to check"
        for student in students:
            for index, widget in figures:
                colours = live_figure_colours(student.page, index, widget, timeout=120_000)
                assert min(colours) > 3, f"{student.name}: {widget} did not draw ({colours})"
                # And it runs: a hundred more steps of its chains, with diagnostics.
                before = live_figure_call(student.page, widget, "readout()")
                after = live_figure_call(student.page, widget, "run(100)")
                assert after["steps"] >= before["steps"] + 100, (student.name, after)
                assert after["rhat"] and None not in after["rhat"], (student.name, after)
        slow = [s.name for s in students if s.slow_starts]
        print(f"{STUDENTS} students: anywidget's 2 s model timer ran out in {len(slow)} "
              f"page(s) {slow}; every figure drew and ran")
        shots = ROOT / "_build" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        students[-1].page.screenshot(path=str(shots / f"hub-{students[-1].name}-{CHAPTER}.png"))

        assert hub.listening() == {"127.0.0.1"}, hub.listening()
        for student in students:
            assert student.view.external == [], f"{student.name}: {student.view.external[:3]}"
            assert student.errors == [], f"{student.name}: script errors {student.errors[:3]}"
    finally:
        for student in students:
            student.close()
        hub.stop_servers([student.name for student in students])
