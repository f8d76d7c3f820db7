"""The grid reference (bayescomp.grid) on a density whose answers are known."""
import numpy as np
import pytest

import bayescomp as bc

from .densities import normal_log_density


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

def test_grid_of_a_tilted_gaussian_gives_its_moments_correlation_and_marginals():
    # A Gaussian with correlation 0.6, well inside the bounds, on a grid with a different
    # resolution per axis, 1000 nats above zero. Survivors: the correlation cov * sd sd^T
    # (or dropped), exp(log p + max) (overflows), the resolution ignored by linspace, the
    # meshgrid's xy indexing (which swaps the axes), and the marginals dropped, summed over
    # everything or over the wrong axis.
    mean, cov = np.array([0.5, -1.0]), np.array([[1.0, 0.6 * 1.0 * 0.5], [0.3, 0.25]])
    log_density = normal_log_density(mean, cov)
    grid = bc.grid_posterior(lambda theta: 1000.0 + log_density(theta),
                             [[-6.0, 7.0], [-4.0, 2.0]], resolution=(301, 201))
    assert [axis.size for axis in grid.axes] == [301, 201]
    np.testing.assert_array_equal(grid.points[3, 5], [grid.axes[0][3], grid.axes[1][5]])
    np.testing.assert_allclose(grid.mean, mean, atol=1e-6)
    np.testing.assert_allclose(grid.cov, cov, atol=1e-4)
    np.testing.assert_allclose(grid.corr, [[1.0, 0.6], [0.6, 1.0]], atol=1e-4)
    for axis, marginal, centre, variance in zip(grid.axes, grid.marginals, mean, np.diag(cov)):
        assert marginal.shape == axis.shape and marginal.sum() == pytest.approx(1.0)
        assert marginal @ axis == pytest.approx(centre, abs=1e-6)
        assert marginal @ (axis - centre) ** 2 == pytest.approx(variance, abs=1e-4)


@pytest.mark.parametrize("bounds", [[[1.0, 1.0], [0.0, 1.0]], [[0.0, 1.0], [2.0, -2.0]]])
def test_grid_refuses_empty_or_reversed_bounds(bounds):
    # Survivors: the check dropped, low >= high turned into low > high, and its message.
    with pytest.raises(ValueError, match="bounds must be rows"):
        bc.grid_posterior(lambda theta: np.zeros(theta.shape[:-1]), bounds)
