"""The two plot helpers of the k-hat study draw what their docstrings say and return the axes."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bayescomp.book import plotting  # noqa: E402


def test_weight_tail_is_the_upper_half_of_the_survival_curve_at_a_few_points():
    log_weights = np.log(np.random.default_rng(0).pareto(2.0, size=100_000) + 1)
    fig, ax = plt.subplots()
    assert plotting.plot_weight_tail(ax, log_weights, n_points=50) is ax
    weight, share = ax.lines[0].get_data()
    assert len(weight) <= 50
    assert np.all(np.diff(weight) <= 0) and np.all(np.diff(share) > 0)
    # The first point is the largest weight, seen by one draw in 100,000; the last is the median.
    scaled = np.exp(log_weights) / np.exp(log_weights).mean()
    assert np.isclose(weight[0], scaled.max(), rtol=1e-12) and share[0] == 1e-5
    assert share[-1] <= 0.5 and abs(weight[-1] - np.median(scaled)) < 0.01 * np.median(scaled)
    plt.close(fig)


def test_k_hat_by_draws_plots_the_median_over_seeds_with_the_range():
    sizes, k_hats = [1000, 2000, 5000], np.array([[0.1, 0.5, 0.3], [0.3, 0.7, 0.2], [0.2, 0.6, 0.4]])
    fig, ax = plt.subplots()
    assert plotting.plot_k_hat_by_draws(ax, sizes, k_hats, label="q") is ax
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [0.2, 0.6, 0.3])
    assert ax.get_xscale() == "log" and len(ax.collections) == 1
    plt.close(fig)


def test_run_outcomes_stack_each_rows_shares_left_to_right():
    shares = np.array([[0.1, 0.2, 0.3, 0.0, 0.4], [0.0, 0.0, 0.0, 0.5, 0.5]])
    fig, ax = plt.subplots()
    assert plotting.plot_run_outcomes(ax, ["a", "b"], shares, [(0.1, 0.05, 0.2), None]) is ax
    bars = ax.patches
    assert len(bars) == shares.size
    # Bars are drawn outcome by outcome: for each, its rows; each starts where the last ended.
    widths = np.array([bar.get_width() for bar in bars]).reshape(5, 2).T
    lefts = np.array([bar.get_x() for bar in bars]).reshape(5, 2).T
    np.testing.assert_allclose(widths, shares)
    np.testing.assert_allclose(lefts, np.cumsum(shares, axis=1) - shares)
    right, = ax.child_axes                                          # the silent shares' axis
    assert [t.get_text() for t in right.get_yticklabels()] == ["10% (5-20)"]   # b has none
    np.testing.assert_array_equal(right.get_yticks(), [0])          # beside row a
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]                     # row a on top
    assert len(ax.get_legend_handles_labels()[0]) == len(plotting.RUN_OUTCOMES)
    plt.close(fig)


def test_run_outcomes_refuse_shares_that_do_not_fit_the_rows():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="shares must have shape"):
        plotting.plot_run_outcomes(ax, ["a"], np.full((2, 5), 0.2))
    with pytest.raises(ValueError, match="must sum to 1"):
        plotting.plot_run_outcomes(ax, ["a"], np.full((1, 5), 0.1))
    plt.close(fig)
