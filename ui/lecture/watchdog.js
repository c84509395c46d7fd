// A lecturer's window's watchdog (ui/lecture/watchdog.py). It runs in the browser, so it works when the server
// can do nothing: Streamlit pushes nothing to a session, and a window whose timed heartbeat has stopped (or
// whose page came back blank) would otherwise wait for ever on an old step.
// Every STEP ms it looks at what this window shows:
// - the heartbeat's marker (redrawn on each beat) and the element the window must show (`expect`);
// - no new beat for `heal` ms (plus a random share, so two windows do not ask at once): it asks for a full run
//   (W.ask, from heal.js, which keeps the ask as state: the next request, a beat's included, carries it), which
//   restarts the heartbeat; each further try waits twice as long, and after 3 tries
//   without a beat the page is reloaded (the address holds the room; a lecturer's seat is in a cookie);
// - the main area blank while the window is in a room: reloaded after `stale` ms;
// - a line on another step than the one the beat says was drawn, or another question (a run's output lost on
//   the way): Heal after `stale` ms.
// A run in progress is not a stop (up to 15 s). A lost connection is Streamlit's own to restore. Outside a room (no watchdog element for 10 s) the script stops itself.
(() => {
  const STEP = 250, GONE = 10000, LONGEST_RUN = 15000, TRIES = 3;
  const W = window.attentionWatchdog || (window.attentionWatchdog = {});
  if (W.timer) clearInterval(W.timer);
  const now0 = Date.now();
  Object.assign(W, { beat: null, changed: now0, seen: now0, blank: null, runSince: null, tries: 0, next: null,
                     stale: 1500, heal: 4000 });
  const reload = (now) => {
    if (W.reloaded && now - W.reloaded < 60000) return;  // one reload a minute at most
    W.reloaded = now;
    sessionStorage.setItem('attentionWatchdogReloaded', String(now));
    window.location.reload();
  };
  W.reloaded = Number(sessionStorage.getItem('attentionWatchdogReloaded')) || 0;
  // A beat says which step the session's last full run drew (data-step); the window's line says which step this
  // page shows (the key walk-at-<k>).
  // Different for `stale` ms: that run's output never arrived (Streamlit drops a run's unsent messages when the
  // next run starts, and a busy server sends late), and no later beat redraws the line: Heal reruns the app,
  // once every `heal` ms while they differ.
  // The projection's beat and the console's also say which question that run drew
  // (data-poll: "<number>-<revealed>"; on the console "ask" for its Ask; empty for none), and the question's box
  // carries the same mark (.poll-drawn): a question never shown, one still shown after it closed, a reveal that
  // never reached the projection, a console still showing Close after it closed the poll, or a console's box
  // whose Ask was lost (no mark) or with fewer buttons than it drew (data-buttons), is healed the same way.
  const differs = (marker) => {
    const want = marker && marker.dataset.step;
    const line = want && document.querySelector('[class*="st-key-walk-at-"]');
    const shown = line && (/st-key-walk-at-(\d+)/.exec(line.className) || [])[1];
    if (want && line && shown !== want) return true;  // no line: nothing to compare
    const poll = marker ? marker.dataset.poll : undefined;
    if (poll === undefined || !document.querySelector('.st-key-projection-bar, .st-key-poll-console')) {
      return false;
    }
    const mark = document.querySelector('.poll-drawn');
    if ((mark ? mark.dataset.poll : '') !== poll) return true;
    // the console's box says how many buttons it drew: fewer on the page (Close lost) is a lost output too
    const box = mark && mark.dataset.buttons && mark.closest('.st-key-poll-console');
    return !!box && box.querySelectorAll('button').length < Number(mark.dataset.buttons);
  };
  const lost = (marker, now) => {
    if (!differs(marker)) { W.lostSince = null; return false; }
    W.lostSince = W.lostSince || now;
    if (now - W.lostSince < W.stale) return false;
    if (now - (W.lostHealed || 0) >= W.heal) {
      W.lostHealed = now;
      if (W.ask) W.ask();
    }
    return true;
  };
  W.timer = setInterval(() => {
    const now = Date.now();
    const app = document.querySelector('[data-testid="stApp"]');
    const cfg = document.querySelector('.st-key-heartbeat .attention-watch');
    if (cfg) {
      W.seen = now;
      W.stale = Number(cfg.dataset.stale) || W.stale;
      W.heal = Number(cfg.dataset.heal) || W.heal;
    } else if (now - W.seen > GONE) {  // this window left its room (or the page has no lecture)
      clearInterval(W.timer);
      W.timer = null;
      return;
    }
    if (app && app.dataset.testConnectionState !== 'CONNECTED') {  // Streamlit reconnects by itself
      W.changed = now;
      W.blank = null;
      return;
    }
    // blank: no app, or nothing drawn in its main area (an element lookup: reading the text would lay the page out)
    if (!app || !document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]')) {
      W.blank = W.blank === null ? now : W.blank;
      if (now - W.blank > W.stale) reload(now);
      return;
    }
    W.blank = null;
    if (!cfg) return;  // between two runs of a page that draws its heartbeat again
    if (app.dataset.testScriptState === 'running') {
      W.runSince = W.runSince === null ? now : W.runSince;
      if (now - W.runSince < LONGEST_RUN) { W.changed = now; return; }
    } else {
      W.runSince = null;
    }
    const present = !cfg.dataset.expect || document.querySelector(cfg.dataset.expect);
    const marker = document.querySelector('.st-key-heartbeat [data-beat]');
    if (lost(marker, now)) return;
    const beat = cfg.dataset.beats === '1' ? (marker ? marker.dataset.beat : '') : 'none';
    if (present && (beat !== W.beat || beat === 'none')) {  // alive: a new beat (or a window without one)
      W.beat = beat;
      W.changed = now;
      W.tries = 0;
      W.next = null;
      return;
    }
    const quiet = now - W.changed;
    if (W.next === null) W.next = W.heal * (1 + Math.random() / 2);
    if (quiet < W.next) return;
    if (W.tries >= TRIES) { reload(now); return; }
    W.tries += 1;
    W.next = quiet + W.heal * 2 ** W.tries;
    if (W.ask) W.ask(); else reload(now);
  }, STEP);
})();
