// A lecture window's watchdog (ui/lecture/watchdog.py). It runs in the browser, so it works when the server
// can do nothing: Streamlit pushes nothing to a session, and a window whose timed heartbeat has stopped (or
// whose page came back blank) would otherwise wait for ever, still saying "Following the lecture".
// Every STEP ms it looks at what this window shows:
// - the heartbeat's marker (redrawn on each beat) has not changed for `stale` ms, or the element the window
//   must show (`expect`) is missing: the window is behind: its line says so (body.attention-behind) and the
//   hidden Heal button reruns the app (which restarts the heartbeat); if that does not help within
//   3 × stale, the page is reloaded (the address holds the room, and a lecturer's seat is in a cookie);
// - the main area is blank (nothing drawn, or no app at all): reloaded after `stale` ms.
// A run in progress counts as alive (up to 15 s); a lost connection is Streamlit's own to restore.
(() => {
  const STEP = 250;
  const W = window.attentionWatchdog || (window.attentionWatchdog = {});
  if (W.timer) clearInterval(W.timer);
  Object.assign(W, { beat: null, changed: Date.now(), blank: null, healed: null, runSince: null, stale: 2000 });
  const behind = (on) => document.body.classList.toggle('attention-behind', on);
  const alive = (now) => { W.changed = now; W.healed = null; };  // "Catching up" stays until a new beat
  W.timer = setInterval(() => {
    const now = Date.now();
    const app = document.querySelector('[data-testid="stApp"]');
    if (app && app.dataset.testConnectionState !== 'CONNECTED') {  // Streamlit reconnects by itself
      W.blank = null;
      alive(now);
      behind(true);
      return;
    }
    const cfg = document.querySelector('.st-key-heartbeat .attention-watch');
    const main = document.querySelector('[data-testid="stMain"]');
    const blank = !app || !main || !main.innerText.trim();
    if (!cfg && !blank) { W.blank = null; W.beat = null; alive(now); behind(false); return; }  // in no room here
    if (cfg) W.stale = Number(cfg.dataset.stale) || W.stale;
    if (blank) {
      W.blank = W.blank === null ? now : W.blank;
      if (now - W.blank > W.stale) { W.blank = now + 10 * W.stale; window.location.reload(); }
      return;
    }
    W.blank = null;
    if (app.dataset.testScriptState === 'running') {
      W.runSince = W.runSince === null ? now : W.runSince;
      if (now - W.runSince < 15000) { alive(now); return; }
    } else {
      W.runSince = null;
    }
    const present = !cfg.dataset.expect || document.querySelector(cfg.dataset.expect);
    const marker = document.querySelector('.st-key-heartbeat [data-beat]');
    const beat = cfg.dataset.beats === '1' ? (marker ? marker.dataset.beat : '') : 'none';
    if (present && (beat !== W.beat || beat === 'none')) {
      W.beat = beat;
      alive(now);
      behind(!!marker && marker.dataset.behind === '1');  // the heartbeat knows of a move it cannot take yet
      return;
    }
    if (now - W.changed < W.stale) return;
    behind(true);
    if (W.healed === null) {
      W.healed = now;
      const heal = document.querySelector('.st-key-heal button');
      if (heal) heal.click();
    } else if (now - W.healed > 3 * W.stale) {
      W.healed = now + 10 * W.stale;  // one reload at a time
      window.location.reload();
    }
  }, STEP);
})();
