"""A pytest plugin that `make test` loads (``pytest -p tests.xdist_groups``): which tests share a
worker under pytest-xdist's ``--dist loadgroup``.

Most tests are cheap once their file's fixtures are up (a chromium, a web server, a JupyterLab
server, all per worker), so by default a test file is one group and runs on one worker, as
under ``--dist loadfile``; so is a chapter under nbval, whose cells must run in order in one
kernel. A file whose tests are parametrized by a fixture that is set up once per value and is
slow (``DECK_PARAMS``: a deck, opened and every slide inspected) is split into one group per
value, so that its decks spread over the workers instead of queueing on one.
"""
import pytest

#: (test file, parameter): a group per value of that parameter.
DECK_PARAMS = {
    ("tests/browser/test_slides.py", "deck"),
}


def group_of(item):
    """The xdist group of one collected test."""
    path = item.nodeid.split("::", 1)[0]
    callspec = getattr(item, "callspec", None)
    for param in sorted(callspec.params) if callspec else ():
        if (path, param) in DECK_PARAMS:
            # Not "...]": xdist reads a group from a test id's last "@" only when no "]"
            # follows it (xdist/scheduler/loadgroup.py), else the test is a group of its own.
            return f"{path}::{param}={callspec.params[param]}"
    return path


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if not any(m.name == "xdist_group" for m in item.iter_markers()):
            item.add_marker(pytest.mark.xdist_group(group_of(item)))
