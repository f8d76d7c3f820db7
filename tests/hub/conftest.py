"""Fixtures for the course's hub: the students' environment (the hub lock), the book's
repository as a course publishes it, one local JupyterHub for the session, and the browser.

The hub (:class:`tools.hub.local.LocalHub`) listens on 127.0.0.1 only, and the browser cuts
every request that is not to it. At the end every process of the run (hub, proxy, servers,
kernels) is ended by its id and the run's folder deleted, also after a failure; the last check
is that none is left.
"""
import pytest

from tools.hub.local import Course, LocalHub, singleuser_env

from ..browser.lab import EXPOSE_APP, LAB_OFFLINE_FLAGS
from ..browser.offline import CHROMIUM, CHROMIUM_ARGS
from .students import CLASS_ARGS


@pytest.fixture(scope="session")
def browser():
    """The browser checks' headless chromium, with every student's page running at full speed."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS + CLASS_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def singleuser_venv():
    """tools/requirements/hub.txt in a venv of its own (_build/hub/venv), as an image has it."""
    return singleuser_env()


@pytest.fixture(scope="session")
def hub(singleuser_venv):
    # Spawns may wait long on two shared cores (ten servers start at once): 900 s, not 60.
    local = LocalHub(singleuser_venv, lab_args=[*LAB_OFFLINE_FLAGS, EXPOSE_APP], timeout=900)
    try:
        local.start()
        yield local
    finally:
        left = local.close()
    assert left == [], f"processes of the hub left running: {left}"
    assert not local.dir.exists()


@pytest.fixture(scope="session")
def course(hub):
    """The book's repository (its tracked files, one commit), which nbgitpuller clones by path."""
    return Course(hub.dir / "course")
