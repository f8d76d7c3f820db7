// How the live figures' tables print numbers (code/widgets/ui/controls.js): a table cell must
// stay short whatever the chains did, or it pushes the figure past a slide's edge.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fmt, fmtPlusMinus, fmtRhat } from '../../code/widgets/ui/controls.js';

test('numbers: fixed digits, a true minus sign, no negative zero, a dash for no value', () => {
  assert.equal(fmt(1.23456, 2), '1.23');
  assert.equal(fmt(-0.5, 2), '−0.50');
  assert.equal(fmt(-0.0001, 2), '0.00');
  assert.equal(fmt(Number.NaN), '–');
  assert.equal(fmt(Number.POSITIVE_INFINITY), '∞');
});

test('an R-hat near 1 keeps three decimals; chains that never moved give "> 10"', () => {
  assert.equal(fmtRhat(1.0042), '1.004');
  assert.equal(fmtRhat(9.99), '9.990');
  assert.equal(fmtRhat(225618235865533.7), '> 10');
  assert.equal(fmtRhat(Number.NaN), '–');
});

test('a mean with its spread; an exploded spread prints as "> 100"', () => {
  assert.equal(fmtPlusMinus(-0.5, 0.04), '−0.50 ± 0.04');
  assert.equal(fmtPlusMinus(10.36, 99.99), '10.36 ± 99.99');
  assert.equal(fmtPlusMinus(10.36, 19401.21), '10.36 ± > 100');
  assert.equal(fmtPlusMinus(1.2346, 0.0123, 3), '1.235 ± 0.012');
});
