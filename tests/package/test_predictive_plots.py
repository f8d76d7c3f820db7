"""The predictive plot helpers draw what their docstrings say, and return the axes."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import bayescomp as bc  # noqa: E402
from bayescomp import book  # noqa: E402
from bayescomp.book import plotting  # noqa: E402


def predictive_curves(x):
    results = book.run_lecture(methods=())
    grid = results.grid
    return (bc.posterior_predictive(x, results.laplace.mean),
            bc.posterior_predictive(x, grid.points, grid.weights),
            bc.predictive_band(x, grid.points, grid.weights, level=0.9))


def test_predictive_tail_draws_one_minus_each_curve_on_a_log_scale():
    x = np.linspace(0.0, 8.0, 17)
    plug_in, averaged, band = predictive_curves(x)
    fig, (left, right) = plt.subplots(1, 2)
    assert plotting.plot_predictive_curves(left, x, plug_in, averaged, band) is left
    assert plotting.plot_predictive_tail(right, x, plug_in, averaged, band) is right
    assert right.get_yscale() == "log"
    (average_line, plug_in_line) = right.lines
    np.testing.assert_allclose(average_line.get_ydata(), 1 - averaged)
    np.testing.assert_allclose(plug_in_line.get_ydata(), 1 - plug_in)
    # Same labels on both panels, so one legend serves the two.
    assert [line.get_label() for line in left.lines] == [line.get_label() for line in right.lines]
    # The band is the region between 1 - upper and 1 - lower: it holds the average curve.
    band_path = right.collections[0].get_paths()[0].vertices
    assert band_path[:, 1].min() <= (1 - averaged).min() and band_path[:, 1].max() >= (1 - averaged).max()
    # Where the data end the band is wider (in factors) than at the data's centre: the point
    # the tail panel exists to show.
    ratio = (1 - np.asarray(band.lower)) / (1 - np.asarray(band.upper))
    assert ratio[-1] > 10 * ratio[0]
    plt.close(fig)


def test_walk_names_its_path_as_asked():
    _, target = book.lecture_problem()
    chain = bc.metropolis_chain(target, np.zeros(2), 0.3 * np.eye(2), 20,
                                np.random.default_rng(0), record_proposals=True)
    fig, ax = plt.subplots()
    assert plotting.plot_walk(ax, np.zeros(2), chain, label="Metropolis path") is ax
    assert [line.get_label() for line in ax.lines] == ["Metropolis path", "rejected proposal", "start"]
    plotting.plot_walk(ax, np.zeros(2), chain)
    assert ax.lines[3].get_label() == "chain path"
    plt.close(fig)
