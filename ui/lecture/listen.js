// A lecturer's window hears its room (ui/lecture/window.py). Drawn last in every full run of a lecturer's window on
// the walkthrough, after that run's own publishes; `data` is {events: the room's raw event stream, relative to the
// page, seen: the room's version the run last saw, me: this window's token, activity: the room's activity route,
// drawn: the activity the run drew ({present, answers, sent}, only what it drew), every: how often to ask it, ms}.
// - The stream's `id` is the room's version, and its data the deck, whose `by` is the token of the window that
//   published it. A version newer than this window has seen, published by another window, becomes this
//   component's state `heard`, which reruns the app at once: it takes the other window's move. A version heard
//   twice is not newer; this window's own publish coming back is not another's move, though it may arrive before
//   the run that published it has told the browser its version: nothing reruns for either. (Publishes are
//   compare-and-set, so a version this window published was made on every version before it: skipping it skips
//   nothing this window has not taken.) Nor does it rerun for a deck `unchanged` from the version before, when it
//   has that one (the projection saying it drew it).
// - Every `every` ms it asks the room's activity; a value other than the run drew (of those it drew) becomes the
//   state `activity`, which reruns the app: a student came or went, answered, or sent an exploration.
// - The activity also says the room's version. `taken` is the newest version this window's server has taken: the
//   last run's `seen`, and each version after it that was skipped above (nothing new for this window). A room
//   ahead of it at three asks in a row while no run is under way (a move whose event, rerun or run's output was
//   lost on the way) reruns the app the same way; `caught` counts those reruns (none in a healthy room). So does
//   the store's return after it was out of reach (503): the run publishes what this window did meanwhile.
// State persists in the browser: no timed fragment runs in a lecturer's window, so nothing drops the rerun it asks.
export default function ({ data, setStateValue }) {
  const L = window.attentionListen || (window.attentionListen = { seen: 0 });
  L.set = setStateValue;  // this mount's: an older mount's sender may be gone
  if (L.url !== data.events) Object.assign(L, { seen: 0, taken: 0, skipped: new Set() });  // another room's versions
  L.seen = Math.max(L.seen, Number(data.seen) || 0);
  take(L, Math.max(L.taken, Number(data.seen) || 0));  // a version skipped before this run's end stays taken
  L.behind = 0;
  L.me = typeof data.me === 'string' ? data.me : null;
  L.drawn = data.drawn && typeof data.drawn === 'object' ? data.drawn : {};
  Object.assign(L, { asked: L.drawn, askedAt: Date.now() });  // what a rerun for activity would bring: asked once
  const mount = {};
  L.mount = mount;
  const closed = !L.source || L.source.readyState === 2;  // never opened, or refused (a room that is gone)
  if (data.events && (L.url !== data.events || closed)) {
    if (L.source) L.source.close();
    L.url = data.events;
    L.source = new EventSource(data.events);
    L.source.onmessage = (event) => {
      const version = Number(event.lastEventId);
      if (!Number.isSafeInteger(version) || version <= L.seen) return;
      const before = L.seen;
      L.seen = version;
      const deck = parsed(event.data);
      const nothingNew = (L.me && deck.by === L.me) || (deck.unchanged === true && before >= version - 1);
      if (!nothingNew) L.set('heard', version);
      else if (version > L.taken) {
        L.skipped.add(version);
        take(L, L.taken);
      }
    };
  }
  clearInterval(L.timer);
  const every = Math.max(500, Number(data.every) || 2000);
  L.timer = data.activity ? setInterval(() => ask(L, data.activity), every) : null;
  // Unmounted and not mounted again for a while: the window left its room or the walkthrough; the stream goes.
  return () => setTimeout(() => {
    if (L.mount !== mount) return;
    clearInterval(L.timer);
    L.timer = null;
    if (L.source) L.source.close();
    Object.assign(L, { source: null, url: null });
  }, 15000);
}

async function ask(L, url) {
  if (L.asking) return;  // one at a time
  L.asking = true;
  try {
    const answer = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
    if (answer.status === 503) L.down = true;  // the store out of reach: what this window did waits to be published
    if (!answer.ok) return;  // not (yet) a driver, or the room is gone: the listener's stream says the rest
    const now = await answer.json();
    const back = L.down === true;  // the store is back: a run publishes what waited
    L.down = false;
    const running = document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'running';
    L.behind = Number(now.version) > L.taken && !running ? L.behind + 1 : 0;
    const lost = L.behind >= 3 || back;
    if (lost) Object.assign(L, { behind: 0, caught: (L.caught || 0) + 1 });
    const changed = lost || Object.keys(L.drawn).some((name) => now[name] !== L.drawn[name]);
    const news = Object.keys(L.drawn).some((name) => now[name] !== L.asked[name]);
    // asked again if no run came for it in a while (a run that failed to draw it): a new count, so a new value
    if (lost || (changed && (news || Date.now() - L.askedAt > 10000))) {
      Object.assign(L, { asked: now, askedAt: Date.now(), asks: (L.asks || 0) + 1 });
      L.set('activity', { ...now, n: L.asks });
    }
  } catch (e) {
    // the server out of reach: Streamlit's own connection says so; asked again later
  } finally {
    L.asking = false;
  }
}

// The server took `version`, and with it each skipped version that follows it.
function take(L, version) {
  L.taken = version;
  while (L.skipped.has(L.taken + 1)) L.taken += 1;
  for (const v of L.skipped) if (v <= L.taken) L.skipped.delete(v);
}

function parsed(text) {
  try {
    return JSON.parse(text) || {};
  } catch (e) {
    return {};  // not a deck this window can read: heard, and its run decides
  }
}
