"""bayescomp.book.docstrings: the shown docstrings as Markdown, with no reStructuredText left."""
import inspect
import re
import types

import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp.book.display import show_source
from bayescomp.book.docstrings import docstring_markdown, inline_markdown, plain_text

# What reStructuredText leaves in text that Markdown does not render.
REST = re.compile(r":[a-z]+:`|^\s*\.\. [a-z-]+::|``|\\`\\`|^-{3,}$", re.M)


def documented():
    """Every public function and class of bayescomp and bayescomp.book with a docstring."""
    for module in (bc, book):
        for name in module.__all__:
            obj = getattr(module, name)
            if not isinstance(obj, types.ModuleType) and inspect.getdoc(obj):
                yield f"{module.__name__}.{name}", obj


@pytest.mark.parametrize("name, obj", list(documented()), ids=lambda x: x if isinstance(x, str) else "")
def test_no_restructuredtext_is_left(name, obj):
    markdown = docstring_markdown(inspect.getdoc(obj))
    assert REST.findall(markdown) == [], f"{name}: {REST.findall(markdown)[:3]}"


def test_sections_entries_and_math():
    markdown = docstring_markdown(inspect.getdoc(bc.leapfrog))
    assert "**Parameters**" in markdown and "**Notes**" in markdown
    assert "- `step_size` (float)" in markdown
    assert "- *Trajectory*: `n_leapfrog + 1` positions" in markdown
    assert "$$\nr \\leftarrow r + \\tfrac h2" in markdown
    assert "$O(h^2)$" in markdown


def test_plain_text_cannot_become_markup():
    assert inline_markdown("a*b_c <tag> [x](y) $5 | 1") == r"a\*b\_c \<tag\> \[x\](y) \$5 \| 1"
    assert inline_markdown("``x_1`` and :func:`~bayescomp.ess_bulk`") == "`x_1` and `bayescomp.ess_bulk`"


def test_a_formula_across_lines_is_one_formula():
    assert inline_markdown(":math:`a +\n    b`") == "$a + b$"


def test_the_listing_shows_the_docstring_as_markdown():
    listing = show_source(bc.leapfrog)._repr_markdown_()
    assert "```text" not in listing and ":math:" not in listing
    assert "<details>" in listing and "**Notes**" in listing


def test_bad_input():
    with pytest.raises(TypeError, match="docstring must be a str"):
        docstring_markdown(None)


def test_a_returned_type_with_markup_is_rendered_not_escaped():
    markdown = docstring_markdown("Summary.\n\nReturns\n-------\nfloat for 2-D ``draws``\n    The value.\n")
    assert "- *float for 2-D `draws`*: The value." in markdown


def test_the_summary_kept_in_the_code_is_plain_text():
    assert plain_text("From :math:`q = N(\\mu, 1)` and ``x``, see :func:`f`.") == "From q = N(\\mu, 1) and x, see f."
    listing = show_source(bc.importance_sample)._repr_markdown_()
    code = listing.split("<details>")[0]
    assert ":math:" not in code and "q = N(" in code


def test_a_blank_line_separates_two_displayed_formulas():
    markdown = docstring_markdown("Summary.\n\n.. math::\n\n    a = 1,\n\n    b = 2\n\nText.\n")
    assert "$$\na = 1,\n$$\n\n$$\nb = 2\n$$" in markdown


def test_a_summary_with_tex_stays_a_raw_string_in_the_code():
    code = show_source(bc.centred_target)._repr_markdown_().split("<details>")[0]
    line = next(line for line in code.splitlines() if "(Full docstring below.)" in line)
    assert line.strip().startswith('r"""') and "\\" in line
    compile(code.split("```python\n")[1].split("\n```")[0], "listing", "exec")   # valid Python
