// The walkthrough's clicker keys, listened for from the moment its page is drawn (ui/steps/clicker.py). This
// script comes with the page, in a hidden element (`.walk-clicker`, whose data is the server session's token
// `s`); the component that sends the presses (clicker.js) loads a moment later.
// A press made in between (a lecturer's PageUp just after an F5) is counted here and sent once it has loaded.
// PageDown and → (and a click on the walkthrough's Next) go one step forward, PageUp and ← (Back) one back; the
// counts are {seq, net}: how many presses so far and their sum. They belong to one server session (`s`).
// Without a `.walk-clicker` on the page (another page, or the window left the walkthrough), the keys are free.
(() => {
  const C = window.attentionClicker || (window.attentionClicker = { seq: 0, net: 0, sent: 0, s: null });
  if (C.listening) return;
  C.listening = true;
  const move = (dir) => {
    const marker = document.querySelector('.walk-clicker');
    if (!marker) return false;
    if (marker.dataset.s !== C.s) Object.assign(C, { seq: 0, net: 0, sent: 0, s: marker.dataset.s });
    C.seq += 1;
    C.net += dir;
    if (C.flush) C.flush();  // the sender has loaded: at once; else when it mounts
    return true;
  };
  // Keys typed into a field, or that move inside a widget (a slider, a grid, a list), are the widget's.
  const OWN = 'input, textarea, select, [contenteditable="true"], [role="slider"], [role="grid"], ' +
              '[role="listbox"], [role="combobox"], [role="radiogroup"], [role="tablist"], [role="menu"]';
  const KEYS = { PageDown: 1, ArrowRight: 1, PageUp: -1, ArrowLeft: -1 };
  document.addEventListener('keydown', (e) => {
    const dir = KEYS[e.key];
    if (!dir || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target instanceof Element && e.target.closest(OWN)) return;
    if (move(dir)) e.preventDefault();
  }, true);
  document.addEventListener('click', (e) => {  // the visible Back and Next go the same way as the keys
    const button = e.target instanceof Element && e.target.closest('button');
    const box = button && button.closest('.st-key-step_next-walk, .st-key-step_back-walk');
    if (!box || button.disabled) return;
    if (move(box.classList.contains('st-key-step_next-walk') ? 1 : -1)) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);
})();
