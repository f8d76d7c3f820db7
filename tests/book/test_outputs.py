"""Stored notebook outputs must be the same text on every machine.

The last bits of a float depend on the CPU, the BLAS kernel and the NumPy build, so a stored
output that prints a float to full precision passes nbval only on the machine that wrote it.
Every printed or glued number is therefore rounded to what the reader is shown: at most 10
significant digits. This test fails on any stored text output, Markdown output or glued value
that holds a longer float. It reads the stored notebooks; it never rewrites them.
"""
import json
import re

import pytest

from tools import toc
MAX_SIGNIFICANT = 10
# A decimal number with its optional exponent, not part of a longer word or number.
FLOAT = re.compile(r"(?<![\w.])[-+]?(\d+)\.(\d+)(?:[eE][-+]?\d+)?(?![\w.])")
TEXT_TYPES = ("text/plain", "text/markdown", "text/latex", "application/papermill.record/")


def significant_digits(whole, fraction):
    digits = (whole + fraction).lstrip("0")
    return len(digits)


def long_floats(text):
    return [m.group(0) for m in FLOAT.finditer(text)
            if significant_digits(m.group(1), m.group(2)) > MAX_SIGNIFICANT]


def stored_texts(cell):
    for output in cell.get("outputs", []):
        if "text" in output:
            yield "".join(output["text"])
        for mime, value in output.get("data", {}).items():
            if mime.startswith(TEXT_TYPES):
                yield "".join(value) if isinstance(value, list) else str(value)


def test_the_check_catches_a_long_float():
    assert long_floats("corr -0.2287544412373733 and 4.242959822904913") == [
        "-0.2287544412373733", "4.242959822904913"]
    assert long_floats("mean [-0.3335  1.4794], ratio 4.242959823, 1.5e-05, 20000") == []


@pytest.mark.parametrize("name", toc.CHAPTERS)
def test_no_full_precision_floats_in_stored_outputs(name):
    path = toc.notebook(name)
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [(k, number) for k, cell in enumerate(cells) for text in stored_texts(cell)
             for number in long_floats(text)]
    assert found == [], (f"{path.name}: floats with more than {MAX_SIGNIFICANT} significant digits"
                         f" (cell, value): {found[:5]}; round them to what the reader is shown")
