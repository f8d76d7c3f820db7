"""The test run's groups (tests/xdist_groups.py) as pytest-xdist's loadgroup scheduler reads them.

A group name that xdist cannot read back makes every test a group of its own: a deck's
inspection (a module-scoped fixture) then runs again for each of its tests, and `make test`
took twice as long before this was caught.
"""
from types import SimpleNamespace

from xdist.scheduler.loadgroup import LoadGroupScheduling

from tests.xdist_groups import group_of


def scheduled_scope(nodeid, group):
    """The unit of work xdist makes of a test id that carries ``group``."""
    return LoadGroupScheduling._split_scope(None, f"{nodeid}@{group}")


def test_a_deck_check_is_grouped_by_its_deck():
    nodeid = "tests/browser/test_slides.py::test_figures[03_mcmc]"
    item = SimpleNamespace(nodeid=nodeid, callspec=SimpleNamespace(params={"deck": "03_mcmc"}))
    group = group_of(item)
    assert "03_mcmc" in group
    assert scheduled_scope(nodeid, group) == group


def test_other_tests_are_grouped_by_their_file():
    nodeid = "tests/browser/test_widgets_browser.py::test_clicker[03_mcmc.html-metropolis]"
    item = SimpleNamespace(nodeid=nodeid, callspec=SimpleNamespace(params={"name": "metropolis"}))
    assert scheduled_scope(nodeid, group_of(item)) == "tests/browser/test_widgets_browser.py"
    cell = SimpleNamespace(nodeid="chapters/03_mcmc.ipynb::Cell 4")
    assert scheduled_scope(cell.nodeid, group_of(cell)) == "chapters/03_mcmc.ipynb"
