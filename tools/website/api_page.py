"""Sphinx extension: the API reference's entries, made from the package's ``__all__``.

The page ``chapters/api.md`` holds the prose and the headings; where an entry list belongs it
holds a fence that names a package and, optionally, one group of its ``__all__``::

    ```{api-entries} bayescomp methods
    ```

A group is the run of names under a comment in the ``__all__`` list of the package's
``__init__.py`` (``# methods``); a package whose ``__all__`` has no comment is one group, named
by the package alone. Before the page is parsed, each fence becomes the autodoc directives of its
names, in ``__all__``'s order (a class is an ``autoclass``, a function an ``autofunction``,
anything else ``autodata``; a submodule named in ``__all__`` is left to its own page). So a new
public function is on the page as soon as it is in ``__all__``: nothing here or on the page
lists it. ``tests/book/test_api_page.py`` checks that every group is on the page once.

Load it from ``_config.yml``: ``sphinx: local_extensions: {tools.website.api_page: .}``.
"""
import ast
import importlib
import inspect
import io
import re
import tokenize
import types

API_PAGE = "chapters/api"
FENCE = re.compile(r"^```\{api-entries\}[ \t]+(?P<package>[\w.]+)(?:[ \t]+(?P<group>[^\n`]+?))?[ \t]*\n```[ \t]*$",
                   re.M)


def groups(package):
    """``{group: [name, ...]}`` of a package's ``__all__``, in order, from its source.

    A comment inside the list starts a group named by the comment's text; names before any
    comment are in the group ``""``.
    """
    module = importlib.import_module(package)
    source = inspect.getsource(module)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    # The list literal assigned to __all__ at the module's top level.
    start = next(k for k, token in enumerate(tokens)
                 if token.type == tokenize.NAME and token.string == "__all__" and token.start[1] == 0)
    found, current, depth = {}, "", 0
    for token in tokens[start + 1:]:
        if token.type == tokenize.OP and token.string in "[(":
            depth += 1
        elif token.type == tokenize.OP and token.string in "])":
            depth -= 1
            if depth == 0:
                break
        elif token.type == tokenize.COMMENT and depth:
            current = token.string.lstrip("#").strip()
        elif token.type == tokenize.STRING and depth:
            found.setdefault(current, []).append(ast.literal_eval(token.string))
    if [name for names in found.values() for name in names] != list(module.__all__):
        raise ValueError(f"{package}.__all__ is not one list literal of names")
    return found


def entries(package, group=None):
    """The reStructuredText autodoc directives of a group of ``package.__all__``."""
    module = importlib.import_module(package)
    table = groups(package)
    key = group or ""
    if key not in table:
        raise ValueError(f"{package}.__all__ has no group {group!r}; its groups: {sorted(table)}")
    lines = [f".. currentmodule:: {package}"]
    for name in table[key]:
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            continue
        kind = "class" if inspect.isclass(value) else "function" if callable(value) else "data"
        lines.append(f".. auto{kind}:: {name}")
    return "\n".join(lines)


def expand(text):
    """The page's text with each fence replaced by its entries (as an ``eval-rst`` block)."""
    return FENCE.sub(lambda m: "```{eval-rst}\n" + entries(m["package"], m["group"]) + "\n```", text)


def on_source_read(app, docname, source):
    if docname == API_PAGE:
        source[0] = expand(source[0])


def setup(app):
    app.connect("source-read", on_source_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
