"""The live figures in headless chromium, with the network cut.

The bundle is built fresh from ``code/widgets`` (esbuild) into a temporary folder, with the
package's data script beside it. Three kinds of page show the widgets:

- a small Sphinx site built with the book's extension (``tools/website/widgets.py``) and theme,
  one page per widget (over http and over ``file://``);
- a small reveal.js deck exported with the book's deck template (``tools.slides.build``),
  one slide per widget, as the chapter decks show them;
- the built book and decks themselves, when they have been built with the placeholders in.

For every widget: it renders; every control changes the readouts, by mouse and by keyboard;
the URL hash reproduces its state; dark mode redraws it. Also: a full Metropolis run at the
default settings ends with R-hat and the mean's error in MCSE within the thresholds the widgets
use (``WidgetSettings``: R-hat < 1.01, within 4 MCSE of the grid mean); pointer
positions stay right under reveal.js scaling; touch works; animation pauses out of view and
calms down under prefers-reduced-motion. Finally, the anywidget in JupyterLab.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from bayescomp.book import widgets
from bayescomp.book.widgets import FIGURE_NAMES as FIGURE
from tools.slides import build as deck_builder
from tools.toc import ROOT

from .offline import OfflinePage

WIDGETS = widgets.WIDGETS                      # the package's names, as the pages get them
SETTINGS = widgets.WidgetSettings()            # the thresholds the widgets colour readouts by
# Every control of every widget (data-control names), from the manifest (bayescomp/book/figures.json):
# a new control must be added there. The funnel's list holds both samplers' settings: the
# other sampler's are greyed out (test_the_funnel_greys_out_the_other_samplers_settings).
FIGURES = {figure["name"]: figure for figure in widgets.widget_data()["figures"]}
CONTROLS = {name: figure["controls"] for name, figure in FIGURES.items()}
SCRIPTS = (widgets.DATA_NAME, widgets.BUNDLE_NAME)


def title(name):
    return name.replace("-", " ").capitalize()


# --- pages ---------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """The bundle (from the sources, by esbuild) and the package's data script, in a temp dir."""
    out = tmp_path_factory.mktemp("widgets")
    subprocess.run(["node", str(ROOT / "code" / "widgets" / "build.mjs"), str(out)], check=True,
                   capture_output=True)
    subprocess.run([sys.executable, "-m", "bayescomp.book.widgets", str(out)], check=True,
                   capture_output=True)
    return out


@pytest.fixture(scope="session")
def mini_site(built, tmp_path_factory):
    """A small Sphinx site (the book's theme and widget extension): a page per widget, one without."""
    src = tmp_path_factory.mktemp("site-src")
    (src / "conf.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        extensions = ["myst_parser", "tools.website.widgets"]
        html_theme = "sphinx_book_theme"
        bayescomp_widgets_bundle = {str(built / SCRIPTS[1])!r}
        """))
    pages = "\n".join([*WIDGETS, "plain"])
    (src / "index.md").write_text(f"# Widgets\n\n```{{toctree}}\n{pages}\n```\n")
    (src / "plain.md").write_text("# A page without a widget\n\nText.\n")
    for name in WIDGETS:
        (src / f"{name}.md").write_text(
            f"# {title(name)}\n\nSome prose above the figure.\n\n"
            f'<div data-widget="{name}">Live figure: in Jupyter, run the next cell.</div>\n\n'
            'Some prose below it.\n\n'
            '<div style="height: 2400px"></div>\n\nThe end.\n')
    out = tmp_path_factory.mktemp("site") / "html"
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(out)],
                   check=True, capture_output=True)
    return out


@pytest.fixture(scope="session")
def mini_deck(built, tmp_path_factory):
    """A deck made with the book's exporter and template: a title slide and a slide per widget.

    If the template does not load the widget scripts yet, they are added before </body>, as
    proposed for tools/slides/deck_template/index.html.j2."""
    out = tmp_path_factory.mktemp("deck")
    # copy_assets takes the package's bundle; the fresh one from the sources wins below.
    deck_builder.copy_assets(out)
    for name in SCRIPTS:
        shutil.copy(built / name, out / "vendor" / name)
    cells = [nbformat.v4.new_markdown_cell("# Live figures"),
             nbformat.v4.new_markdown_cell("# Live figures\n\nOne slide per widget.")]
    cells[0].metadata["slideshow"] = {"slide_type": "skip"}
    cells[1].metadata["slideshow"] = {"slide_type": "slide"}
    for name in WIDGETS:
        cell = nbformat.v4.new_markdown_cell(
            f'## {title(name)}\n\n<div data-widget="{name}">Live figure: in Jupyter, run the next cell.</div>')
        cell.metadata["slideshow"] = {"slide_type": "slide"}
        cells.append(cell)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    body, _ = deck_builder.exporter().from_notebook_node(notebook)
    if SCRIPTS[1] not in body:
        tags = "".join(f'<script src="vendor/{name}"></script>\n' for name in SCRIPTS)
        body = body.replace("</body>", tags + "</body>")
    (out / "deck.html").write_text(body, encoding="utf-8")
    return out


def open_widget(page, url, name, timeout=30_000):
    page.goto(url, wait_until="load")
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('[data-widget=\"{name}\"]');"
        " return el && el.bcWidget && Object.keys(el.bcWidget.readout()).length > 0; }",
        timeout=timeout)
    return page.locator(f'[data-widget="{name}"]')


def readout(page, name):
    return page.evaluate(f"document.querySelector('[data-widget=\"{name}\"]').bcWidget.readout()")


def hook(page, name, call):
    """Evaluate el.bcWidget.<call> for widget `name`."""
    return page.evaluate(f"document.querySelector('[data-widget=\"{name}\"]').bcWidget.{call}")


def canvases_drawn(page, name):
    """For each canvas of the widget: how many distinct colours it shows (1 = blank)."""
    return page.evaluate(f"""() => [...document.querySelectorAll('[data-widget="{name}"] canvas')]
        .map(c => {{ const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                     const seen = new Set();
                     for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] << 16 | d[i+1] << 8 | d[i+2]);
                     return seen.size; }})""")


@pytest.fixture(scope="session")
def site(mini_site, serve):
    return serve(mini_site)


@pytest.fixture
def file_page(browser):
    """A page for file:// URLs with every other request blocked."""
    pages = []

    def open_page():
        view = OfflinePage(browser, "file://")
        pages.append(view)
        return view

    yield open_page
    for view in pages:
        view.close()


# --- the Sphinx extension ------------------------------------------------------------------------

def test_extension_adds_the_scripts_only_where_a_widget_is(mini_site):
    for name in WIDGETS:
        html = (mini_site / f"{name}.html").read_text()
        positions = [html.find(f"_static/widgets/{script}") for script in SCRIPTS]
        assert -1 not in positions and positions[0] < positions[1], name
    for page in ("plain.html", "index.html"):
        assert "bayescomp-widgets" not in (mini_site / page).read_text(), page
    assert all((mini_site / "_static" / "widgets" / s).exists() for s in SCRIPTS)
    # Nothing of ours where Jupyter Book would load it on every page.
    assert not list((mini_site / "_static").glob("bayescomp*.js"))


def test_bundle_is_within_budget(built):
    size = (built / SCRIPTS[1]).stat().st_size
    assert size <= 200 * 1024, f"bundle is {size / 1024:.1f} KB"
    text = (built / SCRIPTS[1]).read_text()
    assert "import " not in text[:200] and not re.search(r"\bexport\s+(default|\{)", text), \
        "the bundle must be a classic script"


# --- rendering, offline, over http and file:// ---------------------------------------------------

@pytest.mark.parametrize("name", WIDGETS)
def test_widget_renders_over_http(name, site, offline_page):
    view = offline_page(site)
    open_widget(view.page, f"{site}/{name}.html", name)
    assert min(canvases_drawn(view.page, name)) > 3, "a canvas is blank"
    # The widget finds its own manifest entry, and its own settings there (or none).
    entry = view.page.evaluate(f"""() => {{ const w = document.querySelector('[data-widget="{name}"]')
        .bcWidget.widget; return [w.figure.name, w.figureSettings]; }}""")
    assert entry == [name, FIGURES[name].get("settings", {})]
    assert view.errors == [], view.errors
    assert view.external == [] and view.failed == [], (view.external, view.failed)


@pytest.mark.parametrize("name", WIDGETS)
def test_widget_renders_over_file_url(name, mini_site, file_page):
    view = file_page()
    open_widget(view.page, (mini_site / f"{name}.html").as_uri(), name)
    assert min(canvases_drawn(view.page, name)) > 3
    assert view.errors == [], view.errors
    assert view.external == [], view.external


def test_demo_page_over_file_url(built, file_page):
    view = file_page()
    for name in WIDGETS:
        open_widget(view.page, (built / "demo.html").as_uri(), name)
    assert view.errors == [] and view.external == []


# --- every control, by mouse and by keyboard -----------------------------------------------------

def slider_mouse(page, locator):
    box = locator.bounding_box()
    value = float(locator.input_value())
    low, high = float(locator.get_attribute("min")), float(locator.get_attribute("max"))
    fraction = 0.15 if (value - low) / (high - low) > 0.5 else 0.85
    locator.click(position={"x": box["width"] * fraction, "y": box["height"] / 2})


def slider_keys(page, locator):
    locator.focus()
    value = float(locator.input_value())
    low, high = float(locator.get_attribute("min")), float(locator.get_attribute("max"))
    page.keyboard.press("Home" if (value - low) / (high - low) > 0.5 else "End")


def plot_point(page, name, plot, value):
    """Screen position of a data point on one of the widget's plots (measured, not assumed)."""
    return page.evaluate(f"""() => {{
        const w = document.querySelector('[data-widget="{name}"]').bcWidget.widget;
        const p = w.{plot}; const r = p.canvas.getBoundingClientRect();
        const v = {json.dumps(value)};
        return [r.left + p.x(v[0]) / p.width * r.width, r.top + p.y(v[1]) / p.height * r.height];
    }}""")


def canvas_mouse(page, name):
    """Click or drag on the widget's interactive plot, as its manifest entry's ``canvas`` says."""
    page.locator(f'[data-widget="{name}"] canvas[tabindex]').first.scroll_into_view_if_needed()
    canvas = FIGURES[name]["canvas"]
    if canvas["gesture"] == "click":
        x, y = plot_point(page, name, canvas["plot"], canvas["at"])
        page.mouse.click(x, y)
        return
    start = page.evaluate(f"""() => document.querySelector('[data-widget="{name}"]')
        .bcWidget.widget[{json.dumps(canvas["from"])}]""")
    x0, y0 = plot_point(page, name, canvas["plot"], start)
    x1, y1 = plot_point(page, name, canvas["plot"], [start[0] + 0.4, start[1] - 0.3])
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=3)
    page.mouse.move(x1, y1, steps=3)
    page.mouse.up()


def canvas_keys(page, root, name):
    root.locator("canvas[tabindex]").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    if FIGURES[name]["canvas"].get("enter"):
        page.keyboard.press("Enter")


def act(page, root, name, control, how):
    """Operate one control with the mouse or the keyboard."""
    if control == "canvas":
        (canvas_mouse(page, name) if how == "mouse" else canvas_keys(page, root, name))
        return
    locator = root.locator(f'[data-control="{control}"]')
    tag = locator.evaluate("e => e.tagName.toLowerCase() + (e.type ? ':' + e.type : '')")
    if tag == "input:range":
        (slider_mouse if how == "mouse" else slider_keys)(page, locator)
    elif tag.startswith("select"):
        if how == "mouse":
            values = locator.evaluate("e => [...e.options].map(o => o.value).filter(v => v && v !== e.value)")
            locator.select_option(values[-1])
        else:
            locator.focus()
            page.keyboard.press("ArrowDown")
    else:
        if how == "mouse":
            locator.click()
        else:
            locator.focus()
            page.keyboard.press("Enter")


def comparable(state):
    """The readout without timings."""
    return {k: v for k, v in state.items() if not k.endswith("_ms")}


@pytest.mark.parametrize("how", ["mouse", "keyboard"])
@pytest.mark.parametrize("name", WIDGETS)
def test_every_control_changes_the_readouts(name, how, site, offline_page):
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{name}.html", name)
    found = set(root.locator("[data-control]").evaluate_all("els => els.map(e => e.dataset.control)"))
    assert found - {"copy-link"} == set(CONTROLS[name]) - {"canvas"}, "controls changed: update their list in bayescomp/book/figures.json"
    assert root.locator("canvas[tabindex]").count() >= 1
    unchanged = []
    for control in CONTROLS[name]:
        if control == "reset":
            hook(page, name, "run(50)")        # something to restart from
        before = comparable(readout(page, name))
        act(page, root, name, control, how)
        page.wait_for_timeout(80)
        after = comparable(readout(page, name))
        if after == before:
            unchanged.append(control)
        if after.get("playing"):
            hook(page, name, "set({playing: false})")
    assert unchanged == [], f"{how}: these controls did not change the readouts: {unchanged}"
    assert view.errors == [], view.errors


def test_controls_are_labelled_and_focus_is_visible(site, offline_page):
    view = offline_page(site)
    page = view.page
    for name in WIDGETS:
        root = open_widget(page, f"{site}/{name}.html", name)
        unlabelled = root.locator("input, select").evaluate_all(
            "els => els.filter(e => !(e.labels && e.labels.length)).map(e => e.outerHTML)")
        assert unlabelled == [], unlabelled
        assert root.locator("canvas").evaluate_all(
            "els => els.every(e => e.getAttribute('aria-label'))")
        root.locator("canvas[tabindex]").first.focus()
        outline = root.locator("canvas[tabindex]").first.evaluate(
            "e => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth")
        assert outline.startswith("solid") and not outline.endswith(" 0px"), outline


# --- the numbers ---------------------------------------------------------------------------------

def test_posterior_explorer_shows_the_books_grid(site, offline_page):
    import bayescomp as bc
    from bayescomp import book
    lecture = book.run_lecture(methods=())
    view = offline_page(site)
    open_widget(view.page, f"{site}/{FIGURE.posterior_explorer}.html", FIGURE.posterior_explorer)
    shown = readout(view.page, FIGURE.posterior_explorer)
    assert shown["grid_mean"] == pytest.approx(lecture.grid.mean, rel=1e-9)
    assert shown["grid_sd"] == pytest.approx(lecture.grid.sd, rel=1e-9)
    assert shown["map"] == pytest.approx(lecture.laplace.mean, rel=1e-9)
    predictive = bc.posterior_predictive([shown["x_star"]], lecture.grid.points, lecture.grid.weights)
    assert shown["posterior_predictive"] == pytest.approx(predictive[0], rel=1e-9)


def test_explorer_grid_holds_the_posterior_at_every_setting(site, offline_page):
    view = offline_page(site)
    page = view.page
    open_widget(page, f"{site}/{FIGURE.posterior_explorer}.html", FIGURE.posterior_explorer)
    for prior_sd in (0.25, 2.0, 10.0):
        for n in (5, 8, 20, 80):
            page.evaluate(f"""document.querySelector('[data-widget="{FIGURE.posterior_explorer}"]')
                              .bcWidget.set({{prior_sd: {prior_sd}, n: {n}}})""")
            edges = page.evaluate(f"""() => BayesCompWidgets.engine.edgeRatios(
                document.querySelector('[data-widget="{FIGURE.posterior_explorer}"]').bcWidget.widget.result.grid)""")
            assert max(edges) <= 1e-3, (prior_sd, n, edges)


def test_full_metropolis_run_at_the_defaults(site, offline_page):
    """Play at the default settings until the run (12,000 steps per chain) stops by itself."""
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{FIGURE.metropolis}.html", FIGURE.metropolis)
    root.scroll_into_view_if_needed()
    root.locator('[data-control="play"]').click()
    page.wait_for_function(
        f"() => {{ const r = document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]').bcWidget.readout();"
        " return !r.playing && r.steps >= 12000; }", timeout=300_000)
    final = readout(page, FIGURE.metropolis)
    assert final["steps"] == 12000 and final["scale"] == 1.1 and len(final["starts"]) == 4
    assert max(final["rhat"]) < SETTINGS.rhat_max, final["rhat"]
    errors = [abs(m - g) / s for m, g, s in zip(final["mean"], final["grid_mean"], final["mcse"])]
    assert max(errors) <= SETTINGS.error_mcse_max, errors
    assert final["diagnostics_refreshes"] > 10
    assert view.errors == []


def test_live_diagnostics_match_a_fresh_computation(site, offline_page):
    """While playing, the production diagnostics are computed a job per frame; they must equal
    the engine's rankSummary of the same draws computed at once."""
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{FIGURE.metropolis}.html", FIGURE.metropolis)
    root.scroll_into_view_if_needed()
    hook(page, FIGURE.metropolis, "set({playing: true})")
    page.wait_for_function(f"() => document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]')"
                           ".bcWidget.widget.refreshTimes.length >= 3")
    hook(page, FIGURE.metropolis, "widget.playing = false")
    compared = page.evaluate(f"""() => {{
        const w = document.querySelector('[data-widget="{FIGURE.metropolis}"]').bcWidget.widget;
        const d = w.diagnostics;
        return [0, 1].map(a => [d.params[a], BayesCompWidgets.engine.rankSummary(w.kept(a, d.steps))]);
    }}""")
    for live, fresh in compared:
        for key in ("rhat", "essBulk", "essTail", "mcse", "mean"):
            assert live[key] == pytest.approx(fresh[key], rel=1e-12), key


def test_explorer_is_coarse_while_dragging_and_full_on_release(site, offline_page):
    view = offline_page(site)
    page = view.page
    open_widget(page, f"{site}/{FIGURE.posterior_explorer}.html", FIGURE.posterior_explorer)
    fire = f"""([control, value, type]) => {{
        const input = document.querySelector(`[data-widget="{FIGURE.posterior_explorer}"] [data-control="${{control}}"]`);
        input.value = value; input.dispatchEvent(new Event(type, {{bubbles: true}}));
        return document.querySelector('[data-widget="{FIGURE.posterior_explorer}"]').bcWidget.readout(); }}"""
    assert page.evaluate(fire, ["n", 40, "input"])["resolution"] == 81
    assert page.evaluate(fire, ["n", 40, "change"])["resolution"] == 241
    # A prior-only change within the same box reuses the cached full-grid likelihood.
    assert page.evaluate(fire, ["n", 80, "change"])["resolution"] == 241
    dragged = page.evaluate(fire, ["prior_sd", 140, "input"])
    assert dragged["resolution"] == 241 and dragged["box"] == [[-2.5, 1.5], [0, 2.8]]


def test_presets_show_their_failures(site, offline_page):
    view = offline_page(site)
    page = view.page
    open_widget(page, f"{site}/{FIGURE.importance_sampling}.html", FIGURE.importance_sampling)
    narrow = hook(page, FIGURE.importance_sampling, "set({preset: 'two-modes-narrow'})")
    assert narrow["ess_fraction"] > 0.5 and abs(narrow["error_in_mcse"][0]) > 20
    open_widget(page, f"{site}/{FIGURE.metropolis}.html", FIGURE.metropolis)
    tiny = hook(page, FIGURE.metropolis, "set({preset: 'tiny'})")
    tiny = hook(page, FIGURE.metropolis, "run(3000)")
    huge = hook(page, FIGURE.metropolis, "set({preset: 'huge'})")
    huge = hook(page, FIGURE.metropolis, "run(3000)")
    assert min(tiny["accept_rate"]) > 0.9 and max(huge["accept_rate"]) < 0.05
    assert max(tiny["rhat"]) > SETTINGS.rhat_max and min(tiny["ess_bulk"]) < 100
    hook(page, FIGURE.metropolis, "set({preset: 'two-modes'})")
    two = hook(page, FIGURE.metropolis, "run(3000)")
    assert max(two["rhat"]) > 1.05
    open_widget(page, f"{site}/{FIGURE.laplace_vi}.html", FIGURE.laplace_vi)
    hook(page, FIGURE.laplace_vi, "set({target: 'two-modes'})")
    vi = hook(page, FIGURE.laplace_vi, "run(600)")
    assert abs(vi["mean"][0] - 2) < 0.2 and vi["sd"][0] < 0.8       # reverse KL: one mode
    assert vi["forward_kl"]["sd"][0] > 2                             # forward KL: both


def test_funnel_presets_show_the_chapters_failures(site, offline_page):
    """The chapter's runs, live: centred HMC diverges in the neck and misses P(tau < 1) by far
    more than its MCSE, while R-hat stays near 1; non-centring fixes both; a step too large
    diverges even on the non-centred form."""
    view = offline_page(site)
    page = view.page
    open_widget(page, f"{site}/{FIGURE.funnel}.html", FIGURE.funnel)
    hook(page, FIGURE.funnel, "set({preset: 'centred-neck'})")
    centred = hook(page, FIGURE.funnel, "run(2000)")
    exact = centred["exact_prob_tau_below_1"]
    assert centred["steps"] == 2000 and centred["warmup"] == 500
    assert centred["divergent_kept"] > 10 and centred["lowest_log_tau"] > -1.5, centred
    assert (exact - centred["prob_tau_below_1"]) / centred["mcse"][1] > 2 * SETTINGS.error_mcse_max
    hook(page, FIGURE.funnel, "set({preset: 'non-centred'})")
    fixed = hook(page, FIGURE.funnel, "run(2000)")
    assert fixed["divergent_all"] == 0 and fixed["lowest_log_tau"] < -4, fixed
    assert max(fixed["rhat"]) < SETTINGS.rhat_max
    for k, key in enumerate(("mean_log_tau", "prob_tau_below_1")):
        error = (fixed[key] - fixed[f"exact_{key}"]) / fixed["mcse"][k]
        assert abs(error) <= SETTINGS.error_mcse_max, (key, error)
    hook(page, FIGURE.funnel, "set({preset: 'big-step'})")
    big = hook(page, FIGURE.funnel, "run(1000)")
    assert big["form"] == "non-centred" and big["divergent_share"] > 0.02, big
    # The random walk on the funnel: no trajectories, so no divergence flags.
    walk = hook(page, FIGURE.funnel, "set({sampler: 'random-walk', form: 'centred'})")
    walk = hook(page, FIGURE.funnel, "run(4000)")
    assert walk["divergent_share"] is None and 0 < min(walk["accept_rate"]) < 0.6, walk
    assert view.errors == [], view.errors


def test_every_proposal_works_on_every_target(site, offline_page):
    """Each proposal family after each preset, as a lecture's notes run them (the defensive
    mixture after the two-mode preset once failed to draw): no error, on screen or in the page,
    and the readout is the new proposal's."""
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{FIGURE.importance_sampling}.html", FIGURE.importance_sampling)
    presets = root.locator('[data-control="preset"]').evaluate(
        "e => [...e.options].map(o => o.value).filter(Boolean)")
    families = root.locator('[data-control="family"]').evaluate("e => [...e.options].map(o => o.value)")
    for preset in presets:
        for family in families:
            root.locator('[data-control="preset"]').select_option(preset)
            root.locator('[data-control="family"]').select_option(family)
            page.wait_for_timeout(50)
            status = root.locator(".bcw-status")
            assert "bcw-error" not in (status.get_attribute("class") or ""), (preset, family, status.inner_text())
            assert readout(page, FIGURE.importance_sampling)["family"] == family, (preset, family)
    assert view.errors == [], view.errors


def test_the_funnel_greys_out_the_other_samplers_settings(site, offline_page):
    """A lecturer moved the Metropolis scale while HMC ran and saw nothing change: only the
    chosen sampler's settings can be operated, from the start and after every switch."""
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{FIGURE.funnel}.html", FIGURE.funnel)

    def usable():
        return {c: not root.locator(f'[data-control="{c}"]').is_disabled()
                for c in ("step", "leapfrog", "scale")}

    assert usable() == {"step": True, "leapfrog": True, "scale": False}
    root.locator('[data-control="sampler"]').select_option("random-walk")
    assert usable() == {"step": False, "leapfrog": False, "scale": True}
    hook(page, FIGURE.funnel, "set({preset: 'centred-neck'})")
    assert usable() == {"step": True, "leapfrog": True, "scale": False}
    assert view.errors == [], view.errors


def test_funnel_places_a_start_where_clicked(site, offline_page):
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{FIGURE.funnel}.html", FIGURE.funnel)
    root.scroll_into_view_if_needed()
    x, y = plot_point(page, FIGURE.funnel, "plot", [0.0, -3.0])
    page.mouse.click(x, y)
    page.wait_for_timeout(100)
    starts = readout(page, FIGURE.funnel)["starts"]
    assert starts[0] == pytest.approx([0.0, -3.0], abs=0.3), starts
    # A chain started in the neck in the centred form sticks there: R-hat says so.
    stuck = hook(page, FIGURE.funnel, "run(600)")
    assert max(stuck["rhat"]) > SETTINGS.rhat_max, stuck["rhat"]


def test_dimension_draws_match_the_exact_chi(site, offline_page):
    """The typical set, with a known answer: the draws' distance from the mode has the chi_d
    distribution, whose mean, E|x|^2 = d and distribution function the widget shows exactly."""
    import math

    view = offline_page(site)
    page = view.page
    open_widget(page, f"{site}/{FIGURE.dimension}.html", FIGURE.dimension)
    for d in (1, 10, 100):
        shown = hook(page, FIGURE.dimension, f"set({{d: {d}}})")
        exact = math.sqrt(2) * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2))
        assert shown["chi_mean"] == pytest.approx(exact, rel=1e-12)
        assert shown["chi_mean"] ** 2 + shown["chi_variance"] == pytest.approx(d, rel=1e-12)
        run = hook(page, FIGURE.dimension, "run(2000)")
        hmc, walk = run["hmc"], run["rwm"]
        assert abs(hmc["mean_r"] - exact) <= SETTINGS.error_mcse_max * hmc["mcse_r"], (d, hmc)
        assert abs(walk["mean_r"] - exact) <= SETTINGS.error_mcse_max * walk["mcse_r"], (d, walk)
        assert abs(run["within_draws"] - run["within_exact"]) < 0.05, run
        # The chapter's rules: the walk accepts about a quarter (d >= 5), HMC most, and per
        # evaluation HMC's ESS pulls away from the walk's as d grows.
        if d >= 10:
            assert 0.15 < walk["accept"] < 0.35 and hmc["accept"] > 0.6, run
        if d == 100:
            assert hmc["ess_per_evaluation"] > 10 * walk["ess_per_evaluation"], run
    # Moving d restarts eight chains: the median of 11 updates takes under 50 ms (the issue's
    # target; on a busy machine a few updates alone take longer).
    times = [hook(page, FIGURE.dimension, f"set({{d: {d}}})")["update_ms"]
             for d in (2, 20, 50, 100, 5, 60, 3, 40, 8, 80, 10)]
    assert sorted(times)[5] < 50, times
    # The radius: P(|x| <= sqrt(2)) in d = 2 is 1 - e^-1.
    shown = hook(page, FIGURE.dimension, "set({d: 2, radius: Math.SQRT2})")
    assert shown["within_exact"] == pytest.approx(1 - math.exp(-1), rel=1e-12)
    # Tuned for d = 1 in d = 100, neither sampler moves.
    hook(page, FIGURE.dimension, "set({preset: 'untuned100'})")
    stuck = hook(page, FIGURE.dimension, "run(300)")
    assert stuck["rwm"]["accept"] < 0.01 and stuck["hmc"]["accept"] < 0.05, stuck
    # Chains that barely move from their exact starts have about one effective draw each: R-hat
    # flags them and the ESS per evaluation is near 0. (The engine's textbook ESS, which looks
    # at each chain alone, gave HMC here 1.0000 per evaluation, a perfect score.)
    for kind in ("rwm", "hmc"):
        q = stuck[kind]
        assert q["rhat"] > SETTINGS.rhat_max and q["ess_per_evaluation"] < 0.01, (kind, q)
    assert view.errors == [], view.errors


AXE = ROOT / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.parametrize("name", WIDGETS)
def test_axe_finds_no_violation(name, site, offline_page):
    """axe-core (pinned in tools/npm) on the widget, on the page that holds it, after a run, in
    light and dark mode: no violation of any rule it checks. (The page around it is the
    theme's: axe reports two rules there, the search button's label and a sidebar item outside
    a landmark, which are not the widget's.)"""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make npm`")
    view = offline_page(site)
    page = view.page
    open_widget(page, f"{site}/{name}.html", name)
    hook(page, name, "run(300)")
    page.add_script_tag(path=str(AXE))
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        page.wait_for_timeout(200)
        violations = page.evaluate("""async (name) => (await axe.run(`[data-widget="${name}"]`,
                                                                 {resultTypes: ['violations']}))
            .violations.map(v => ({id: v.id, impact: v.impact,
                                   nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))}))""", name)
        assert violations == [], json.dumps([theme, violations])
    assert view.errors == [], view.errors


# --- links, dark mode, motion ---------------------------------------------------------------------

# A state away from each figure's defaults, for the copy-link check.
LINKED_STATES = {
    FIGURE.importance_sampling: "{family: 'student-t', centre: [-0.1, 1.2], scale: [0.5, 0.4], draws: 700, seed: 5}",
    FIGURE.funnel: "{sampler: 'random-walk', form: 'non-centred', scale: 0.8, seed: 7, starts: [[0, -3]]}",
    FIGURE.dimension: "{d: 50, tuning: 'd1', seed: 9, radius: 6}",
}


@pytest.mark.parametrize("name", LINKED_STATES)
@pytest.mark.parametrize("how", ["mouse", "keyboard"])
def test_copy_link_reproduces_the_state(name, how, site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = context.new_page()
    try:
        root = open_widget(page, f"{site}/{name}.html", name)
        hook(page, name, f"set({LINKED_STATES[name]})")
        state = comparable(readout(page, name))
        button = root.locator('[data-control="copy-link"]')
        if how == "mouse":
            button.click()
        else:
            button.focus()
            page.keyboard.press("Enter")
        page.wait_for_timeout(200)
        link = page.evaluate("navigator.clipboard.readText()")
        assert link.startswith(f"{site}/{name}.html#{name}?")
        assert page.evaluate("location.href") == link
        other = context.new_page()
        open_widget(other, link, name)
        assert comparable(readout(other, name)) == state
    finally:
        context.close()


def test_dark_mode_redraws(site, offline_page):
    view = offline_page(site)
    page = view.page
    for name in WIDGETS:
        root = open_widget(page, f"{site}/{name}.html", name)
        corner = "e => Array.from(e.querySelector('canvas').getContext('2d').getImageData(1, 1, 1, 1).data)"
        light = root.evaluate(corner)
        page.evaluate("document.documentElement.dataset.theme = 'dark'")
        page.wait_for_function(f"() => document.querySelector('[data-widget=\"{name}\"]').classList.contains('bcw-dark')")
        dark = root.evaluate(corner)
        assert sum(light[:3]) > 600 and sum(dark[:3]) < 150, (light, dark)
        page.evaluate("document.documentElement.dataset.theme = 'light'")


def test_animation_pauses_out_of_view(site, offline_page):
    view = offline_page(site)
    page = view.page
    root = open_widget(page, f"{site}/{FIGURE.metropolis}.html", FIGURE.metropolis)
    root.scroll_into_view_if_needed()
    hook(page, FIGURE.metropolis, "set({playing: true})")
    page.wait_for_timeout(500)
    assert readout(page, FIGURE.metropolis)["steps"] > 0
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(400)
    hidden = readout(page, FIGURE.metropolis)["steps"]
    page.wait_for_timeout(800)
    assert readout(page, FIGURE.metropolis)["steps"] == hidden, "kept running out of view"
    root.scroll_into_view_if_needed()
    page.wait_for_timeout(600)
    assert readout(page, FIGURE.metropolis)["steps"] > hidden, "did not resume in view"


def test_reduced_motion_redraws_rarely(site, browser):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        root = open_widget(page, f"{site}/{FIGURE.metropolis}.html", FIGURE.metropolis)
        root.scroll_into_view_if_needed()
        assert page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]').bcWidget.widget.reducedMotion")
        hook(page, FIGURE.metropolis, "set({playing: true})")
        seen = set()
        for _ in range(20):
            seen.add(readout(page, FIGURE.metropolis)["steps"])
            page.wait_for_timeout(100)
        assert 1 < len(seen) <= 6, f"{len(seen)} different states in 2 s"
    finally:
        context.close()


def test_touch_places_a_chain_start(site, browser):
    context = browser.new_context(has_touch=True, viewport={"width": 800, "height": 900})
    page = context.new_page()
    try:
        root = open_widget(page, f"{site}/{FIGURE.metropolis}.html", FIGURE.metropolis)
        root.scroll_into_view_if_needed()
        hook(page, FIGURE.metropolis, "set({starts: []})")
        x, y = plot_point(page, FIGURE.metropolis, "plot", [-0.4, 1.6])
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(100)
        starts = readout(page, FIGURE.metropolis)["starts"]
        assert len(starts) == 1 and starts[0] == pytest.approx([-0.4, 1.6], abs=0.06)
    finally:
        context.close()


# --- decks ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("viewport", [(800, 600), (1600, 1000)], ids=["shrunk", "enlarged"])
def test_deck_widgets_fit_and_take_clicks_where_they_land(viewport, mini_deck, serve, browser):
    base = serve(mini_deck)
    view = OfflinePage(browser, base)
    view.context.close()
    view.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    view.context.route("**/*", view._route(base))
    page = view.page = view.context.new_page()
    page.on("pageerror", lambda e: view.errors.append(str(e)))
    try:
        page.goto(f"{base}/deck.html", wait_until="load")
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
        scale = page.evaluate("Reveal.getScale()")
        assert abs(scale - 1) > 0.05
        for index, name in enumerate(WIDGETS, start=1):
            page.evaluate(f"Reveal.slide({index})")
            page.wait_for_function(
                f"() => {{ const el = document.querySelector('[data-widget=\"{name}\"]');"
                " return el.bcWidget && el.querySelector('canvas').width > 200; }")
            page.wait_for_timeout(150)
            assert min(canvases_drawn(page, name)) > 3, name
            fit = page.evaluate(f"""() => {{
                const el = document.querySelector('[data-widget="{name}"]');
                const slide = Reveal.getCurrentSlide();
                const canvas = Reveal.getSlidesElement().getBoundingClientRect();
                const r = el.getBoundingClientRect();
                return {{tall: slide.scrollHeight - Reveal.getConfig().height,
                         inside: r.left >= canvas.left - 1 && r.right <= canvas.right + 1
                                 && r.top >= canvas.top - 1 && r.bottom <= canvas.bottom + 1}}; }}""")
            assert fit["tall"] <= 0 and fit["inside"], f"{name} does not fit its slide: {fit}"
            assert page.evaluate("Reveal.getIndices().h") == index
        # A click lands where it is aimed, whatever reveal.js's scale.
        page.evaluate("Reveal.slide(3)")
        hook(page, FIGURE.metropolis, "set({starts: []})")
        x, y = plot_point(page, FIGURE.metropolis, "plot", [0.5, 2.0])
        page.mouse.click(x, y)
        starts = readout(page, FIGURE.metropolis)["starts"]
        assert len(starts) == 1 and starts[0] == pytest.approx([0.5, 2.0], abs=0.05), (scale, starts)
        # Entered with Enter, the widget's arrow keys move its cursor and do not change slides.
        page.locator(f'[data-widget="{FIGURE.metropolis}"] canvas[tabindex]').focus()
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("Reveal.getIndices().h") == 3
        assert hook(page, FIGURE.metropolis, "widget.cursor") is not None
        assert view.errors == [] and view.external == []
    finally:
        view.close()


# --- the built book and decks ----------------------------------------------------------------------

SITE = ROOT / "_build" / "html"
DECKS = Path(os.environ.get("SLIDES_DIR", ROOT / "_build" / "slides_out" / "slides"))


def pages_with_widgets(folder, pattern):
    if not folder.exists():
        return []
    found = []
    for path in sorted(folder.glob(pattern)):
        names = widgets.PLACEHOLDER.findall(path.read_text(encoding="utf-8"))
        found += [(path, name) for name in names]
    return found


@pytest.mark.parametrize("kind", ["site", "decks"])
def test_built_book_and_decks(kind, serve, offline_page, file_page):
    folder, pattern = (SITE, "chapters/*.html") if kind == "site" else (DECKS, "*.html")
    found = pages_with_widgets(folder, pattern)
    if not found:
        pytest.skip(f"no built {kind} with widget placeholders in {folder}: run `make book`")
    base = serve(folder)
    for path, name in found:
        relative = path.relative_to(folder).as_posix()
        for view, url in ((offline_page(base), f"{base}/{relative}"), (file_page(), path.as_uri())):
            page = view.page
            page.goto(url, wait_until="load")
            if kind == "decks":
                page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
                page.evaluate(f"""Reveal.slide(...(() => {{
                    const el = document.querySelector('[data-widget="{name}"]');
                    return Object.values(Reveal.getIndices(el.closest('section')));
                }})())""")
            page.wait_for_function(
                f"() => {{ const el = document.querySelector('[data-widget=\"{name}\"]');"
                " return el.bcWidget && el.querySelector('canvas').width > 200; }", timeout=30_000)
            assert min(canvases_drawn(page, name)) > 3, (relative, name)
            assert view.errors == [] and view.external == [], (relative, view.errors, view.external)


# --- a clicker on the decks' live-figure slides ------------------------------------------------------

# What presentation remotes send: next / previous (Page Down / Up on most, arrows or Space on
# others) and blank the screen ("." on most, B on some).
CLICKER_NEXT = ["PageDown", "ArrowRight", "Space"]
CLICKER_PREVIOUS = ["PageUp", "ArrowLeft", "Shift+Space"]
CLICKER_BLANK = [".", "b"]


def deck_slide(page):
    return page.evaluate("Reveal.getIndices().h")


def control_values(page, name):
    """Every select's and slider's value in the widget (what a stray key would change)."""
    return page.evaluate(f"""() => [...document.querySelectorAll(
        '[data-widget="{name}"] select, [data-widget="{name}"] input')].map(e => e.value)""")


def touch(page, root, control):
    """Use a control with the mouse, as a presenter does; it keeps the focus afterwards.
    Returns the element that has the focus."""
    if control == "canvas":
        target = root.locator("canvas[tabindex]").first
        box = target.bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
        target.focus()
        return target
    if control == "widget":
        root.focus()
        return root
    target = root.locator(f'[data-control="{control}"]')
    if target.is_disabled():
        # The funnel greys out the other sampler's settings: switch samplers to use one.
        touch(page, root, "sampler")
        assert not target.is_disabled(), f"{control} stays greyed out under either sampler"
    kind = target.evaluate("e => e.tagName.toLowerCase()")
    if kind == "select":
        values = target.evaluate("e => [...e.options].map(o => o.value).filter(v => v && v !== e.value)")
        target.select_option(values[0])
        target.focus()
    else:
        target.click()
    return target


def widget_slides():
    """(deck file, widget name) of every live figure in the built decks."""
    return [(path.name, name) for path, name in pages_with_widgets(DECKS, "*.html")]


def test_built_decks_hold_live_figures():
    assert len(widget_slides()) >= len(WIDGETS), f"run `make slides`: {widget_slides()}"


@pytest.mark.parametrize("deck,name", widget_slides() or [("none", "none")])
def test_clicker_moves_the_deck_past_every_live_figure(deck, name, serve, offline_page):
    """On the slide of every live figure, whatever was used last (each button clicked, each
    drop-down and slider changed, the plot clicked, the widget focused), the clicker's keys
    move the deck, blank it, and change nothing in the figure; Enter hands the keys to the
    figure and says so, Esc gives them back; leaving the slide pauses the animation and coming
    back resumes nothing."""
    view, index, root = open_live_slide(serve, offline_page, deck, name)
    page = view.page
    stuck = []
    controls = [c for c in CONTROLS[name] if c not in ("reset", "clear")] + ["widget"]
    for turn, control in enumerate(controls):
        for keys, expected in ((CLICKER_NEXT, index + 1), (CLICKER_PREVIOUS, index - 1)):
            key = keys[turn % len(keys)]
            page.evaluate(f"Reveal.slide({index})")
            page.wait_for_timeout(50)
            touch(page, root, control)
            if readout(page, name).get("playing"):
                hook(page, name, "set({playing: false})")
            before = control_values(page, name)
            page.keyboard.press(key)
            page.wait_for_timeout(80)
            inside = page.evaluate(f"""document.querySelector('[data-widget="{name}"]')
                                       .contains(document.activeElement)""")
            if deck_slide(page) != expected or inside or control_values(page, name) != before:
                stuck.append((control, key, deck_slide(page), inside))
    assert stuck == [], f"{deck}: keys that did not move the deck (control, key, slide, focus kept): {stuck}"

    # Blanking the screen, with a control focused: the deck pauses, the figure stays as it is.
    page.evaluate(f"Reveal.slide({index})")
    for key in CLICKER_BLANK:
        touch(page, root, "widget")
        before = control_values(page, name)
        page.keyboard.press(key)
        assert page.evaluate("Reveal.isPaused()"), f"{key} did not blank the screen"
        page.keyboard.press(key)
        assert not page.evaluate("Reveal.isPaused()") and control_values(page, name) == before

    # Enter hands the keys to the figure (it says so), Esc gives them back.
    keys_line = root.locator(".bcw-keys")
    assert "Enter" in keys_line.inner_text()
    slider = root.locator("input[type=range]").first
    slider.focus()
    page.keyboard.press("Enter")
    assert hook(page, name, "widget.engaged") and "Esc" in keys_line.inner_text()
    value = slider.input_value()
    page.keyboard.press("ArrowRight")
    assert slider.input_value() != value and deck_slide(page) == index
    page.keyboard.press("Escape")
    assert not hook(page, name, "widget.engaged") and not page.evaluate("Reveal.isOverview()")
    page.keyboard.press("PageDown")
    assert deck_slide(page) == index + 1
    # Engaged again, a clicker (which has no Esc) still moves on: Page Down leaves the figure.
    page.evaluate(f"Reveal.slide({index})")
    slider.focus()
    page.keyboard.press("Enter")
    assert hook(page, name, "widget.engaged")
    value = slider.input_value()
    page.keyboard.press("PageDown")
    assert deck_slide(page) == index + 1 and not hook(page, name, "widget.engaged")
    assert slider.input_value() == value, "Page Down changed the slider"

    # Leaving the slide pauses the animation; coming back resumes nothing.
    if "play" in CONTROLS[name]:
        page.evaluate(f"Reveal.slide({index})")
        root.locator('[data-control="play"]').click()
        page.wait_for_timeout(300)
        assert readout(page, name)["playing"]
        page.keyboard.press("PageDown")
        left = readout(page, name)
        page.wait_for_timeout(600)
        assert not left["playing"] and readout(page, name) == left, "kept running off its slide"
        page.keyboard.press("PageUp")
        page.wait_for_timeout(600)
        assert deck_slide(page) == index and readout(page, name) == left, "resumed by itself"
    assert view.errors == [] and view.external == [], (view.errors, view.external)


@pytest.mark.parametrize("deck,name", widget_slides() or [("none", "none")])
def test_slide_stays_put_when_the_statistics_appear(deck, name, serve, offline_page):
    """reveal.js centres a slide vertically: a widget that grew when its first statistics
    appeared would move the slide's title. Run it (the book's run, or a new seed) and nothing
    on the slide may move by half a pixel."""
    view, _, _ = open_live_slide(serve, offline_page, deck, name)
    page = view.page
    page.wait_for_timeout(300)
    where = """() => { const slide = Reveal.getCurrentSlide();
        const box = el => { const r = el.getBoundingClientRect(); return [r.top, r.height]; };
        return {title: box(slide.querySelector('h1, h2')),
                widget: box(slide.querySelector('[data-widget]'))}; }"""
    before = page.evaluate(where)
    hook(page, name, "widget.still()" if FIGURES[name]["still_steps"] else "run(1)")
    page.wait_for_timeout(600)
    after = page.evaluate(where)
    moved = lambda a, b: {k: (a[k], b[k]) for k in a
                          if any(abs(x - y) > 0.5 for x, y in zip(a[k], b[k]))}
    assert moved(before, after) == {}, \
        f"{deck}: the slide moved when {name}'s statistics appeared: {moved(before, after)}"
    # Negative control: a status that takes a second line is seen.
    # (a second line: the status's height and its line limit, one or two lines, all lifted)
    page.evaluate(f"""Object.assign(document.querySelector('[data-widget="{name}"] .bcw-status').style,
                                     {{height: 'auto', whiteSpace: 'normal', display: 'block',
                                       webkitLineClamp: 'none'}})""")
    hook(page, name, "widget.say('a status long enough to need more lines ' .repeat(12))")
    page.evaluate("Reveal.layout()")
    assert moved(after, page.evaluate(where)) != {}, "the check missed a widget growing"


# Everything of a live figure that sticks out past its right edge (by more than a pixel).
STICKING_OUT = """(name) => { const w = document.querySelector(`[data-widget="${name}"]`);
  const right = w.getBoundingClientRect().right;
  return [...w.querySelectorAll('table, td, th, canvas, .bcw-controls, .bcw-legend')]
    .filter(e => e.getBoundingClientRect().right > right + 1)
    .map(e => `${e.tagName.toLowerCase()} ${e.textContent.trim().slice(0, 30)}`); }"""


@pytest.mark.parametrize("deck,name", widget_slides() or [("none", "none")])
def test_a_live_figure_stays_inside_its_slide_whatever_it_shows(deck, name, serve, offline_page):
    """On its slide, after every preset and a few new seeds, no table cell, plot or control of a
    live figure runs past its right edge: with two negative means the Metropolis table once cut
    off its last column."""
    view, _, root = open_live_slide(serve, offline_page, deck, name)
    page = view.page
    preset = root.locator('[data-control="preset"]')
    presets = preset.evaluate("e => [...e.options].map(o => o.value).filter(Boolean)") if preset.count() else []
    outside = []
    for chosen in [None, *presets]:
        if chosen:
            hook(page, name, f"set({{preset: '{chosen}'}})")
        for turn in range(3):
            if turn and root.locator('[data-control="new-seed"]').count():
                root.locator('[data-control="new-seed"]').click()
            hook(page, name, "run(1500)")
            page.wait_for_timeout(300)             # the next frames draw the new state
            outside += [(chosen, turn, item) for item in page.evaluate(STICKING_OUT, name)]
    assert outside == [], f"{deck}: parts of {name} past its right edge (preset, seed, what): {outside[:5]}"
    assert view.errors == [], view.errors


def open_live_slide(serve, offline_page, deck, name):
    """A built deck at 1280 x 720, opened at the slide of live figure ``name`` (its address
    names it: deck.html#/live-NAME), the widget drawn: (view, slide index, widget locator)."""
    if deck == "none":
        pytest.fail("no built decks with live figures: run `make slides`")
    base = serve(DECKS)
    view = offline_page(base)
    view.page.set_viewport_size({"width": 1280, "height": 720})
    view.page.goto(f"{base}/{deck}#/live-{name}", wait_until="load")
    view.page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
    index = view.page.evaluate(f"""Reveal.getIndices(document.querySelector('[data-widget="{name}"]')
                                   .closest('section')).h""")
    assert deck_slide(view.page) == index, f"{deck}#/live-{name} did not open the live figure's slide"
    return view, index, open_widget_on_slide(view.page, name)


def open_widget_on_slide(page, name):
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('[data-widget=\"{name}\"]');"
        " return el.bcWidget && el.querySelector('canvas').width > 200; }", timeout=30_000)
    return page.locator(f'[data-widget="{name}"]')


# --- JupyterLab ---------------------------------------------------------------------------------

def test_anywidget_in_jupyterlab(lab_url, offline_page):
    """book.widgets.metropolis() in a notebook: the package's bundle, the data from the kernel, and
    no Node.js on the server's PATH (the clone's reader path)."""
    folder = ROOT / "_build" / "widgets-lab"
    folder.mkdir(parents=True, exist_ok=True)
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from bayescomp.book import widgets\n"
                                  "w = widgets.metropolis(scale=0.5)\nw"),
        nbformat.v4.new_code_cell("import time; time.sleep(1.5); print('steps', w.readout['steps'])"),
    ])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, folder / "anywidget.ipynb")
    view = offline_page(lab_url)
    page = view.page
    page.goto(f"{lab_url}/lab/tree/_build/widgets-lab/anywidget.ipynb?reset", wait_until="load")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.jp-Notebook-ExecutionIndicator, "
                           ".jp-Notebook') !== null")
    page.locator(".jp-Notebook .jp-CodeCell").first.click()
    page.wait_for_timeout(3000)   # the kernel starts
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('.jp-OutputArea [data-widget=\"{FIGURE.metropolis}\"]');"
        " return el && el.bcWidget && el.querySelector('canvas').width > 200; }", timeout=90_000)
    assert readout(page, FIGURE.metropolis)["scale"] == 0.5
    hook(page, FIGURE.metropolis, "run(400)")
    page.wait_for_timeout(500)          # the readout goes back to the kernel
    page.locator(".jp-Notebook .jp-CodeCell").nth(1).click()
    page.keyboard.press("Shift+Enter")
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    try:
        page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')]"
                               ".some(e => /steps 400/.test(e.textContent))", timeout=60_000)
    finally:
        page.screenshot(path=str(shots / "jupyterlab-anywidget.png"))
    assert view.external == [], view.external


@pytest.mark.parametrize("name,params,key", [(FIGURE.funnel, {"form": "non-centred"}, "form"),
                                             (FIGURE.dimension, {"d": 50}, "d")])
def test_new_widgets_in_jupyterlab(name, params, key, lab_url, offline_page):
    """book.widgets.funnel() and book.widgets.dimension() in a notebook, with starting parameters;
    what the widget shows goes back to the kernel (its readout trait)."""
    folder = ROOT / "_build" / "widgets-lab"
    folder.mkdir(parents=True, exist_ok=True)
    function = name.replace("-", "_")
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(f"from bayescomp.book import widgets\nw = widgets.{function}(**{params!r})\nw"),
        nbformat.v4.new_code_cell("import time; time.sleep(1.5); print('steps', w.readout['steps'])"),
    ])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, folder / f"{name}.ipynb")
    view = offline_page(lab_url)
    page = view.page
    page.goto(f"{lab_url}/lab/tree/_build/widgets-lab/{name}.ipynb?reset", wait_until="load")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
    page.locator(".jp-Notebook .jp-CodeCell").first.click()
    page.wait_for_timeout(3000)   # the kernel starts
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('.jp-OutputArea [data-widget=\"{name}\"]');"
        " return el && el.bcWidget && el.querySelector('canvas').width > 200; }", timeout=90_000)
    assert readout(page, name)[key] == params[key]
    assert min(canvases_drawn(page, name)) > 3
    hook(page, name, "run(200)")
    page.wait_for_timeout(500)          # the readout goes back to the kernel
    page.locator(".jp-Notebook .jp-CodeCell").nth(1).click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')]"
                           ".some(e => /steps 200/.test(e.textContent))", timeout=60_000)
    assert view.external == [], view.external
