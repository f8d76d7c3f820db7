"""The chapters' Jupyter-only live-widget cells, which the build and nbval do not run.

Each cell is ``book.widgets.<name>(...)`` under the chapter's ``<div data-widget="NAME">``
placeholder. Here each such cell's code runs against the package, with anywidget, and must make
the widget its chapter's placeholder names (a renamed function or widget would otherwise go
unnoticed until a reader ran the cell). The widget is shown in JupyterLab by
``tests/browser/test_widgets_browser.py`` and ``tests/browser/test_download.py``.
"""
import ast

import nbformat
import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp.book.widgets import PLACEHOLDER
from tools import toc

from ..skips import is_widget_cell

def chapter_widgets(name):
    """(placeholder names, widget cells) of one chapter."""
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    placeholders = [found for cell in notebook.cells if cell.cell_type == "markdown"
                    for found in PLACEHOLDER.findall(cell.source)]
    cells = [cell for cell in notebook.cells if cell.cell_type == "code" and is_widget_cell(cell)]
    return placeholders, cells


WITH_WIDGETS = [name for name in toc.CHAPTERS if any(chapter_widgets(name))]


def test_some_chapters_have_live_widgets():
    assert len(WITH_WIDGETS) >= 4, WITH_WIDGETS


@pytest.mark.parametrize("name", WITH_WIDGETS)
def test_widget_cell_makes_the_placeholders_widget(name):
    pytest.importorskip("anywidget")
    placeholders, cells = chapter_widgets(name)
    made = [shown_value(cell.source) for cell in cells]
    assert [widget.widget for widget in made] == placeholders
    assert all(widget.widget in book.widgets.WIDGETS for widget in made)


def shown_value(source):
    """What Jupyter shows for a cell: the value of its last statement, an expression."""
    tree = ast.parse(source)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "a widget cell must end with the widget"
    namespace = {"bc": bc, "book": book}
    exec(compile(tree, "<widget cell>", "exec"), namespace)
    return eval(compile(ast.Expression(last.value), "<widget cell>", "eval"), namespace)
