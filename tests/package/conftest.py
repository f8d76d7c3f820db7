import pytest

from bayescomp.book import run_lecture


@pytest.fixture(scope="session")
def lecture():
    """Every method run once with the lecture's protocol (about 2 s)."""
    return run_lecture()


@pytest.fixture(scope="session")
def az():
    """ArviZ, a test-only dependency for the cross-checks.

    Imported here, not at module level, so that only the tests that compare with ArviZ depend
    on it. Without ArviZ they skip when pytest is run directly, and under a make target each such
    skip is a failure that names ArviZ (tests/skips.py); the module's other tests still run.
    """
    return pytest.importorskip("arviz")


@pytest.fixture(scope="session")
def scipy_stats():
    """SciPy's distributions (installed with ArviZ), for the special functions' cross-check."""
    return pytest.importorskip("scipy.stats")
