"""show_source: the listing a chapter shows is the package's own source, as plain Markdown."""
import inspect

import bayescomp as bc


def test_listing_is_the_source_with_the_docstring_folded_after_the_body():
    listing = bc.show_source(bc.metropolis_chain)
    markdown = listing._repr_markdown_()
    code_block, docstring_block = markdown.split("<details>")
    # Every line of the body is shown verbatim, in order, before the docstring.
    body = inspect.getsource(bc.metropolis_chain).split('"""')[-1]
    assert body.strip() in code_block
    assert "Run one random-walk Metropolis chain. (Full docstring below.)" in code_block
    assert "Notes\n-----" in docstring_block and "Notes" not in code_block
    assert repr(listing) == inspect.getsource(bc.metropolis_chain)


def test_listing_is_plain_text_not_highlighted_html():
    markdown = bc.show_source(bc.grid_posterior)._repr_markdown_()
    assert markdown.startswith("```python\ndef grid_posterior(")
    assert "<span" not in markdown and "&quot;" not in markdown


def test_a_function_without_a_docstring_is_shown_whole():
    def no_doc(x):
        return x + 1
    assert bc.show_source(no_doc)._repr_markdown_() == (
        "```python\ndef no_doc(x):\n    return x + 1\n```")
