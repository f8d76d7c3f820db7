"""bayescomp as readers get it: a wheel and an sdist that carry the live figures' built front end.

The two bundles (``code/bayescomp/book/static/``: the live figures' and the questions') are committed, so the clone's editable install and
the wheel both give the live figures with no Node.js. Committed build output goes stale when
``code/widgets`` changes, so the first test rebuilds them with the pinned esbuild and compares
bytes. The others build the wheel and the sdist as ``make book`` does (``tools.download.package``)
and look inside (the bundles, the licence file, the metadata that names the licence and the
version), and check the one anywidget class loads the packaged bundle as its module.
"""
import email
import shutil
import subprocess
import tarfile
import tomllib
import zipfile

import pytest

from bayescomp.book import questions, widgets
from bayescomp.book.widgets import FIGURE_NAMES as FIGURE
from tools.download import package
from tools.toc import ROOT

BUNDLES = (widgets.BUNDLE, questions.SCRIPT)


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    return package.build(tmp_path_factory.mktemp("dist"))


def test_committed_bundles_are_a_fresh_build(tmp_path):
    # Plain pytest skips it without Node.js and the pinned esbuild; under a make target
    # (tests/skips.py) the skip fails.
    esbuild = ROOT / "tools" / "npm" / "node_modules" / "esbuild"
    if shutil.which("node") is None or not esbuild.exists():
        pytest.skip("needs Node.js and the pinned esbuild: run `make npm`")
    subprocess.run(["node", str(ROOT / "code" / "widgets" / "build.mjs"), str(tmp_path)],
                   check=True, capture_output=True)
    stale = [path.name for path in BUNDLES
             if (tmp_path / path.name).read_bytes() != path.read_bytes()]
    assert stale == [], (f"{stale} in {widgets.STATIC} differ from a fresh build of code/widgets: "
                         "run `make widgets` and commit them")
    # anywidget's module, run as JupyterLab runs it (an ES module): it sets the pages' global
    # and exports render().
    (tmp_path / "module.mjs").write_text(widgets.anywidget_module(), encoding="utf-8")
    run = subprocess.run(["node", "--input-type=module", "-e",
                          f"const m = await import({str(tmp_path / 'module.mjs')!r}); "
                          "console.log(typeof m.default.render, typeof globalThis.BayesCompWidgets.mountAnywidget)"],
                         check=True, capture_output=True, text=True)
    assert run.stdout.split() == ["function", "function"], run.stdout


def test_bundles_are_what_each_loader_expects():
    classic = widgets.BUNDLE.read_text(encoding="utf-8")
    assert "export" not in classic.rsplit(";", 3)[-1], "the pages' bundle must be a classic script"
    assert "globalThis.BayesCompWidgets" in classic
    assert widgets.anywidget_module() == classic + "\n" + widgets.ANYWIDGET_EXPORT + "\n"
    assert widgets.ANYWIDGET_EXPORT.startswith("export default {"), "anywidget needs render()"


def test_wheel_and_sdist_carry_the_bundles(dist):
    sdist, wheel = dist
    with zipfile.ZipFile(wheel) as archive:
        for path in BUNDLES:
            assert archive.read(f"bayescomp/book/static/{path.name}") == path.read_bytes(), path.name
    with tarfile.open(sdist) as archive:
        top = sdist.name.removesuffix(".tar.gz")
        for path in BUNDLES:
            member = archive.extractfile(f"{top}/bayescomp/book/static/{path.name}")
            assert member.read() == path.read_bytes(), path.name


def test_wheel_and_sdist_name_the_licence_and_carry_its_file(dist):
    """PEP 639 metadata, which `pip show` reads: the SPDX licence and the licence file, and the
    version of code/pyproject.toml (its one source)."""
    project = tomllib.loads((ROOT / "code" / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    licence = (ROOT / "LICENSE").read_bytes()
    sdist, wheel = dist
    info = f"bayescomp-{project['version']}.dist-info"
    with zipfile.ZipFile(wheel) as archive:
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))
        assert archive.read(f"{info}/licenses/LICENSE") == licence
    assert (metadata["Version"], metadata["License-Expression"], metadata.get_all("License-File")) == (
        project["version"], "MIT", ["LICENSE"])
    with tarfile.open(sdist) as archive:
        top = sdist.name.removesuffix(".tar.gz")
        assert archive.extractfile(f"{top}/LICENSE").read() == licence
        pkg_info = email.message_from_bytes(archive.extractfile(f"{top}/PKG-INFO").read())
    assert pkg_info["License-Expression"] == "MIT"


def test_the_wheel_needs_numpy_and_the_book_extra_the_rest(dist):
    """`pip install bayescomp` brings NumPy only (the maths); `bayescomp[book]` adds what
    bayescomp.book imports, matplotlib and anywidget, and the reader lock installs both."""
    _, wheel = dist
    with zipfile.ZipFile(wheel) as archive:
        info = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
    needs = sorted(metadata.get_all("Requires-Dist"))
    plain = [line.split(">")[0] for line in needs if "extra ==" not in line]
    book = sorted(line.split(">")[0] for line in needs if 'extra == "book"' in line)
    assert (plain, book, metadata.get_all("Provides-Extra")) == (
        ["numpy"], ["anywidget", "matplotlib"], ["book"]), needs
    pinned = {line.split("==")[0] for line in (ROOT / "requirements.txt").read_text().splitlines()}
    assert {"anywidget", "matplotlib"} <= pinned


def test_wheel_is_reproducible(dist, tmp_path):
    _, wheel = dist
    _, again = package.build(tmp_path)
    assert again.read_bytes() == wheel.read_bytes()


def test_one_anywidget_class_with_the_packaged_module():
    pytest.importorskip("anywidget")
    from bayescomp.book._anywidget import BayesCompWidget

    # The module is the packaged bundle with one line more, anywidget's render().
    module = widgets.anywidget_module()
    assert module.startswith(widgets.BUNDLE.read_text(encoding="utf-8"))
    assert module.rstrip().endswith(widgets.ANYWIDGET_EXPORT)
    shown = [show() for show in (widgets.posterior_explorer, widgets.metropolis)]
    assert all(isinstance(widget, BayesCompWidget) for widget in shown)
    assert {widget._esm for widget in shown} == {module}
    assert [widget.widget for widget in shown] == [FIGURE.posterior_explorer, FIGURE.metropolis]
