"""The numbers a deck states, and whether the chapter computed them.

A number on a slide (its bullets, its title, a build-up step) or in its speaker notes is the
chapter's result, so it must be one the chapter printed: it must appear, rounded as the slide
states it, among the chapter's stored outputs (printed text, Markdown outputs such as
``book.Table``, a question's computed answer) or be a constant its code cells state (a seed, a
number of draws such as ``S = 4000``, a correlation chosen for a figure). "0.44" matches an
output ``0.4412`` (the output at least as precise as the slide), "4,200" an output ``4213``
(trailing zeros of a whole number round it), "95%" an output ``0.95``, and
:math:`9.3\\times10^{4}` an output ``93,412``.

What is not a result is left out: whole numbers up to :data:`SMALL` (counts and ordinals,
"lecture 2", "3 sd"), years, minutes ("(2 min)", "about 8 min"), part headers, sub- and
superscripts of math (:math:`\\theta_1`, :math:`x^2`) and numbers inside words (``theta0``).
Everything else is checked: :func:`unmatched` lists what a chapter states and never computed.
The test is ``tests/book/test_slide_numbers.py``.
"""
import html
import io
import re
import tokenize

from .metadata import is_teaching_notes, slide_type

#: Whole numbers up to this are counts and ordinals, not results.
SMALL = 12
YEARS = (1900, 2100)

SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
# A number as a slide or an output writes it: 1,500 or 1500 or 0.44 or .5, an optional exponent
# (1.8e-05), a power of ten in TeX (9.3\times10^{4}) or in Unicode (9.3 × 10⁴), a percent sign.
NUMBER = re.compile(
    r"(?<![\w.,\\])(?P<mantissa>\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:_\d+)*|(?=\.\d))(?:\.(?P<decimals>\d+))?"
    r"(?:[eE](?P<e>[-+]?\d+)"
    r"|\s*(?:\\times|×|\\cdot)\s*10\^\{?(?P<tex>[-−]?\d+)\}?"
    r"|\s*×\s*10(?P<uni>[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?"
    r"(?P<percent>\s?(?:%|\\%))?(?![\w])")
# What is left out before numbers are read from a slide or notes (see the module's docstring).
NOT_RESULTS = [
    re.compile(r"^\*\*Part \d+ · [^*\n]*\*\*(?: \(about \d+ min\))?", re.M),   # a part header
    re.compile(r"\(\s*(?:about\s+)?\d+(?:\s*(?:to|-|–)\s*\d+)?\s*min\s*\)"),   # (2 min), (about 8 min)
    re.compile(r"\b\d+(?:\s*(?:to|-|–)\s*\d+)?[- ]min(?:ute)?s?\b"),           # 20 min, 50-minute
    re.compile(r"[_^](?:\{[^{}]*\}|\\?\w)"),             # math sub- and superscripts
    re.compile(r"\\[a-zA-Z]+"),                          # TeX commands (\tfrac12 keeps 12 apart)
    re.compile(r"<[^>]+>"),                              # HTML tags
    re.compile(r"^\s*\d+\.\s", re.M),                    # a numbered list's numbers
    re.compile(r"\]\([^)]*\)"),                          # a link's target
]


class Number:
    """A number as written: its magnitude and the unit of its last stated digit."""

    __slots__ = ("text", "value", "unit", "percent")

    def __init__(self, text, value, unit, percent=False):
        self.text, self.value, self.unit, self.percent = text, abs(value), unit, percent

    def __repr__(self):
        return self.text

    def forms(self):
        """(value, unit) the number may stand for: a percentage also as a fraction."""
        yield self.value, self.unit
        if self.percent:
            yield self.value / 100, self.unit / 100


def parse(match, integers_round=True):
    """A :class:`Number` from a :data:`NUMBER` match. ``integers_round``: trailing zeros of a
    whole number round it (a slide's "4,200"); an output's whole numbers are exact."""
    whole = match["mantissa"].replace(",", "").replace("_", "") or "0"
    decimals = match["decimals"] or ""
    exponent = match["e"] or match["tex"] or match["uni"]
    exponent = int(exponent.translate(SUPERSCRIPTS).replace("−", "-")) if exponent else 0
    value = float(f"{whole}.{decimals or 0}") * 10.0 ** exponent
    if decimals:
        places = len(decimals)
    elif integers_round and whole != "0":
        places = -(len(whole) - len(whole.rstrip("0")))
    else:
        places = 0
    unit = 10.0 ** (exponent - places)
    return Number(match[0].strip(), value, unit, bool(match["percent"]))


def numbers_in(text, integers_round=True):
    return [parse(m, integers_round) for m in NUMBER.finditer(text)]


def stated_numbers(text):
    """The numbers a slide or its notes state that should be results (see the docstring)."""
    text = html.unescape(text).replace("\u2212", "-").replace("\u202f", " ").replace("\u00a0", " ")
    # Powers of ten first, before their exponents are taken for superscripts.
    keep = []

    def hold(match):
        keep.append(match[0])
        return f" \x00{len(keep) - 1}\x00 "

    text = re.sub(r"\d+(?:\.\d+)?\s*(?:\\times|×|\\cdot)\s*10(?:\^\{?-?\d+\}?|[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)",
                  hold, text)
    for pattern in NOT_RESULTS:
        text = pattern.sub(" ", text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: keep[int(m[1])], text)
    found = []
    for number in numbers_in(text):
        whole = number.unit >= 1 and not number.percent
        if whole and (number.value <= SMALL or
                      (YEARS[0] <= number.value < YEARS[1] and number.unit == 1)):
            continue
        found.append(number)
    return found


def code_numbers(source):
    """The numeric literals of a code cell (``200_000``, ``0.9``, ``1e-10``), exact."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NUMBER and not token.string.endswith(("j", "J")):
                try:
                    value = float(token.string.replace("_", ""))
                except ValueError:
                    value = float(int(token.string.replace("_", ""), 0))
                match = NUMBER.fullmatch(token.string)
                unit = parse(match, integers_round=False).unit if match else 1.0
                found.append(Number(token.string, value, unit))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return found


def output_texts(cell):
    """The text of a code cell's stored outputs (streams, text, Markdown, HTML, JSON)."""
    for output in cell.get("outputs", []):
        if "text" in output:
            yield "".join(output["text"])
        for mime, value in output.get("data", {}).items():
            if mime.startswith("image/"):
                continue
            yield "".join(value) if isinstance(value, list) else str(value)


def computed_numbers(notebook):
    """Every number the chapter's code cells print or state."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        found += code_numbers(cell.source)
        for text in output_texts(cell):
            text = html.unescape(text).replace("\u2212", "-")
            found += numbers_in(text, integers_round=False)
    return found


def slide_texts(notebook):
    """(where, text) of every Markdown cell a deck shows or speaks: slides, build-up steps,
    anything else on a slide, and the speaker notes."""
    on_slides = False
    for cell in notebook.cells:
        kind = slide_type(cell)
        if kind == "slide":
            on_slides = True
        if cell.cell_type != "markdown" or kind == "skip" or not on_slides:
            continue
        if kind == "notes" and not is_teaching_notes(cell):
            continue
        where = "notes" if is_teaching_notes(cell) else "slide"
        yield f"{where} {cell.get('id', '?')}", cell.source


class Index:
    """The chapter's computed numbers, sorted, for quick look-ups."""

    def __init__(self, numbers):
        forms = []
        for number in numbers:
            forms += list(number.forms())
        self.forms = sorted(forms)
        self.values = [value for value, _ in self.forms]

    def has(self, number):
        """Whether some computed number rounds to ``number`` as it is stated."""
        import bisect
        for value, unit in number.forms():
            half = unit / 2 * (1 + 1e-9) + 1e-12 * value
            lo = bisect.bisect_left(self.values, value - half)
            hi = bisect.bisect_right(self.values, value + half)
            if any(computed_unit <= unit * (1 + 1e-9) for _, computed_unit in self.forms[lo:hi]):
                return True
        return False


def unmatched(notebook):
    """(where, number) of every number the deck states that the chapter never computed."""
    index = Index(computed_numbers(notebook))
    return [(where, number.text) for where, text in slide_texts(notebook)
            for number in stated_numbers(text) if not index.has(number)]
