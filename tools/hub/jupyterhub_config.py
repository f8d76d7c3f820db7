# JupyterHub configuration of the book's local hub (tools/hub/local.py starts it with this file).
#
# A course's hub on one machine, for the checks and the capacity measurement: the
# DummyAuthenticator (any name, any password) and SimpleLocalProcessSpawner (no system users),
# both shipped in jupyterhub and meant for tests only. Everything listens on 127.0.0.1.
# configurable-http-proxy runs as its own process, started before the hub (should_start False),
# as Zero to JupyterHub runs it in its own pod; the hub leaves the proxy and the students' servers
# running when it stops (cleanup_*), so a restarted hub takes them over. The settings come from
# LocalHub as JSON in the environment variable BAYESCOMP_HUB_SETTINGS.
import json
import os

s = json.loads(os.environ["BAYESCOMP_HUB_SETTINGS"])
c = get_config()  # noqa: F821 (JupyterHub's config loader defines it)

# Where students connect (the proxy), where the hub itself listens, and the proxy's API.
c.JupyterHub.bind_url = f"http://127.0.0.1:{s['port']}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{s['hub_port']}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{s['proxy_api_port']}"
c.ConfigurableHTTPProxy.auth_token = s["proxy_token"]
c.ConfigurableHTTPProxy.should_start = False
c.JupyterHub.cleanup_servers = False
c.JupyterHub.cleanup_proxy = False

# State on disk, in the run's folder: a restarted hub finds its users and their servers there.
c.JupyterHub.db_url = f"sqlite:///{s['dir']}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{s['dir']}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = f"{s['dir']}/jupyterhub.pid"

c.JupyterHub.authenticator_class = "dummy"
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = f"{s['dir']}/home/{{username}}"

# Each student's server: the hub lock's jupyterhub-singleuser, JupyterLab by default.
c.Spawner.cmd = [s["singleuser"]]
c.Spawner.default_url = "/lab"
# The checks may run as root (a CI container); jupyter_server refuses root without --allow-root.
c.Spawner.args = s["lab_args"] + (["--allow-root"] if os.geteuid() == 0 else [])
c.Spawner.start_timeout = s["timeout"]
c.Spawner.http_timeout = s["timeout"]
# JupyterHub 6 passes no variable of its own environment on unless listed: PATH as an image sets
# it (the venv first; git for nbgitpuller), the run's marker (every process of the run carries it,
# so LocalHub can find and end them), and OpenBLAS's core type where this machine needs it.
c.Spawner.environment = {"PATH": s["path"], "BAYESCOMP_HUB_RUN": s["marker"]}
c.Spawner.env_keep = ["JUPYTERHUB_SINGLEUSER_APP", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"]

# The driver (tests, measurement) talks to the hub's REST API as a service with this token.
c.JupyterHub.services = [{"name": "course-driver", "api_token": s["api_token"]}]
c.JupyterHub.load_roles = [{"name": "course-driver", "services": ["course-driver"],
                            "scopes": ["admin:users", "admin:servers", "tokens", "access:servers"]}]
c.JupyterHub.concurrent_spawn_limit = 0   # no limit: the class arrives at once
c.JupyterHub.active_server_limit = 0
