"""The API reference (chapters/api.md) documents every public name of the package, once.

The page names groups of ``__all__``; tools/website/api_page.py turns each into its autodoc
entries when the book is built. These checks read the page as the build expands it."""
import re
import types

import pytest

import bayescomp as bc
from bayescomp import book
from tools import toc
from tools.toc import ROOT
from tools.website import api_page

PAGE = ROOT / "chapters" / "api.md"
DIRECTIVE = re.compile(r"^\.\. auto(?:function|class|data):: (\w+)$", re.M)


def documented(module, text=None):
    """The names the expanded page documents under ``.. currentmodule:: <module>``."""
    text = api_page.expand(PAGE.read_text(encoding="utf-8") if text is None else text)
    blocks = re.split(r"^\.\. currentmodule:: ", text, flags=re.M)
    names = []
    for block in blocks[1:]:
        current, _, rest = block.partition("\n")
        if current.strip() == module:
            names += DIRECTIVE.findall(rest)
    return names


def public(module):
    return [name for name in module.__all__
            if not isinstance(getattr(module, name), types.ModuleType)]


@pytest.mark.parametrize("module", [bc, book], ids=["bayescomp", "bayescomp.book"])
def test_every_public_name_is_on_the_page_once(module):
    on_page = documented(module.__name__)
    assert sorted(set(public(module)) - set(on_page)) == [], "a group of __all__ not in chapters/api.md"
    assert sorted(set(on_page) - set(public(module))) == [], "on the page but not public"
    assert len(on_page) == len(set(on_page)), "a group on the page twice"


def test_the_groups_are_the_comments_of_all_and_the_entries_their_names():
    groups = api_page.groups("bayescomp")
    assert list(groups) == ["targets and data", "exact references", "methods", "diagnostics"]
    assert "metropolis_chain" in groups["methods"]
    entries = api_page.entries("bayescomp", "methods").splitlines()
    assert entries[0] == ".. currentmodule:: bayescomp"
    assert ".. autofunction:: metropolis_chain" in entries and ".. autoclass:: Proposal" in entries
    assert ".. autodata:: AUDITED" in api_page.entries("bayescomp", "exact references")
    assert "questions" not in api_page.entries("bayescomp.book"), "a submodule has no entry"


def test_the_checks_see_a_missing_group_and_an_unknown_one():
    text = PAGE.read_text(encoding="utf-8")
    fence = "```{api-entries} bayescomp methods\n```"
    assert fence in text
    without = documented("bayescomp", text.replace(fence, ""))
    assert "metropolis_chain" not in without and set(public(bc)) - set(without)
    with pytest.raises(ValueError, match="no group 'method'"):
        api_page.expand(text.replace(fence, "```{api-entries} bayescomp method\n```"))


def test_the_page_is_in_the_book_and_linked_from_the_landing_page():
    assert "chapters/api" in toc.PAGES
    assert "(api.md)" in toc.notebook("index").read_text(encoding="utf-8")
