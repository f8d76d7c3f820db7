"""The book as a reader downloads it: the website's archive, in an empty folder, with Python only.

A folder holds nothing but the archive the built website offers. It is unpacked, and the lines
of its README (the fenced block: make a venv, ``pip install -r requirements.txt``, ``jupyter
lab``) run in bash with a PATH on which there is no Node.js, git or make. Then:

- the reader's venv stays within the 500 MB budget, and its ``bayescomp`` is the archive's
  wheel (not the checkout's sources);
- JupyterLab, started by the README's last line, opens every chapter, and its Markdown shows no
  MyST source (roles, directives, labels, or the bare key of an unresolved reference: the MyST
  renderer, jupyterlab-myst, is in the reader's lock); Run All Cells runs it from a fresh kernel
  with no error and nothing on stderr;
- in every chapter that teaches with a live figure, the figure's cell draws it (anywidget, the
  bundle from inside the wheel) with nothing fetched from outside.

The website links the archive and the PDF from the landing page and every chapter page.
"""
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools import toc
from tools.download.archive import ARCHIVE_NAME, FOLDER
from tools.pdf.build import PDF_NAME
from tools.toc import CHAPTERS, ROOT

from .conftest import LAB_FLAGS, NO_NODE, free_port, path_without, start_lab
from .lab import (EXPOSE_APP, NOTEBOOK_OPEN, RUN_ALL, failures, live_figure_colours,
                  live_figure_selector, myst_source_shown, not_run, rendered_markdown, widget_cells)

SITE = ROOT / "_build" / "html"
BUDGET_MB = 500


def archive():
    path = SITE / ARCHIVE_NAME
    if not path.exists():
        pytest.skip(f"{path} is missing: run `make book`")
    return path


def readme_lines(folder):
    """The commands of the README's fenced block, in order."""
    text = (folder / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```(?:bash|sh)?\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """The unpacked archive after the README's set-up lines, and the reader's environment."""
    home = tmp_path_factory.mktemp("reader")
    shutil.copy(archive(), home)
    assert sorted(os.listdir(home)) == [ARCHIVE_NAME]
    with zipfile.ZipFile(home / ARCHIVE_NAME) as zipped:   # what "unzip" does
        zipped.extractall(home)
    folder = home / FOLDER
    path = path_without(home / "bin", NO_NODE)
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(PATH=path, JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"), JUPYTER_DATA_DIR=str(home / "jupyter-data"))
    for program in ("node", "npm", "git", "make"):
        assert shutil.which(program, path=path) is None, program
    *setup, lab = readme_lines(folder)
    assert lab.startswith("jupyter lab"), lab
    run = subprocess.run(["bash", "-e", "-c", "\n".join(setup)], cwd=folder, env=env,
                         capture_output=True, text=True, timeout=1500)
    assert run.returncode == 0, f"the README's lines failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return folder, env, lab


def test_site_links_both_downloads():
    archive()
    for page in (SITE / f"{toc.PAGES[0]}.html", *(SITE / "chapters" / f"{n}.html" for n in CHAPTERS)):
        html = page.read_text(encoding="utf-8")
        for name in (ARCHIVE_NAME, PDF_NAME):
            links = re.findall(rf'href="([^"]*{re.escape(name)})"', html)
            assert links, f"{page.name} does not link {name}"
            assert all((page.parent / link).resolve() == SITE / name for link in links), links
    assert (SITE / PDF_NAME).exists()


def test_archive_holds_the_licences_and_names_the_edition():
    """Both licence files beside the README, which opens with the edition and its licences in
    one line; the wheel's name carries the version too (the archive's own name does not)."""
    from tools import edition
    with zipfile.ZipFile(archive()) as zipped:
        names = zipped.namelist()
        for licence in edition.LICENCES.values():
            assert zipped.read(f"{FOLDER}/{licence['file']}") == (ROOT / licence["file"]).read_bytes()
        readme = zipped.read(f"{FOLDER}/README.md").decode()
    assert edition.notice_markdown() in readme.split("\n\n")[1], readme[:400]
    assert f"{FOLDER}/bayescomp-{edition.version()}-py3-none-any.whl" in names


def test_reader_install_is_the_archives_wheel_within_budget(reader):
    folder, env, _ = reader
    python = folder / ".venv" / "bin" / "python"
    where = subprocess.run([str(python), "-c", "import bayescomp.book.widgets as w; print(w.BUNDLE)"],
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert "site-packages" in where and str(ROOT) not in where, where
    assert Path(where).exists()
    # Measured as tools/scripts/check_reader_env.sh measures the clone's: du, in MB.
    size = int(subprocess.run(["du", "-sm", str(folder / ".venv")], capture_output=True, text=True,
                              check=True).stdout.split()[0])
    assert size <= BUDGET_MB, f"the reader install is {size} MB, over {BUDGET_MB} MB"


@pytest.fixture(scope="module")
def lab(reader):
    """The README's last line, with the flags a headless test needs."""
    folder, env, line = reader
    port = free_port()
    flags = " ".join([f"--port={port}", *LAB_FLAGS, EXPOSE_APP])
    server, url = start_lab(["bash", "-c", f". .venv/bin/activate && exec {line} {flags}"], port,
                            cwd=folder, env=env)
    yield url
    server.terminate()
    server.wait(timeout=30)


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_runs_and_draws_in_jupyterlab(name, lab, offline_page):
    view = offline_page(lab)
    page = view.page
    errors = []   # JupyterLab's own cell toolbar trips over jupyterlab-myst's Markdown cells
    page.on("pageerror", lambda e: "_markdownOverlapsToolbar" in (e.stack or "") or errors.append(e.stack))
    page.goto(f"{lab}/lab/tree/{name}.ipynb?reset", wait_until="load")
    page.wait_for_function(NOTEBOOK_OPEN, timeout=90_000)
    shown = myst_source_shown(rendered_markdown(page, name))
    assert shown == [], f"raw MyST in {name} as JupyterLab shows it: {shown[:5]}"
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"jupyterlab-{name}.png"))     # as the reader opens it
    page.set_default_timeout(600_000)
    result = page.evaluate(RUN_ALL)
    failed = failures(result)
    assert failed == [], f"{name}: errors or stderr in JupyterLab: {failed[:3]}"
    assert result["ok"], f"{name}: Run All Cells did not complete"
    assert not_run(result) == [], f"{name}: cells not run: {not_run(result)}"
    for index, widget in widget_cells(name):
        colours = live_figure_colours(page, index, widget)
        assert min(colours) > 3, f"{name}: the live figure {widget} did not draw ({colours})"
        page.locator(live_figure_selector(widget)).screenshot(
            path=str(shots / f"download-jupyterlab-{name}-{widget}.png"))
    page.screenshot(path=str(shots / f"download-jupyterlab-{name}.png"))
    assert view.external == [], f"{name}: JupyterLab reached outside: {view.external[:3]}"
    assert errors == [], f"{name}: script errors: {errors[:3]}"
    page.evaluate("() => jupyterapp.shell.currentWidget.sessionContext.shutdown()")
