// Every tap target of the page under `least` x `least` CSS px (24: WCAG 2.2, 2.5.8; 44: the size a phone's own
// controls keep), as a finger meets it: tests/browser/test_phone.py.
(least = 24) => {
  const sel = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=switch], [role=slider], [role=checkbox], [role=radio], [role=combobox], [role=tab]';
  const out = [];
  const hit = (el) => {  // what a finger hits: a switch's whole label, a select box's control, a slider's thumb
    if (el.closest('label')) return el.closest('label');
    if (el.type === 'range') return el.parentElement.parentElement;
    if (el.getAttribute('role') === 'combobox') {
      let box = el;
      while (box.parentElement && box.getBoundingClientRect().height < least && !box.dataset.testid) box = box.parentElement;
      return box;
    }
    return el;
  };
  for (const el of document.querySelectorAll(sel)) {
    const box = hit(el).getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || getComputedStyle(el).visibility === 'hidden') continue;  // shown on focus
    if (box.right <= 0 || box.left >= innerWidth) continue;  // in the closed drawer
    if (box.width < least - 0.5 || box.height < least - 0.5) {
      const id = el.closest('[data-testid]')?.dataset.testid;
      out.push(`${el.tagName.toLowerCase()}[${el.getAttribute('role') || el.type || ''}] ${Math.round(box.width)}x${Math.round(box.height)} in ${id} "${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}"`);
    }
  }
  return out;
}
