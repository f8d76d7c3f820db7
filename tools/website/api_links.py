"""Sphinx extension for the book's website and PDF: each shown source links to its API entry.

A chapter shows the package's own source of a method (``bayescomp.book.show_source``), with its
docstring folded under "Docstring of <name>". Where that name is documented in the API
reference (chapters/api.md, autodoc), a line after the folded docstring links to its entry. The
notebooks themselves carry no such link: in JupyterLab the page would not be there.
"""
import re

SHOWN = re.compile(r'(<details><summary>Docstring of <code>(?P<name>[\w.]+)</code>.*?</details>)',
                   re.S)
API_PAGE = "chapters/api"


def link_to_api(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or "Docstring of <code>" not in body:
        return
    documented = app.env.get_domain("py").objects

    def with_link(match):
        target = f"bayescomp.{match['name']}"
        if target not in documented:
            return match[1]
        if app.builder.name == "singlehtml":
            href = f"#{target}"      # the PDF: one page holds the reference too
        else:
            href = f"{app.builder.get_relative_uri(pagename, API_PAGE)}#{target}"
        return (f'{match[1]}\n<p class="bc-api-link"><a href="{href}">'
                f'<code>{target}</code> in the API reference</a></p>')

    context["body"] = SHOWN.sub(with_link, body)


def setup(app):
    app.connect("html-page-context", link_to_api)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
