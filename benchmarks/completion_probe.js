// Installed with Playwright's context.add_init_script before any of the page's own scripts:
// records script runs and chart draws, and tells when an interaction is complete (the method
// is described at the top of benchmarks/bench_latency.py). window.__benchProto (set by
// benchmarks/completion.py from Streamlit's protobuf descriptors) names the ForwardMsg fields.
if (!window.__bench) {  // a block, not a function: its constants stay out of the page's global scope
  const STATE = 'data-test-script-state';  // on [data-testid="stApp"]: notRunning / running / ...
  const PROTO = window.__benchProto || {newSession: 4, scriptFinished: 6, finishedEarlyForRerun: 2};
  const draws = {count: 0, last: 0};
  const noteDraw = () => { draws.count += 1; draws.last = performance.now(); };
  const inChart = (node) => !!(node && node.closest && node.closest('.vega-embed'));

  // Canvas charts: any drawing call on a canvas inside a .vega-embed (not the data editor's grid).
  const chartCanvas = new WeakMap();
  const isChartCanvas = (canvas) => {
    let known = chartCanvas.get(canvas);
    if (known === undefined) {
      known = inChart(canvas);
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
  // Other mutations of the app after its run has finished: React committing the finished run.
  let run = null;
  new MutationObserver((records) => {
    let chart = false, other = false;
    // A chart mounted anew (React replacing the element, not Vega updating it) is a draw too.
    const mountsChart = (n) => n.nodeType === 1 && (n.matches('.vega-embed') || !!n.querySelector('.vega-embed'));
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (inChart(node) || Array.from(r.addedNodes).some(mountsChart)) chart = true;
      else if (node && node.closest('[data-testid="stApp"]')) other = true;
    }
    if (chart) noteDraw();
    if (other && run && run.finishedAt !== null) run.domLast = performance.now();
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

  // Script runs, from two sources. (1) The attribute: every change is a MutationObserver record,
  // so a run that starts and ends between two polls is never missed. (2) The server's messages:
  // when the page is busy, React can commit a whole fast run at once and the attribute never
  // changes; the top-level fields of each ForwardMsg still say when a run starts and finishes.
  const appState = () => document.querySelector('[data-testid="stApp"]')?.getAttribute(STATE);
  const note = (what) => { if (run) run.log.push(`${(performance.now() - (run.t0 ?? 0)).toFixed(0)}:${what}`); };
  const started = () => { run.started = true; run.ended = false; run.finishedAt = null; run.domLast = 0; };
  const ended = () => {
    run.ended = true;
    if (appState() === 'notRunning' && run.finishedAt === null) run.finishedAt = performance.now();
  };
  const onState = (value) => {
    note(value);
    if (run.t0 === null) return;
    if (value === 'notRunning') { if (run.started) ended(); } else if (value !== 'initial') {
      run.attributeRan = true;
      started();
    }
  };
  const fields = (buffer) => {  // [field number, varint value or null] of a protobuf message
    const b = new Uint8Array(buffer), out = [];
    let i = 0;
    const varint = () => { let v = 0, s = 0, x; do { x = b[i++]; v += (x & 127) * 2 ** s; s += 7; } while (x & 128); return v; };
    while (i < b.length) {
      const key = varint(), type = key & 7;
      if (type === 0) out.push([Math.floor(key / 8), varint()]);
      else if (type === 2) { const n = varint(); i += n; out.push([Math.floor(key / 8), null]); }
      else if (type === 1 || type === 5) i += type === 1 ? 8 : 4;
      else break;
    }
    return out;
  };
  const onMessage = (data) => {
    if (!run || run.t0 === null || !(data instanceof ArrayBuffer)) return;
    for (const [field, value] of fields(data)) {
      if (field === PROTO.newSession) { note('msg:run'); started(); }
      if (field === PROTO.scriptFinished && value !== PROTO.finishedEarlyForRerun && run.started) {
        note('msg:finished'); ended();
      }
    }
  };
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => onMessage(event.data));
    }
  };

  // One interaction: arm() before the committing key or click, then wait().
  let stateObserver = null;
  const onInput = () => { if (run && run.t0 === null) run.t0 = performance.now(); };
  window.addEventListener('keydown', onInput, true);
  window.addEventListener('pointerdown', onInput, true);
  // remote: the input happens in another window (the presenter console moving the projection): this
  // page's times count from arm(), and the result carries the epoch time of completion (done_epoch),
  // to be set against the other window's inputEpoch() (both pages run on one clock: timeOrigin + now).
  const arm = (remote = false) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (stateObserver) stateObserver.disconnect();
    run = {t0: remote ? performance.now() : null, started: false, ended: false, finishedAt: null, domLast: 0, log: [], attributeRan: false,
           before: signatures(), drawsBefore: draws.count};
    // A record's new value is the next record's old value (or the attribute, for the last one).
    stateObserver = new MutationObserver((records) => records.forEach((r, k) => onState(
      k + 1 < records.length ? records[k + 1].oldValue : app.getAttribute(STATE))));
    stateObserver.observe(app, {attributes: true, attributeFilter: [STATE], attributeOldValue: true});
  };

  // Resolves at the second animation frame after the later of (run finished, its last DOM
  // update, last chart draw), once `expect` charts show something new. expect === null
  // calibrates: it waits for settleMs without any of these, and reports how many charts changed.
  const wait = (expect, settleMs, timeoutMs) => new Promise((resolve, reject) => {
    const begun = performance.now();
    let seen = '', quiet = 0, runSeen = '', runQuiet = 0, runDoneAt = null, checkedDraws = -1, changed = 0;
    const result = (doneAt) => ({
      total_ms: doneAt - run.t0, run_ms: runDoneAt - run.t0, finished_ms: run.finishedAt - run.t0,
      last_draw_ms: draws.count > run.drawsBefore ? draws.last - run.t0 : null,
      draws: draws.count - run.drawsBefore, changed, attribute_saw_run: run.attributeRan,
      done_epoch: performance.timeOrigin + doneAt,
    });
    const fail = () => {
      const what = run.t0 === null ? 'no input event' : !run.started ? 'no script run'
        : run.finishedAt === null ? 'the run did not finish' : `${changed} of ${expect} charts changed`;
      reject(new Error(`interaction not complete after ${timeoutMs} ms: ${what} `
        + `(script state now ${appState()}; seen: ${run.log.join(' ') || 'nothing'})`));
    };
    const frame = () => {
      const now = performance.now();
      if (now - begun > timeoutMs) { fail(); return; }
      const finished = run.finishedAt !== null && appState() === 'notRunning';
      // Each counter is the number of this frame since its last event (1 = first frame after it).
      const runEvent = `${run.finishedAt}/${run.domLast}`, event = `${runEvent}/${draws.count}`;
      runQuiet = runEvent === runSeen ? runQuiet + 1 : 1;
      quiet = event === seen ? quiet + 1 : 1;
      runSeen = runEvent;
      seen = event;
      if (finished && runQuiet >= 2 && runDoneAt === null) runDoneAt = now;
      if (finished && quiet >= 2 && runDoneAt !== null) {
        // Compared again after every chart draw, and on every frame while fewer charts than expected
        // changed (a chart can be mounted anew without a mutation inside an old .vega-embed).
        if (checkedDraws !== draws.count || (expect !== null && changed < expect)) {
          checkedDraws = draws.count;
          changed = countChanged(run.before, signatures());
        }
        const settled = now - Math.max(run.finishedAt, run.domLast, draws.last) >= settleMs;
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
    const begun = performance.now();
    let seen = -1, quiet = 0;
    const frame = () => {
      if (performance.now() - begun > timeoutMs) { reject(new Error('the page did not settle')); return; }
      if (appState() !== 'notRunning' || draws.count !== seen) { seen = draws.count; quiet = 0; } else quiet += 1;
      if (quiet >= frames) { resolve(performance.now() - begun); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });

  const inputEpoch = () => (run && run.t0 !== null ? performance.timeOrigin + run.t0 : null);

  window.__bench = {arm, wait, settled, draws, signatures, inputEpoch};
}
