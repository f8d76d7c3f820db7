"""A real JupyterHub on this machine, for a course's checks: the students' environment, the
book's repository as a course publishes it, the hub with its proxy, and the clean-up.

- :func:`singleuser_env`: the single-user environment, a venv with the hub lock
  (``tools/requirements/hub.txt``: the reader lock plus jupyterhub and nbgitpuller), made as
  ``make`` makes its venvs: a second call installs nothing while the lock is unchanged.
- :class:`Course`: a git repository of the book (its tracked files, one commit), the origin that
  nbgitpuller clones from a local path: the course's repository with no network.
- :class:`LocalHub`: configurable-http-proxy (npm, pinned in ``tools/npm``) and JupyterHub
  (``jupyterhub_config.py`` beside this file), both on 127.0.0.1, with the REST API as a service.
  Every process of a run carries a marker in its environment (the hub, the proxy, each student's
  server and kernels), so :meth:`LocalHub.close` finds and ends all of them, by their ids, also
  those a restarted hub or a killed server left behind; then it deletes the run's folder.
"""
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil

from ..scripts.locked_venv import locked_venv
from ..toc import ROOT

HUB_LOCK = ROOT / "tools" / "requirements" / "hub.txt"
HUB_VENV = ROOT / "_build" / "hub" / "venv"
CHP = ROOT / "tools" / "npm" / "node_modules" / ".bin" / "configurable-http-proxy"
CONFIG = Path(__file__).with_name("jupyterhub_config.py")
MARKER = "BAYESCOMP_HUB_RUN"
REPO_NAME = "bayescomp-book"
BRANCH = "main"


def singleuser_env(venv=HUB_VENV, lock=HUB_LOCK):
    """The students' environment: a venv with the hub lock installed (from the checkout, whose
    ``code/`` the lock installs). Returns the venv's folder."""
    return locked_venv(venv, lock, ".bayescomp-hub.lock")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def git(*args, cwd):
    """Run git as a course's author would, with a fixed identity and no user configuration."""
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="Course", GIT_AUTHOR_EMAIL="course@example.invalid",
               GIT_COMMITTER_NAME="Course", GIT_COMMITTER_EMAIL="course@example.invalid")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout


class Course:
    """The book's repository as a course publishes it: a git repository at ``folder`` holding the
    checkout's tracked files in one commit on ``main``. nbgitpuller clones it by its path."""

    def __init__(self, folder):
        self.path = Path(folder) / REPO_NAME
        self.path.mkdir(parents=True)
        tracked = git("ls-files", "-z", cwd=ROOT).split("\0")
        for name in filter(None, tracked):
            source = ROOT / name
            if source.is_file():
                (self.path / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, self.path / name)
        git("init", "-q", "-b", BRANCH, cwd=self.path)
        self.commit("The book, as the course publishes it")

    def commit(self, message):
        git("add", "-A", cwd=self.path)
        git("commit", "-q", "-m", message, cwd=self.path)
        return git("rev-parse", "HEAD", cwd=self.path).strip()

    @property
    def url(self):
        """What the link's ``repo`` carries: here a local path, for a course its public URL."""
        return str(self.path)


def pull_link(repo, urlpath, branch=BRANCH, hub=""):
    """An nbgitpuller link: the student's server clones ``repo`` (or merges its updates) into a
    folder named as the repository, then opens ``urlpath``. Through ``/hub/user-redirect/`` the
    hub first logs the student in and starts their server."""
    query = urllib.parse.urlencode({"repo": repo, "branch": branch, "urlpath": urlpath})
    return f"{hub}/hub/user-redirect/git-pull?{query}"


def chapter_path(name, repo_name=REPO_NAME):
    """The ``urlpath`` that opens chapter ``name`` in JupyterLab after the pull."""
    return f"lab/tree/{repo_name}/chapters/{name}.ipynb"


class LocalHub:
    """JupyterHub and its proxy on 127.0.0.1; use as a context manager (``close`` ends all)."""

    def __init__(self, venv, lab_args=(), timeout=300, folder=None):
        self.venv = Path(venv)
        self.dir = Path(folder or tempfile.mkdtemp(prefix="bayescomp-hub-"))
        self.marker = secrets.token_hex(8)
        self.token = secrets.token_hex(32)
        self.port, hub_port, api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.settings = {
            "dir": str(self.dir), "port": self.port, "hub_port": hub_port, "proxy_api_port": api_port,
            "proxy_token": secrets.token_hex(32), "api_token": self.token, "marker": self.marker,
            "singleuser": str(self.venv / "bin" / "jupyterhub-singleuser"), "lab_args": list(lab_args),
            "timeout": timeout,
            "path": os.pathsep.join([str(self.venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"])}
        self.hub = self.proxy = None
        self.homes = self.dir / "home"
        self.homes.mkdir(exist_ok=True)

    # -- processes -------------------------------------------------------------------------

    def _env(self):
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env.update({MARKER: self.marker, "BAYESCOMP_HUB_SETTINGS": json.dumps(self.settings),
                    "CONFIGPROXY_AUTH_TOKEN": self.settings["proxy_token"]})
        return env

    def start(self, wait=120):
        if not CHP.exists():
            raise RuntimeError(f"{CHP} is missing: run `make npm`")
        if self.proxy is None:
            hub = f"http://127.0.0.1:{self.settings['hub_port']}"
            self.proxy = subprocess.Popen(
                [str(CHP), "--ip", "127.0.0.1", "--port", str(self.port), "--api-ip", "127.0.0.1",
                 "--api-port", str(self.settings["proxy_api_port"]), "--default-target", hub,
                 "--error-target", f"{hub}/hub/error", "--log-level", "warn"],
                env=self._env(), stdout=open(self.dir / "proxy.log", "ab"), stderr=subprocess.STDOUT)
        self.start_hub(wait)
        return self

    def start_hub(self, wait=120):
        log = open(self.dir / "jupyterhub.log", "ab")
        self.hub = subprocess.Popen([str(self.venv / "bin" / "jupyterhub"), "-f", str(CONFIG)],
                                    cwd=self.dir, env=self._env(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.hub.poll() is not None:
                raise RuntimeError(f"jupyterhub exited ({self.hub.returncode}):\n{self.log()}")
            try:
                self.api("GET", "/users")
                return
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.5)
        raise RuntimeError(f"jupyterhub did not answer within {wait} s:\n{self.log()}")

    def stop_hub(self, timeout=60):
        """Stop the hub only (SIGTERM, as a restart does); the proxy and servers stay."""
        self.hub.send_signal(signal.SIGTERM)
        self.hub.wait(timeout=timeout)

    def log(self, tail=4000):
        path = self.dir / "jupyterhub.log"
        return path.read_text(errors="replace")[-tail:] if path.exists() else ""

    def processes(self):
        """Every live process of this run (found by the marker in its environment)."""
        found = []
        for process in psutil.process_iter(["pid"]):
            try:
                if process.environ().get(MARKER) == self.marker:
                    found.append(process)
            except (psutil.Error, OSError):
                continue
        return found

    def listening(self):
        """The addresses this run's processes listen on."""
        addresses = set()
        for process in self.processes():
            try:
                for conn in process.net_connections(kind="inet"):
                    if conn.status == psutil.CONN_LISTEN:
                        addresses.add(conn.laddr.ip)
            except psutil.Error:
                continue
        return addresses

    def close(self):
        """End every process of the run by its id (TERM, then KILL), then delete its folder."""
        try:
            self.stop_servers(self.running_users(), timeout=60)
        except (OSError, urllib.error.HTTPError):
            pass
        for _ in range(2):
            survivors = self.processes()
            for process in survivors:
                try:
                    process.terminate()
                except psutil.Error:
                    pass
            _, alive = psutil.wait_procs(survivors, timeout=10)
            for process in alive:
                try:
                    process.kill()
                except psutil.Error:
                    pass
            psutil.wait_procs(alive, timeout=10)
        for child in (self.hub, self.proxy):
            if child is not None and child.poll() is None:
                child.kill()
                child.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
        return self.processes()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # -- the REST API ----------------------------------------------------------------------

    def request(self, method, url, token=None, body=None, timeout=60):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Authorization", f"token {token or self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=timeout) as response:
            text = response.read().decode()
        return json.loads(text) if text.strip() else None

    def api(self, method, path, body=None, timeout=60):
        return self.request(method, f"{self.url}/hub/api{path}", body=body, timeout=timeout)

    def start_server(self, name, timeout=300):
        """Create the user if needed and start their server through the REST API (what logging
        in and clicking a link does); wait until the hub says it is ready."""
        try:
            self.api("POST", f"/users/{name}")
        except urllib.error.HTTPError as error:
            if error.code != 409:      # 409: the user exists already
                raise
        try:
            self.api("POST", f"/users/{name}/server")
        except urllib.error.HTTPError as error:
            if error.code != 400:      # 400: the server is running already
                raise
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            server = self.api("GET", f"/users/{name}").get("servers", {}).get("")
            if server and server.get("ready"):
                return
            time.sleep(0.5)
        raise RuntimeError(f"{name}'s server was not ready within {timeout} s:\n{self.log()}")

    def stop_servers(self, names, timeout=120):
        """Stop these students' servers and wait until the hub has stopped each (errors ignored:
        this runs in clean-ups, where the hub may be the thing that failed)."""
        deadline = time.monotonic() + timeout
        for name in names:
            try:
                self.api("DELETE", f"/users/{name}/server")
            except (OSError, urllib.error.HTTPError):
                pass
        for name in names:
            while time.monotonic() < deadline:
                try:
                    if not self.api("GET", f"/users/{name}").get("servers"):
                        break
                except (OSError, urllib.error.HTTPError):
                    break
                time.sleep(0.5)

    def running_users(self):
        return [u["name"] for u in self.api("GET", "/users") if u.get("servers")]

    def server_process(self, name):
        """``name``'s single-user server (a psutil.Process), or None."""
        for process in self.processes():
            try:
                if (process.environ().get("JUPYTERHUB_USER") == name
                        and "jupyterhub-singleuser" in " ".join(process.cmdline())):
                    return process
            except psutil.Error:
                continue
        return None

    def server_pid(self, name):
        """The pid of ``name``'s single-user server, or None."""
        server = self.server_process(name)
        return server and server.pid

    def kernels(self, name):
        """``name``'s running kernels: the processes their server started (psutil.Process)."""
        server = self.server_process(name)
        try:
            children = server.children(recursive=True) if server else []
        except psutil.Error:
            return []
        found = []
        for child in children:
            try:
                if "ipykernel" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:
                continue
        return found

    def kernel_pids(self, name):
        """The pids of ``name``'s running kernels."""
        return [kernel.pid for kernel in self.kernels(name)]

    def user_api(self, name, method, path, body=None, timeout=120):
        """A request to ``name``'s own server (``/user/<name>/api/...``), through the proxy."""
        return self.request(method, f"{self.url}/user/{name}{path}", body=body, timeout=timeout)

    def home(self, name):
        return self.homes / name

    def pull(self, name, repo, branch=BRANCH, timeout=300):
        """What the link's page does: nbgitpuller's event stream, read to its end. Returns the
        events; raises when it ends in an error."""
        query = urllib.parse.urlencode({"repo": repo, "branch": branch})
        req = urllib.request.Request(f"{self.url}/user/{name}/git-pull/api?{query}")
        req.add_header("Authorization", f"token {self.token}")
        events = []
        with urllib.request.urlopen(req, timeout=timeout) as stream:
            for line in stream:
                line = line.decode().strip()
                if line.startswith("data:"):
                    events.append(json.loads(line[5:]))
        if not events or events[-1].get("phase") != "finished":
            raise RuntimeError(f"nbgitpuller did not finish for {name}: {events[-3:]}")
        return events
