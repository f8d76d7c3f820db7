"""Build one reveal.js deck per chapter from the chapter notebooks, for offline viewing.

Decks come from the same notebooks as the website (no second source): cells marked
``slide`` start a slide, ``notes`` cells become speaker notes, ``skip`` cells stay out. The
reveal.js, RequireJS, jQuery and MathJax files are copied from ``tools/node_modules`` (pinned
in ``tools/package.json``) next to the decks, so nothing is fetched at view time.

Usage: python tools/build_slides.py --out _build/slides_out/slides
"""
import argparse
import html
import shutil
from pathlib import Path

import nbformat
from nbconvert import SlidesExporter
from traitlets.config import Config

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "tools" / "node_modules"
CHAPTERS = ["index", "01_target", "02_importance_sampling", "03_mcmc", "04_deterministic",
            "05_comparison"]
DECK_CSS = """
.reveal .kicker { font-size: 0.5em; letter-spacing: 0.08em; text-transform: uppercase;
                  color: #0072B2; margin: 0 0 0.2em 0; }
.reveal h1 { font-size: 1.6em; }
.reveal h2 { font-size: 1.2em; }
.reveal ul { font-size: 0.8em; }
.reveal .jp-InputArea pre, .reveal .jp-OutputArea pre { font-size: 16px !important; line-height: 1.25; }
.reveal .jp-RenderedSVG img { max-height: 430px; width: auto; }
"""


def deck_file(chapter):
    """File name of a chapter's deck; the landing page's deck must not shadow the deck list."""
    return "00_introduction.html" if chapter == "index" else f"{chapter}.html"


def copy_assets(out):
    """Copy the pinned front-end files next to the decks."""
    vendor = out / "vendor"
    for part in ("dist", "plugin"):
        shutil.copytree(MODULES / "reveal.js" / part, out / "reveal.js" / part, dirs_exist_ok=True)
    vendor.mkdir(parents=True, exist_ok=True)
    shutil.copy(MODULES / "requirejs" / "require.js", vendor / "require.js")
    shutil.copy(MODULES / "jquery" / "dist" / "jquery.min.js", vendor / "jquery.min.js")
    # MathJax 2.7.7 (what nbconvert's reveal template configures), SVG output with TeX fonts only.
    source, target = MODULES / "mathjax2", vendor / "mathjax"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(source / "MathJax.js", target / "MathJax.js")
    (target / "config").mkdir(exist_ok=True)
    shutil.copy(source / "config" / "TeX-AMS_SVG-full.js", target / "config")
    for part in ("jax/input/TeX", "jax/element", "extensions", "localization/en"):
        shutil.copytree(source / part, target / part, dirs_exist_ok=True)
    svg = source / "jax/output/SVG"
    shutil.copytree(svg, target / "jax/output/SVG", dirs_exist_ok=True,
                    ignore=lambda d, names: [n for n in names
                                             if Path(d).name == "fonts" and n != "TeX"])
    (vendor / "deck.css").write_text(DECK_CSS)


def exporter():
    config = Config()
    config.SlidesExporter.reveal_url_prefix = "reveal.js"
    config.SlidesExporter.reveal_theme = "white"
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.require_js_url = "vendor/require.js"
    config.SlidesExporter.jquery_url = "vendor/jquery.min.js"
    config.SlidesExporter.mathjax_url = "vendor/mathjax/MathJax.js?config=TeX-AMS_SVG-full"
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    # Figure cells carry this tag: on a slide the figure is the content, the code stays online.
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"slides-hide-input"}
    return SlidesExporter(config=config, template_name="slides_template",
                          extra_template_basedirs=[str(ROOT / "tools")])


def build(out):
    out.mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    slides = exporter()
    links = []
    for name in CHAPTERS:
        notebook = nbformat.read(ROOT / "chapters" / f"{name}.ipynb", as_version=4)
        body, _ = slides.from_notebook_node(notebook)
        (out / deck_file(name)).write_text(body, encoding="utf-8")
        title = notebook.cells[1].source.splitlines()[0].lstrip("# ")
        links.append(f'<li><a href="{deck_file(name)}">{html.escape(title)}</a></li>')
    (out / "index.html").write_text(INDEX.format(links="\n".join(links)), encoding="utf-8")


INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Bayesian Computation: lecture decks</title>
<style>body {{ font-family: sans-serif; max-width: 40em; margin: 3em auto; line-height: 1.5; }}</style>
</head><body>
<h1>Bayesian Computation: lecture decks</h1>
<p>One deck per chapter, built from the chapter notebooks. Arrow keys move, <kbd>S</kbd> opens
the speaker notes, <kbd>F</kbd> goes full screen, <kbd>Esc</kbd> shows an overview.</p>
<ol start="0">
{links}
</ol>
<p><a href="../chapters/index.html">Back to the book</a></p>
</body></html>
"""

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "slides_out" / "slides")
    build(parser.parse_args().out.resolve())
