"""What a chapter displays: the package's own source, and tables of numbers for people.

The source listing is returned as Markdown (a fenced ``python`` block), not as highlighted
HTML. Highlighting then happens where the listing is shown: by the website's build (Sphinx and
Pygments) and by JupyterLab's own editor theme. The stored notebook output is therefore plain
source text, identical whatever Pygments or IPython version ran the notebook; HTML written by
Pygments changes between versions (2.21 escapes ``"`` as ``&quot;``), which would break nbval.

Tables (:class:`Table`) are Markdown too, with TeX math where a heading needs it, so that the
website, JupyterLab and the lecture decks each render them as a table rather than as
program output in a monospace font; :func:`scientific` writes a small or large number as
:math:`9.3\times10^{4}`, never as ``9.33e+04``.
"""
import ast
import math
import inspect
import textwrap

import numpy as np

from .docstrings import docstring_markdown, plain_text


class SourceListing:
    """The source of a function or class, body first and docstring folded away.

    Jupyter shows ``_repr_markdown_``; plain Python shows the full source.
    """

    def __init__(self, obj):
        self.name = obj.__qualname__
        self.source = textwrap.dedent(inspect.getsource(obj))
        self.code, self.docstring = split_docstring(self.source)

    def _repr_markdown_(self):
        parts = [f"```python\n{self.code.rstrip()}\n```"]
        if self.docstring:
            # Raw HTML around Markdown: MyST (the website, the PDF) and JupyterLab both fold it
            # and render what is inside, the docstring's math included.
            parts.append(f"<details><summary>Docstring of <code>{self.name}</code> "
                         f"(parameters, formula, references)</summary>\n\n"
                         f"{docstring_markdown(self.docstring).rstrip()}\n\n</details>")
        return "\n\n".join(parts)

    def __repr__(self):
        return self.source


def split_docstring(source):
    """Return (source with the docstring cut to its first line, the full docstring)."""
    definition = ast.parse(source).body[0]
    docstring = ast.get_docstring(definition, clean=True)
    first = definition.body[0]
    if docstring is None:
        return source, None
    lines = source.splitlines(keepends=True)
    # Replace the docstring's lines by its summary line, keeping the indentation.
    opening = lines[first.lineno - 1]
    indent = opening[:len(opening) - len(opening.lstrip())]
    summary = plain_text(docstring.splitlines()[0]).replace('"""', "'''")
    # A raw string when the summary holds a backslash (TeX), as the source's docstring is.
    prefix = "r" if "\\" in summary else ""
    folded = f'{indent}{prefix}"""{summary} (Full docstring below.)"""\n'
    code = "".join(lines[:first.lineno - 1]) + folded + "".join(lines[first.end_lineno:])
    return code, docstring


def show_source(obj):
    """Return the source of a function or class from this package, for display in a chapter.

    The body comes first, with the docstring cut to its summary line; the full docstring
    (parameters, the formula under Notes, the paper cited) follows, folded, as Markdown with
    its math (``bayescomp.book.docstrings``). No copy of the algorithm
    lives in the notebook.
    """
    return SourceListing(obj)


def scientific(value, digits=2, smallest=0.01):
    r"""A number for a reader: ``0.077`` as it is, ``1.8e-05`` as :math:`1.8\times10^{-5}` (TeX).

    Parameters
    ----------
    value : float
        A finite number.
    digits : int
        Significant digits shown, at least 1 (a number of 100 or more in fixed point shows
        all its digits before the point).
    smallest : float
        The smallest magnitude shown in fixed point; positive. ``smallest=inf`` writes every
        nonzero number with a power of ten (one form for a whole column).

    Returns
    -------
    str
        Fixed-point text when the number's magnitude lies in [``smallest``, 10 000) (or it is
        zero); otherwise ``$m\times10^{e}$`` with ``m`` to ``digits`` significant digits, to be
        shown where TeX math is rendered (a Markdown cell or output, a slide).
    """
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
        raise ValueError(f"digits must be an integer of at least 1, got {digits!r}")
    if not smallest > 0:
        raise ValueError(f"smallest must be a positive magnitude, got {smallest!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"value must be a finite number, got {value!r}")
    if value == 0.0:
        return "0"
    if smallest <= abs(value) < 1e4:
        decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
        return f"{value:.{decimals}f}"
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"${mantissa}\\times10^{{{int(exponent)}}}$"


class Table:
    """A small table of results, for the page, JupyterLab and the slides alike.

    Jupyter shows it as a Markdown table (headers and cells may hold TeX math such as
    ``$\\hat R$``; the decks render it as an HTML table at the slides' text size); plain
    Python, and nbval, see aligned plain text.

    Parameters
    ----------
    header : sequence of str
        One heading per column; say what the column measures, with its unit.
    rows : sequence of sequences of str
        The cells, already formatted (e.g. with :func:`scientific`), as many as the headings.
    """

    def __init__(self, header, rows):
        self.header = [str(h) for h in header]
        self.rows = [[str(cell) for cell in row] for row in rows]
        if not self.header:
            raise ValueError("header must name at least one column")
        for k, row in enumerate(self.rows):
            if len(row) != len(self.header):
                raise ValueError(f"rows[{k}] has {len(row)} cells; the header has "
                                 f"{len(self.header)} columns")

    def _repr_markdown_(self):
        # A "|" inside a cell would split it: escape it. The first column is left-aligned
        # (labels), the others right-aligned (numbers).
        escape = lambda text: text.replace("|", "\\|")
        lines = ["| " + " | ".join(map(escape, self.header)) + " |",
                 "|" + "|".join([":---"] + ["---:"] * (len(self.header) - 1)) + "|"]
        lines += ["| " + " | ".join(map(escape, row)) + " |" for row in self.rows]
        return "\n".join(lines)

    def __repr__(self):
        table = [self.header, *self.rows]
        widths = [max(len(row[j]) for row in table) for j in range(len(self.header))]
        return "\n".join("  ".join(cell.ljust(w) if j == 0 else cell.rjust(w)
                                   for j, (cell, w) in enumerate(zip(row, widths))).rstrip()
                         for row in table)


def format_mcse(mcse, decimals=3, width=0):
    """An MCSE as text, with "n/a" where it is undefined.

    Parameters
    ----------
    mcse : float
        A Monte Carlo standard error (or a multiple of one), NaN where the draws cannot
        estimate it (see :class:`bayescomp.hierarchical_reference.Audit`).
    decimals : int
        Digits after the decimal point.
    width : int
        Right-align in this many characters, for tables.

    Returns
    -------
    str
        ``"n/a"`` for NaN, never ``"0.000"``: a printed zero would claim a certainty that
        draws constant in the quantity cannot give.
    """
    if decimals < 0 or width < 0:
        raise ValueError(f"decimals and width must be non-negative; got {decimals} and {width}")
    text = f"{mcse:.{decimals}f}" if np.isfinite(mcse) else "n/a"
    return text.rjust(width)


def format_errors(errors, width=8, decimals=2):
    """Audited errors as one line of signed, right-aligned numbers, for tables.

    Parameters
    ----------
    errors : array_like, shape (K,)
        Errors such as the ``errors`` of :func:`bayescomp.audit` (NaN prints as ``n/a``, as in :func:`format_mcse`).
    width : int or sequence of int
        Characters per number: one width for all, or one per error.
    decimals : int
        Digits after the decimal point.

    Returns
    -------
    str
        Each error with its sign; one that rounds to zero prints as ``+0.00``, never ``-0.00``,
        which would claim a direction the rounded number does not have.
    """
    errors = np.asarray(errors, dtype=float)
    if errors.ndim != 1:
        raise ValueError(f"errors must be a 1-D array; got shape {errors.shape}")
    widths = np.broadcast_to(np.asarray(width), errors.shape) if np.ndim(width) == 0 else np.asarray(width)
    if widths.shape != errors.shape:
        raise ValueError(f"width must be one int or one per error ({errors.size}); got {len(widths)}")
    if decimals < 0 or (widths < 0).any():
        raise ValueError(f"decimals and width must be non-negative; got {decimals} and {width}")
    # Adding 0.0 turns a rounded -0.0 into +0.0.
    return "".join(f"{round(e, decimals) + 0.0:+{w}.{decimals}f}" if np.isfinite(e) else "n/a".rjust(w)
                   for e, w in zip(errors, widths))
