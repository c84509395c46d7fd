// Check yourself's progress, kept by the browser (ui/check/progress.py): a reload, or a phone that threw a
// background tab away, starts a new server session, and the ✓ of every question answered would be lost.
// `data` is {done: {page: [question ids]}, s: the server session's token}. The browser's copy
// (localStorage) grows with every question the session has done; when it holds a question the session has not,
// it is sent once per server session, as state, and the server marks it done after checking it.
const KEY = 'attention-progress';

function read() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {};
  } catch (e) {
    return {};
  }
}

export default function ({ data, setStateValue }) {
  const saved = read();
  const merged = {};
  let missing = false;
  for (const page of new Set([...Object.keys(saved), ...Object.keys(data.done)])) {
    const have = new Set(data.done[page] || []);
    const kept = Array.isArray(saved[page]) ? saved[page].filter((q) => typeof q === 'string') : [];
    if (kept.some((q) => !have.has(q))) missing = true;
    merged[page] = [...new Set([...kept, ...have])].sort();
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(merged));
  } catch (e) { /* storage full or refused: progress stays in the session */ }
  const W = window.attentionProgress || (window.attentionProgress = {});
  if (missing && W.sentFor !== data.s) {
    W.sentFor = data.s;
    setStateValue('saved', { done: merged, s: data.s });
  }
}
