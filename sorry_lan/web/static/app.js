// The phone's page: it shows what the table's server sends and sends back only the
// player's choices (protocol/WEB.md). No rules here: moves, seats and words come
// from the server.
"use strict";
const $ = (id) => document.getElementById(id);
const KEPT = "sorry-lan-seat";
let ws = null;
let shown = null;
let replaced = false;  // another page took this seat: this one stops
let asked = null;  // the language this page asked the server for

function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "null"); } catch (e) { return null; }
}

function keep(seat) { localStorage.setItem(KEPT, JSON.stringify(seat)); }

function send(frame) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

function join(name, pin) {
  const seat = kept();
  // (the language asked for may not be shown yet; a page opened again joins before
  // any is shown: in the one its seat was in)
  const lang = asked || $("lang").value || brought || (seat && seat.lang) || navigator.language;
  const frame = { t: "join", name: name, lang: lang };
  if (seat && seat.token && seat.name === name) frame.token = seat.token;
  if (pin) frame.pin = pin;
  keep({ name: name, token: frame.token || null, lang: lang });
  send(frame);
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function words(w) {
  $("name-label").textContent = w.name;
  $("join-button").textContent = w.join;
  $("ready").textContent = w.ready;
  $("rematch").textContent = w.rematch;
  $("chat-label").textContent = w.chat;
  $("chat-button").textContent = w.chat;
  $("log-label").textContent = w.log;
  $("lang-label").textContent = w.language;
  $("accept").textContent = w.accept;
  $("decline").textContent = w.decline;
  $("take-back").textContent = w.take_back;
  $("more-time").textContent = w.more_time;
  $("save").textContent = w.save;
  $("save-text").textContent = w.save_text;
}

// The finished game's record, as the server sent it to this seat alone: saved from
// the page's memory, so it can be saved after the table has closed.
let record = null;

function saveable(frame) {
  if (record) { URL.revokeObjectURL(record.json); URL.revokeObjectURL(record.text); }
  record = {
    game: frame.game,
    json: URL.createObjectURL(new Blob([frame.record], { type: "application/json" })),
    text: URL.createObjectURL(new Blob([frame.text], { type: "text/plain;charset=utf-8" })),
  };
  $("save").href = record.json;
  $("save").download = frame.file;
  $("save-text").href = record.text;
  $("save-text").download = frame.text_file;
}

function languages(s) {
  const select = $("lang");
  if (select.options.length !== s.langs.length) {
    select.replaceChildren(...s.langs.map(([code, name]) => {
      const option = el("option", name);
      option.value = code;
      return option;
    }));
  }
  select.value = s.lang;
  document.documentElement.lang = s.lang;
}

function seats(s) {
  const list = $("seats");
  list.replaceChildren(...s.seats.map((seat) => {
    const row = el("li", null, "c" + seat.colour + (seat.you ? " you" : ""));
    row.append(el("span", null, "swatch"), el("span", seat.colour_name));
    if (seat.name === undefined) {
      const take = el("button", s.words.free);
      take.type = "button";
      take.setAttribute("aria-label", s.words.colour + " " + seat.colour_name);
      take.addEventListener("click", () => send({ t: "colour", colour: seat.colour }));
      row.append(take);
    } else {
      const flags = [seat.bot ? s.words.bot : null,
        seat.ready || seat.bot ? s.words.is_ready : s.words.not_ready].filter(Boolean);
      row.append(el("span", (seat.you ? "> " : "") + seat.name), el("span", flags.join(", ")));
      if (seat.trade !== undefined) {
        const trade = el("button", s.words.trade);
        trade.type = "button";
        trade.setAttribute("aria-label", s.words.trade + " " + seat.name);
        trade.addEventListener("click", () => send({ t: "trade", pid: seat.trade }));
        row.append(trade);
      }
    }
    return row;
  }));
  const ask = s.ask;
  $("ask").hidden = !ask;
  if (ask) {
    $("ask-text").textContent = ask.text;
    $("accept").hidden = $("decline").hidden = ask.from === undefined;
    $("take-back").hidden = ask.to === undefined;
  }
  const mine = s.seats.find((seat) => seat.you);
  const ready = Boolean(mine && mine.ready);
  $("ready").setAttribute("aria-pressed", String(ready));
  $("ready").dataset.ready = String(ready);
}

function board(s) {
  const grid = $("board");
  grid.replaceChildren(...s.cells.map(([x, y, kind, colour, pawns, [left, top, w, h]]) => {
    const cell = el("div", null, "cell " + kind + (colour === null ? "" : " c" + colour));
    cell.style.gridColumn = (left + 1) + " / span " + w;
    cell.style.gridRow = (top + 1) + " / span " + h;
    cell.dataset.at = x + "," + y;
    for (const token of pawns) {
      cell.append(el("span", token, "pawn c" + "RBYG".indexOf(token[0])));
    }
    return cell;
  }));
  grid.setAttribute("aria-label", s.turn || "");
}

// The board's cell of a place a move names (its x and y), or null.
function cellAt([x, y]) { return document.querySelector('[data-at="' + x + "," + y + '"]'); }

function mark(to, on) {
  for (const at of to) {
    const cell = cellAt(at);
    if (cell) cell.classList.toggle("mark", on);
  }
}

let split = null;  // the first part of a split 7 tapped: its splits are offered

function moveButton(s, move, index) {
  const item = el("li");
  const button = el("button", move.text);
  button.type = "button";
  button.addEventListener("click", () => {
    $("moves").replaceChildren();
    split = null;
    send({ t: "move", offer: s.offer, index: index });
  });
  hover(button, move.to);
  item.append(button);
  return item;
}

function hover(button, to) {
  for (const [on, events] of [[true, ["focus", "mouseenter"]], [false, ["blur", "mouseleave"]]]) {
    for (const name of events) button.addEventListener(name, () => mark(to, on));
  }
}

// Each move on offer is previewed on the board without a hover (a phone has none):
// the cells its pawns end on show its number, the one its button says.
function badges(shown) {
  for (const old of document.querySelectorAll("#board .badge")) old.remove();
  for (const cell of document.querySelectorAll("#board .previewed")) cell.classList.remove("previewed");
  for (const [move, index] of shown) {
    for (const at of move.to) {
      const cell = cellAt(at);
      if (!cell) continue;
      cell.classList.add("previewed");
      const badge = el("span", String(index + 1), "badge");
      badge.setAttribute("aria-hidden", "true");
      cell.append(badge);
    }
  }
}

function moves(s) {
  const offered = s.moves.map((move, index) => [move, index]);
  if (split !== null && split.offer !== s.offer) split = null;
  badges(offered.filter(([move]) => move.first === (split === null ? null : split.first)));
  if (split !== null) {
    const back = el("button", s.words.back);
    back.type = "button";
    back.dataset.back = "";
    back.addEventListener("click", () => { split = null; moves(s); });
    const item = el("li");
    item.append(back);
    $("moves").replaceChildren(
      ...offered.filter(([move]) => move.first === split.first)
        .map(([move, index]) => moveButton(s, move, index)), item);
    return;
  }
  split = null;
  const firsts = new Set();
  const items = [];
  for (const [move, index] of offered) {
    if (move.first === null) { items.push(moveButton(s, move, index)); continue; }
    if (firsts.has(move.first)) continue;
    firsts.add(move.first);
    const item = el("li");
    const button = el("button", move.first + " \u2026");
    button.type = "button";
    button.dataset.group = "";
    button.addEventListener("click", () => { split = { offer: s.offer, first: move.first }; moves(s); });
    hover(button, move.to.slice(0, 1));
    item.append(button);
    items.push(item);
  }
  $("moves").replaceChildren(...items);
}

function render(s) {
  shown = s;
  words(s.words);
  languages(s);
  const phase = s.phase;
  $("join").hidden = phase !== "join";
  $("lobby").hidden = phase !== "lobby";
  $("game").hidden = phase === "join" || phase === "lobby";
  $("over").hidden = phase !== "over";
  $("talk").hidden = phase === "join";
  document.body.dataset.phase = phase;
  if (phase === "join") {
    const seat = kept();
    if (seat && seat.name && !$("name").value) $("name").value = seat.name;
    return;
  }
  seats(s);
  board(s);
  $("turn").textContent = s.turn || "";
  moves(s);
  $("more-time").hidden = !s.more_time;
  $("result").replaceChildren(...(s.over || []).map((line) => el("p", line)));
  $("saves").hidden = !(record && s.record === record.game);
  $("log").replaceChildren(...s.log.map((line) => el("li", line)));
  // (the log scrolls within its box: the page stays where the player is)
  $("log").scrollTop = $("log").scrollHeight;
  $("news").textContent = s.link || (s.log.length ? s.log[s.log.length - 1] : "");
}

function problem(frame) {
  const box = $("problem");
  box.textContent = frame.text;
  box.hidden = false;
  if (frame.reason === "refused" && shown && shown.phase === "join") {
    $("pin").hidden = $("pin-label").hidden = false;
  }
  if (frame.reason === "replaced") replaced = true;
}

// The table's id and the pages of its next hosts, as the last screen said: when this
// page's laptop is gone, the page asks each (and its own) which table it serves and
// goes on at the first that serves this one, in the same seat (WEB.md, "Following").
let table = null;
let hosts = [];
let opened = false;  // the last socket to this page's own laptop opened
let brought = null;  // the language a page that followed its table here was in
let looks = 0;  // rounds of asking since the socket closed

function carried() {
  // A page that followed its table here: its seat came in the address's fragment.
  const found = /^#seat=(.*)$/.exec(location.hash);
  if (!found) return;
  try {
    const seat = JSON.parse(decodeURIComponent(found[1]));
    if (seat && seat.name && seat.token) keep({ name: seat.name, token: seat.token });
    if (seat && typeof seat.lang === "string") brought = seat.lang;
  } catch (e) { /* not a seat: ignored */ }
  history.replaceState(null, "", location.pathname);
}

async function serves(base) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 1500);
  try {
    const answer = await fetch(base + "/table", { signal: stop.signal, cache: "no-store" });
    const said = await answer.json();
    return said.table === table;
  } catch (e) {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

async function look() {
  if (table === null || await serves("")) { setTimeout(connect, opened ? 0 : 2000); return; }
  for (const base of hosts) {
    if (await serves(base)) {
      const seat = Object.assign({}, kept(), { lang: shown ? shown.lang : null });
      location.replace(base + "/#seat=" + encodeURIComponent(JSON.stringify(seat)));
      return;
    }
  }
  looks += 1;
  setTimeout(look, looks < 120 ? 500 : 3000);  // (a minute often, then now and then)
}

function lost() {
  if (shown && shown.words) $("news").textContent = shown.words.lost;
  $("moves").replaceChildren();  // (nothing tapped now would reach the table)
  badges([]);
  $("more-time").hidden = true;
  look();
}

// The server ticks every few seconds (WEB.md); a socket nothing came on for 2.5 ticks
// is taken as dead (a phone's Wi-Fi gone without a word): abandoned, its late events
// ignored, and the table looked for as after a close.
let heard = 0;  // when the last frame came (or the socket was opened)
let quiet = 10000;  // ms of silence after which the socket is dead (2.5 ticks)

function check() {
  if (ws && performance.now() - heard > quiet) {
    const dead = ws;
    ws = null;
    dead.close();
    lost();
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const sock = new WebSocket(scheme + location.host + "/ws");
  ws = sock;
  heard = performance.now();
  opened = false;
  sock.addEventListener("open", () => {
    if (sock !== ws) return;
    opened = true;
    looks = 0;
    const seat = kept();
    if (seat && seat.token && seat.name) join(seat.name);
    else {
      asked = asked || navigator.language || "en";
      send({ t: "lang", lang: asked });
    }
  });
  sock.addEventListener("message", (event) => {
    if (sock !== ws) return;
    heard = performance.now();
    const frame = JSON.parse(event.data);
    if (frame.t === "screen") {
      $("problem").hidden = true;
      if (frame.table) { table = frame.table; hosts = frame.next || []; }
      render(frame);
    }
    else if (frame.t === "record") saveable(frame);
    else if (frame.t === "tick") quiet = 2500 * frame.every;
    else if (frame.t === "seat") keep(Object.assign({}, kept(), { token: frame.token }));
    else if (frame.t === "error") problem(frame);
  });
  // (1000: the table closed for good; any other close, it may be elsewhere)
  sock.addEventListener("close", (event) => {
    if (sock !== ws) return;
    ws = null;
    if (!replaced && event.code !== 1000) lost();
  });
}

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name").value.trim();
  if (name) join(name, $("pin").value.trim());
});
$("ready").addEventListener("click", () => {
  send({ t: "ready", ready: $("ready").dataset.ready !== "true" });
});
$("rematch").addEventListener("click", () => send({ t: "rematch" }));
$("accept").addEventListener("click", () => send({ t: "answer", accept: true }));
$("decline").addEventListener("click", () => send({ t: "answer", accept: false }));
$("take-back").addEventListener("click", () => send({ t: "trade", pid: null }));
$("more-time").addEventListener("click", () => send({ t: "more_time" }));
$("chat").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  if (text) send({ t: "chat", text: text });
  $("chat-text").value = "";
});
$("lang").addEventListener("change", () => {
  asked = $("lang").value;
  const seat = kept();
  if (seat) keep(Object.assign(seat, { lang: $("lang").value }));
  send({ t: "lang", lang: $("lang").value });
});
setInterval(check, 1000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
window.addEventListener("online", check);
carried();
connect();
