"""A numpydoc docstring as Markdown, for the source listings the chapters show.

The package's docstrings are numpydoc (reStructuredText): headed sections, ``name : type``
entries, ``:math:`` roles and ``.. math::`` blocks. A chapter shows them below the code it
teaches (:class:`~bayescomp.book.display.SourceListing`), where the website, the PDF and
JupyterLab all render Markdown with TeX math but none of them renders reStructuredText. This
module writes the little of numpydoc that the package uses as that Markdown: a bold heading per
section, each parameter or returned value as a list item, math between dollars, literals and
cross-references as inline code. Anything else is plain text, with Markdown's own markup
characters escaped, so no docstring can turn into markup by accident.
"""
import re

# numpydoc's sections made of "name : type" entries with indented descriptions.
ENTRY_SECTIONS = {"Parameters", "Other Parameters", "Returns", "Yields", "Receives", "Raises",
                  "Warns", "Attributes"}
# In these, an entry may be a bare type (a returned value, an exception) rather than a name.
TYPE_SECTIONS = {"Returns", "Yields", "Raises", "Warns"}
INLINE = re.compile(r"``(?P<literal>[^`]+)``"
                    r"|:math:`(?P<math>[^`]+)`"
                    r"|:(?:py:)?(?:func|class|meth|attr|mod|obj|data|exc):`~?(?P<name>[^`]+)`")
HEADING_RULE = re.compile(r"-{3,}")
MARKUP = re.compile(r"([\\*_<>$`\[\]|])")


def escaped(text):
    """``text`` with Markdown's markup characters escaped, to be shown as it is."""
    return MARKUP.sub(r"\\\1", text)


def inline_markdown(text):
    """numpydoc's inline markup in ``text`` as Markdown; everything else escaped.

    ``:math:`x``` becomes ``$x$`` (on one line), a ````literal```` and a cross-reference
    (``:func:`name```) become inline code.
    """
    pieces, position = [], 0
    for match in INLINE.finditer(text):
        pieces.append(escaped(text[position:match.start()]))
        if match["literal"] is not None:
            pieces.append(f"`{match['literal']}`")
        elif match["math"] is not None:
            pieces.append(f"${' '.join(match['math'].split())}$")
        else:
            pieces.append(f"`{match['name']}`")
        position = match.end()
    pieces.append(escaped(text[position:]))
    return "".join(pieces)


def plain_text(text):
    """``text`` with numpydoc's inline markup taken off: the formula, literal or name alone.

    For the docstring's summary line kept in a listing's code, which is Python, not Markdown.
    """
    return INLINE.sub(lambda match: next(g for g in match.groups() if g is not None), text)


def _blocks(lines):
    """Paragraphs as Markdown, and each ``.. math::`` block as a display formula."""
    out, paragraph, index = [], [], 0

    def end_paragraph():
        if paragraph:
            out.extend([inline_markdown("\n".join(paragraph)), ""])
            paragraph.clear()

    while index < len(lines):
        line = lines[index]
        if line.strip() == ".. math::":
            end_paragraph()
            index += 1
            # The formulas: the indented lines that follow, one display per group of lines
            # (a blank line separates equations, as in Sphinx's math directive).
            formulas = [[]]
            while index < len(lines) and (not lines[index].strip() or lines[index][:1] == " "):
                if lines[index].strip():
                    formulas[-1].append(lines[index].strip())
                elif formulas[-1]:
                    formulas.append([])
                index += 1
            for formula in (f for f in formulas if f):
                out.extend(["$$", "\n".join(formula), "$$", ""])
            continue
        if line.strip():
            paragraph.append(line.strip())
        else:
            end_paragraph()
        index += 1
    end_paragraph()
    return out


def _entries(lines, section):
    """A section of ``name : type`` entries as a Markdown list, one item per entry."""
    items = []
    for line in lines:
        if line.strip() and line[:1] != " ":
            name, _, kind = (part.strip() for part in line.partition(" : "))
            if kind or section not in TYPE_SECTIONS:
                head = f"`{name}`" + (f" ({inline_markdown(kind)})" if kind else "")
            else:
                head = f"*{inline_markdown(name)}*"
            items.append((head, []))
        elif line.strip() and items:
            items[-1][1].append(line.strip())
    return [f"- {head}" + (f": {inline_markdown(' '.join(text))}" if text else "")
            for head, text in items] + [""]


def docstring_markdown(docstring):
    """Write a numpydoc docstring as Markdown with TeX math.

    Parameters
    ----------
    docstring : str
        A cleaned docstring (:func:`inspect.cleandoc`): summary, then sections, each a title
        over a rule of dashes as long as the title.

    Returns
    -------
    str
        Markdown: the summary and paragraphs as text, each section's title in bold, the
        entries of Parameters, Returns and the like as a list, ``.. math::`` blocks between
        ``$$`` lines and inline math between ``$``.
    """
    if not isinstance(docstring, str):
        raise TypeError(f"docstring must be a str, got {type(docstring).__name__}")
    lines = docstring.strip("\n").splitlines()
    # Split into sections at each title underlined by dashes of its own length.
    sections, index = [("", [])], 0
    while index < len(lines):
        line, rule = lines[index], lines[index + 1] if index + 1 < len(lines) else ""
        if line.strip() and HEADING_RULE.fullmatch(rule.strip()) \
                and len(rule.strip()) == len(line.strip()):
            sections.append((line.strip(), []))
            index += 2
            continue
        sections[-1][1].append(line)
        index += 1
    out = []
    for title, body in sections:
        if title:
            out.extend([f"**{escaped(title)}**", ""])
        out.extend(_entries(body, title) if title in ENTRY_SECTIONS else _blocks(body))
    return "\n".join(out).strip() + "\n"
