"""The rank plot draws every bin of every chain, and its counts are the chains' rank histograms."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from bayescomp.book import plotting  # noqa: E402


def test_rank_plot_draws_every_bin_with_the_chains_counts():
    # Chain 2 holds the 200 largest of 400 values, so it fills the upper half of the ranks.
    values = np.arange(400.0).reshape(2, 200)[:, :, None]
    fig, ax = plt.subplots()
    try:
        assert plotting.plot_rank_histograms(ax, values, 0, n_bins=4) is ax
        steps = [patch for patch in ax.patches if patch.get_label().startswith("chain")]
        assert [s.get_label() for s in steps] == ["chain 1", "chain 2"]
        counts = [s.get_data().values for s in steps]
        edges = steps[0].get_data().edges
        np.testing.assert_array_equal(edges, [0, 100, 200, 300, 400])
        np.testing.assert_array_equal(counts[0], [100, 100, 0, 0])
        np.testing.assert_array_equal(counts[1], [0, 0, 100, 100])   # the last bin is drawn
        assert ax.lines[-1].get_ydata()[0] == 200 / 4   # the uniform level, draws per bin
    finally:
        plt.close(fig)


def test_rank_plot_leaves_global_state_alone():
    before = dict(matplotlib.rcParams)
    fig, ax = plt.subplots()
    try:
        plotting.plot_rank_histograms(ax, np.random.default_rng(0).normal(size=(3, 50, 2)), 1)
    finally:
        plt.close(fig)
    assert dict(matplotlib.rcParams) == before
