import pytest

from bayescomp import run_lecture


@pytest.fixture(scope="session")
def lecture():
    """Every method run once with the lecture's protocol (about 2 s)."""
    return run_lecture()
