"""Fixtures for the browser checks: a local static server, a JupyterLab server on the
chapters, and headless Debian chromium with the network cut (see :mod:`.offline`).
"""
import functools
import http.server
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tools.slides.stills import STILLS
from tools.toc import ROOT

from .lab import LAB_OFFLINE_FLAGS
from .offline import CHROMIUM, CHROMIUM_ARGS, OfflinePage


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def serve():
    """Return a function that serves a directory on 127.0.0.1 and gives its base URL."""
    servers = []

    def start(directory):
        handler = functools.partial(_QuietHandler, directory=str(directory))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run tools/scripts/install_chromium.sh")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def offline_page(browser):
    pages = []

    def open_page(base):
        page = OfflinePage(browser, base)
        pages.append(page)
        return page

    yield open_page
    for page in pages:
        page.close()


def path_without(folder, names, keep_venv=False):
    """A PATH with every program of this one but ``names``: a folder of links to them.

    Without ``keep_venv``, this venv's own programs are left out too, and ``python3`` is the
    interpreter the venv was made from: the Python a reader has.
    """
    folder.mkdir(parents=True, exist_ok=True)
    venv = (Path(sys.prefix) / "bin").resolve()
    taken = set(names)
    if not keep_venv:
        for alias in ("python3", "python"):
            (folder / alias).symlink_to(Path(sys._base_executable))
            taken.add(alias)
    for directory in map(Path, os.environ["PATH"].split(os.pathsep)):
        if not directory.is_dir() or (not keep_venv and directory.resolve() == venv):
            continue
        for program in sorted(directory.iterdir()):
            if program.name in taken or not (program.is_file() and os.access(program, os.X_OK)):
                continue
            taken.add(program.name)
            (folder / program.name).symlink_to(program)
    return str(folder)


NO_NODE = ("node", "nodejs", "npm", "npx", "git", "make")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A headless JupyterLab: no token, localhost only, no news or update checks.
LAB_FLAGS = ["--no-browser", "--allow-root", "--ServerApp.token=", "--ServerApp.password=",
             "--ServerApp.ip=127.0.0.1", *LAB_OFFLINE_FLAGS, "--ServerApp.disable_check_xsrf=True"]


def start_lab(command, port, **popen):
    """Start a JupyterLab server (``command`` ends with its flags) and wait until it answers."""
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{url}/api/status", timeout=1)
            return server, url
        except OSError:
            if server.poll() is not None:
                pytest.fail(f"jupyter lab exited: {server.stderr.read().decode()[-2000:]}")
            time.sleep(0.5)
    server.kill()
    pytest.fail("jupyter lab did not start within 60 s")


@pytest.fixture(scope="session")
def lab_env(tmp_path_factory):
    """The environment of the test's JupyterLab: its own config, runtime and data folders (the
    data folder holds the notebook trust database, so that what a developer trusted with
    `make lab` cannot change what the tests see), the stills' folder, and no Node.js, git or
    make on its PATH."""
    settings = tmp_path_factory.mktemp("jupyter")
    # The live figures' stills, made by `make slides`, for RISE (as `make lab` passes them).
    return dict(os.environ, BAYESCOMP_STILLS=str(STILLS), JUPYTER_CONFIG_DIR=str(settings / "config"),
                JUPYTER_RUNTIME_DIR=str(settings / "runtime"),
                JUPYTER_DATA_DIR=str(settings / "data"),
                PATH=path_without(settings / "bin", NO_NODE, keep_venv=True))


@pytest.fixture(scope="session")
def lab_url(lab_env):
    """A JupyterLab server rooted at the checkout: the clone's path, with no Node.js, git or make
    on its PATH (the live figures' bundle is package data)."""
    port = free_port()
    env = lab_env
    server, url = start_lab([sys.executable, "-m", "jupyter", "lab", f"--port={port}", *LAB_FLAGS,
                             f"--ServerApp.root_dir={ROOT}"], port, env=env)
    yield url
    server.terminate()
    server.wait(timeout=20)
