"""Figures as small as their content: the SVG the chapters store, and the two helpers whose
figures were the heaviest (the weight stems, the funnel's contours), draw what they drew, in
fewer bytes."""
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import bayescomp as bc  # noqa: E402
from bayescomp.book import plotting  # noqa: E402


def svg_of(fig):
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def test_lean_svg_rounds_coordinates_and_leaves_transforms_alone():
    svg = ('<path d="M 485.268342 218.919441 L 486.2 -0.001" style="stroke-width: 0.800000"/>'
           '<use xlink:href="#m1" x="57.612345" y="239.758125"/>'
           '<g transform="translate(12.345678 3.5) scale(0.015625 -0.015625)"/>')
    lean = plotting.lean_svg(svg)
    assert 'd="M 485.27 218.92 L 486.2 0"' in lean
    assert 'x="57.61" y="239.76"' in lean
    assert 'transform="translate(12.345678 3.5) scale(0.015625 -0.015625)"' in lean
    assert 'stroke-width: 0.800000' in lean
    assert plotting.lean_svg(svg, decimals=1).count("485.3") == 1


def test_book_svg_is_the_inline_figure_made_lean_and_nothing_for_an_empty_figure():
    pytest.importorskip("IPython")
    fig, ax = plt.subplots()
    ax.plot(np.linspace(0, 1, 50) ** 2)
    svg = plotting.book_svg(fig)
    assert svg.startswith("<?xml") and "<dc:date>" not in svg
    assert plotting.lean_svg(svg) == svg and len(svg) < len(svg_of(fig))
    assert plotting.book_svg(plt.figure()) is None
    plt.close("all")


def test_weighted_draws_are_one_path_of_stems_and_their_markers():
    draws, weights = np.array([-1.0, 0.5, 2.0]), np.array([0.2, 0.5, 0.3])
    fig, ax = plt.subplots()
    assert plotting.plot_weighted_draws(ax, draws, weights, label="w") is ax
    stems, markers = ax.lines
    x, y = stems.get_data()
    np.testing.assert_array_equal(x[~np.isnan(x)], np.repeat(draws, 2))
    np.testing.assert_array_equal(y[~np.isnan(y)], np.column_stack([np.zeros(3), weights]).ravel())
    np.testing.assert_array_equal(markers.get_xdata(), draws)
    np.testing.assert_array_equal(markers.get_ydata(), weights)
    assert markers.get_label() == "w" and stems.get_label().startswith("_")
    plt.close(fig)


@pytest.fixture(scope="module")
def reference():
    return bc.hierarchical_reference(bc.hierarchical_data())


def test_funnel_contours_come_from_at_most_n_rows_and_weigh_less(reference):
    sizes = {}
    for n_rows in (10**9, 301):
        fig, ax = plt.subplots()
        plotting.plot_funnel(ax, reference, n_rows=n_rows)
        (contours,) = ax.collections
        sizes[n_rows] = len(svg_of(fig))
        vertices = max(len(p.vertices) for p in contours.get_paths())
        plt.close(fig)
        if n_rows == 301:
            assert vertices <= 2 * (301 + 301)
    assert sizes[301] < 0.5 * sizes[10**9]


def test_funnel_rejects_too_few_rows(reference):
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="n_rows"):
        plotting.plot_funnel(ax, reference, n_rows=2)
    plt.close(fig)
