"""The widgets' Python side: the data and settings the live figures start from, and their
display in Jupyter through anywidget. (The JavaScript engine is checked in ``tests/engine``.)"""
import base64
import json
import re
import subprocess
import sys

import numpy as np
import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp.book import widgets
from bayescomp.book.widgets import FIGURE_NAMES as FIGURE
from tools.toc import ROOT


def test_widget_data_is_the_books_data_and_settings():
    data = widgets.widget_data()
    lecture_data, _ = book.lecture_problem()
    np.testing.assert_array_equal(data["data"]["x"], lecture_data.x)
    np.testing.assert_array_equal(data["data"]["y"], lecture_data.y)
    assert data["lecture"]["mcmc_starts"] == [list(s) for s in book.LectureSettings().mcmc_starts]
    assert data["method_colors"] == book.plotting.METHOD_COLORS
    assert data["palette"] == book.plotting.PALETTE
    json.dumps(data, allow_nan=False)   # plain JSON, no NumPy types or inf


def test_widget_data_follows_other_settings():
    settings = book.LectureSettings()._replace(n_obs=30, data_seed=5)
    data = widgets.widget_data(settings)
    assert len(data["data"]["x"]) == 30
    assert data["lecture"]["data_seed"] == 5


def test_data_script_sets_a_global(tmp_path):
    path = widgets.write_data_script(tmp_path)
    text = path.read_text()
    assert text.startswith("window.BayesCompWidgetData = {")
    payload = json.loads(text.removeprefix("window.BayesCompWidgetData = ").rstrip().rstrip(";"))
    assert payload == json.loads(json.dumps(widgets.widget_data()))


def test_two_mode_target_is_normalized_with_known_moments():
    target = widgets.two_mode_target()
    grid = bc.grid_posterior(target.log_density, widgets.TwoModeSettings().bounds, 401)
    cell = np.prod([a[1] - a[0] for a in grid.axes])
    assert np.exp(grid.log_density).sum() * cell == pytest.approx(1, abs=2e-6)
    np.testing.assert_allclose(grid.mean, [0, 0], atol=1e-8)
    np.testing.assert_allclose(np.diag(grid.cov), [4 + 0.36, 0.36], rtol=1e-4)


@pytest.mark.parametrize("kwargs, message", [
    (dict(weights=[0.5, 0.6], means=[[0, 0], [1, 1]], sds=[1, 1]), "sum to 1"),
    (dict(weights=[0.5, 0.5], means=[[0, 0], [1, 1]], sds=[1, 0]), "sds must all be > 0"),
    (dict(weights=[0.5, 0.5], means=[[0, 0]], sds=[1, 1]), "means must have shape"),
])
def test_mixture_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bc.isotropic_mixture_target(**kwargs)


def test_two_mode_target_is_the_chapters_mixture_along_its_first_axis():
    # Its first coordinate is the 1-D mixture of chapters 2 and 4; its second N(0, 0.6^2).
    two, settings = widgets.two_mode_target(), widgets.TwoModeSettings()
    one = bc.gaussian_mixture_target(settings.weights, [m[0] for m in settings.means],
                                     settings.sds)
    theta = np.column_stack([np.linspace(-4, 4, 9), np.full(9, 0.3)])
    second = -0.5 * (0.3 / 0.6) ** 2 - np.log(0.6 * np.sqrt(2 * np.pi))
    np.testing.assert_allclose(two.log_density(theta), one.log_density(theta[:, :1]) + second,
                               rtol=1e-12)


def test_thresholds_are_the_working_rules():
    # The widgets colour readouts with these; the package's diagnostics state the same rules
    # (the importance-sampling widget bounds k-hat by k_hat_threshold's rule with this cap).
    settings = widgets.WidgetSettings()
    assert (settings.k_hat_max, settings.rhat_max, settings.error_mcse_max) == (0.7, 1.01, 4.0)
    assert settings.k_hat_max == bc.psis.K_HAT_MAX == bc.k_hat_threshold(10**6)
    assert (settings.rhat_max, settings.ess_min) == (bc.diagnostics.RHAT_THRESHOLD,
                                                     bc.diagnostics.ESS_THRESHOLD) == (1.01, 400)


def test_widget_names_are_published_in_the_data():
    assert widgets.widget_data()["names"] == list(widgets.WIDGETS)
    assert [f["name"] for f in widgets.widget_data()["figures"]] == list(widgets.WIDGETS)
    assert len(set(widgets.WIDGETS)) == len(widgets.WIDGETS) >= 6


def test_every_figure_of_the_manifest_has_its_jupyter_function():
    for figure in widgets.FIGURES:
        show = getattr(widgets, figure["name"].replace("-", "_"))
        assert show.__name__ == figure["name"].replace("-", "_")
        assert show.__doc__.startswith(figure["summary"])
        assert set(figure) - {"settings"} == {"name", "class", "controls", "canvas", "still", "summary"}, figure["name"]
        assert isinstance(figure.get("settings", {}), dict), figure["name"]
        canvas = figure["canvas"]
        assert canvas["gesture"] in ("click", "drag") and canvas["plot"], figure["name"]
        assert ("at" in canvas) == (canvas["gesture"] == "click") != ("from" in canvas), figure["name"]
        assert figure["controls"] and len(set(figure["controls"])) == len(figure["controls"])


def test_a_still_runs_as_far_as_the_setting_it_names():
    data = widgets.widget_data()
    for figure in data["figures"]:
        if figure["still"] is None:
            assert figure["still_steps"] == 0
        else:
            section, *path = figure["still"].split(".")
            value = data[section]
            for key in path:
                value = value[key]
            assert figure["still_steps"] == value > 0, figure["name"]
    # The settings decide: a longer book run gives a longer still.
    longer = widgets.widget_data(book.LectureSettings()._replace(mcmc_steps=500))
    assert 500 in [f["still_steps"] for f in longer["figures"]]


def test_a_still_naming_no_setting_is_refused():
    data = widgets.widget_data()
    with pytest.raises(ValueError, match="still 'lecture.no_such' is not a setting"):
        widgets._setting(data, "lecture.no_such")
    with pytest.raises(ValueError, match="still 'lecture.prior_var' must be a positive integer"):
        widgets._setting(data, "lecture.prior_var")


def test_every_figure_of_the_manifest_has_its_ui_file_and_class():
    """build.mjs makes the bundle's registry from the manifest: the figure NAME is drawn by the
    class its entry names, exported by ui/NAME.js. Each entry must have both; ui/main.js imports
    the made registry and lists no class itself."""
    ui = ROOT / "code" / "widgets" / "ui"
    for figure in widgets.FIGURES:
        source = ui / f"{figure['name']}.js"
        assert source.exists(), f"no ui file for {figure['name']}"
        assert re.search(rf"^export class {figure['class']}\b", source.read_text(encoding="utf-8"),
                         re.M), f"{source.name} exports no class {figure['class']}"
    main = (ui / "main.js").read_text(encoding="utf-8")
    assert "from 'bayescomp:registry'" in main
    assert not re.search(r"^import \{ \w+ \} from '\./(?!style)", main, re.M), "a ui class imported by hand"


def test_widget_data_needs_no_matplotlib():
    code = ("import sys; from bayescomp.book import widgets; widgets.widget_data(); "
            "assert 'matplotlib' not in sys.modules, 'widget_data imported matplotlib'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_widgets_are_an_attribute_of_the_book():
    code = ("import sys; from bayescomp import book; assert book.widgets.WIDGETS; "
            "assert 'matplotlib' not in sys.modules and 'anywidget' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_package_imports_without_anywidget():
    code = ("import sys; sys.modules['anywidget'] = None; import bayescomp.book.widgets as w; "
            "w.widget_data(); print('ok')")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.strip() == "ok", run.stderr


def test_jupyter_widget_carries_the_module_and_the_data():
    pytest.importorskip("anywidget")
    widget = widgets.metropolis(scale=0.5)
    assert widget.widget == FIGURE.metropolis
    assert widget.params == {"scale": 0.5}
    assert widget.data == json.loads(json.dumps(widgets.widget_data()))
    assert str(widget._esm) == widgets.anywidget_module()


def test_unknown_widget_name():
    with pytest.raises(ValueError, match="name must be one of"):
        widgets._widget("histogram", {})


def test_funnel_data_is_the_chapters_runs_and_reference():
    import bayescomp as bc

    data = bc.hierarchical_data()
    reference = bc.hierarchical_reference(data)
    funnel = widgets.widget_data()["funnel_data"]
    starts = np.round(bc.exact_draws(data, reference, 4, np.random.default_rng(70)), 4)
    assert funnel["starts"]["centred"] == starts.tolist()
    assert funnel["sd"]["non-centred"] == np.round(reference.noncentred_sd, 3).tolist()
    shown = funnel["reference"]
    assert shown["prob_tau_below_1"] == reference.prob_tau_below_1
    assert shown["mean_log_tau"] == reference.mean[1]
    low, high = widgets.FunnelSettings().log_tau_range
    assert shown["log_tau"][0] == pytest.approx(low) and shown["log_tau"][-1] == pytest.approx(high)
    # The density shown is the reference's at those nodes.
    nodes = np.searchsorted(reference.log_tau_grid, np.array(shown["log_tau"]) - 1e-9)
    assert shown["density"] == reference.log_tau_density[nodes].tolist()


def test_random_walk_scales_share_the_package_constant():
    # Chapter 6's 2.38 / sqrt(d), in the dimension and funnel figures alike.
    assert (widgets.DimensionSettings().rwm_base_scale, widgets.FunnelSettings().rwm_base_scale,
            widgets.DimensionSettings().path_length) == (bc.hmc.RWM_OPTIMAL_SCALE,
                                                         bc.hmc.RWM_OPTIMAL_SCALE,
                                                         book.chapters.DIMENSION_PATH_LENGTH)
    assert book.dimension_tuning(4)["rwm_scale"] == bc.hmc.RWM_OPTIMAL_SCALE / 2


def test_a_still_is_embedded_and_found_only_where_the_build_says(tmp_path, monkeypatch):
    """The RISE fallback of a live figure: the still comes from the folder the build names
    (BAYESCOMP_STILLS), embedded as data, so a saved output references no file of a checkout."""
    stills, decks, notebooks = tmp_path / "stills", tmp_path / "decks", tmp_path / "chapters"
    for folder in (stills, decks, notebooks):
        folder.mkdir()
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
    (stills / f"{FIGURE.metropolis}.png").write_bytes(png)
    (stills / "links.json").write_text(json.dumps({FIGURE.metropolis: {
        "deck": str(decks / "03_mcmc.html"), "slide": "live-metropolis", "still": f"{FIGURE.metropolis}.png"}}))
    monkeypatch.delenv(widgets.STILLS_ENV, raising=False)
    missing = widgets.still_html(FIGURE.metropolis, here=notebooks)
    assert "<img" not in missing and "href" not in missing and "make" in missing
    monkeypatch.setenv(widgets.STILLS_ENV, str(stills))
    shown = widgets.still_html(FIGURE.metropolis, here=notebooks)
    assert f'src="data:image/png;base64,{base64.b64encode(png).decode()}"' in shown
    assert 'href="../decks/03_mcmc.html#/live-metropolis"' in shown
    assert str(stills) not in shown and "_build" not in shown
    # A figure the build drew no still of, and an argument that overrides the variable.
    assert "<img" not in widgets.still_html(FIGURE.funnel, here=notebooks)
    assert "<img" not in widgets.still_html(FIGURE.metropolis, here=notebooks, stills=tmp_path / "none")


# --- The manifest is the only place a figure's name is typed ----------------------------------

SOURCE_SUFFIXES = {".py", ".js", ".mjs", ".cjs", ".css", ".html"}
NOT_SOURCES = ("node_modules", "_build", ".venv", ".git")
BUILT = ROOT / "code" / "bayescomp" / "book" / "static"   # the bundles, built from code/widgets


def names_referred_to(value):
    """The figure names a string refers to: the whole string is a name, or it holds a placeholder
    ``data-widget="name"`` (quoted, escaped or bare) or a page or still ``name.html``/``name.png``.
    A name used as a word of prose ("the funnel widget") or in a file path of code (a ui
    module ``./funnel.js``) is not a reference."""
    names = "|".join(re.escape(name) for name in widgets.WIDGETS)
    if value in widgets.WIDGETS:
        return [value]
    pattern = (rf"""data-widget=\\?["']?({names})(?![\w-])"""
               rf"""|(?<![\w-])({names})\.(?:html|png)\b""")
    return [a or b for a, b in re.findall(pattern, value)]


def python_strings(text):
    """(line, value) of every string literal of a Python source, docstrings left out; an
    f-string's value is its text."""
    import ast
    import io
    import tokenize

    docstrings = {(node.body[0].lineno, node.body[0].col_offset) for node in ast.walk(ast.parse(text))
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(getattr(node.body[0], "value", None), ast.Constant)
                  and isinstance(node.body[0].value.value, str)}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.STRING or token.start in docstrings:
            continue
        prefix = re.match(r"[A-Za-z]*", token.string).group(0).lower()
        value = token.string if "f" in prefix else ast.literal_eval(token.string)
        if isinstance(value, str):
            yield token.start[0], value


def javascript_strings(text):
    """(line, value) of every string and template literal of a JavaScript source, comments and
    regular-expression literals left out (a small scanner: a slash after an operator or an
    opening bracket starts a regular expression, anywhere else it divides)."""
    at, line, last = 0, 1, ""
    while at < len(text):
        char, pair = text[at], text[at:at + 2]
        if not char.isspace() and pair not in ("//", "/*"):
            before, last = last, char
        if char == "/" and pair not in ("//", "/*") and (before == "" or before in "(,=:[!&|?{};+-*%<>~^"):
            end, in_class = at + 1, False
            while text[end] != "/" or in_class:
                in_class = (in_class or text[end] == "[") and text[end] != "]"
                end += 2 if text[end] == "\\" else 1
            at, last = end + 1, "/"
        elif pair == "//":
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
        elif pair == "/*":
            end = text.index("*/", at) + 2
            line += text.count("\n", at, end)
            at = end
        elif char in "'\"`":
            end = at + 1
            while text[end] != char:
                end += 2 if text[end] == "\\" else 1
            yield line, text[at + 1:end]
            line += text.count("\n", at, end)
            at = end + 1
        else:
            line += char == "\n"
            at += 1


def test_no_figure_name_is_typed_outside_the_manifest():
    """A figure's name is typed once, in figures.json. Code that means one figure says
    ``FIGURE_NAMES.metropolis`` (Python), or reads the name from the manifest's data; the
    chapters' placeholders (content, not code) are where each figure is shown."""
    found = []
    for folder in ("code", "tools", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if (path.suffix not in SOURCE_SUFFIXES or BUILT in path.parents
                    or any(part in NOT_SOURCES for part in path.relative_to(ROOT).parts)):
                continue
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".py":
                strings = python_strings(text)
            elif path.suffix in (".css", ".html"):
                strings = [(1, text)]
            else:
                strings = javascript_strings(text)
            found += [f"{path.relative_to(ROOT)}:{line}: {name}"
                      for line, value in strings for name in names_referred_to(value)]
    assert found == [], f"{len(found)} figure names typed outside figures.json:\n" + "\n".join(found[:40])


def test_the_name_check_sees_each_kind_of_reference():
    name = widgets.WIDGETS[0]
    for value in (name, f'<div data-widget="{name}">', f"[data-widget=\\\"{name}\\\"]",
                  f"[data-widget={name}]", f"{{site}}/{name}.html", f"stills/{name}.png"):
        assert names_referred_to(value) == [name], value
    for value in (f"the {name} figure", f"./{name}.js", f"{name}-data", f"{name}_settings"):
        assert names_referred_to(value) == [], value
    code = f'x = "{name}"\ndef f():\n    """{name}"""\n    return f"{{a}}/{name}.html"\n'
    assert [line for line, value in python_strings(code) if names_referred_to(value)] == [1, 4]
    script = f"// '{name}'\nconst a = '{name}';\n/* \"{name}\" */ const b = `x ${{1}}`;\n"
    assert [line for line, value in javascript_strings(script) if names_referred_to(value)] == [2]
