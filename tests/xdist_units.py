"""A pytest plugin that every make target loads (``pytest -p tests.xdist_units``): which tests share a
worker under pytest-xdist (``--dist loadscope``).

Most tests are cheap once their file's fixtures are up (a chromium, a web server, a JupyterLab
server, all per worker), so a test file is one unit of work and runs on one worker, as under
``--dist loadfile``; so is a chapter under nbval, whose cells must run in order in one kernel.
A file whose tests are parametrized by a slow fixture set up once per value (``BY_PARAM``: the
deck checks, which open a deck and inspect every slide) is split into one unit per value, so
that its decks spread over the workers instead of queueing on one; so are the files whose every
test is a slow page of its own and whose fixtures are per worker (axe on each page and deck,
reflow at each phone width), which otherwise kept one worker busy for a minute at the end of
`make test`.

xdist's own ``--dist loadgroup`` (an ``xdist_group`` mark per test) would say the same, but
xdist 3.8 writes the group into ``item._nodeid``, which pytest 9 no longer reads back: every test
then became a unit of its own, and each deck was inspected again for each of its tests. So this
plugin gives xdist a scheduler of its own, xdist's ``loadscope`` with these units.
"""
import pytest
from xdist.scheduler import LoadScopeScheduling

#: Test files split into one unit of work per parameter value (the test id's ``[...]``).
BY_PARAM = {"tests/browser/test_slides.py", "tests/browser/test_accessibility.py",
            "tests/browser/test_deck_accessibility.py", "tests/browser/test_reflow.py"}


def unit_of(nodeid):
    """The unit of work (a string) that the test ``nodeid`` belongs to."""
    path, _, rest = nodeid.partition("::")
    if path in BY_PARAM and rest.endswith("]") and "[" in rest:
        return f"{path}::{rest[rest.index('[') + 1:-1]}"
    return path


class UnitScheduling(LoadScopeScheduling):
    """xdist's loadscope, with :func:`unit_of` as the scope of a test."""

    def _split_scope(self, nodeid):
        return unit_of(nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadscope":
        return UnitScheduling(config, log)
    return None
