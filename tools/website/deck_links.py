"""Sphinx extension for the book's website (loaded through ``_config.yml``).

Adds, under the title of every chapter page, links to that chapter's lecture deck and to its
two PDF handouts (printed by :mod:`tools.slides.handouts`): the lecturer's, one slide per page
with its speaker notes below it, and the students', without the notes and answers. The links
live here rather than in the notebook because they only make sense on the website: in
JupyterLab the decks are not beside the notebooks (live slides there come from RISE).
Also drops the duplicate inline scripts Jupyter Book registers on every page.
"""
from pathlib import Path

from ..slides.build import deck_file, handout_file, students_handout_file
from ..toc import CHAPTERS

LINK = ('<p class="slides-link">Lecture slides for this chapter: '
        '<a href="../slides/{deck}">open the deck</a> '
        '(press <kbd>S</kbd> in the deck for speaker notes), '
        '<a href="../slides/{handout}">the lecturer\'s PDF handout</a> (with the notes and '
        'answers) or <a href="../slides/{students}">the students\' handout</a> (without them).</p>')


def add_deck_link(app, pagename, templatename, context, doctree):
    page = Path(pagename)
    if page.parent.name != "chapters" or page.name not in CHAPTERS or "body" not in context:
        return
    body = context["body"]
    end_of_title = body.find("</h1>")
    if end_of_title < 0:
        return
    at = end_of_title + len("</h1>")
    link = LINK.format(deck=deck_file(page.name), handout=handout_file(page.name),
                       students=students_handout_file(page.name))
    context["body"] = body[:at] + link + body[at:]


def drop_duplicate_scripts(app, pagename, templatename, context, doctree):
    """Keep one copy of each script: Jupyter Book registers sphinx-thebe's and togglebutton's
    inline configuration twice, and the second ``const THEBE_JS_URL`` is a JavaScript error."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        key = (getattr(script, "filename", str(script)) or "",  # None and "" both mean inline
               tuple(sorted(getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


def setup(app):
    app.connect("html-page-context", add_deck_link)
    # Late, so scripts added by other handlers of this event are deduplicated too.
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
