"""bayescomp.book: what the book needs around the methods, kept apart from the maths.

The rule: a module belongs to :mod:`bayescomp` when it is a model, an exact reference, a method
or a diagnostic that someone outside the book could call, and it then imports NumPy only. It
belongs here when it exists for the book, its chapters, decks or course: it fixes the book's
choices (settings, seeds, styles), shows results to a reader, or serves the course. Modules
here may import matplotlib and anywidget (the ``book`` extra, ``pip install bayescomp[book]``);
the maths never imports this subpackage.

- :mod:`~bayescomp.book.lecture`: the lecture's protocol (:class:`LectureSettings`, its seeds
  and sizes) and :func:`run_lecture`, which runs every method on it: the book's choice of
  settings, not a method.
- :mod:`~bayescomp.book.chapters`: chapter constants, such as chapter 6's tuning rule
  (:func:`dimension_tuning`): the chapter's argument, not the samplers'.
- :mod:`~bayescomp.book.display`: what a chapter shows (:class:`Table`, :func:`scientific`,
  :func:`show_source`, :func:`format_mcse`, :func:`format_errors`): text for a reader.
- :mod:`~bayescomp.book.questions`: the chapters' self-check questions, written as HTML.
- :mod:`~bayescomp.book.plotting` and :mod:`~bayescomp.book.colors`: the figures, their palette
  and the decks' figure style (matplotlib, loaded on first use).
- :mod:`~bayescomp.book.widgets` (with ``_anywidget``, ``figures.json`` and ``static/``): the
  live figures' data, manifest, built JavaScript and their display in Jupyter.
- :mod:`~bayescomp.book.grading` and :mod:`~bayescomp.book.homework`: the course's homework,
  its variants per student and its grading. The z-bound behind the grading is statistics, but
  the module exists for the course (students' user names, nbgrader's folders, the lecture's
  data), so it lives here; import them as ``from bayescomp.book import grading, homework``.

``plotting``, ``setup_figures`` and ``widgets`` load on first use (matplotlib is slow to import),
so ``from bayescomp import book`` itself needs no matplotlib.
"""
import importlib

from . import questions  # book.questions.ask: self-check questions in the chapters
from .chapters import dimension_tuning
from .display import Table, format_errors, format_mcse, scientific, show_source
from .lecture import LectureResults, LectureSettings, lecture_problem, run_lecture

__all__ = [
    "LectureResults", "LectureSettings", "Table", "dimension_tuning", "format_errors",
    "format_mcse", "lecture_problem", "questions", "run_lecture", "scientific", "setup_figures",
    "show_source",
]


def __getattr__(name):
    # Load matplotlib only when a plot is asked for (PEP 562 module __getattr__).
    if name == "plotting":
        return importlib.import_module(".plotting", __name__)
    if name == "setup_figures":
        return importlib.import_module(".plotting", __name__).setup_figures
    if name == "widgets":  # the live figures (book.widgets.metropolis() in Jupyter)
        return importlib.import_module(".widgets", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
