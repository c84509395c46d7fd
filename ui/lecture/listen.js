// A lecturer's window hears its room move (ui/lecture/window.py). Drawn last in every full run of a window that
// follows the room (the console; the projection once a console is open), after that run's own publishes; `data` is
// {events: the room's raw event stream, relative to the page, seen: the room's version the run last saw}.
// The stream's `id` is the room's version. One newer than this window has seen becomes this component's state,
// which reruns the app at once: it takes the other window's move. The state persists in the browser (a rerun
// Streamlit drops is made by the next request), and a version heard twice, or this window's own publish coming
// back, is not newer than the one it saw: nothing reruns for it.
export default function ({ data, setStateValue }) {
  const L = window.attentionListen || (window.attentionListen = { seen: 0 });
  L.set = setStateValue;  // this mount's: an older mount's sender may be gone
  L.seen = Math.max(L.seen, Number(data.seen) || 0);
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
      L.seen = version;
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
