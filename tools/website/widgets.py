"""Sphinx extension: the book's live figures, on the pages that have them and nowhere else.

A page whose body holds a placeholder ``<div data-widget="metropolis"></div>`` (raw HTML in a
markdown cell) gets two classic scripts, in this order, loaded only once the page's text and
images have loaded (its ``load`` event) or a placeholder comes within two screens of the view,
whichever is first, so that on a slow network they never hold up the text (a small inline
loader, :data:`LOADER`, adds them then):

- ``_static/widgets/bayescomp-widgets-data.js``: the data and settings, written here at build
  time by the package (``bayescomp.book.widgets.write_data_script``), so they are never typed twice;
- ``_static/widgets/bayescomp-widgets.js``: the bundle, copied from the package
  (``bayescomp.book.widgets.BUNDLE``, package data, rebuilt from ``code/widgets`` by ``make widgets``),
  so the website, the decks and JupyterLab show the same built file.

They are not in ``html_static_path`` because Jupyter Book adds every ``.js`` file found there
to every page. Classic scripts, not modules: pages opened from ``file://`` cannot load ES
modules or ``fetch`` data in Chromium.

Load it from ``_config.yml``: ``sphinx: local_extensions: {tools.website.widgets: .}``.
"""
import json
import shutil
from pathlib import Path

from bayescomp.book.widgets import (BUNDLE, BUNDLE_NAME, DATA_NAME, PLACEHOLDER,
                                     write_data_script)
from sphinx.util import logging

SCRIPTS = (f"widgets/{DATA_NAME}", f"widgets/{BUNDLE_NAME}")

# Scripts added by a script run in order when they are not async (the data before the bundle).
LOADER = """(function () {
  var sources = SOURCES, started = false;
  function load() {
    if (started) return;
    started = true;
    sources.forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.head.appendChild(script);
    });
  }
  window.addEventListener('load', load);
  document.addEventListener('DOMContentLoaded', function () {
    if (!('IntersectionObserver' in window)) return;
    var near = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { near.disconnect(); load(); }
    }, {rootMargin: '200% 0px'});
    document.querySelectorAll('[data-widget]').forEach(function (el) { near.observe(el); });
  });
})();"""

logger = logging.getLogger(__name__)


def add_scripts(app, pagename, templatename, context, doctree):
    """Add the loader of the two scripts to this page only (Sphinx resets per-page scripts for
    each page)."""
    if not PLACEHOLDER.search(context.get("body", "")):
        return
    sources = [context["pathto"](f"_static/{script}", 1) for script in SCRIPTS]
    app.add_js_file(None, body=LOADER.replace("SOURCES", json.dumps(sources)))


def bundle_path(app):
    return Path(app.config.bayescomp_widgets_bundle or BUNDLE)


def check_bundle(app):
    if app.builder.format == "html" and not bundle_path(app).exists():
        logger.warning("the widget bundle %s is missing: run `make widgets` (the live figures "
                       "will not work)", bundle_path(app))


def copy_scripts(app, exception):
    """Write the data script from the package and copy the bundle beside it."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "widgets"
    write_data_script(target)
    if bundle_path(app).exists():
        shutil.copy2(bundle_path(app), target / BUNDLE_NAME)


def setup(app):
    app.add_config_value("bayescomp_widgets_bundle", "", "html")
    app.connect("builder-inited", check_bundle)
    app.connect("html-page-context", add_scripts)
    app.connect("build-finished", copy_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
