"""Faults a class will hit, on the local hub (the third, a chapter deleted or broken by a student,
is in ``test_course_updates.py``: nbgitpuller's next click brings it back).

- A student's kernel is killed mid-run (out of memory on a hub, or a stray ``kill``): JupyterLab
  says so (its dialog "The kernel for <chapter> appears to have died. It will restart
  automatically."), the server starts a new
  kernel, and Run All again runs every cell with no error.
- The hub is restarted during the class (an upgrade, a crash): the students' servers keep running
  (the proxy and the servers are processes of their own, as on Zero to JupyterHub), the open
  notebook keeps working while the hub is down, the restarted hub takes the same servers over, and
  the student's next click on the course link opens the chapter with their work in place.
"""
import os
import signal
import time

from tools.hub.local import REPO_NAME, chapter_path, pull_link

from ..browser.lab import CELLS_RUN, failures, live_figure_colours, not_run, widget_cells
from .students import Student, chapter_file, wait_all

CHAPTER = "03_mcmc"
OPEN_TIMEOUT = 300
RUN_TIMEOUT = 300
DIED = "appears to have died"


def open_chapter(student, link):
    student.log_in(link)
    opened = wait_all([student], Student.open_notebook, OPEN_TIMEOUT, "the chapter open")
    assert opened[student.name] == chapter_file(CHAPTER), opened


def run_all(student):
    student.start_run_all()
    return wait_all([student], Student.run_state, RUN_TIMEOUT, "Run All")[student.name]


def assert_ran_cleanly(name, state):
    assert "error" not in state, f"{name}: Run All raised {state['error']}"
    result = state["result"]
    assert failures(result) == [], f"{name}: errors or stderr: {failures(result)[:3]}"
    assert result["ok"], f"{name}: Run All did not complete"
    assert not_run(result) == [], f"{name}: cells not run: {not_run(result)}"


def test_a_killed_kernel_says_so_and_a_rerun_works(hub, course, browser):
    student = Student("killed-kernel", browser, hub)
    try:
        open_chapter(student, pull_link(course.url, chapter_path(CHAPTER)))
        student.start_run_all()
        # Mid-run: the first cells (the imports) have run, and the rest is queued.
        wait_all([student], lambda s: (s._evaluate(CELLS_RUN) or 0) >= 2, RUN_TIMEOUT,
                 "the first cells of Run All")
        kernels = hub.kernel_pids(student.name)
        assert len(kernels) == 1, kernels
        killed = kernels[0]
        os.kill(killed, signal.SIGKILL)

        state = wait_all([student], Student.run_state, RUN_TIMEOUT, "Run All after the kill")
        result = state[student.name].get("result")
        assert result is None or not_run(result), "the kernel died after Run All had finished"
        dialog = student.page.locator(".jp-Dialog", has_text=DIED)
        dialog.wait_for(timeout=60_000)
        assert chapter_file(CHAPTER) in dialog.inner_text(), dialog.inner_text()
        dialog.get_by_role("button").first.click()

        # The server started a new kernel; Run All again runs every cell cleanly.
        wait_all([student], lambda s: [p for p in hub.kernel_pids(s.name) if p != killed],
                 120, "a new kernel")
        assert_ran_cleanly(student.name, run_all(student))
        for index, widget in widget_cells(CHAPTER):
            assert min(live_figure_colours(student.page, index, widget)) > 3, widget
        assert student.errors == [], student.errors[:3]
    finally:
        student.close()
        hub.stop_servers([student.name])


WORK = "my notes, saved before the hub restarted\n"


def test_a_hub_restart_keeps_the_students_servers_and_files(hub, course, browser):
    student = Student("hub-restart", browser, hub)
    link = pull_link(course.url, chapter_path(CHAPTER))
    try:
        open_chapter(student, link)
        hub.user_api(student.name, "PUT", f"/api/contents/{REPO_NAME}/notes.txt",
                     {"type": "file", "format": "text", "content": WORK})
        server = hub.server_pid(student.name)
        assert server is not None
        # The chapter's kernel is up (the notebook opens before its session has a kernel).
        kernel = student.page.evaluate("""async () => {
            const context = jupyterapp.shell.currentWidget.sessionContext;
            await context.ready;
            return context.session.kernel.id; }""")
        assert kernel, "the chapter has no kernel"

        hub.stop_hub()
        assert hub.hub.poll() is not None, "the hub did not stop"
        # The hub is down; the student's open notebook still runs code (proxy -> server -> kernel).
        reply = student.page.evaluate("""async () => {
            const context = jupyterapp.shell.currentWidget.sessionContext;
            await context.ready;
            const kernel = context.session.kernel;
            const future = kernel.requestExecute({ code: '6 * 7' });
            let value = null;
            future.onIOPub = msg => { if (msg.header.msg_type === 'execute_result') {
                value = msg.content.data['text/plain']; } };
            const reply = await future.done;
            return { status: reply.content.status, value }; }""")
        assert reply == {"status": "ok", "value": "42"}, reply
        assert hub.server_pid(student.name) == server

        restarted = time.monotonic()
        hub.start_hub()
        print(f"\nhub back after {time.monotonic() - restarted:.1f} s")
        # The restarted hub has taken the same server over.
        model = hub.api("GET", f"/users/{student.name}")
        assert model["servers"][""]["ready"], model
        assert hub.server_pid(student.name) == server

        # The next click on the course link: the chapter opens again, the work is in place.
        student.new_page()
        student.follow(link)
        opened = wait_all([student], Student.open_notebook, OPEN_TIMEOUT, "the chapter after the restart")
        assert opened[student.name] == chapter_file(CHAPTER)
        assert (hub.home(student.name) / REPO_NAME / "notes.txt").read_text() == WORK
        assert hub.server_pid(student.name) == server
        assert student.errors == [], student.errors[:3]
    finally:
        student.close()
        hub.stop_servers([student.name])
