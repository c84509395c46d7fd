() => {
  // The step's visuals on the projection: charts, printed tensors, tables and code (the step's stage).
  const stage = document.querySelector('.st-key-projection-stage, .st-key-stage-with-details');
  if (!stage) return {first: null, share: 0, count: 0};
  const W = window.innerWidth, H = window.innerHeight;
  const visuals = Array.from(stage.querySelectorAll(
    '[data-testid="stVegaLiteChart"] svg.marks, [data-testid="stVegaLiteChart"] canvas, .printed-tensor pre, ' +
    '[data-testid="stTable"], [data-testid="stDataFrame"], [data-testid="stCode"]'))
    .filter((e) => e.offsetParent !== null || e.tagName === 'svg' || e.tagName === 'canvas');
  // An SVG scaled into a box keeps its proportions (viewBox, "meet"): what it draws is the viewBox
  // at the scale that fits, centred; the rest of the box is empty and does not count.
  const drawn = (e, r) => {
    const vb = e.tagName === 'svg' && e.viewBox && e.viewBox.baseVal;
    if (!vb || !vb.width || !vb.height) return r;
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    const w = vb.width * scale, h = vb.height * scale;
    const left = r.left + (r.width - w) / 2, top = r.top + (r.height - h) / 2;
    return {left, top, right: left + w, bottom: top + h};
  };
  const box = (e) => { const r = drawn(e, e.getBoundingClientRect());
    return {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right),
            kind: e.closest('[data-testid="stCode"]') ? 'code' : e.tagName.toLowerCase()}; };
  const area = (r) => Math.max(0, Math.min(r.right, W) - Math.max(r.left, 0)) *
                      Math.max(0, Math.min(r.bottom, H) - Math.max(r.top, 0));
  const boxes = visuals.map(box).filter((r) => r.right > r.left && r.bottom > r.top);
  const first = boxes.find((r) => r.kind !== 'code') || null;
  // The text of the charts as the room reads it: its font size times the SVG's scale (a viewBox drawn larger
  // or smaller than its own size); the hatching of masked cells (╱) is no text. And the slim line's text.
  const charted = Array.from(stage.querySelectorAll('[data-testid="stVegaLiteChart"] svg.marks')).flatMap((svg) => {
    const vb = svg.viewBox && svg.viewBox.baseVal, r = svg.getBoundingClientRect();
    const scale = vb && vb.width && vb.height ? Math.min(r.width / vb.width, r.height / vb.height) : 1;
    return Array.from(svg.querySelectorAll('text')).filter((t) => t.textContent.trim() && t.textContent !== '╱')
      .map((t) => ({text: t.textContent, px: Math.round(10 * parseFloat(getComputedStyle(t).fontSize) * scale) / 10}));
  });
  const smallest = charted.reduce((a, b) => (a && a.px <= b.px ? a : b), null);
  const line = Array.from(document.querySelectorAll('.st-key-projection-bar p, .st-key-projection-bar button'))
    .filter((e) => e.offsetParent !== null && e.innerText.trim())
    .map((e) => parseFloat(getComputedStyle(e).fontSize));
  return {first, share: Math.round(1000 * boxes.reduce((s, r) => s + area(r), 0) / (W * H)) / 1000,
          count: boxes.length, smallest, line: line.length ? Math.min(...line) : null};
}
