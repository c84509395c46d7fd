// The watchdog's Heal, kept as state (ui/lecture/watchdog.py). Mounted in every full run of a lecturer's window;
// `data` is {s: the server session's token}. watchdog.js calls `attentionWatchdog.ask()` when the window stopped
// following; the state sent is {n, s}: how many times it asked. The browser keeps that value and sends it with
// every request, the heartbeat's included, so an ask whose own request Streamlit dropped (a one-shot request that
// arrives while a timed fragment reruns) still reaches the next beat, which reruns the app when `n` grew. A new
// server session (a reconnect, another replica) counts from 0 again.
export default function ({ data, setStateValue }) {
  const W = window.attentionWatchdog || (window.attentionWatchdog = {});
  if (W.healS !== data.s) Object.assign(W, { healS: data.s, healN: 0 });
  const mount = {};  // this mount, to tell its cleanup from a newer one's
  W.healMount = mount;
  W.ask = () => {
    W.healN += 1;
    setStateValue('heal', { n: W.healN, s: data.s });
  };
  return () => { if (W.healMount === mount) W.ask = null; };
}
