// The book as one printed volume. This script runs in the single-page HTML of the PDF build only
// (tools/pdf/sphinx.py adds it there; the website never loads it), before chromium prints the
// page (tools/pdf/build.py). Once MathJax has typeset and the live figures have drawn, it:
//
// 1. replaces each live figure by a still image of its plots and readouts, with a caption that
//    says where the live one is;
// 2. moves every exercise's solution into an appendix, "Solutions to the exercises", and leaves
//    a link to it under the exercise (a printed book should not show the answer beside the
//    question, and the Jupyter notebooks keep them in place);
// 3. opens everything the website folds away (source listings in <details>, dropdowns);
// 4. puts a title page and a table of contents in front, each chapter on a new page.
//
// The query string carries the book's title page (?book=JSON) and, on the second printing, the
// page of each table-of-contents entry, in order (?pages=JSON), which build.py reads from the
// first printing's links. When done, <html data-print-ready="yes">; an error is written on the
// page (class pdf-error), where the build's check of the PDF finds it.
(() => {
  const query = new URLSearchParams(location.search);
  const book = JSON.parse(query.get('book') || '{}');
  const pages = JSON.parse(query.get('pages') || '[]');

  const el = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    node.append(...children);
    return node;
  };

  /** A copy of a heading's content, without its "#" link (math stays typeset). */
  function headingContent(heading) {
    const copy = heading.cloneNode(true);
    copy.querySelectorAll('.headerlink').forEach((node) => node.remove());
    return [...copy.childNodes];
  }

  /** A heading's text, math left out. */
  function headingText(heading) {
    const copy = heading.cloneNode(true);
    copy.querySelectorAll('.headerlink, mjx-container').forEach((node) => node.remove());
    return copy.textContent.replace(/\s+/g, ' ').trim();
  }

  /** Each page keeps its own ids, but in one page a second "exercises" would be unreachable:
   *  an id already used by an earlier page gets the page's name in front, and that page's own
   *  links to it follow. */
  function uniqueIds(pagesOfBook) {
    const seen = new Set([...document.querySelectorAll('[id]')]
      .filter((node) => !pagesOfBook.some(({ section }) => section.contains(node)))
      .map((node) => node.id));
    for (const { anchor, section } of pagesOfBook) {
      const renamed = new Map();
      for (const node of [section, ...section.querySelectorAll('[id]')]) {
        if (seen.has(node.id)) {
          const id = `${anchor.id.replace('document-', '').replace(/\W/g, '-')}--${node.id}`;
          renamed.set(node.id, id);
          node.id = id;
        }
        seen.add(node.id);
      }
      section.querySelectorAll('a[href^="#"]').forEach((link) => {
        const id = renamed.get(link.getAttribute('href').slice(1));
        if (id) link.setAttribute('href', `#${id}`);
      });
    }
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function widgetsDrawn() {
    const widgets = [...document.querySelectorAll('[data-widget]')];
    for (let tries = 0; tries < 600; tries += 1) {
      if (widgets.every((w) => w.bcWidget && Object.keys(w.bcWidget.readout()).length)) return widgets;
      await sleep(100);
    }
    throw new Error('the live figures did not draw');
  }

  // --- 1. live figures -> stills ------------------------------------------------------------
  function still(widget) {
    const name = widget.dataset.widget;
    // A still shows the method at work: the figure's whole run, as its manifest entry says
    // (bayescomp/figures.json; still() runs it and returns the steps), before the picture.
    const run = widget.bcWidget.widget.still();
    widget.bcWidget.widget.destroy();
    const pictures = [...widget.querySelectorAll('canvas')].map((canvas) => canvas.toDataURL('image/png'));
    const copy = widget.cloneNode(true);
    copy.removeAttribute('data-widget');
    copy.querySelectorAll('canvas').forEach((canvas, i) => {
      const image = el('img', { src: pictures[i], class: 'pdf-still', alt: `Still of the live figure ${name}` });
      image.style.width = `${widget.querySelectorAll('canvas')[i].getBoundingClientRect().width}px`;
      canvas.replaceWith(image);
    });
    const section = widget.closest('section');
    const title = section ? headingText(section.querySelector('h1, h2, h3, h4')).replace(/^[\d.]+\s*/, '') : name;
    const steps = run ? ` after ${run.toLocaleString('en')} steps` : '';
    const call = `book.widgets.${name.replace(/-/g, '_')}()`;
    const caption = el('figcaption', {},
      el('span', { class: 'caption-text' },
        `A still of the live figure “${title}”, at its starting settings${steps}. The live one, `
        + 'which you can drag and replay, is on this chapter’s page of the website and on its '
        + 'slide in the chapter’s lecture deck; in JupyterLab, run ',
        el('code', {}, call),
        ' in the chapter’s notebook (in the book’s download).'));
    const figure = el('figure', { class: 'pdf-live-still' }, copy, caption);
    widget.replaceWith(figure);
  }

  // --- 2. solutions -> appendix --------------------------------------------------------------
  function chapters() {
    // singlehtml marks where each page starts with <span id="document-NAME">; the section after
    // it is that page. Numbered ones are the chapters.
    return [...document.querySelectorAll('span[id^="document-"]')].map((anchor) => {
      let section = anchor.nextElementSibling;
      while (section && section.tagName !== 'SECTION') section = section.nextElementSibling;
      return { anchor, section };
    }).filter((page) => page.section);
  }

  function solutionsAppendix(pagesOfBook) {
    const appendix = el('section', { id: 'pdf-solutions', class: 'pdf-chapter' },
      el('h2', {}, 'Solutions to the exercises'));
    for (const { section } of pagesOfBook) {
      const solutions = [...section.querySelectorAll('.solution.admonition')];
      if (!solutions.length) continue;
      const heading = section.querySelector('h2');
      const part = el('section', { id: `pdf-solutions-${section.id}` },
        el('h3', {}, `Chapter ${headingText(heading)}`));
      for (const solution of solutions) {
        const exercise = solution.querySelector('.admonition-title a');
        const pointer = el('p', { class: 'pdf-solution-pointer' }, 'Solution: ',
          el('a', { href: `#${solution.id}` }, 'in the appendix “Solutions to the exercises”'), '.');
        solution.replaceWith(pointer);
        solution.classList.remove('dropdown', 'toggle');
        solution.classList.add('pdf-solution');
        if (exercise) exercise.setAttribute('href', `#${exercise.getAttribute('href').split('#').pop()}`);
        part.append(solution);
      }
      appendix.append(part);
    }
    return appendix;
  }

  // --- 3. everything unfolded ----------------------------------------------------------------
  function unfold() {
    document.querySelectorAll('details').forEach((details) => { details.open = true; });
    document.querySelectorAll('.toggle-hidden').forEach((node) => node.classList.remove('toggle-hidden'));
    document.querySelectorAll('button.toggle-button').forEach((node) => node.remove());
  }

  // --- 4. title page and contents ------------------------------------------------------------
  function titlePage() {
    // The edition and its licences come as HTML, with their links (tools/edition.py).
    const notice = el('p', { class: 'pdf-notice' });
    notice.innerHTML = book.notice || '';
    return el('section', { class: 'pdf-title-page' },
      el('p', { class: 'pdf-title' }, book.title || document.title),
      el('p', { class: 'pdf-subtitle' }, book.subtitle || ''),
      el('p', { class: 'pdf-author' }, book.author || ''),
      el('p', { class: 'pdf-note' }, book.note || ''),
      el('p', { class: 'pdf-copyright' }, book.copyright || ''),
      notice);
  }

  function contents(entries) {
    const list = el('ol', { class: 'pdf-toc-list' });
    entries.forEach(({ id, content, level }, i) => {
      list.append(el('li', { class: `pdf-toc-level-${level}` },
        el('a', { href: `#${id}` }, ...content),
        el('span', { class: 'pdf-toc-page' }, String(pages[i] ?? ''))));
    });
    return el('nav', { class: 'pdf-toc pdf-chapter', id: 'pdf-contents' },
      el('p', { class: 'pdf-toc-title' }, 'Contents'), list);
  }

  function tocEntries(article) {
    const entries = [];
    const headings = article.querySelectorAll(
      'section > h1, .pdf-chapter > h2, section.pdf-chapter > section > h3');
    for (const heading of headings) {
      const target = heading.closest('section');
      if (!target.id) continue;
      entries.push({ id: target.id, content: headingContent(heading), level: heading.tagName === 'H3' ? 2 : 1 });
    }
    return entries;
  }

  async function prepare() {
    if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
    (await widgetsDrawn()).forEach(still);
    unfold();
    const article = document.querySelector('article.bd-article');
    const pagesOfBook = chapters();
    uniqueIds(pagesOfBook);
    pagesOfBook.forEach(({ section }) => section.classList.add('pdf-chapter'));
    const backMatter = pagesOfBook.find(({ section }) => !section.querySelector(':scope > h2 .section-number'));
    const appendix = solutionsAppendix(pagesOfBook);
    if (backMatter) backMatter.anchor.before(appendix);
    else article.append(appendix);
    article.prepend(titlePage(), contents(tocEntries(article)));
    document.documentElement.dataset.printReady = 'yes';
  }

  function start() {
    prepare().catch((error) => {
      document.body.prepend(el('p', { class: 'pdf-error' }, `PRINT ERROR: ${error.stack || error}`));
      document.documentElement.dataset.printReady = 'error';
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
