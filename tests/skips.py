"""A pytest plugin that every make target loads (``pytest -p tests.skips``): no silent skip.

Run directly, pytest skips a test whose dependency is missing (ArviZ, Playwright or anywidget
through ``importorskip``) or whose input is not built (the website, the decks). That is handy
while working, but in the full run a skip would hide exactly the check that is missing. With
this plugin loaded, every skip is reported as a failure that carries the skip's reason, except
the skips explained below; their reasons are printed (``-rs``).

Explained skips: the chapters' live-widget cells under nbval. Each chapter that teaches with a
live figure has one Jupyter-only cell, ``book.widgets.<name>()``, tagged ``skip-execution`` and
``nbval-skip``: its output is a widget that only a browser front end can show, so the website
build does not run it and nbval cannot compare it. What it does is checked elsewhere:
``tests/book/test_widget_cells.py`` runs each such cell's code and checks the widget it makes,
and ``tests/browser/test_widgets_browser.py`` shows the widget in JupyterLab.
"""
import pytest

from tools.slides.metadata import is_widget_cell

WIDGET_CELL_REASON = ("Jupyter-only live-widget cell (tag nbval-skip): its output needs a browser; "
                      "tests/book/test_widget_cells.py runs its code, "
                      "tests/browser/test_widgets_browser.py shows the widget in JupyterLab")


def explained(item):
    """Why ``item`` may skip under a make target, or None when its skip must fail."""
    cell = getattr(item, "cell", None)          # nbval's items carry their notebook cell
    if cell is not None and is_widget_cell(cell):
        return WIDGET_CELL_REASON
    return None


def fail(report, nodeid):
    """Turn a skip report into a failure that says why it skipped."""
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = (f"{nodeid} skipped, and `make test` and `make check` allow no silent skip "
                       f"(tests/skips.py): {reason}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that skips while it runs (or in a fixture) fails, unless explained."""
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    why = explained(item)
    if why is None:
        fail(report, item.nodeid)
        return
    path, line, _ = report.longrepr
    report.longrepr = (path, line, f"Skipped: {why}")


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """A module that skips as it is collected (a module-level importorskip) fails."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped:
        fail(report, collector.nodeid)
