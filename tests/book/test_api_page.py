"""The API reference (chapters/api.md) documents every public name of the package."""
import re
import types

import pytest

import bayescomp as bc
from bayescomp import book
from tools import toc
from tools.toc import ROOT

PAGE = ROOT / "chapters" / "api.md"
DIRECTIVE = re.compile(r"^\.\. auto(?:function|class|data):: (\w+)$", re.M)


def documented(module):
    """The names the page documents under ``.. currentmodule:: <module>``."""
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.split(r"^\.\. currentmodule:: ", text, flags=re.M)
    names = []
    for block in blocks[1:]:
        current, _, rest = block.partition("\n")
        if current.strip() == module:
            names += DIRECTIVE.findall(rest)
    return names


@pytest.mark.parametrize("module", [bc, book], ids=["bayescomp", "bayescomp.book"])
def test_every_public_name_is_on_the_page_once(module):
    public = [name for name in module.__all__
              if not isinstance(getattr(module, name), types.ModuleType)]
    on_page = documented(module.__name__)
    assert sorted(set(public) - set(on_page)) == [], "not in chapters/api.md"
    assert sorted(set(on_page) - set(public)) == [], "on the page but not public"
    assert len(on_page) == len(set(on_page)), "documented twice"


def test_the_page_is_in_the_book_and_linked_from_the_landing_page():
    assert "chapters/api" in toc.PAGES
    assert "(api.md)" in toc.notebook("index").read_text(encoding="utf-8")
