"""Show the package's own source in a chapter, so the code a reader sees is the code that runs.

The listing is returned as Markdown (a fenced ``python`` block), not as highlighted HTML.
Highlighting then happens where the listing is shown: by the website's build (Sphinx and
Pygments) and by JupyterLab's own editor theme. The stored notebook output is therefore plain
source text, identical whatever Pygments or IPython version ran the notebook; HTML written by
Pygments changes between versions (2.21 escapes ``"`` as ``&quot;``), which would break nbval.
"""
import ast
import inspect
import textwrap


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
            # Raw HTML around a fenced block: both MyST (the website) and JupyterLab fold it.
            parts.append(f"<details><summary>Docstring of <code>{self.name}</code> "
                         f"(parameters, formula, references)</summary>\n\n"
                         f"```text\n{self.docstring.rstrip()}\n```\n\n</details>")
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
    summary = docstring.splitlines()[0].replace('"""', "'''")
    folded = f'{indent}"""{summary} (Full docstring below.)"""\n'
    code = "".join(lines[:first.lineno - 1]) + folded + "".join(lines[first.end_lineno:])
    return code, docstring


def show_source(obj):
    """Return the source of a function or class from this package, for display in a chapter.

    The body comes first, with the docstring cut to its summary line; the full docstring
    (parameters, the formula under Notes, the paper cited) follows, folded. No copy of the
    algorithm lives in the notebook.
    """
    return SourceListing(obj)
