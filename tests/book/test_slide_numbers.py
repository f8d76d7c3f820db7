"""Every number a deck states is one its chapter computed (tools/slides/numbers.py).

A number in a slide's bullets, title or build-up steps, or in its speaker notes, must appear
among the chapter's stored outputs (printed text, Markdown tables, questions' answers) or as a
constant of its code cells, rounded as the slide states it. So a slide cannot keep a number
that a re-executed chapter no longer prints. It reads the stored notebooks only.
"""
import nbformat
import pytest

from tools import toc
from tools.slides import numbers


@pytest.mark.parametrize("name", toc.CHAPTERS)
def test_numbers_on_slides_are_computed(name):
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    found = numbers.unmatched(notebook)
    assert found == [], (f"{name}: numbers the deck states that no output or code cell of the "
                         f"chapter holds, rounded as stated (cell, number): {found}")


def fake_chapter(slide, notes, output="mean 0.4412, ESS 4213 of 12,000 draws\n",
                 code="S = 4_000\nrng = np.random.default_rng(7)"):
    cells = [nbformat.v4.new_markdown_cell(slide, metadata={"slideshow": {"slide_type": "slide"},
                                                            "tags": ["remove-cell", "slide-only"]}),
             nbformat.v4.new_code_cell(code, metadata={"tags": ["slides-hide-input"]}),
             nbformat.v4.new_markdown_cell(notes, metadata={
                 "slideshow": {"slide_type": "notes"}, "tags": ["teaching-notes", "remove-cell"]})]
    cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text=output)]
    return nbformat.v4.new_notebook(cells=cells)


def test_the_check_sees_a_typed_number():
    """Negative controls: a fake slide whose numbers the chapter computed passes; one that
    states a number no output holds, or more precisely than printed, fails."""
    good = fake_chapter("## Result\n\n- the mean is 0.44, the ESS about 4,200 of 12,000",
                        "(2 min)\n\n**Part 1 · P** (about 8 min)\n\n- 4,000 draws (S), 44% "
                        "of them kept, $\\theta_1$ in lecture 3, in 2024\n- 1. a list")
    assert numbers.unmatched(good) == []
    typed = fake_chapter("## Result\n\n- the mean is 0.45", "(2 min)\n\n- ESS 4213 of 12,000")
    assert [n for _, n in numbers.unmatched(typed)] == ["0.45"]
    finer = fake_chapter("## Result\n\n- the mean is 0.44123", "(2 min)\n\n- a point")
    assert [n for _, n in numbers.unmatched(finer)] == ["0.44123"]
    notes = fake_chapter("## Result\n\n- the mean", "(2 min)\n\n- say 17% and $9.3\\times10^{4}$")
    assert [n for _, n in numbers.unmatched(notes)] == ["17%", "9.3\\times10^{4}"]


def test_numbers_are_read_as_written():
    read = lambda text: [(n.value, n.unit) for n in numbers.stated_numbers(text)]
    assert read("0.44 and 1,500 and 4,200 and 12.0") == [(0.44, 0.01), (1500, 100), (4200, 100),
                                                         (12.0, 0.1)]
    assert read("$1.8\\times10^{-5}$ and 9.3 × 10⁴")[0] == pytest.approx((1.8e-5, 1e-6))
    assert read("9.3 × 10⁴")[0] == pytest.approx((9.3e4, 1e3))
    assert read("theta0, $x_{13}$, $y^{20}$, (about 8 min), 20 min, lecture 7, 1999") == []
    index = numbers.Index(numbers.numbers_in("ESS 93,412; k 0.4412; 0.95 within", False))
    assert all(index.has(n) for n in numbers.stated_numbers("9.3 × 10⁴, 0.44, 0.4412, 95%"))
    assert not any(index.has(n) for n in numbers.stated_numbers("0.45, 0.44121, 96%, 93,500"))
