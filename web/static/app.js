// cardrules in the browser: join a room, wait in its lobby, play at its table.
// The page knows no game family: it draws what the server describes (panels, the
// hand, buttons, composers) and sends moves as the text a player would type.
// Every string from the server is set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const state = { ws: null, room: null, name: null, seat: null, table: null, selected: new Set(), groups: [],
  retry: 0, closedByUs: false, rulesets: [], checks: new Map() };

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A ruleset with a pack of its own sends each card's face: [text, colour, name].
const COLOURS = new Set(["red", "green", "blue", "purple", "yellow", "orange", "black"]);
const face = (name) => (state.table && state.table.pack && state.table.pack[name]) || null;

function cardText(name) {
  const own = face(name);
  if (own) return own[0];
  if (name === "JK") return "Jkr";
  const rank = name[0] === "T" ? "10" : name[0];
  return rank + (SUIT[name[1]] || name[1]);
}

const RANK_NAME = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function cardName(name) {
  const own = face(name);
  if (own) return own[2];
  if (name === "JK") return "joker";
  return (RANK_NAME[name[0]] || name[0]) + " of " + (SUIT_NAME[name[1]] || name[1]);
}

// A card's face, drawn as SVG by the page itself (no image is fetched): the index in two
// corners and the suit (or the special card's sign) large in the middle.
const SVGNS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function faceSvg(name) {
  const own = face(name);
  const text = cardText(name);
  const standard = !own && name !== "JK";
  const index = standard ? (name[0] === "T" ? "10" : name[0]) : text;
  const pip = standard ? SUIT[name[1]] : (own ? own[0] : "★");
  const svg = svgEl("svg", { viewBox: "0 0 50 70", class: "face", "aria-hidden": "true", focusable: "false" });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, class: "paper" }));
  const small = index.length > 3 ? 7 : 11;
  svg.append(svgEl("text", { x: 4, y: 13, "font-size": small, class: "index" }, index));
  if (standard) svg.append(svgEl("text", { x: 4, y: 24, "font-size": 10, class: "index" }, SUIT[name[1]]));
  svg.append(svgEl("text", { x: 25, y: 44, "font-size": pip.length > 2 ? 11 : 24, "text-anchor": "middle", class: "pip" }, pip));
  svg.append(svgEl("text", { x: 46, y: 64, "font-size": small, "text-anchor": "end", class: "index" }, index));
  return svg;
}

function cardEl(name, extra) {
  const own = face(name);
  const colour = own ? (COLOURS.has(own[1]) && own[1] !== "black" ? " " + (own[1] === "red" ? "red" : "c-" + own[1]) : "")
    : (name[1] === "H" || name[1] === "D") ? " red" : "";
  const node = el("span", { class: "card" + colour + (own && own[1] === "" ? " special" : "") + (extra ? " " + extra : ""),
    "data-card": name, title: own ? own[2] + " (" + name + ")" : name, role: "img", "aria-label": cardName(name) });
  node.append(faceSvg(name));
  return node;
}

const tokenKey = (room) => "cardrules:token:" + room.trim().replace(/\s+/g, " ").toLowerCase();
const show = (id) => {
  for (const s of ["entry", "lobby", "table"]) $(s).hidden = s !== id;
  if (id === "entry") $("chat").hidden = true; // the chat is a room's: shown once in one
};
// The turn clock: the server says how many seconds were left when it sent the table; the
// page counts down from there (the server itself has a bot move when the time is up).
function startClock(m, mine) {
  clearInterval(state.clockTimer);
  const box = $("clock-left");
  if (m.clock_left === undefined || m.over) { box.textContent = ""; box.className = "clock"; return; }
  const ends = Date.now() + m.clock_left * 1000;
  const who = mine ? "you have" : m.seats[m.turn].name + " has";
  const tick = () => {
    const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    box.textContent = left > 0 ? `${who} ${left} s for this move` : "time is up: a bot moves";
    box.className = "clock" + (left <= 10 ? " warning" : "");
    box.setAttribute("aria-live", mine && left <= 10 ? "assertive" : "off");
  };
  tick();
  state.clockTimer = setInterval(tick, 500);
}

// The end of a round stays until everyone at the table has seen it: its points, the
// totals, and a button for the next deal (the server deals once the last one has pressed).
function drawRoundEnd(m) {
  const box = $("round-end");
  box.textContent = "";
  box.hidden = !m.round_end;
  if (!m.round_end) return;
  const row = m.sheet.length ? m.sheet[m.sheet.length - 1] : null;
  box.append(el("h3", { text: `Round ${m.round_end.round} is over` }));
  if (row) {
    const table = el("table", { class: "summary" },
      el("tr", {}, el("th", { text: "" }), el("th", { text: "this round" }), el("th", { text: "total" })));
    m.seats.forEach((s, i) => table.append(el("tr", {}, el("td", { text: s.name }),
      el("td", { text: row.cells[i] }), el("td", { text: String(row.totals[i]) }))));
    box.append(table);
  }
  const waiting = m.round_end.waiting;
  if (!m.round_end.seen) {
    const button = el("button", { type: "button", id: "next-deal", text: "Next deal" });
    button.addEventListener("click", () => { send({ type: "next" }); button.disabled = true; });
    box.append(button);
  }
  const others = waiting.filter((name, i) => m.round_end.seen || name !== m.seats[m.you].name);
  box.append(el("p", { class: "muted", text: others.length ? `Waiting for ${others.join(", ")} to look.` : "" }));
}

// Positions go through the style object, which the page's Content-Security-Policy allows
// (it refuses style attributes).
function place(node, properties) {
  for (const [k, v] of Object.entries(properties)) node.style.setProperty(k, v);
  return node;
}

// Where seat ``i`` sits round the table (percent of the table's box): you at the bottom,
// the others clockwise, on an ellipse of radii rx, ry.
function around(i, m, rx, ry) {
  const n = m.seats.length;
  const me = m.you === null || m.you === undefined ? 0 : m.you;
  const angle = Math.PI / 2 + ((i - me + n) % n) * 2 * Math.PI / n;
  const x = 50 + rx * Math.cos(angle);
  return [Math.min(Math.max(x, 13), 87), 50 + ry * Math.sin(angle)]; // (a seat's box stays on the page)
}

// The table's settings, kept in this browser: animations (off when the system asks for
// reduced motion) and a sound when it is your turn (off until you turn it on).
const settings = {
  motion: localStorage.getItem("cardrules:motion") !== null ? localStorage.getItem("cardrules:motion") === "on"
    : !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches),
  sound: localStorage.getItem("cardrules:sound") === "on",
};

function setUpSettings() {
  for (const key of ["motion", "sound"]) {
    const box = $("setting-" + key);
    box.checked = settings[key];
    box.addEventListener("change", () => {
      settings[key] = box.checked;
      localStorage.setItem("cardrules:" + key, box.checked ? "on" : "off");
      document.body.classList.toggle("no-motion", !settings.motion);
      if (key === "sound" && box.checked) beep();
    });
  }
  document.body.classList.toggle("no-motion", !settings.motion);
}

let audio = null;
function beep() { // a short tone, made here: no sound file is fetched
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (error) { /* no audio here: stay quiet */ }
}

function setStatus(text) { $("status").textContent = text; }

// --- entry: join, or make the room ---------------------------------------------------------
async function loadRulesets() {
  if (state.rulesets.length) return;
  const given = document.getElementById("rulesets-data"); // the server writes the catalogue into the page
  if (given) {
    state.rulesets = JSON.parse(given.textContent);
  } else {
    const response = await fetch("/api/rulesets");
    state.rulesets = await response.json();
  }
  const select = $("ruleset");
  if (select.options.length !== state.rulesets.length) { // (the page's own menu is already there)
    select.textContent = "";
    for (const r of state.rulesets) select.append(el("option", { value: r.name, text: `${r.title} (${r.name})` }));
    const start = state.rulesets.find((r) => r.name === "oh-hell") || state.rulesets[0];
    if (start) select.value = start.name;
  }
  describeRules(currentRules());
}

// Seat kinds in a card player's words (a plug-in's own kind: its name, as a bot).
const KIND_NAMES = { human: "A person", bot: "Bot", search: "Strong bot (thinks longer)",
                     random: "Random player (any legal move)" };
function kindName(kind) {
  if (KIND_NAMES[kind]) return KIND_NAMES[kind];
  const [base, budget] = kind.split(":");
  if (base === "search" && budget) return `Strong bot (${budget} playouts a move)`;
  return kind.charAt(0).toUpperCase() + kind.slice(1) + " (bot)";
}

let uploaded = null; // the checked YAML's description, when the player uses their own

function currentRules() {
  if (uploaded && $("own").open) return uploaded;
  return state.rulesets.find((r) => r.name === $("ruleset").value);
}

function describeRules(rules) {
  if (!rules) return;
  $("ruleset-about").textContent = rules.description || "";
  const players = $("players");
  const keep = Number(players.value) || 4;
  players.textContent = "";
  for (let n = rules.players[0]; n <= rules.players[1]; n++) players.append(el("option", { value: n, text: n }));
  players.value = Math.min(Math.max(keep, rules.players[0]), rules.players[1]);
  const mode = $("mode");
  mode.textContent = "";
  mode.append(el("option", { value: "", text: "the whole game" }));
  for (const [name, about] of Object.entries(rules.modes || {})) mode.append(el("option", { value: name, text: `${name}: ${about}` }));
  seatKinds(rules);
}

function seatKinds(rules) {
  const box = $("seat-kinds");
  box.textContent = "";
  const count = Number($("players").value);
  for (let i = 0; i < count; i++) {
    if (i === 0) { box.append(el("div", { class: "muted", text: "Seat 1: you" })); continue; }
    const select = el("select", { "data-seat": i, id: `seat-kind-${i}` });
    for (const kind of rules.kinds) select.append(el("option", { value: kind, text: kindName(kind) }));
    select.value = i === 1 ? "human" : (rules.kinds.includes("bot") ? "bot" : rules.kinds[1]);
    box.append(el("label", {}, `Seat ${i + 1}: `, select));
  }
}

function showProblems(data) {
  const list = $("problems");
  list.textContent = "";
  for (const p of data.problems || []) list.append(el("li", { text: p.text }));
  if (!data.problems && data.error) list.append(el("li", { text: data.error }));
}

async function checkYaml() {
  const response = await fetch("/api/validate", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ yaml: $("yaml").value }) });
  const data = await response.json();
  showProblems(data);
  uploaded = data.ok ? data : null;
  if (uploaded) { $("problems").append(el("li", { class: "muted", text: `${data.title}: fine (${data.family}, ${data.players[0]}-${data.players[1]} players)` })); describeRules(uploaded); }
  return uploaded;
}

async function makeRoom() {
  $("entry-error").textContent = "";
  const own = $("own").open && $("yaml").value.trim();
  if (own && !(await checkYaml())) { $("entry-error").textContent = "Your ruleset has problems: see above."; return; }
  const seats = ["human"];
  for (const select of $("seat-kinds").querySelectorAll("select")) seats.push(select.value);
  const body = { room: state.room, name: state.name, seats, mode: $("mode").value || null,
                 clock: $("clock").value ? Number($("clock").value) : null };
  if (own) body.yaml = $("yaml").value; else body.ruleset = $("ruleset").value;
  const response = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) { $("entry-error").textContent = data.error || "the room could not be made"; showProblems(data); return; }
  localStorage.setItem(tokenKey(data.room), data.token);
  state.room = data.room;
  connect();
}

async function joinOrCreate(event) {
  event.preventDefault();
  state.name = $("your-name").value.trim();
  state.room = $("room-name").value.trim();
  localStorage.setItem("cardrules:name", state.name);
  const response = await fetch("/api/rooms/" + encodeURIComponent(state.room));
  const info = await response.json();
  if (info.exists) { connect(); return; }
  $("create-room").textContent = state.room;
  $("create").hidden = false;
  await loadRulesets();
}

// --- the connection ---------------------------------------------------------------------------
function connect() {
  history.replaceState(null, "", "/?room=" + encodeURIComponent(state.room));
  $("where").textContent = state.room;
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  state.ws = ws;
  setStatus("connecting…");
  ws.onopen = () => {
    state.retry = 0;
    setStatus("connected");
    ws.send(JSON.stringify({ type: "join", room: state.room, name: state.name || "", token: localStorage.getItem(tokenKey(state.room)) || undefined }));
  };
  ws.onmessage = (event) => {
    if (event.data === state.lastRaw) return; // the same table again (someone joined or left): nothing to redraw
    state.lastRaw = event.data;
    receive(JSON.parse(event.data));
  };
  ws.onclose = () => {
    if (state.ws !== ws || state.closedByUs) return;
    setStatus("connection lost: reconnecting…");
    state.retry = Math.min(state.retry + 1, 6);
    setTimeout(connect, 300 * 2 ** state.retry);
  };
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(message));
  else notice("not connected: reconnecting…", true);
}

function sendMove(move) { notice("", false); send({ type: "move", move }); }

function receive(m) {
  if (m.type === "welcome") {
    state.seat = m.seat;
    if (m.token) localStorage.setItem(tokenKey(m.room), m.token);
    setStatus(m.seat === null ? "watching" : "connected");
  } else if (m.type === "no-room") {
    state.closedByUs = true; state.ws.close();
    show("entry"); $("room-name").value = state.room; $("entry-error").textContent = m.message;
  } else if (m.type === "lobby") {
    lobby(m);
  } else if (m.type === "table") {
    table(m);
  } else if (m.type === "chat") {
    chatLines(m);
  } else if (m.type === "reaction") {
    chatLines({ lines: [{ from: m.from, text: m.emoji, reaction: true }] });
  } else if (m.type === "check") { // the server's word on a meld being built: shown beside it
    state.checks.set(m.cards.join(" "), m);
    if (state.table && state.controls) drawComposers(state.controls, state.table);
  } else if (m.type === "refused") {
    notice(m.message, true);
  } else if (m.type === "error") {
    if (!state.table && $("lobby").hidden) { show("entry"); $("entry-error").textContent = m.message; }
    notice(m.message, true);
  }
}

// --- the chat: plain text (shown as text, never as markup), the last 50 lines ---------------------
const REACTIONS = ["👍", "👏", "😂", "😮", "😢", "🎉"];

function chatLines(m) {
  $("chat").hidden = false;
  const list = $("chat-lines");
  if (m.history) list.textContent = "";
  for (const line of m.lines) {
    list.append(el("li", { class: line.reaction ? "reaction" : "" },
      el("b", { text: line.from + (line.reaction ? " " : ": ") }), line.text));
  }
  while (list.children.length > 50) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function setUpChat() {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    send({ type: "chat", text });
    $("chat-text").value = "";
  });
  for (const emoji of REACTIONS) {
    const button = el("button", { type: "button", text: emoji, "aria-label": "react " + emoji });
    button.addEventListener("click", () => send({ type: "react", emoji }));
    $("reactions").append(button);
  }
}

function notice(text, isRefusal) {
  const box = $("notice");
  box.textContent = text;
  box.className = "notice" + (isRefusal ? " refusal" : "");
  if (text && $("table").hidden) $("lobby-note").textContent = text;
}

// --- the lobby --------------------------------------------------------------------------------
function lobby(m) {
  show("lobby");
  $("lobby-title").textContent = `${m.room}: ${m.title}${m.mode ? " (" + m.mode + ")" : ""}, ${m.players} players`;
  const link = location.origin + "/?room=" + encodeURIComponent(m.room);
  $("share").textContent = link; $("share").href = link;
  const list = $("lobby-seats");
  list.textContent = "";
  m.seats.forEach((s, i) => {
    const who = s.kind !== "person" ? kindName(s.kind) : s.taken ? s.name + (s.connected ? "" : " (away)") : "free: waiting for someone to join";
    list.append(el("li", { class: i === m.you ? "you" : "", text: who + (i === m.you ? " (you)" : "") }));
  });
  $("start").hidden = !m.can_start;
  const free = m.seats.filter((s) => s.kind === "person" && !s.taken).length;
  $("lobby-note").textContent = m.you === null ? "Every seat is taken: you will watch the game." :
    m.can_start ? (free ? `${free} seat${free > 1 ? "s" : ""} still free: start now and bots take ${free > 1 ? "them" : "it"}.` : "Everyone is in: start when ready.") :
    "Waiting for the room's maker to start the game.";
}

// --- the table --------------------------------------------------------------------------------
function table(m) {
  show("table");
  const fresh = !state.table || state.table.version !== m.version;
  state.table = m;
  if (fresh) { state.selected.clear(); state.groups = []; }
  $("heading").textContent = m.over ? `${m.title}: the game is over` : (m.heading || `${m.title}, round ${m.round} of ${m.rounds}`);
  // the seats round the table, you at the bottom, play passing to the left (clockwise)
  const seats = $("seats");
  seats.textContent = "";
  const felt = el("div", { class: "felt", "aria-label": "the table" });
  seats.append(felt);
  m.seats.forEach((s, i) => {
    const classes = ["seat", i === m.turn ? "turn" : "", i === m.you ? "you" : ""].join(" ");
    const [x, y] = around(i, m, 43, 41);
    seats.append(place(el("div", { class: classes, "data-seat": i,
      "aria-label": `${s.name}${i === m.you ? " (you)" : ""}, ${s.total} points${i === m.dealer && !m.over ? ", dealer" : ""}`
        + `${s.note ? ", " + s.note : ""}${i === m.turn ? ", to play" : ""}` },
      el("span", { class: "total", text: String(s.total) }),
      el("div", { class: "name", text: s.name + (i === m.you ? " (you)" : "") + (i === m.dealer && !m.over ? " · dealer" : "") }),
      el("div", { class: "note", text: s.note || "" }),
      s.kind === "person" && !s.connected ? el("div", { class: "gone", text: s.stand_in ? "away: a bot plays" : "away" }) : null),
      { left: x + "%", top: y + "%" }));
  });
  // the trick in the middle, each card in front of the player who played it
  const trick = m.panels.find((p) => p.kind === "plays");
  const before = state.onTable || new Set();
  state.onTable = new Set();
  if (trick) {
    for (const play of trick.plays) {
      const [x, y] = around(play.seat, m, 15, 17);
      const [fromX, fromY] = around(play.seat, m, 43, 41);
      const key = play.seat + ":" + play.card;
      state.onTable.add(key);
      const node = place(el("div", { class: "on-table" + (play.best ? " best" : "") + (before.has(key) ? "" : " arrive"),
        title: m.seats[play.seat].name + (play.as ? " (as " + play.as + ")" : "") },
        cardEl(play.card)),
        { left: x + "%", top: y + "%", "--from-x": (fromX - x) * 3 + "px", "--from-y": (fromY - y) * 3 + "px" });
      if (play.as) node.append(el("div", { class: "as", text: "as " + play.as }));
      felt.append(node);
    }
    if (!trick.plays.length && trick.empty) felt.append(el("div", { class: "felt-note", text: trick.empty }));
  }
  // a trick just taken: its cards swept to the winner's seat (an animation, off with the
  // table's setting; the page never sees a whole trick, as the next message shows the next)
  const taken = m.taken ? `${m.round}:${m.taken.trick}` : null;
  if (taken && state.taken !== undefined && taken !== state.taken && settings.motion) {
    const [toX, toY] = around(m.taken.winner, m, 43, 41);
    for (const play of m.taken.plays) {
      const [x, y] = around(play.seat, m, 15, 17);
      const ghost = place(el("div", { class: "on-table taken", "aria-hidden": "true" }, cardEl(play.card)),
        { left: x + "%", top: y + "%", "--to-x": (toX - x) * 3 + "px", "--to-y": (toY - y) * 3 + "px" });
      ghost.addEventListener("animationend", () => ghost.remove());
      felt.append(ghost);
    }
  }
  state.taken = taken;
  felt.addEventListener("dragover", (event) => event.preventDefault());
  felt.addEventListener("drop", (event) => {
    event.preventDefault();
    const move = event.dataTransfer.getData("text/plain");
    if (move) sendMove(move);
  });
  // panels
  const panels = $("panels");
  panels.textContent = "";
  for (const p of m.panels) panels.append(panel(p, m));
  // controls
  const c = m.controls || { buttons: [], composers: [], select: false, prompt: "" };
  state.controls = c;
  if (state.checksRound !== m.round || state.checks.size > 200) { // a round's wild cards may differ
    state.checks.clear(); state.checksRound = m.round;
  }
  const mine = m.turn === m.you && m.you !== null && !m.over;
  if (mine && !state.wasMine && settings.sound) beep();
  state.wasMine = mine;
  $("prompt").textContent = m.problem ? m.problem : m.over ? "" : m.round_end ? "" : mine ? "Your turn: " + c.prompt : m.you === null ? "You are watching." : `Waiting for ${m.turn === null ? "the deal" : m.seats[m.turn].name}…`;
  startClock(m, mine);
  drawRoundEnd(m);
  if (fresh && !mine) notice("", false);
  drawButtons(c);
  drawHand(m, c);
  drawComposers(c, m);
  // last, sheet, log
  $("last-title").textContent = m.last_title.charAt(0).toUpperCase() + m.last_title.slice(1);
  fillList($("last"), m.last);
  fillList($("log"), m.log);
  $("log").scrollTop = $("log").scrollHeight;
  drawSheet(m);
  $("final").hidden = !m.over;
  if (m.over) {
    fillList($("standings"), m.standings);
    $("record").href = m.record;
  }
}

function fillList(list, lines) {
  list.textContent = "";
  for (const line of lines || []) list.append(el("li", { text: line }));
}

function panel(p, m) {
  const box = el("div", { class: "panel " + p.kind, "data-panel": p.kind });
  if (p.title) box.append(el("h3", { text: p.title }));
  if (p.kind === "facts") {
    const row = el("div", { class: "facts" });
    for (const f of p.items) {
      const fact = el("span", { class: "fact", "data-fact": f.label }, el("span", { class: "label", text: f.label + ":" }), f.value || "");
      for (const name of f.cards || []) fact.append(" ", cardEl(name, "small"));
      if (f.note) fact.append(" ", el("span", { class: "muted", text: f.note }));
      row.append(fact);
    }
    box.append(row);
  } else if (p.kind === "plays") {
    const row = el("div", { class: "plays" });
    for (const play of p.plays) row.append(el("div", { class: "play" + (play.best ? " best" : "") }, cardEl(play.card), el("div", { text: m.seats[play.seat].name + (play.as ? " (as " + play.as + ")" : "") })));
    if (!p.plays.length) row.append(el("span", { class: "muted", text: p.empty || "" }));
    box.append(row);
    if (p.note) box.append(el("div", { class: "muted", text: p.note }));
  } else if (p.kind === "melds") {
    const row = el("div", { class: "melds" });
    for (const meld of p.melds) {
      const div = el("div", { class: "meld", "data-meld": meld.id, title: `${m.seats[meld.owner].name}'s ${meld.kind}` }, el("span", { class: "id", text: `[${meld.id}]` }));
      for (const name of meld.cards) div.append(cardEl(name, "small"));
      row.append(div);
    }
    if (!p.melds.length) row.append(el("span", { class: "muted", text: p.empty || "" }));
    box.append(row);
  } else if (p.kind === "hands") {
    for (const h of p.hands) {
      const row = el("div", { class: "cards-row" }, el("span", { text: m.seats[h.seat].name + ":" }));
      for (const name of h.cards) row.append(cardEl(name, "small"));
      box.append(row);
    }
  }
  return box;
}

function drawButtons(c) {
  const box = $("buttons");
  box.textContent = "";
  let group = null;
  for (const b of c.buttons) {
    if (b.group !== group) { group = b.group; box.append(el("div", { class: "muted", text: group })); }
    const attrs = { type: "button", "data-move": b.move || null, class: b.move ? "" : "refused", title: b.refused || b.move };
    const button = el("button", attrs, b.label);
    button.addEventListener("click", () => b.move ? sendMove(b.move) : notice(b.refused || "not now", true));
    box.append(button);
  }
}

function drawHand(m, c) {
  const hand = $("hand");
  hand.textContent = "";
  (m.hand || []).forEach((h, i) => {
    const group = state.groups.findIndex((g) => g.includes(i));
    const classes = [h.move ? "playable" : "", c.select && group < 0 ? "selectable" : "", h.playable && c.select ? "discardable" : "",
      state.selected.has(i) ? "selected" : "", group >= 0 ? "grouped" : ""].join(" ");
    const node = cardEl(h.card, classes);
    node.dataset.index = i;
    if (group >= 0) { // in a meld being built: marked with the meld's number, not picked again
      node.dataset.group = group + 1;
      node.append(el("span", { class: "badge", text: String(group + 1), "aria-hidden": "true" }));
    }
    const act = () => {
      if (h.move) sendMove(h.move);
      else if (c.select && group >= 0) notice(`that card is in meld ${group + 1}: remove the meld to use it again`, false);
      else if (c.select) { state.selected.has(i) ? state.selected.delete(i) : state.selected.add(i); drawHand(m, c); drawComposers(c, m); }
      else if (h.refused) notice(h.refused, true);
    };
    if (h.move || (c.select && group < 0)) { // a control: reachable by Tab, played with Enter or Space, named for screen readers
      node.setAttribute("role", "button");
      node.tabIndex = 0;
      node.setAttribute("aria-label", (h.move ? "play " : c.select ? (state.selected.has(i) ? "unpick " : "pick ") : "")
        + cardName(h.card));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); act(); }
      });
    } else if (h.refused) {
      node.setAttribute("aria-label", cardName(h.card) + ": " + h.refused);
    }
    if (h.move) { // or dragged onto the table
      node.dataset.move = h.move;
      node.draggable = true;
      node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", h.move));
    }
    node.addEventListener("click", act);
    hand.append(node);
  });
}

function selectedCards(m) {
  return [...state.selected].sort((a, b) => a - b).map((i) => m.hand[i].card);
}

function drawComposers(c, m) {
  const box = $("composers");
  box.textContent = "";
  if (!c.composers.length) return;
  const picked = selectedCards(m);
  box.append(el("div", { class: "muted", text: picked.length ? "Picked: " + picked.map(cardText).join(" ") : "Pick cards in your hand, then:" }));
  const meldIds = [];
  for (const p of m.panels) if (p.kind === "melds") for (const meld of p.melds) meldIds.push(meld.id);
  for (const comp of c.composers) {
    const [least, most] = comp.count || [1, 60];
    const row = el("div", { class: "composer" });
    let target = null;
    if (comp.meld) {
      if (!meldIds.length) continue;
      target = el("select", { "aria-label": "meld" });
      for (const id of meldIds) target.append(el("option", { value: id, text: `[${id}]` }));
    }
    if (comp.groups) {
      if (state.groups.length) { // the melds built so far, each removable, before going down
        const list = el("ol", { class: "groups", "aria-label": "melds so far" });
        state.groups.forEach((g, n) => {
          const item = el("li", { "data-group": n + 1 }, el("span", { class: "muted", text: `meld ${n + 1}: ` }));
          for (const i of g) item.append(cardEl(m.hand[i].card, "small"));
          const codes = g.map((i) => m.hand[i].card);
          const check = state.checks.get(codes.join(" "));
          if (!check) send({ type: "check", cards: codes }); // asked once: the answer redraws this list
          else item.append(el("span", { class: check.ok ? "check ok" : "check bad", role: "status",
            text: check.ok ? `✓ ${check.text}` : `✗ ${check.text}` }));
          item.append(el("button", { type: "button", class: "remove", "aria-label": `remove meld ${n + 1}`, onclick: () => {
            state.groups.splice(n, 1); drawHand(m, c); drawComposers(c, m);
          } }, "×"));
          list.append(item);
        });
        row.append(list);
        row.append(el("button", { type: "button", onclick: () => { state.groups = []; drawHand(m, c); drawComposers(c, m); } },
          "Clear the melds"));
      }
      row.append(el("button", { type: "button", disabled: !picked.length, onclick: () => {
        state.groups.push([...state.selected].sort((a, b) => a - b)); state.selected.clear(); drawHand(m, c); drawComposers(c, m);
      } }, "Add as a meld"));
    }
    const ready = comp.groups ? (state.groups.length + (picked.length ? 1 : 0)) > 0 : picked.length >= least && picked.length <= most;
    const button = el("button", { type: "button", class: "primary", disabled: !ready, "data-composer": comp.label }, comp.label);
    button.addEventListener("click", () => {
      const groups = comp.groups ? [...state.groups.map((g) => g.map((i) => m.hand[i].card)), ...(picked.length ? [picked] : [])] : [];
      const move = comp.template.replace("{cards}", picked.join(" ")).replace("{groups}", groups.map((g) => g.join(" ")).join(" | ")).replace("{meld}", target ? target.value : "");
      sendMove(move);
    });
    row.append(button);
    if (target) row.append(" ", target);
    box.append(row);
  }
}

function drawSheet(m) {
  const sheet = $("sheet");
  sheet.textContent = "";
  const head = el("tr", {}, el("th", { text: "round" }));
  for (const s of m.seats) head.append(el("th", { text: s.name }));
  sheet.append(head);
  for (const row of m.sheet) {
    const tr = el("tr", {}, el("td", { text: String(row.round) }));
    for (const cell of row.cells) tr.append(el("td", { text: cell }));
    sheet.append(tr);
  }
  const total = el("tr", {}, el("th", { text: "total" }));
  for (const s of m.seats) total.append(el("th", { text: String(s.total) }));
  sheet.append(total);
  $("sheet-legend").textContent = m.sheet_legend;
}

// --- start ------------------------------------------------------------------------------------
function init() {
  $("join-form").addEventListener("submit", joinOrCreate);
  $("make-room").addEventListener("click", makeRoom);
  $("check-yaml").addEventListener("click", checkYaml);
  $("ruleset").addEventListener("change", () => { uploaded = null; describeRules(currentRules()); });
  $("players").addEventListener("change", () => seatKinds(currentRules()));
  $("yaml-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    if (file.size > 64 * 1024) { showProblems({ error: "the file is larger than 64 kB" }); return; }
    $("yaml").value = await file.text();
    checkYaml();
  });
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("copy-share").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("share").href));
  $("typed").addEventListener("submit", (event) => { event.preventDefault(); const v = $("typed-move").value.trim(); if (v) { sendMove(v); $("typed-move").value = ""; } });
  setUpChat();
  setUpSettings();
  const params = new URLSearchParams(location.search);
  const room = params.get("room");
  const token = params.get("token");
  state.name = localStorage.getItem("cardrules:name") || "";
  $("your-name").value = state.name;
  if (room && token) localStorage.setItem(tokenKey(room), token);
  if (room && localStorage.getItem(tokenKey(room))) { state.room = room; connect(); return; }
  if (room) $("room-name").value = room;
  show("entry");
}

init();
