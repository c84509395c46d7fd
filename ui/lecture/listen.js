// A lecturer's window hears its room move (ui/lecture/window.py). Drawn last in every full run of a window that
// follows the room (the console; the projection once a console is open), after that run's own publishes; `data` is
// {events: the room's raw event stream, relative to the page, seen: the room's version the run last saw, me: this
// window's token}. The stream's `id` is the room's version, and its data the deck, whose `by` is the token of the
// window that published it. A version newer than this window has seen, published by another window, becomes this
// component's state, which reruns the app at once: it takes the other window's move. The state persists in the
// browser (a rerun Streamlit drops is made by the next request). A version heard twice is not newer; this window's
// own publish coming back is not another's move, though it may arrive before the run that published it has told
// the browser its version: nothing reruns for either. (Publishes are compare-and-set, so a version this window
// published was made on every version before it: skipping it skips nothing this window has not taken.) Nor does it
// rerun for a deck `unchanged` from the version before, when it has that one (the projection saying it drew it).
export default function ({ data, setStateValue }) {
  const L = window.attentionListen || (window.attentionListen = { seen: 0 });
  L.set = setStateValue;  // this mount's: an older mount's sender may be gone
  L.seen = Math.max(L.seen, Number(data.seen) || 0);
  L.me = typeof data.me === 'string' ? data.me : null;
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
      if (L.me && deck.by === L.me) return;
      if (deck.unchanged === true && before >= version - 1) return;
      L.set('heard', version);
    };
  }
  // Unmounted and not mounted again for a while: the window left its room or the walkthrough; the stream goes.
  return () => setTimeout(() => {
    if (L.mount !== mount || !L.source) return;
    L.source.close();
    Object.assign(L, { source: null, url: null });
  }, 15000);
}

function parsed(text) {
  try {
    return JSON.parse(text) || {};
  } catch (e) {
    return {};  // not a deck this window can read: heard, and its run decides
  }
}
