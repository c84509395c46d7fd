// Installed with Playwright's context.add_init_script before any of the page's own scripts:
// records when Vega charts draw, and tells when an interaction is complete (the method is
// described at the top of benchmarks/bench_latency.py).
(() => {
  if (window.__bench) return;
  const STATE = 'data-test-script-state';  // on [data-testid="stApp"]: notRunning / running / ...
  const draws = {count: 0, last: 0};
  const noteDraw = () => { draws.count += 1; draws.last = performance.now(); };

  // Canvas charts: any drawing call on a canvas inside a .vega-embed (not the data editor's grid).
  const chartCanvas = new WeakMap();
  const isChartCanvas = (canvas) => {
    let known = chartCanvas.get(canvas);
    if (known === undefined) {
      known = !!(canvas && canvas.closest && canvas.closest('.vega-embed'));
      if (canvas && canvas.isConnected) chartCanvas.set(canvas, known);
    }
    return known;
  };
  const ctx = CanvasRenderingContext2D.prototype;
  for (const name of ['clearRect', 'fillRect', 'strokeRect', 'fillText', 'strokeText', 'fill', 'stroke',
                      'drawImage', 'putImageData']) {
    const original = ctx[name];
    ctx[name] = function (...args) {
      if (isChartCanvas(this.canvas)) noteDraw();
      return original.apply(this, args);
    };
  }
  // SVG charts: any mutation inside a .vega-embed (Vega's SVG renderer updates the DOM in place).
  new MutationObserver((records) => {
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (node && node.closest('.vega-embed')) { noteDraw(); return; }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});

  // What each chart shows: its SVG markup, or a hash of its canvas pixels.
  const pixelHash = (canvas) => {
    if (!canvas.width || !canvas.height) return 'empty';
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2);
    let h = 2166136261;
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 16777619);
    return `${canvas.width}x${canvas.height}:${h >>> 0}`;
  };
  const signatures = () => Array.from(document.querySelectorAll('.vega-embed')).map((embed) => {
    const svg = embed.querySelector('svg');
    if (svg) return svg.outerHTML;
    const canvas = embed.querySelector('canvas');
    return canvas ? pixelHash(canvas) : '';
  });
  const countChanged = (before, after) => {
    let n = Math.max(0, after.length - before.length);
    for (let i = 0; i < after.length && i < before.length; i++) if (after[i] !== before[i]) n += 1;
    return n;
  };

  // One interaction: arm() before the committing key or click, then wait().
  let run = null;
  let stateObserver = null;
  const onInput = () => { if (run && run.t0 === null) run.t0 = performance.now(); };
  window.addEventListener('keydown', onInput, true);
  window.addEventListener('pointerdown', onInput, true);
  const onState = (value) => {
    run.log.push(`${(performance.now() - (run.t0 ?? 0)).toFixed(0)}:${value}`);
    if (run.t0 === null) return;
    if (value === 'notRunning') {
      if (run.running && run.finishedAt === null) run.finishedAt = performance.now();
    } else if (value !== 'initial') {  // running, rerunRequested, ...: not finished (again)
      run.running = true;
      run.finishedAt = null;
    }
  };
  const arm = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (stateObserver) stateObserver.disconnect();
    run = {t0: null, running: false, finishedAt: null, before: signatures(), drawsBefore: draws.count, log: []};
    // Every change of the attribute is a record, so a run that starts and ends between two
    // polls is never missed; a record's new value is the next record's old value.
    stateObserver = new MutationObserver((records) => records.forEach((r, k) => onState(
      k + 1 < records.length ? records[k + 1].oldValue : app.getAttribute(STATE))));
    stateObserver.observe(app, {attributes: true, attributeFilter: [STATE], attributeOldValue: true});
  };

  // Resolves at the second animation frame after the later of (run finished, last chart draw),
  // once `expect` charts show something new. expect === null calibrates: it waits for settleMs
  // without chart draws after the run and reports how many charts changed.
  const wait = (expect, settleMs, timeoutMs) => new Promise((resolve, reject) => {
    const started = performance.now();
    const app = document.querySelector('[data-testid="stApp"]');
    let seenDraws = draws.count, seenFinish = null, quiet = 0, runQuiet = 0, runDoneAt = null;
    let checkedDraws = -1, changed = 0;
    const result = (doneAt) => ({
      total_ms: doneAt - run.t0, run_ms: runDoneAt - run.t0, finished_ms: run.finishedAt - run.t0,
      last_draw_ms: draws.count > run.drawsBefore ? draws.last - run.t0 : null,
      draws: draws.count - run.drawsBefore, changed,
    });
    const frame = () => {
      const now = performance.now();
      if (now - started > timeoutMs) {
        const what = run.t0 === null ? 'no input event' : !run.running ? 'no script run'
          : run.finishedAt === null ? 'the run did not finish' : `${changed} of ${expect} charts changed`;
        reject(new Error(`interaction not complete after ${timeoutMs} ms: ${what} `
          + `(script state now ${app.getAttribute(STATE)}; changes ${run.log.join(' ') || 'none'})`));
        return;
      }
      const finished = run.finishedAt !== null && app.getAttribute(STATE) === 'notRunning';
      if (run.finishedAt !== seenFinish) { seenFinish = run.finishedAt; runQuiet = 0; quiet = 0; }
      if (draws.count !== seenDraws) { seenDraws = draws.count; quiet = 0; }
      quiet += 1;  // this is the 1st, 2nd, ... frame since the last event
      runQuiet += 1;
      if (finished && runQuiet >= 2 && runDoneAt === null) runDoneAt = now;
      if (finished && quiet >= 2 && runDoneAt !== null) {
        if (checkedDraws !== draws.count) { checkedDraws = draws.count; changed = countChanged(run.before, signatures()); }
        const settled = now - Math.max(run.finishedAt, draws.last) >= settleMs;
        if ((expect === null && settled) || (expect !== null && changed >= expect)) {
          resolve(result(now));
          return;
        }
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });

  // Page loads: resolves once the app is not running and no chart has drawn for `frames` frames.
  const settled = (frames, timeoutMs) => new Promise((resolve, reject) => {
    const started = performance.now();
    let seen = -1, quiet = 0;
    const frame = () => {
      const app = document.querySelector('[data-testid="stApp"]');
      if (performance.now() - started > timeoutMs) { reject(new Error('the page did not settle')); return; }
      const idle = app && app.getAttribute(STATE) === 'notRunning';
      if (!idle || draws.count !== seen) { seen = draws.count; quiet = 0; } else quiet += 1;
      if (quiet >= frames) { resolve(performance.now() - started); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });

  window.__bench = {arm, wait, settled, draws, signatures};
})();
