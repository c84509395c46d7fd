// The walkthrough's clicker, the part that sends (ui/steps/clicker.py). The keys are listened for by
// clicker_keys.js, which comes with the page; this component, mounted in every run of a window that drives the
// walkthrough (`data` is {n: the number of steps, s: the server session's token}), sends their counts as its state,
// {seq, net, n, s}. The value stays in the browser and goes with every request to the server, so a press
// whose own request was dropped arrives with the next one, never lost; the server moves by what `net` grew since the value it
// took last, so two quick presses move two steps, and a value that arrives twice moves once. Presses counted
// before this component loaded are sent when it mounts. The counts are per session (`s`): a window reconnected
// to a restarted server, whose browser sends its last value again, is not moved by presses the old session took.
export default function ({ data, setStateValue }) {
  const C = window.attentionClicker || (window.attentionClicker = { seq: 0, net: 0, sent: 0, s: null });
  if (data.s !== C.s) Object.assign(C, { seq: 0, net: 0, sent: 0, s: data.s });
  const mount = {};  // this mount, to tell its cleanup from a newer one's
  C.mount = mount;
  C.flush = () => {
    if (C.seq === C.sent || C.s !== data.s) return;
    C.sent = C.seq;
    setStateValue('press', { seq: C.seq, net: C.net, n: data.n, s: C.s });
  };
  C.flush();  // presses made before this mount
  // Streamlit may call a mount's cleanup after a newer mount (two runs drawn while its script loaded): the newer
  // one's sender stays.
  return () => { if (C.mount === mount) C.flush = null; };
}
