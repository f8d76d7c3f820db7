"""The course's Zero to JupyterHub configuration (``tools/hub/z2jh/``), checked with no cluster.

``config.yaml`` is merged over the chart's defaults as helm merges values files, and the result
must validate against the chart's own schema (chart jupyterhub 4.4.0, ``tools/hub/z2jh/chart``),
as ``helm install`` would require before rendering anything; configurations with a misspelled,
misplaced or mistyped key must not. Then what the course needs of it: a real authenticator (the
dummy one stays in the local hub of the tests), the guide's design targets (TEACHING.md quotes
each ``singleuser...`` value it designs for, and must quote this file's), nbgrader's exchange
on the volume every pod mounts, the image of the book's edition with the hub's JupyterHub, the
culler and nbgitpuller.
"""
import re

import pytest

from tools import edition
from tools.hub import z2jh
from tools.toc import ROOT

TEACHING = ROOT / "TEACHING.md"
HUB_LOCK = ROOT / "tools" / "requirements" / "hub.txt"
LOCAL_HUB = ROOT / "tools" / "hub" / "jupyterhub_config.py"
# jupyterhub.traitlets.ByteSpecification, which KubeSpawner's mem_limit and mem_guarantee use.
BYTES = {"K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30, "T": 2 ** 40}


@pytest.fixture(scope="module")
def merged():
    return z2jh.values(z2jh.CONFIG)


def get(tree, dotted):
    for key in dotted.split("."):
        tree = tree[key]
    return tree


def in_bytes(size):
    text = str(size)
    return float(text[:-1]) * BYTES[text[-1]] if text[-1] in BYTES else float(text)


def test_the_chart_defaults_validate():
    # The schema and the defaults are the chart's own pair: if they disagree, the copies are not.
    assert z2jh.errors(z2jh.values()) == []


def test_the_course_config_validates_against_the_chart_schema(merged):
    assert z2jh.errors(merged) == []


@pytest.mark.parametrize("config, path", [
    ({"singleuser": {"memroy": {"limit": "1G"}}}, "singleuser"),          # misspelled
    ({"hub": {"cull": {"enabled": True}}}, "hub"),                         # misplaced
    ({"cull": {"timeout": "an hour"}}, "cull.timeout"),                    # mistyped
    ({"singleuser": {"storage": {"extraVolumes": "nbgrader"}}}, "singleuser.storage.extraVolumes"),
    ({"singleuser": {"cpu": {"limit": "one"}}}, "singleuser.cpu.limit"),
    ({"proxy": {"https": {"hosts": "hub.example.edu"}}}, "proxy.https.hosts"),
])
def test_an_invalid_config_fails(config, path):
    found = z2jh.errors(z2jh.values(z2jh.CONFIG, config))
    assert any(line.startswith(f"{path}:") for line in found), found


def test_a_typo_in_the_course_config_itself_fails():
    config = z2jh.load(z2jh.CONFIG)
    storage = config["singleuser"]["storage"]["static"]
    storage["pvcname"] = storage.pop("pvcName")
    assert z2jh.errors(z2jh.values(config)) != []
    assert z2jh.main([str(z2jh.CONFIG)]) == 0


def test_values_merge_as_helm_merges_them():
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 1, "e": {"f": 1}}
    over = {"a": {"c": [3]}, "d": None, "e": {"g": 2}}
    assert z2jh.merge(base, over) == {"a": {"b": 1, "c": [3]}, "e": {"f": 1, "g": 2}}
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 1, "e": {"f": 1}}, "the base was changed"


def test_students_log_in_through_a_real_authenticator(merged):
    hub = merged["hub"]["config"]
    # The chart's default is the dummy authenticator: the course must override it.
    assert z2jh.values()["hub"]["config"]["JupyterHub"]["authenticator_class"] == "dummy"
    assert hub["JupyterHub"]["authenticator_class"] == "generic-oauth"
    oauth = hub["GenericOAuthenticator"]
    for url in ("authorize_url", "token_url", "userdata_url", "oauth_callback_url"):
        assert oauth[url].startswith("https://"), url
    assert oauth["allowed_groups"] and not oauth.get("allow_all"), "who may log in"
    assert "client_secret" not in oauth, "secrets go in a values file that is not committed"
    assert "dummy" not in z2jh.CONFIG.read_text().replace("dummy authenticator", "")
    assert 'authenticator_class = "dummy"' in LOCAL_HUB.read_text(), "the tests' hub"


def test_the_guide_quotes_the_config_it_designs_for(merged):
    quoted = re.findall(r"`((?:singleuser|cull|hub|scheduling)\.[\w.]+): ([^`]+)`",
                        TEACHING.read_text(encoding="utf-8"))
    assert len({key for key, _ in quoted}) >= 4, quoted
    for key, value in quoted:
        assert str(get(merged, key)) == value.strip().strip('"'), (key, value)


def test_guarantees_fit_within_limits(merged):
    memory, cpu = merged["singleuser"]["memory"], merged["singleuser"]["cpu"]
    assert 0 < in_bytes(memory["guarantee"]) <= in_bytes(memory["limit"])
    assert 0 < float(cpu["guarantee"]) <= float(cpu["limit"])


def test_nbgrader_exchange_is_on_the_volume_every_pod_mounts(merged):
    user = merged["singleuser"]
    config = user["extraFiles"]["nbgrader-config"]
    assert config["mountPath"] == "/etc/jupyter/nbgrader_config.py"
    root = re.search(r'c\.Exchange\.root = "([^"]+)"', config["stringData"]).group(1)
    mounts = {m["mountPath"]: m for m in user["storage"]["extraVolumeMounts"]}
    assert root in mounts, f"{root} is not mounted"
    claims = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in user["storage"]["extraVolumes"]}
    # The same shared claim as the homes: the teacher's pod and every student's see one exchange.
    assert claims[mounts[root]["name"]] == user["storage"]["static"]["pvcName"]
    course = re.search(r'course_id = "([^"]+)"', (ROOT / "course" / "nbgrader_config.py").read_text())
    assert f'c.CourseDirectory.course_id = "{course.group(1)}"' in config["stringData"]


def test_the_image_is_the_editions_with_the_hubs_jupyterhub(merged):
    assert merged["singleuser"]["image"]["tag"] == edition.version()
    assert merged["singleuser"]["image"]["name"] != z2jh.values()["singleuser"]["image"]["name"]
    dockerfile = z2jh.DOCKERFILE.read_text()
    arg = re.search(r"^ARG JUPYTERHUB_VERSION=(\S+)$", dockerfile, re.M).group(1)
    assert arg == z2jh.CHART_JUPYTERHUB, "the single-user JupyterHub must be the chart's"
    assert '"jupyterhub==${JUPYTERHUB_VERSION}.*"' in dockerfile
    assert "-r requirements.txt" in dockerfile and "nbgitpuller" in dockerfile and "nbgrader" in dockerfile
    locked = re.search(r"^jupyterhub==(\d+)\.", HUB_LOCK.read_text(), re.M).group(1)
    if locked != arg.split(".")[0]:
        # The hub lock's JupyterHub is another major version: it may serve only as constraints.
        assert "-r tools/requirements/hub.txt" not in dockerfile
    # The locks' Python (`make locks` compiles them for one version).
    locks = re.search(r"--python-version (\d+\.\d+)", (ROOT / "Makefile").read_text()).group(1)
    assert re.search(rf"^FROM \S+:python-{re.escape(locks)}$", dockerfile, re.M), locks

def test_the_culler_and_the_course_pull(merged):
    assert merged["cull"]["enabled"] and merged["cull"]["timeout"] > 0
    hook = " ".join(merged["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"])
    assert "gitpuller " in hook and hook.rstrip().endswith("|| true")
    kernels = merged["singleuser"]["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    assert kernels["cull_idle_timeout"] > 0
