// The walkthrough's clicker keys, kept as state (ui/steps/clicker.py). Mounted in every run of a window that
// drives the walkthrough; `data` is {n: the number of steps, s: the server session's token}.
// One listener per page: PageDown and → (and a click on the walkthrough's Next) go one step forward, PageUp
// and ← (Back) one back. The state sent is {seq, net, n}: how many presses so far, and their sum (+1 forward,
// -1 back). The value stays in the browser and goes with every request to the server, the heartbeat's
// included, so a press can arrive late but is never lost; the server moves by what `net` grew since the value
// it took last, so two quick presses move two steps, and a value that arrives twice moves once. The counts are
// per session (`s`): a window reconnected to a restarted server, whose browser sends its last value again, is
// not moved by presses the old session took; its new session's counts start again.
export default function ({ data, setStateValue }) {
  const C = window.attentionClicker || (window.attentionClicker = { seq: 0, net: 0, s: null });
  if (data.s !== C.s) Object.assign(C, { seq: 0, net: 0, s: data.s });
  const mount = {};  // this mount, to tell its cleanup from a newer one's
  C.data = data;
  C.mount = mount;
  C.send = setStateValue;
  const move = (dir) => {
    C.seq += 1;
    C.net += dir;
    C.send('press', { seq: C.seq, net: C.net, n: C.data.n, s: C.s });
  };
  // Keys typed into a field, or that move inside a widget (a slider, a grid, a list), are the widget's.
  const OWN = 'input, textarea, select, [contenteditable="true"], [role="slider"], [role="grid"], ' +
              '[role="listbox"], [role="combobox"], [role="radiogroup"], [role="tablist"], [role="menu"]';
  const KEYS = { PageDown: 1, ArrowRight: 1, PageUp: -1, ArrowLeft: -1 };
  if (!C.listening) {
    C.listening = true;
    document.addEventListener('keydown', (e) => {
      const dir = KEYS[e.key];
      if (!dir || !C.data || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.target instanceof Element && e.target.closest(OWN)) return;
      e.preventDefault();
      move(dir);
    }, true);
    document.addEventListener('click', (e) => {  // the visible Back and Next go the same way as the keys
      const button = e.target instanceof Element && e.target.closest('button');
      const box = button && button.closest('.st-key-step_next-walk, .st-key-step_back-walk');
      if (!box || !C.data || button.disabled) return;
      e.preventDefault();
      e.stopPropagation();
      move(box.classList.contains('st-key-step_next-walk') ? 1 : -1);
    }, true);
  }
  // Unmounted (another page, or the window left the walkthrough): the keys are free. Streamlit may call a mount's
  // cleanup after a newer mount of the clicker (two runs drawn while its script loaded): the newer one's data stays.
  return () => { if (C.mount === mount) C.data = null; };
}
