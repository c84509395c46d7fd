// How a page behaves in the browser, as a learner expects of any web page (on a phone as on a laptop).
// Sent with the style of every run (ui/shell/style.py); it installs itself once per tab and only updates the
// language afterwards. The marker before this script carries the page's language (data-lang).
(() => {
  const marker = document.currentScript ? document.currentScript.previousElementSibling : null;
  const lang = (marker && marker.dataset.lang) || document.querySelector('.attention-page')?.dataset.lang;
  // <html lang>: a screen reader's voice and the browser's "translate this page" follow the page's language.
  if (lang && document.documentElement.lang !== lang) document.documentElement.lang = lang;
  if (window.__attentionPage) return;
  window.__attentionPage = true;

  // A reload opens the same address as a new session, and the app cannot tell it from a shared link: the tab can.
  // "The shared link was opened" is then hidden (ui/shell/access.css), since it was one's own page.
  const navigation = performance.getEntriesByType('navigation')[0];
  const reloaded = Boolean(navigation && navigation.type === 'reload');
  if (reloaded) document.documentElement.classList.add('attention-reloaded');

  // Check yourself's feedback and the page's notices are said through the page's one live region (ui/announce), in
  // words that say what changed. Drawn as alerts, they are live regions too, inserted filled: said twice where a
  // screen reader reads those, and not at all where it does not. Their role goes as they are drawn, before the
  // browser's accessibility tree takes them in (a mutation observer runs before the next frame).
  const SAID_ELSEWHERE = ['[class*="st-key-fold-check"]', '.st-key-link-opened', '.st-key-page-notice']
    .map((box) => `${box} [data-testid="stAlertContainer"][role]`).join(', ');
  const ALERT = '[data-testid="stAlertContainer"]';
  const unvoice = () => { for (const box of document.querySelectorAll(SAID_ELSEWHERE)) box.removeAttribute('role'); };
  new MutationObserver((changes) => {
    // only when an alert came in: a chart's hundreds of new nodes are not searched again
    const alert = changes.some((c) => Array.from(c.addedNodes).some((n) => n.nodeType === 1
      && (n.matches(ALERT) || n.querySelector(ALERT))));
    if (alert) unvoice();
  }).observe(document.documentElement, { childList: true, subtree: true });

  // The page scrolls in Streamlit's main area, not the window: a new page starts at its top, as a web page does
  // (Streamlit kept the previous page's scroll position: 3.5.1 opened at 2,839 px on a phone).
  history.scrollRestoration = 'manual';
  const toTop = () => {
    for (const el of [document.querySelector('[data-testid="stMain"]'), document.scrollingElement]) {
      if (el) el.scrollTop = 0;
    }
  };
  const newPage = () => {
    toTop();
    // and again once the new page's elements have replaced the old ones (they can keep the old height a moment)
    let frames = 0;
    const again = () => { toTop(); if (++frames < 20) requestAnimationFrame(again); };
    requestAnimationFrame(again);
  };

  // Back goes to the previous page, not to the previous value of a control: Streamlit writes every change of the
  // address as a new history entry; a change within the same page replaces the current entry instead.
  const push = history.pushState.bind(history);
  history.pushState = (state, title, url) => {
    const next = url == null ? location.href : new URL(url, location.href).href;
    if (new URL(next).pathname === location.pathname) {
      history.replaceState(state, title, url);
      return;
    }
    push(state, title, url);
    newPage();
  };
  let path = location.pathname;
  window.addEventListener('popstate', () => {
    if (location.pathname !== path) newPage();
    path = location.pathname;
  });
  const replace = history.replaceState.bind(history);
  history.replaceState = (state, title, url) => { replace(state, title, url); path = location.pathname; };
  const pushed = history.pushState;
  history.pushState = (state, title, url) => { pushed(state, title, url); path = location.pathname; };

  // A tap on a chart's cell shows its value, as hovering does with a mouse: a touch screen has no hover, and Vega's
  // tooltip opened only on press-and-slide, which no one finds by tapping. After the tap's own events,
  // the cell under the finger gets the mouse's.
  let touched = false;
  document.addEventListener('pointerdown', (event) => { touched = event.pointerType === 'touch'; }, true);
  document.addEventListener('click', (event) => {
    if (!touched || !event.target.closest || !event.target.closest('[data-testid="stVegaLiteChart"] svg')) return;
    const { clientX, clientY } = event;
    const hover = () => {
      const cell = document.elementFromPoint(clientX, clientY);
      if (!cell) return;
      for (const type of ['pointerover', 'pointermove', 'mouseover', 'mousemove']) {
        const Kind = type.startsWith('pointer') ? PointerEvent : MouseEvent;
        cell.dispatchEvent(new Kind(type, { clientX, clientY, bubbles: true, pointerType: 'mouse' }));
      }
    };
    // at once, and again once the finger's own leave events are past (they hid the tooltip, now and then)
    setTimeout(hover, 0);
    setTimeout(hover, 150);
  }, true);

  // What a screen reader hears (ui/announce): one polite status region, in the document from the start (a region
  // inserted already filled is seldom spoken). Each run leaves a hidden marker: once the run has drawn, a marker
  // whose count moved is spoken, once; a run longer than a moment says "Updating…" first. After a page change
  // focus goes to the page's heading.
  const live = document.createElement('div');
  live.className = 'attention-live sr-only';  // heard, never seen (ui/shell/access.css)
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('aria-atomic', 'true');
  document.body.appendChild(live);
  const speak = (text) => {
    live.textContent = '';
    setTimeout(() => { live.textContent = text; }, 60);
  };
  window.attentionSpeak = speak;  // the one live region, for what a page's own parts say (ui/lecture/class_poll.js)
  // A download link starts a download and nothing on the page changes: what it started is said (its data-said).
  document.addEventListener('click', (event) => {
    const link = event.target.closest && event.target.closest('a.download-link[data-said]');
    if (link) speak(link.dataset.said);
  });
  let heard = null;
  let runningSince = null;
  let updating = false;
  let shownPage = null;  // the page whose heading had the focus last: another page's run moves it there
  const focus = (el) => {
    if (!el) return;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
  };
  // A widget's help is a tooltip, only seen: its text (in the marker) becomes the description of the widget's
  // field and of its "?" button, which a screen reader says after the name.
  const DESCRIBED = 'input, textarea, [role="slider"], [role="switch"], [data-testid="stTooltipIcon"] button';
  const describe = (marker) => {
    for (const help of marker.querySelectorAll('[data-for]')) {
      const box = document.getElementsByClassName(help.dataset.for)[0];
      if (!box) continue;
      for (const el of box.querySelectorAll(DESCRIBED)) {
        const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
        if (!ids.includes(help.id)) el.setAttribute('aria-describedby', [...ids, help.id].join(' '));
      }
    }
  };
  // "Skip to the results": the first Tab stop of the page, shown when focused; it takes the focus to the first
  // chart's heading (ui/draw/show.py), else the step's, and brings the chart into view.
  const skip = document.createElement('a');
  skip.className = 'attention-skip';
  skip.href = '#';
  skip.addEventListener('click', (event) => {
    event.preventDefault();
    const main = document.querySelector('[data-testid="stMain"]');
    const target = main && (main.querySelector('.chart-heading') || main.querySelector('.step-heading'));
    if (!target) return;
    focus(target);
    (target.closest('[data-testid="stElementContainer"]')?.nextElementSibling || target).scrollIntoView({block: 'start'});
  });
  document.body.prepend(skip);
  // A control that had the focus and is now disabled or gone (Next at the last step, Back at the first) would drop
  // the focus to the document: it goes to the same widget if it is there again, else to the step's heading.
  let left = null;  // the element in the page's main part that had the focus last
  document.addEventListener('focusin', (event) => {
    left = event.target instanceof Element && event.target.closest('[data-testid="stMain"]') ? event.target : null;
  }, true);
  const keepFocus = () => {
    if (!left || (document.activeElement && document.activeElement !== document.body)) return;
    if (left.isConnected && !left.disabled) return;  // the learner left it (a click elsewhere): theirs to move
    const key = left.isConnected ? null : [...(left.closest('[class*="st-key-"]')?.classList ?? [])]
      .find((c) => c.startsWith('st-key-'));
    const again = key && document.querySelector(`.${key} button:not([disabled]), .${key} input:not([disabled])`);
    left = null;
    focus(again || document.querySelector('[data-testid="stMain"] .step-heading'));
  };
  // The input matrix (a data grid): the grid says what it is and how to move in it, and a cell is named by its
  // row's token and its column ("journey, d1: 0.55"), not by its value alone. The grid draws its cells again on
  // every change, so the names are made again whenever a cell's text no longer matches its name.
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  // A cell's row token (the first column) and its column's header.
  const placeOf = (cell) => ({
    token: cell.closest('tr')?.querySelector('td[aria-colindex="1"]')?.textContent.trim() ?? '',
    column: cell.closest('table')?.querySelector(`th[aria-colindex="${cell.getAttribute('aria-colindex')}"]`)
      ?.textContent.trim() ?? '',
  });
  const nameGrid = (marker) => {
    for (const table of document.querySelectorAll('table[role="grid"]')) {
      if (table.getAttribute('aria-label') !== marker.dataset.grid) table.setAttribute('aria-label', marker.dataset.grid);
      for (const cell of table.querySelectorAll('tbody td[role="gridcell"]:not([aria-colindex="1"])')) {
        const name = fill(marker.dataset.cellname, { ...placeOf(cell), value: cell.textContent.trim() });
        if (cell.getAttribute('aria-label') !== name) cell.setAttribute('aria-label', name);
      }
    }
    // The cell's editor: named by the cell it edits (the selected one), or in plain words when none is.
    const editor = document.querySelector('.gdg-input:not([data-named])');
    if (editor) {
      const cell = document.querySelector('table[role="grid"] td[aria-selected="true"]:not([aria-colindex="1"])');
      const place = cell ? placeOf(cell) : null;
      editor.setAttribute('aria-label', place && place.token && place.column
        ? fill(marker.dataset.cellof, place) : marker.dataset.cell);
      editor.setAttribute('data-named', '');
    }
  };
  const watch = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const marker = document.querySelector('.attention-say');
    // An icon beside words is decoration: its ligature ("translate") is not read out with the words.
    for (const icon of document.querySelectorAll('[data-testid="stIconMaterial"]:not([aria-hidden])')) {
      const owner = icon.parentElement;
      if (owner && owner.textContent.trim() !== icon.textContent.trim()) icon.setAttribute('aria-hidden', 'true');
    }
    // A field's name is its words: a label's icon shortcode (":material/translate: Language") is not read out,
    // a slider is not named twice (its own label and its group's, "Dropout rate p Dropout rate p"), and a button's
    // shortcut is a key shortcut, not part of its name ("Next Shortcut →": now "Next", with its key).
    // A heading's link icon is for the mouse (copying a section's address); from the keyboard it is a stop on the
    // way to the results, one per heading, and the headings are reached by a screen reader's own keys.
    for (const link of document.querySelectorAll('[data-testid="stHeaderActionElements"] a:not([tabindex])')) {
      link.setAttribute('tabindex', '-1');
    }
    for (const el of document.querySelectorAll('[aria-label*=":material/"]')) {
      el.setAttribute('aria-label', el.getAttribute('aria-label').replace(/:material\/[a-z0-9_]+:\s*/g, ''));
    }
    for (const el of document.querySelectorAll('[data-testid="stSlider"] input[aria-labelledby][aria-label]')) {
      el.removeAttribute('aria-labelledby');
    }
    for (const kbd of document.querySelectorAll('button kbd[aria-label]:not([aria-hidden])')) {
      kbd.setAttribute('aria-hidden', 'true');
      const keys = { '→': 'ArrowRight', '←': 'ArrowLeft', '↑': 'ArrowUp', '↓': 'ArrowDown' };
      kbd.closest('button').setAttribute('aria-keyshortcuts', keys[kbd.textContent.trim()] || kbd.textContent.trim());
    }
    if (marker) nameGrid(marker);
    unvoice();  // and those drawn before this script ran (a page's first run)
    // A phone's keyboard for a number: the digits and the decimal separator (inputmode), not the letters. The
    // marker names the text fields that take a number (Check yourself's); a number field takes whole numbers.
    for (const box of (marker?.dataset.decimal || '').split(' ').filter(Boolean)) {
      const field = document.querySelector(`.${box} input:not([inputmode])`);
      if (field) field.setAttribute('inputmode', 'decimal');
    }
    for (const field of document.querySelectorAll('input[type="number"]:not([inputmode])')) {
      field.setAttribute('inputmode', 'numeric');
    }
    if (marker) {
      describe(marker);
      skip.textContent = marker.dataset.skip;
    }
    if (app && app.getAttribute('data-test-script-state') === 'running') {
      if (runningSince === null) runningSince = Date.now();
      if (!updating && marker && Date.now() - runningSince > 800) {
        updating = true;
        speak(marker.dataset.updating);
      }
      return;
    }
    runningSince = null;
    keepFocus();
    if (!marker) return;
    // The marker names the page that drew it: when that is another page than last time, the run that drew the
    // new page is over, and its heading takes the focus (not on the tab's first page, where the reader starts).
    if (marker.dataset.page !== shownPage) {
      if (shownPage !== null) focus(document.querySelector('[data-testid="stMain"] h1'));
      shownPage = marker.dataset.page;
    }
    if (heard === null) {  // what the page said before this tab listened: its first run's notices, said now
      heard = marker.dataset.n;
      if (heard !== '0' && !reloaded) speak(marker.dataset.say);
      return;
    }
    if (marker.dataset.n !== heard) {
      heard = marker.dataset.n;
      updating = false;
      speak(marker.dataset.say);
    } else if (updating) {
      updating = false;
    }
  };
  setInterval(watch, 150);

  // A help icon inside a toggle's or a checkbox's label: a tap on it must show the help, not flip the control
  // (the label's click toggles it). The tooltip opens on hover or touch, before this click.
  document.addEventListener('click', (event) => {
    const help = event.target.closest && event.target.closest('[data-testid="stTooltipHoverTarget"], [data-testid="stTooltipIcon"]');
    if (help && help.closest('label')) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
})();
