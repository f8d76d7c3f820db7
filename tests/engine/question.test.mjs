// The questions' pure helpers (code/widgets/ui/question.js): reading a typed number, judging it,
// and which keys typed into a number field on a slide belong to the deck.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { deckKeyInField, parseNumber, withinTolerance } from '../../code/widgets/ui/question.js';

test('a typed number: spaces, thin spaces, thousands commas and a minus sign are read', () => {
  assert.equal(parseNumber(' 1,200 '), 1200);
  assert.equal(parseNumber('1\u2009200'), 1200);
  assert.equal(parseNumber('\u22120.5'), -0.5);
  assert.equal(parseNumber('2e3'), 2000);
  assert.ok(Number.isNaN(parseNumber('12b')));
  assert.ok(Number.isNaN(parseNumber('')));
});

test('an attempt is right within the tolerance, and wrong just outside it', () => {
  assert.ok(withinTolerance(10.5, 10, 0.5));
  assert.ok(!withinTolerance(10.51, 10, 0.5));
  assert.ok(!withinTolerance(Number.NaN, 10, 0.5));
});

test('in a number field on a slide, the clicker\'s keys go to the deck once typing is done', () => {
  // Page Down/Up always; -> only with the caret at the end, <- only at the start.
  assert.ok(deckKeyInField('PageDown', '2100', 2, 2, true));
  assert.ok(deckKeyInField('PageUp', '', 0, 0, true));
  assert.ok(deckKeyInField('ArrowRight', '2100', 4, 4, true));
  assert.ok(!deckKeyInField('ArrowRight', '2100', 2, 2, true), 'mid-text -> moves the caret');
  assert.ok(!deckKeyInField('ArrowRight', '2100', 0, 4, true), 'a selection is collapsed, not left');
  assert.ok(deckKeyInField('ArrowLeft', '2100', 0, 0, true));
  assert.ok(!deckKeyInField('ArrowLeft', '2100', 4, 4, true));
  // Letters are typed, as in any text field ("4000 draws" must not open the speaker view).
  for (const key of ['b', 's', '7', '.', 'e', '-']) {
    assert.ok(!deckKeyInField(key, '2', 1, 1, true), `${key} goes to the field`);
  }
  // With a modifier (Shift+→ selects) the arrows stay with the field.
  assert.ok(!deckKeyInField('ArrowRight', '2100', 4, 4, false));
  assert.ok(!deckKeyInField('Backspace', '2100', 4, 4, true));
});
