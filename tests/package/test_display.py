"""show_source: the listing a chapter shows is the package's own source, as plain Markdown."""
import inspect

import bayescomp as bc
from bayescomp import book


def test_listing_is_the_source_with_the_docstring_folded_after_the_body():
    listing = book.show_source(bc.metropolis_chain)
    markdown = listing._repr_markdown_()
    code_block, docstring_block = markdown.split("<details>")
    # Every line of the body is shown verbatim, in order, before the docstring.
    body = inspect.getsource(bc.metropolis_chain).split('"""')[-1]
    assert body.strip() in code_block
    assert "Run one random-walk Metropolis chain. (Full docstring below.)" in code_block
    assert "**Notes**" in docstring_block and "Notes" not in code_block
    assert repr(listing) == inspect.getsource(bc.metropolis_chain)


def test_listing_is_plain_text_not_highlighted_html():
    markdown = book.show_source(bc.grid_posterior)._repr_markdown_()
    assert markdown.startswith("```python\ndef grid_posterior(")
    assert "<span" not in markdown and "&quot;" not in markdown


def test_a_function_without_a_docstring_is_shown_whole():
    def no_doc(x):
        return x + 1
    assert book.show_source(no_doc)._repr_markdown_() == (
        "```python\ndef no_doc(x):\n    return x + 1\n```")


def test_scientific_writes_powers_of_ten_as_math_and_plain_numbers_as_they_are():
    assert book.scientific(9.33e4) == r"$9.3\times10^{4}$"
    assert book.scientific(1.81e-5) == r"$1.8\times10^{-5}$"
    assert book.scientific(-3.33e9, digits=3) == r"$-3.33\times10^{9}$"
    assert book.scientific(0.0769) == "0.077"
    assert book.scientific(2.57) == "2.6" and book.scientific(910) == "910"
    assert book.scientific(0.0) == "0"
    # One form for a whole column: every nonzero number with its power of ten.
    assert book.scientific(0.578, smallest=float("inf")) == r"$5.8\times10^{-1}$"
    assert "e" not in book.scientific(1e-3, smallest=1e-3)


def test_scientific_names_a_bad_argument():
    for kwargs, name in (({"value": float("nan")}, "value"), ({"value": 1.0, "digits": 0}, "digits"),
                         ({"value": 1.0, "digits": 1.5}, "digits"),
                         ({"value": 1.0, "smallest": 0.0}, "smallest")):
        try:
            book.scientific(**kwargs)
        except ValueError as error:
            assert str(error).startswith(name), error
        else:
            raise AssertionError(f"no error for {kwargs}")


def test_table_is_markdown_for_jupyter_and_aligned_text_for_python():
    table = book.Table(["method", r"$\hat R$", "a|b"], [["grid", "1.00", "x"], ["Metropolis", "1.01", "yy"]])
    assert table._repr_markdown_() == (
        "| method | $\\hat R$ | a\\|b |\n|:---|---:|---:|\n| grid | 1.00 | x |\n"
        "| Metropolis | 1.01 | yy |")
    assert repr(table).splitlines() == ["method      $\\hat R$  a|b", "grid            1.00    x",
                                        "Metropolis      1.01   yy"]


def test_table_rows_must_match_the_header():
    for header, rows, words in (([], [], "header"), (["a", "b"], [["1"]], "rows[0] has 1 cells")):
        try:
            book.Table(header, rows)
        except ValueError as error:
            assert words in str(error), error
        else:
            raise AssertionError(f"no error for {header}, {rows}")
