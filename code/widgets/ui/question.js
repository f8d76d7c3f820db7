// A question that asks before it tells (bayescomp.book.questions.ask). The package writes the whole
// question as HTML: the prompt, the choices or a number field, and the answer with its
// explanation inside a closed <details> (so a front end that runs no script, such as
// JupyterLab showing a stored output, still hides the answer until it is opened). This script,
// inlined after that HTML by the package, adds the buttons and makes it a self-check:
//   - Check judges an attempt (a choice, or a number within the tolerance the package computed);
//   - the answer and its explanation stay hidden until an attempt: a right one shows them, a
//     wrong one says so and offers "Show the answer";
//   - nothing leaves the page: the state lives in this element only.
// In a reveal.js deck the answer is a fragment: the presenter's next key (a clicker's →, Page
// Down or Space) reveals it after polling the room, the next one moves on. As with the live
// figures, the keys belong to the slides unless Enter hands them to the question (Esc gives
// them back).

// Keys that only move the focus or modify another key: they never leave the question or enter it.
const FOCUS_KEYS = new Set(['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);
// A clicker's keys type nothing, so they go to the slides even from the number field.
const CLICKER_KEYS = new Set(['PageDown', 'PageUp']);

/** Read a typed number: spaces, thin spaces and thousands commas are ignored. */
export function parseNumber(text) {
  const cleaned = String(text).trim().replace(/[\s\u2009\u202f,]/g, '').replace(/\u2212/g, '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return NaN;
  return Number(cleaned);
}

/** Whether a numeric attempt is within the tolerance (both as the package wrote them). */
export function withinTolerance(value, answer, tolerance) {
  return Number.isFinite(value) && Math.abs(value - answer) <= tolerance * (1 + 1e-12);
}

function typingIn(element) {
  return element && element.tagName === 'INPUT' && element.type === 'text';
}

/** Whether a key pressed in the number field belongs to the deck rather than to the field: a
 * clicker's Page Down/Up, and → with the caret at the end of the text or ← at its start (a
 * clicker pressed after typing, with nothing left to move over). Letters are typed, as in any
 * text field: sent to the deck, "4000 draws" would open the speaker view at its s. */
export function deckKeyInField(key, value, selectionStart, selectionEnd, plain) {
  if (CLICKER_KEYS.has(key)) return true;
  const caretOnly = plain && selectionStart === selectionEnd;
  if (key === 'ArrowRight') return caretOnly && selectionEnd === value.length;
  if (key === 'ArrowLeft') return caretOnly && selectionStart === 0;
  return false;
}

/** Make the question in `root` (a .bcq element written by the package) work. */
export function mountQuestion(root) {
  if (!root || root.bcQuestion) return root && root.bcQuestion;
  const spec = JSON.parse(root.getAttribute('data-question'));
  const feedback = root.querySelector('.bcq-feedback');
  const details = root.querySelector('details.bcq-answer');
  // The buttons exist only where this script runs; the line for a view without it goes.
  const buttons = document.createElement('div');
  buttons.className = 'bcq-buttons';
  const button = (name, text) => {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = name;
    el.textContent = text;
    buttons.appendChild(el);
    return el;
  };
  const checkButton = button('bcq-check', 'Check');
  const revealButton = button('bcq-reveal', 'Show the answer');
  feedback.before(buttons);
  root.querySelectorAll('.bcq-noscript').forEach((el) => el.remove());
  const state = { attempts: 0, correct: false, revealed: false, deck: false, engaged: false };

  // The answer: a plain panel, hidden until an attempt (a <details> a reader could open first).
  const panel = document.createElement('div');
  panel.className = 'bcq-answer';
  panel.id = details.id;
  [...details.childNodes].forEach((node) => {
    if (node.nodeName !== 'SUMMARY') panel.appendChild(node);
  });
  details.replaceWith(panel);
  const deck = root.closest('.reveal');
  state.deck = Boolean(deck);
  if (deck) {
    panel.classList.add('fragment'); // reveal.js shows it on the presenter's next key
    toNotes(root, panel);
  } else {
    panel.hidden = true;
  }
  revealButton.hidden = !deck; // on a page: offered after a first attempt
  revealButton.setAttribute('aria-controls', panel.id);

  const say = (text) => { feedback.textContent = text; };

  function reveal() {
    state.revealed = true;
    revealButton.hidden = true;
    if (!deck) {
      panel.hidden = false;
      return;
    }
    if (panel.classList.contains('visible')) return;
    const Reveal = globalThis.Reveal;
    const current = Reveal && Reveal.getCurrentSlide && Reveal.getCurrentSlide();
    if (current && current.contains(panel)) Reveal.nextFragment();
    else panel.classList.add('visible');
  }
  if (deck) {
    deck.addEventListener('fragmentshown', (event) => {
      if (event.fragment === panel) {
        state.revealed = true;
        revealButton.hidden = true;
        // The offer to show the answer is gone with its button.
        say(feedback.textContent.replace(/ Try again, or show the answer\.$/, ''));
      }
    });
    deck.addEventListener('fragmenthidden', (event) => {
      if (event.fragment === panel) {
        state.revealed = false;
        revealButton.hidden = false;
      }
    });
  }

  // One attempt: what was chosen or typed, or null when there is nothing to judge yet.
  function attempt() {
    if (spec.kind === 'choice') {
      const chosen = root.querySelector('input[type=radio]:checked');
      if (!chosen) return null;
      const index = Number(chosen.value);
      return { right: index === spec.answer, shown: spec.choices[index] };
    }
    const field = root.querySelector('input.bcq-number');
    if (!field.value.trim()) return null;
    const value = parseNumber(field.value);
    if (Number.isNaN(value)) return { invalid: true };
    // Shown inside a sentence that ends with a full stop: a typed final point ("4000.") goes.
    return { right: withinTolerance(value, spec.answer, spec.tolerance), shown: field.value.trim().replace(/\.$/, '') };
  }

  function check() {
    const result = attempt();
    if (result === null) {
      say(spec.kind === 'choice' ? 'Choose an answer first.' : 'Type a number first.');
      return;
    }
    if (result.invalid) {
      say('That is not a number: type digits, such as 0.5 or 1200.');
      return;
    }
    state.attempts += 1;
    state.correct = result.right;
    if (result.right) {
      say(`✓ Right: ${result.shown}.`);
      reveal();
    } else {
      // Once the answer is shown there is nothing left to offer.
      say(state.revealed ? `✗ Not ${result.shown}.` : `✗ Not ${result.shown}. Try again, or show the answer.`);
      if (!state.revealed) revealButton.hidden = false;
    }
  }

  checkButton.addEventListener('click', check);
  // A changed answer has not been checked: the verdict on the old one would mislead, so it goes.
  root.addEventListener('input', (event) => {
    if (event.target.matches('input')) say('');
  });
  revealButton.addEventListener('click', () => {
    reveal();
    if (!state.attempts) say('The answer, shown before an attempt.');
    else if (!state.correct) say(feedback.textContent.replace(/ Try again, or show the answer\.$/, ' The answer is below.'));
  });
  root.querySelectorAll('input.bcq-number').forEach((field) => {
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        check();
        // On a slide the typed answer is done: the field lets go, so the arrows move the deck.
        if (deck) field.blur();
      }
    });
  });

  if (deck) deckKeys(root, state, check);
  root.bcQuestion = { state: () => ({ ...state }), check, reveal };
  return root.bcQuestion;
}

// On a slide the audience sees the answer; the explanation (every paragraph after the answer's)
// goes to the presenter, at the end of the slide's speaker notes, once the page has them.
function toNotes(root, panel) {
  const explanation = [...panel.children].slice(1);
  if (!explanation.length) return;
  explanation.forEach((el) => el.remove());
  const move = () => {
    const slide = root.closest('section');
    const notes = [...slide.querySelectorAll('aside.notes')].filter((a) => a.closest('section') === slide);
    const target = notes.length ? notes[notes.length - 1] : slide.appendChild(document.createElement('aside'));
    target.classList.add('notes');
    const answer = panel.children[0].cloneNode(true);
    target.append(answer, ...explanation);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', move);
  else move();
}

// On a slide the keys belong to the deck: whatever in the question has the focus (a choice just
// clicked, a button), a clicker's keys go to reveal.js and change nothing here. Enter on the
// focused question hands the keys to it, until Esc, the focus leaving it, or the slide changing.
function deckKeys(root, state, check) {
  const line = document.createElement('p');
  line.className = 'bcq-keys';
  root.insertBefore(line, root.querySelector('.bcq-body'));
  const show = () => {
    root.classList.toggle('bcq-engaged', state.engaged);
    line.textContent = state.engaged
      ? 'Keys answer the question · Esc or Page Down/Up: back to the slides'
      : 'Keys move the slides · Enter: keys to the question';
  };
  const engage = (on) => {
    state.engaged = on;
    show();
    // Engaged, the keys act where the focus is: on the chosen answer (or the first), or the field,
    // so that the arrows move between the choices at once.
    if (on && document.activeElement === root) {
      const target = root.querySelector('input[type=radio]:checked, input.bcq-number')
        || root.querySelector('input[type=radio]');
      if (target) target.focus();
    }
  };
  root.tabIndex = 0;
  root.setAttribute('data-prevent-swipe', '');
  root.addEventListener('keydown', (event) => {
    if (FOCUS_KEYS.has(event.key)) return;
    const plain = !(event.altKey || event.ctrlKey || event.metaKey || event.shiftKey);
    if (state.engaged) {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        engage(false);
        return;
      }
      // A clicker has no Esc: its Page Down/Up leave the question and move the deck at once.
      if (!CLICKER_KEYS.has(event.key)) return;
      engage(false);
    }
    const field = event.target;
    if (typingIn(field) && event.key !== 'Escape'
        && !deckKeyInField(event.key, field.value, field.selectionStart, field.selectionEnd, plain)) return;
    if (event.key === 'Enter' && plain) {
      // Enter does what it says where the focus is: a button presses itself, a chosen answer is
      // checked (and lets go, so the clicker moves on), and only the question's own box hands
      // the keys to the question.
      event.stopPropagation();
      if (event.target.tagName === 'BUTTON') return;
      event.preventDefault();
      if (event.target.type === 'radio') {
        event.target.checked = true;
        check();
        event.target.blur();
        return;
      }
      engage(true);
      return;
    }
    // Leave the key to the slides: no default action here (a choice would change), and the
    // focus out of the question, so that reveal.js (which ignores keys while a form field has
    // the focus) acts on it.
    event.preventDefault();
    if (root.contains(document.activeElement)) document.activeElement.blur();
  }, true);
  // Once engaged, the question's keys (arrows between choices, Enter, Space) stay with it.
  root.addEventListener('keydown', (event) => {
    if (state.engaged) event.stopPropagation();
  });
  root.addEventListener('focusout', (event) => {
    if (!root.contains(event.relatedTarget)) engage(false);
  });
  root.closest('.reveal').addEventListener('slidechanged', () => engage(false));
  show();
}

// The inline script that follows each question calls this on the element just before it.
globalThis.BayesCompQuestion = globalThis.BayesCompQuestion || { mount: mountQuestion, parseNumber };
