// A following student's light page (ui/follow/page.py): the room's event stream, drawn as it moves.
// Every word comes from the page's data-* attributes, which the server filled in the student's language.
(() => {
  "use strict";
  const words = document.body.dataset;
  const $ = (id) => document.getElementById(id);
  const shown = { version: -1, saidLine: null, saidPicture: false, poll: null, open: false, line: "" };
  const asking = { number: null, judged: null }; // the poll the box answers; the poll whose verdict was asked for
  const last = {}; // each part's value as last drawn (JSON), so a move redraws only what it changed
  let source = null;
  let retry = 1000;

  // A template such as "Following · {line}": a function replacement, so "$&" in a caption stays text.
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole);
  const text = (value) => (typeof value === "string" ? value : "");

  // The tab's title leads with the lecture's step, so the step is what a screen reader says on coming back to the tab
  // (and what a row of tabs shows).
  const pageTitle = document.title;
  function status() {
    const line = $("line");
    line.dataset.state = shown.open ? "open" : "closed";
    line.textContent = !shown.open ? words.reconnecting
      : shown.line ? fill(words.line, { line: shown.line }) : words.waiting;
    document.title = shown.open && shown.line ? `${shown.line} — ${pageTitle}` : pageTitle;
  }

  function changed(part, value) {
    const json = JSON.stringify(value === undefined ? null : value);
    if (last[part] === json) return false;
    last[part] = json;
    return true;
  }

  // The chart (SVG) and the formula (MathML) are the server's own markup, but a stream is input all the same:
  // parsed inert (DOMParser runs nothing), anything that could run or load a page is taken out, then adopted.
  const UNSAFE = "script,foreignObject,iframe,object,embed,link,meta,base,animate,set,handler";
  function markup(html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    doc.body.querySelectorAll(UNSAFE).forEach((node) => node.remove());
    doc.body.querySelectorAll("*").forEach((node) => {
      for (const attr of Array.from(node.attributes)) {
        const name = attr.name.toLowerCase();
        const link = name === "href" || name.endsWith(":href") || name === "src";
        if (name.startsWith("on") || (link && !/^\s*#/.test(attr.value))) node.removeAttribute(attr.name);
      }
    });
    const part = document.createDocumentFragment();
    Array.from(doc.body.childNodes).forEach((node) => part.appendChild(document.adoptNode(node)));
    return part;
  }

  function drawMarkup(id, box, value) {
    const html = text(value);
    $(id).replaceChildren(html ? markup(html) : "");
    $(box).hidden = !html;
    const svg = $(id).querySelector("svg");
    if (svg && svg.hasAttribute("viewBox")) svg.classList.add("fits"); // scales; without one it scrolls in its box
  }

  function drawTable(table) {
    const node = $("table");
    node.replaceChildren();
    const ok = table && typeof table === "object" && Array.isArray(table.columns) && Array.isArray(table.rows);
    $("table-fold").hidden = !ok;
    if (!ok) return;
    const add = (parent, tag, value, scope) => {
      const cell = document.createElement(tag);
      cell.textContent = text(value) || String(value ?? "");
      if (scope) cell.scope = scope;
      parent.appendChild(cell);
      return cell;
    };
    if (text(table.caption)) add(node, "caption", table.caption);
    const head = node.appendChild(document.createElement("thead")).appendChild(document.createElement("tr"));
    table.columns.forEach((column) => add(head, "th", column, "col"));
    const body = node.appendChild(document.createElement("tbody"));
    table.rows.filter(Array.isArray).forEach((row) => {
      const tr = body.appendChild(document.createElement("tr"));
      row.forEach((value, i) => add(tr, i === 0 ? "th" : "td", value, i === 0 ? "row" : ""));
    });
  }

  function explore(link) {
    const node = $("explore");
    let url = null;
    try {
      url = new URL(text(link), new URL(words.root, location.href));
    } catch (_) { url = null; }
    const ok = url && url.origin === location.origin && text(link) !== ""; // never another site, never javascript:
    node.hidden = !ok;
    if (ok) node.href = url.href;
  }

  function draw(view) {
    const picture = view.picture === true;
    shown.line = text(view.line);
    status();
    if (changed("section", view.section)) $("section").textContent = text(view.section);
    // Before the picture only the line and section are known: nothing of the previous step stays beside them.
    const caption = picture ? text(view.caption) : words.waiting;
    if (changed("caption", caption)) $("caption").textContent = caption;
    if (changed("note", view.note)) { // the speaker's note, when the lecturer shares the notes with the class
      $("note").textContent = text(view.note);
      $("note").hidden = !text(view.note);
    }
    if (changed("chart", picture && view.chart)) drawMarkup("chart", "chart", picture && view.chart);
    if (changed("tensor", picture && view.tensor)) {
      $("tensor").textContent = picture ? text(view.tensor) : "";
      $("tensor-part").hidden = !(picture && text(view.tensor));
    }
    if (changed("formula", picture && view.formula)) drawMarkup("formula", "formula-fold", picture && view.formula);
    if (changed("code", picture && view.code)) {
      $("code").textContent = picture ? text(view.code) : "";
      $("code-fold").hidden = !(picture && text(view.code));
    }
    if (changed("table", picture && view.table)) drawTable(picture && view.table);
    if (changed("explore", view.explore)) explore(view.explore);
    const poll = view.poll && typeof view.poll === "object" && text(view.poll.prompt) ? view.poll : null;
    if (changed("poll", poll && poll.prompt)) {
      $("poll-prompt").textContent = poll ? poll.prompt : "";
      $("poll").hidden = !poll;
    }
    drawPoll(poll);
    say(view, picture, poll);
  }

  // The answer box is built when a poll opens (or its choices change) and left alone while the student types; once
  // the poll is revealed it goes, and the page asks the server for this student's own verdict, once per poll.
  function drawPoll(poll) {
    const number = poll && Number.isInteger(poll.number) ? poll.number : null;
    const open = number !== null && poll.revealed !== true;
    if (changed("input", open && [number, poll.kind, poll.options, poll.label, poll.placeholder])) {
      drawInput(open ? poll : null);
      $("poll-status").textContent = "";
    }
    asking.number = open ? number : null;
    $("poll-form").hidden = !open;
    if (number === null || (open && asking.judged !== number)) {
      $("verdict").hidden = true;
      asking.judged = null;
    }
    if (!open && number !== null && asking.judged !== number) {
      asking.judged = number;
      verdict(number, 5);
    }
  }

  function drawInput(poll) {
    const box = $("poll-input");
    box.replaceChildren();
    if (!poll) return;
    const add = (parent, tag, props) => Object.assign(parent.appendChild(document.createElement(tag)), props);
    const name = text(poll.label) || $("poll-heading").textContent; // an input is never left without a name
    const options = (Array.isArray(poll.options) ? poll.options : [])
      .filter((o) => o && typeof o === "object" && text(o.value));
    if (poll.kind === "choice" && options.length <= 8) { // as Check yourself: a row of radio buttons, else a list
      const set = add(box, "fieldset", {});
      add(set, "legend", { textContent: name });
      options.forEach((o) => {
        const label = add(set, "label", {});
        add(label, "input", { type: "radio", name: "text", value: o.value });
        label.append(` ${text(o.label) || o.value}`);
      });
      return;
    }
    add(box, "label", { htmlFor: "poll-text", textContent: name });
    let field;
    if (poll.kind === "choice") {
      field = add(box, "select", {});
      add(field, "option", { value: "", textContent: text(poll.placeholder) });
      options.forEach((o) => add(field, "option", { value: o.value, textContent: text(o.label) || o.value }));
    } else {
      field = add(box, "input", { type: "text", autocomplete: "off", placeholder: text(poll.placeholder) });
      // a number opens a phone's number keyboard; a shape, "(6, 6)", needs the brackets of the full one
      if (poll.kind === "number") field.setAttribute("inputmode", "decimal");
    }
    Object.assign(field, { id: "poll-text", name: "text" });
  }

  // Send: the answer as typed or chosen; the server reads it as Check yourself does and says why if it cannot. Its
  // words (sent, or the reason) go next to the box, in a status region; the student's text stays for a correction.
  async function send(event) {
    event.preventDefault();
    const number = asking.number;
    if (number === null) return;
    const field = $("poll-form").querySelector("input[name=text]:checked, input[type=text], select");
    const status = $("poll-status");
    status.textContent = words.sending;
    let said;
    try {
      const response = await fetch(words.answer, {
        method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ poll: number, text: field ? field.value : "" }),
      });
      said = response.ok ? text((await response.json()).sent) : await response.text();
    } catch (_) { said = words.offline; }
    if (asking.number === number) status.textContent = said;
  }

  // The student's own verdict, which only their cookie names: shown under the question and said in the live region.
  async function verdict(number, tries) {
    let said = null;
    try {
      const response = await fetch(`${words.verdict}&poll=${number}`, { credentials: "same-origin" });
      said = response.ok ? await response.json() : null;
    } catch (_) { said = null; }
    if (asking.judged !== number) return; // the lecturer moved on meanwhile
    if (!said || said.poll !== number) {
      if (tries > 1) setTimeout(() => verdict(number, tries - 1), 2000); // the store's replica may lag a moment
      return;
    }
    const lines = [text(said.message), text(said.answer)];
    $("verdict-message").textContent = lines[0];
    $("verdict-answer").textContent = lines[1];
    $("verdict-answer").hidden = !lines[1];
    $("verdict").dataset.verdict = text(said.verdict);
    $("verdict").hidden = false;
    $("say").textContent = lines.filter(Boolean).join(" ");
  }

  // The live region says each move once: its line when it comes, with its caption once its picture is there; the
  // same step drawn again (its picture redrawn after a poll, a reconnect's resend) is not said again. A poll is
  // said once when it opens.
  function say(view, picture, poll) {
    const spoken = [];
    const line = text(view.line);
    const move = picture ? fill(words.announce, { line, caption: text(view.caption) }) : line;
    if (move && (line !== shown.saidLine || (picture && !shown.saidPicture))) {
      spoken.push(move);
      shown.saidLine = line;
      shown.saidPicture = picture;
    }
    const number = poll && Number.isInteger(poll.number) ? poll.number : null;
    if (poll && number !== shown.poll) spoken.push(fill(words.poll, { prompt: text(poll.prompt) }));
    shown.poll = number;
    if (spoken.length) $("say").textContent = spoken.join(" ");
  }

  function receive(data) {
    let view;
    try {
      view = JSON.parse(data);
    } catch (_) { return; } // a damaged event: the next one will do
    if (!view || typeof view !== "object" || !Number.isInteger(view.version)) return;
    if (view.version < shown.version) return; // an older move, arriving late: the page already shows a newer one
    shown.version = view.version;
    draw(view);
  }

  // EventSource reconnects by itself after a dropped stream; a refused one (an HTTP error: the room full, the
  // server restarting) it gives up on, so the page tries again itself, waiting longer each time.
  function connect() {
    source = new EventSource(words.stream);
    source.onopen = () => { retry = 1000; shown.open = true; status(); };
    source.onmessage = (event) => receive(event.data);
    source.onerror = () => {
      shown.open = false;
      status();
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 30000);
      }
    };
  }

  $("poll-form").addEventListener("submit", send);
  if (words.stream) connect(); // none for a room that is closed: the page already says so
})();
