// The MAP by Newton's method and the Laplace approximation N(MAP, H^-1) built on it
// (Nocedal and Wright, 2006, chapter 3; Bishop, 2006, section 4.4).
import { inv2, solve2 } from './linalg.js';

/**
 * Newton's method: theta <- theta + H(theta)^-1 grad log p~(theta), H = -Hessian.
 * With tolerance 0 it takes exactly nSteps steps (the book's protocol); with a tolerance it
 * stops once a step moves theta by less than that.
 */
export function newtonMap(target, start, nSteps = 12, tolerance = 0) {
  let theta = [start[0], start[1]];
  let steps = 0;
  for (; steps < nSteps; steps += 1) {
    const delta = solve2(target.negHessian(theta), target.grad(theta));
    theta = [theta[0] + delta[0], theta[1] + delta[1]];
    if (!Number.isFinite(theta[0]) || !Number.isFinite(theta[1])) {
      throw new Error(`Newton's method diverged after ${steps + 1} steps from ${JSON.stringify(start)}`);
    }
    if (tolerance > 0 && Math.hypot(delta[0], delta[1]) < tolerance) {
      steps += 1;
      break;
    }
  }
  return { theta, steps };
}

/** Laplace: the mode, cov = H^-1 at the mode, marginal sds and the gradient norm there. */
export function laplaceApproximation(target, start, nSteps = 12, tolerance = 0) {
  const { theta, steps } = newtonMap(target, start, nSteps, tolerance);
  const h = target.negHessian(theta);
  const trace = h[0][0] + h[1][1];
  const det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
  if (!(det > 0 && trace > 0)) {
    throw new Error('minus the Hessian at the point found is not positive definite: not a maximum');
  }
  const cov = inv2(h);
  const grad = target.grad(theta);
  return {
    mean: theta,
    cov,
    sd: [Math.sqrt(cov[0][0]), Math.sqrt(cov[1][1])],
    gradNorm: Math.hypot(grad[0], grad[1]),
    steps,
  };
}
