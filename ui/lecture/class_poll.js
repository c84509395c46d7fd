// A student who explores in the app still hears the class's question (ui/lecture/classroom.py mounts this on their
// line): the room's event stream, in the student's language, as the light page reads it. A question opening is shown
// under the line with a link to answer it on the lecture page, and said through the page's live region (page.js);
// its reveal is said too; once it closes the box goes. `data`: {events, rejoin, words: {open, answer, revealed}}.
// The stream and what was said live on the window: a rerun mounts this again and must not say the question twice.
export default function ({ data, parentElement }) {
  const C = window.attentionClassPoll || (window.attentionClassPoll = { said: null, poll: null });
  C.data = data;
  C.box = parentElement;
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  // The page's live region is page.js's: on a first load the stream may speak before page.js has run.
  const speak = (text, tries = 50) => {
    if (window.attentionSpeak) window.attentionSpeak(text);
    else if (tries > 0) setTimeout(() => speak(text, tries - 1), 200);
  };
  const draw = () => {
    const poll = C.poll;
    const words = C.data.words;
    C.box.replaceChildren();
    if (!poll) return;
    const line = document.createElement('p');
    line.className = 'class-poll';
    line.textContent = poll.revealed ? words.revealed : fill(words.open, { prompt: poll.prompt });
    const link = document.createElement('a');
    link.href = C.data.rejoin;
    link.textContent = words.answer;
    line.append(' ', link);
    C.box.append(line);
  };
  const receive = (raw) => {
    let view;
    try { view = JSON.parse(raw); } catch { return; }
    const poll = view && typeof view.poll === 'object' && view.poll && typeof view.poll.prompt === 'string'
      && Number.isInteger(view.poll.number) ? view.poll : null;
    C.poll = poll;
    draw();
    // Said once per question and state: a reconnect's resend, or the same question after a move back, is not.
    const state = poll ? `${poll.number}-${poll.revealed ? 1 : 0}` : null;
    if (state !== C.said) {
      if (poll) speak(poll.revealed ? C.data.words.revealed : fill(C.data.words.open, { prompt: poll.prompt }));
      C.said = state;
    }
  };
  if (C.url !== data.events || !C.source || C.source.readyState === 2) {
    if (C.source) C.source.close();
    C.url = data.events;
    C.source = new EventSource(data.events);
    C.source.onmessage = (event) => receive(event.data);
  }
  draw();
  const mount = {};
  C.mount = mount;
  // Unmounted and not mounted again for a while: the student left the room (rejoined, or another tab): the stream goes.
  return () => setTimeout(() => {
    if (C.mount !== mount || !C.source) return;
    C.source.close();
    Object.assign(C, { source: null, url: null });
  }, 15000);
}
