"""Sphinx extension: the edition and its licences on every page (loaded through ``_config.yml``).

- The footer of every page states, in one line, the edition and which licence covers what, with
  links to the licences, and links the accessibility statement
  (``templates/extra-footer.html``, the theme's footer component that shows it). The line is
  :func:`tools.edition.notice_html`, the one the decks' title slides and the PDF's title page
  show.
- Two MyST substitutions for the pages: ``{{ edition }}`` (the version) and
  ``{{ open_an_issue }}`` (how to report an error: a link to the book's repository once
  ``_config.yml`` has its address, the words alone until then), used by the Errata and
  Accessibility pages.

Both come from :mod:`tools.edition`, which reads ``code/pyproject.toml`` and ``_config.yml``.
The notice is also a configuration value (``bayescomp_edition``, rebuild ``html``), so a new
edition rewrites every page even when no page changed.
"""
from .. import edition

ACCESSIBILITY = "chapters/accessibility"


def set_edition(app, config):
    config.bayescomp_edition = edition.notice_html()
    config.myst_substitutions = {**config.myst_substitutions, "edition": edition.version(),
                                 "open_an_issue": edition.open_an_issue()}


def add_footer_line(app, pagename, templatename, context, doctree):
    link = context["pathto"](ACCESSIBILITY)
    context["edition_footer"] = (f'{app.config.bayescomp_edition} '
                                 f'<a href="{link}">Accessibility</a>')


def setup(app):
    app.add_config_value("bayescomp_edition", "", "html")
    app.connect("config-inited", set_edition)
    app.connect("html-page-context", add_footer_line)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
