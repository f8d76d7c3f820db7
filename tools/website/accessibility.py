"""Sphinx extension for the book's website: ARIA roles that today's screen readers understand.

sphinxcontrib-bibtex renders the references page as docutils citations, and docutils' HTML writer
marks them up as ``<div role="list" class="citation-list">`` holding one
``<div class="citation" role="doc-biblioentry">`` per entry. DPUB-ARIA 1.1 deprecated
``doc-biblioentry`` (axe-core: aria-deprecated-role), and a ``list`` must hold ``listitem``
children (aria-required-children). Each entry becomes a plain ``listitem`` of that list, which is
what the role meant; the bibliography's heading already says what the list is.
"""
import re

DEPRECATED_ENTRY = re.compile(r'(<div class="citation"[^>]*?) role="doc-biblioentry"')


def fix_citation_roles(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = DEPRECATED_ENTRY.sub(r'\1 role="listitem"', body)


def setup(app):
    app.connect("html-page-context", fix_citation_roles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
