"""The test run's units of work (tests/xdist_units.py) as pytest-xdist schedules them.

When the units were wrong, every test was a unit of its own: a deck's inspection (a
module-scoped fixture) ran again for each of its tests, and the whole run took more than twice as
long. xdist's ``loadgroup`` did exactly that under pytest 9, which is why the plugin has a
scheduler of its own.
"""
from tests.xdist_units import UnitScheduling, unit_of


def scheduled_unit(nodeid):
    return UnitScheduling._split_scope(None, nodeid)


def test_a_deck_check_is_a_unit_with_its_deck():
    one = "tests/browser/test_slides.py::test_figures[03_mcmc]"
    other = "tests/browser/test_slides.py::test_deck_runs_offline[03_mcmc]"
    assert scheduled_unit(one) == scheduled_unit(other) == unit_of(one)
    assert scheduled_unit(one) != scheduled_unit("tests/browser/test_slides.py::test_figures[01_target]")


def test_other_tests_are_units_by_file_and_a_chapter_by_chapter():
    unit = "tests/browser/test_widgets_browser.py"
    assert scheduled_unit(f"{unit}::test_clicker[03_mcmc.html-metropolis]") == unit
    assert scheduled_unit(f"{unit}::test_every_control[funnel-mouse]") == unit
    assert scheduled_unit("chapters/03_mcmc.ipynb::Cell 4") == "chapters/03_mcmc.ipynb"
    assert scheduled_unit("chapters/03_mcmc.ipynb::Cell 5") == "chapters/03_mcmc.ipynb"


def test_each_page_of_the_axe_and_reflow_checks_is_a_unit():
    page = "tests/browser/test_accessibility.py::test_site_page_has_no_axe_violation[chapters/03_mcmc.html]"
    deck = "tests/browser/test_accessibility.py::test_deck_has_no_axe_violation[03_mcmc.html]"
    assert scheduled_unit(page) != scheduled_unit(deck)
    assert scheduled_unit("tests/browser/test_reflow.py::test_no_page_scrolls_sideways_on_a_phone[320]") \
        != scheduled_unit("tests/browser/test_reflow.py::test_no_page_scrolls_sideways_on_a_phone[390]")
