// The two targets the sampler widgets offer, each with its exact grid reference and its
// Laplace approximation, computed once per page from the package's data.
import {
  gaussianProposal, gridPosterior, isotropicMixture, laplaceApproximation, logisticGrid, logisticPosterior,
} from '../engine/index.js';
import { SD_LEVELS } from './plot.js';

const cache = new WeakMap();

/**
 * { book, 'two-modes' }: target, logDensity, grid, bounds (the view), laplace, and the fallback
 * of a defensive mixture (the prior for the book's posterior; a broad Gaussian for two modes).
 */
export function targets(data) {
  if (cache.has(data)) return cache.get(data);
  const lecture = data.lecture;
  const book = logisticPosterior(data.data, lecture.prior_var);
  const bookBounds = lecture.grid_bounds;
  const two = isotropicMixture(data.two_modes);
  const twoBounds = data.two_modes.bounds;
  const result = {
    book: {
      name: 'book',
      label: 'the book’s posterior',
      target: book,
      logDensity: (t) => book.logDensity(t),
      grid: logisticGrid(data.data, data.data.x.length, lecture.prior_var, bookBounds, lecture.grid_resolution),
      bounds: bookBounds,
      laplace: laplaceApproximation(book, [0, 0], lecture.newton_steps),
      fallback: gaussianProposal([0, 0], [[lecture.prior_var, 0], [0, lecture.prior_var]]),
      axisLabels: ['intercept θ₀', 'slope θ₁'],
    },
    'two-modes': {
      name: 'two-modes',
      label: 'two modes',
      target: two,
      logDensity: (t) => two.logDensity(t),
      grid: gridPosterior((t) => two.logDensity(t), twoBounds, lecture.grid_resolution),
      bounds: twoBounds,
      // The Laplace approximation at the left-hand mode: what Newton finds from there.
      laplace: laplaceApproximation(two, data.two_modes.means[0], lecture.newton_steps),
      fallback: gaussianProposal([0, 0], [[data.two_modes.fallback_sd ** 2, 0], [0, data.two_modes.fallback_sd ** 2]]),
      axisLabels: ['θ₀', 'θ₁'],
      moments: two.moments(),
    },
  };
  cache.set(data, result);
  return result;
}

export const TARGET_OPTIONS = [['book', 'book posterior'], ['two-modes', 'two modes']];

/** The target's exact density and contours with the axes, drawn once and then reused. */
export function paintTarget(plot, target, theme) {
  // A margin of 3 % round the grid's box: a marker on its edge (the lecture's start at
  // (-2, 0)) shows whole, not cut by the frame.
  const [x, y] = target.bounds.map(([lo, hi]) => [lo - 0.03 * (hi - lo), hi + 0.03 * (hi - lo)]);
  plot.setDomain(x, y);
  plot.cached(`${target.name}|${theme.dark}`, () => {
    plot.clear(theme);
    plot.density(target.grid, theme, { levels: SD_LEVELS, color: theme.colors.target });
    plot.axes(theme, { xLabel: target.axisLabels[0], yLabel: target.axisLabels[1] });
  });
}

/** How far one arrow-key press moves a point on a target's plot: 1/50 of the view. */
export function keyStep(target) {
  return target.bounds.map(([lo, hi]) => (hi - lo) / 50);
}
