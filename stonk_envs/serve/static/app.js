"use strict";
// The page of stonk-envs serve: start a table, play your seat(s) by long-polling the server for
// your view, replay saved records. Everything shown comes from the server as text (no HTML).

const $ = (id) => document.getElementById(id);
let games = {};
let current = null; // {table, seats: [{seat, token}], index}
let state = null; // the latest view of the current seat
let pollId = 0; // a new poll loop ends the older one
let keyBuffer = "";
let drawnMoves = ""; // what the move buttons show now
let clockLeftAt = null; // {left, at} for the countdown

// -- talking to the server ---------------------------------------------------------
async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  let data = null;
  try { data = await response.json(); } catch (_) { data = {error: `the server answered ${response.status} without JSON`}; }
  if (!response.ok) {
    const error = new Error(data.error || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function show(section) {
  for (const id of ["lobby", "table", "replays"]) $(id).hidden = id !== section;
  if (section === "replays") loadRecords();
}

function say(text, isError) {
  $("message").textContent = text || "";
  $("message").className = isError ? "error" : "";
}

// -- the new game form -------------------------------------------------------------
function seatChoices(game) {
  const choices = [["you", "you"], ["person", "another person (joins by link)"]];
  for (const name of game.builtin) choices.push([name, name]);
  choices.push(["file", "a policy file..."]);
  return choices;
}

function fillSeats() {
  const game = games[$("game").value];
  const n = +$("num-players").value;
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat select")].map((s) => s.value);
  box.querySelectorAll(".seat").forEach((el) => el.remove());
  for (let p = 0; p < n; p++) {
    const row = document.createElement("label");
    row.className = "seat";
    row.append(`player_${p} `);
    const select = document.createElement("select");
    select.id = `seat-${p}`;
    for (const [value, text] of seatChoices(game)) select.add(new Option(text, value));
    select.value = old[p] && [...select.options].some((o) => o.value === old[p]) ? old[p] : (p === 0 ? "you" : "heuristic");
    const path = document.createElement("input");
    path.id = `seat-${p}-file`;
    path.placeholder = "path to a policy file on the server's machine";
    path.size = 40;
    path.hidden = select.value !== "file";
    select.onchange = () => { path.hidden = select.value !== "file"; };
    row.append(select, " ", path);
    box.append(row);
  }
}

function fillGame() {
  const game = games[$("game").value];
  const players = $("num-players");
  players.textContent = "";
  for (const n of game.players) players.add(new Option(String(n), String(n)));
  players.value = String(game.default_players);
  $("clock-setup").hidden = !game.realtime;
  const options = $("options");
  options.textContent = "";
  for (const option of game.options) {
    const label = document.createElement("label");
    label.append(`${option.name} `);
    const input = document.createElement("input");
    input.id = `option-${option.name}`;
    input.dataset.name = option.name;
    input.dataset.kind = option.kind;
    const shown = option.default === null ? "" : String(option.default);
    if (option.kind === "boolean") { input.type = "checkbox"; input.checked = option.default; }
    else { input.value = shown; input.size = 8; if (option.default === null) input.placeholder = "none"; }
    input.dataset.default = shown;
    label.append(input);
    options.append(label);
  }
  fillSeats();
}

function optionValues() {
  const out = {};
  for (const input of $("options").querySelectorAll("input")) {
    const kind = input.dataset.kind;
    const value = kind === "boolean" ? String(input.checked) : input.value.trim();
    if (value === input.dataset.default) continue;
    out[input.dataset.name] = kind === "boolean" ? input.checked : kind === "number" && value !== "" && !isNaN(+value) ? +value : value;
  }
  return out;
}

async function startGame(event) {
  event.preventDefault();
  $("lobby-error").textContent = "";
  const seats = [];
  for (let p = 0; p < +$("num-players").value; p++) {
    const choice = $(`seat-${p}`).value;
    seats.push(choice === "file" ? $(`seat-${p}-file`).value.trim() : choice);
  }
  const request = {game: $("game").value, seats, options: optionValues()};
  const seed = $("seed").value.trim();
  if (seed !== "") request.seed = Number(seed);
  if (games[request.game].realtime) {
    request.clock = {mode: document.querySelector("input[name=clock-mode]:checked").value, seconds: +$("clock-seconds").value};
  }
  $("start").disabled = true;
  try {
    const made = await api("POST", "/api/tables", request);
    sit(made);
  } catch (error) {
    $("lobby-error").textContent = error.message;
  } finally {
    $("start").disabled = false;
  }
}

// -- sitting at a table ------------------------------------------------------------
function sit(held) {
  sessionStorage.setItem(`stonk-serve:${held.table}`, JSON.stringify(held.seats));
  history.replaceState(null, "", `#table=${held.table}`);
  current = {table: held.table, seats: held.seats, index: 0};
  state = null;
  $("go-table").hidden = false;
  drawSeatTabs();
  show("table");
  say("");
  poll();
}

async function join(tableId) {
  try {
    sit(await api("POST", "/api/join", {table: tableId}));
  } catch (error) {
    show("lobby");
    $("lobby-error").textContent = `cannot join table ${tableId}: ${error.message}`;
  }
}

function drawSeatTabs() {
  const tabs = $("seat-tabs");
  tabs.textContent = "";
  if (current.seats.length < 2) return;
  current.seats.forEach((held, k) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `player_${held.seat}`;
    button.dataset.seat = held.seat;
    if (k === current.index) button.className = "current";
    button.onclick = () => switchSeat(k);
    tabs.append(button);
  });
}

function switchSeat(k) {
  current.index = k;
  state = null;
  keyBuffer = "";
  drawSeatTabs();
  poll();
}

async function poll() {
  const id = ++pollId;
  let failures = 0;
  while (id === pollId && current) {
    const held = current.seats[current.index];
    const version = state ? `&version=${state.version}` : "";
    try {
      const view = await api("GET", `/api/state?table=${encodeURIComponent(current.table)}${version}`, undefined, held.token);
      if (id !== pollId) return;
      if (failures) say("connection back");
      failures = 0;
      draw(view);
    } catch (error) {
      if (id !== pollId) return;
      if (error.status === 403 || error.status === 404) { say(error.message, true); return; }
      failures += 1;
      say(`lost the connection to the server (${error.message}); trying again...`, true);
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * failures)));
    }
  }
}

function draw(view) {
  const fresh = !state || state.step !== view.step || state.seat !== view.seat;
  if (state && fresh && !$("message").classList.contains("error")) say("");
  state = view;
  document.body.dataset.step = view.step;
  document.body.dataset.over = view.over || view.stopped || Boolean(view.failure);
  $("title").textContent = `${view.game} - player_${view.seat} (you), table ${view.table}, step ${view.step + 1}`;
  $("players").textContent = "seats: " + view.players.map((name, p) => `player_${p} ${p === view.seat ? "you" : name}`).join(", ");
  const share = view.free_seats.length > 0;
  $("share").hidden = !share;
  if (share) {
    $("share-link").value = `${location.origin}/#join=${view.table}`;
    $("free-seats").textContent = view.free_seats.map((p) => `player_${p}`).join(", ");
  }
  $("view").textContent = view.view;
  if (fresh) loadPicture();
  $("void").textContent = view.void ? `your move was void: ${view.void}` : "";
  $("left-out").textContent = view.left_out ? `(${view.left_out} earlier moves left out)` : "";
  const since = $("since");
  since.textContent = "";
  for (const line of view.since) {
    const item = document.createElement("li");
    item.textContent = line;
    if (line.includes(" - VOID: ")) item.className = "void";
    since.append(item);
  }
  $("since-box").hidden = view.since.length === 0;
  $("summaries").textContent = view.summaries.join("\n");
  drawClock(view);
  drawResult(view);
  drawMoves(view, fresh);
  const waiting = view.waiting_for.map((w) => `player_${w.seat}${w.seat === view.seat ? " (you)" : ""}${w.away ? " (away: not seen lately)" : ""}`);
  $("waiting").textContent = view.over || view.stopped ? "" : waiting.length ? `waiting for ${waiting.join(", ")}` : "";
  if (view.failure) say(view.failure, true);
  else if (view.stopped && !view.over) say("the game was stopped before its end; its record is saved");
  // with several seats in this browser, go to one whose move it is once this one has moved
  if ((!view.to_act || view.chosen !== null) && current.seats.length > 1) {
    const next = current.seats.findIndex((held) => view.waiting_for.some((w) => w.seat === held.seat));
    if (next >= 0 && next !== current.index) switchSeat(next);
  }
  for (const button of $("seat-tabs").querySelectorAll("button")) {
    button.classList.toggle("to-act", view.waiting_for.some((w) => String(w.seat) === button.dataset.seat));
  }
}

async function loadPicture() {
  const held = current.seats[current.index];
  try {
    const response = await fetch(`/api/picture?table=${encodeURIComponent(current.table)}`, {headers: {"X-Seat-Token": held.token}});
    if (!response.ok) return;
    const old = $("picture").src;
    $("picture").src = URL.createObjectURL(await response.blob());
    $("picture").hidden = false;
    if (old.startsWith("blob:")) URL.revokeObjectURL(old);
  } catch (_) { /* the view in words stays; the next step brings a new picture */ }
}

function drawMoves(view, fresh) {
  const box = $("moves");
  if (fresh) { keyBuffer = ""; $("key").value = ""; }
  $("move-box").hidden = !view.to_act;
  const filter = $("filter").value.trim().toLowerCase();
  // the same moves keep their buttons (a click in progress is not lost); only the chosen one changes
  const signature = JSON.stringify([view.table, view.seat, view.step, filter, view.moves]);
  if (signature === drawnMoves) {
    for (const button of box.querySelectorAll("button.move")) button.classList.toggle("chosen", +button.dataset.key === view.chosen);
    return;
  }
  drawnMoves = signature;
  box.textContent = "";
  for (const move of view.moves) {
    if (filter && !move.name.toLowerCase().includes(filter) && String(move.key) !== filter) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move" + (view.chosen === move.key ? " chosen" : "");
    button.dataset.key = move.key;
    const key = document.createElement("kbd");
    key.textContent = move.key;
    button.append(key, " ", move.name);
    button.onclick = () => play(move.key);
    box.append(button);
  }
}

function drawClock(view) {
  const clock = view.clock;
  $("clock").hidden = !clock || view.over || view.stopped;
  if (!clock) { clockLeftAt = null; return; }
  for (const radio of document.querySelectorAll("input[name=clock-live]")) radio.checked = radio.value === clock.mode;
  if (document.activeElement !== $("clock-live-seconds")) $("clock-live-seconds").value = clock.seconds;
  $("pause").textContent = clock.paused ? "resume" : "pause";
  clockLeftAt = clock.left === null ? null : {left: clock.left, at: performance.now(), paused: clock.paused};
  tickClock();
}

function tickClock() {
  if (!clockLeftAt) { $("clock-left").textContent = state && state.clock && state.clock.paused ? "paused" : ""; return; }
  const passed = clockLeftAt.paused ? 0 : (performance.now() - clockLeftAt.at) / 1000;
  const left = Math.max(0, clockLeftAt.left - passed);
  $("clock-left").textContent = `${clockLeftAt.paused ? "paused, " : ""}${left.toFixed(1)} s left in this tick`;
}

function drawResult(view) {
  $("result").hidden = !(view.over || view.stopped || view.failure);
  $("record").textContent = view.record || "(being saved)";
  $("replay-this").disabled = !view.record;
  $("winners").textContent = view.result ? view.result.winners : "";
  const body = $("scores").querySelector("tbody");
  body.textContent = "";
  if (!view.result) return;
  const best = Math.max(...view.result.scores);
  view.result.scores.forEach((score, p) => {
    const row = body.insertRow();
    for (const text of [`player_${p}${p === view.seat ? " (you)" : ""}`, view.players[p], String(score), score === best ? "winner" : ""]) {
      row.insertCell().textContent = text;
    }
  });
}

async function play(key) {
  if (!state || !state.to_act) return;
  const held = current.seats[current.index];
  try {
    const done = await api("POST", "/api/move", {table: current.table, key, step: state.step}, held.token);
    say(`player_${state.seat} ${done.ok}`);
  } catch (error) {
    say(error.message, true);
  }
}

async function setClock(change) {
  if (!state || !state.clock) return;
  const clock = {mode: state.clock.mode, seconds: state.clock.seconds, paused: state.clock.paused, ...change};
  try {
    await api("POST", "/api/clock", {table: current.table, ...clock}, current.seats[current.index].token);
  } catch (error) {
    say(error.message, true);
  }
}

// -- keyboard: the terminal's keys --------------------------------------------------
function onKey(event) {
  if ($("table").hidden || !state || !state.to_act) return;
  const typing = event.target instanceof HTMLInputElement && event.target.id !== "key";
  if (typing) return;
  if (event.target.id === "key") { event.preventDefault(); }
  if (/^[0-9]$/.test(event.key)) keyBuffer += event.key;
  else if (event.key === "Backspace") keyBuffer = keyBuffer.slice(0, -1);
  else if (event.key === "Escape") keyBuffer = "";
  else if (event.key === "Enter") {
    event.preventDefault();
    if (keyBuffer === "" && state.wait_key !== null) play(state.wait_key);
    else if (keyBuffer === "") say("choose a move: type its key (the number before it) or click it", true);
    else if (state.moves.some((m) => m.key === +keyBuffer)) play(+keyBuffer);
    else say(`move ${keyBuffer} is not among your moves now`, true);
    keyBuffer = "";
  } else return;
  $("key").value = keyBuffer;
}

// -- replays ------------------------------------------------------------------------
async function loadRecords(selected) {
  try {
    const {records} = await api("GET", "/api/records");
    const list = $("record-list");
    list.textContent = "";
    for (const record of records) list.add(new Option(record.name, record.name));
    if (selected) list.value = selected;
    $("replay-error").textContent = records.length ? "" : "no saved records yet";
  } catch (error) {
    $("replay-error").textContent = error.message;
  }
}

function openReplay() {
  const name = $("record-list").value;
  if (!name) return;
  const seat = $("replay-seat").value;
  const quiet = $("replay-quiet").checked ? "&quiet=1" : "";
  $("replay-frame").src = `/replay?name=${encodeURIComponent(name)}&seat=${seat}${quiet}`;
}

async function replayThis() {
  if (!state || !state.record) return;
  show("replays");
  await loadRecords(state.record);
  const seat = $("replay-seat");
  seat.length = 1;
  state.players.forEach((_, p) => seat.add(new Option(`player_${p}`, String(p))));
  openReplay();
}

// -- start ---------------------------------------------------------------------------
async function main() {
  const {games: list} = await api("GET", "/api/games");
  for (const game of list) {
    games[game.name] = game;
    $("game").add(new Option(game.name, game.name));
  }
  $("game").value = list.some((g) => g.name === "stocks_and_bombs") ? "stocks_and_bombs" : list[0].name;
  fillGame();
  $("game").onchange = fillGame;
  $("num-players").onchange = fillSeats;
  $("new-game").onsubmit = startGame;
  $("go-lobby").onclick = () => show("lobby");
  $("go-table").onclick = () => show("table");
  $("go-replays").onclick = () => show("replays");
  $("replay-open").onclick = openReplay;
  $("replay-this").onclick = replayThis;
  $("filter").oninput = () => state && drawMoves(state, false);
  $("pause").onclick = () => setClock({paused: !state.clock.paused});
  $("clock-live-seconds").onchange = () => setClock({seconds: +$("clock-live-seconds").value});
  for (const radio of document.querySelectorAll("input[name=clock-live]")) radio.onchange = () => setClock({mode: radio.value});
  document.addEventListener("keydown", onKey);
  setInterval(tickClock, 100);
  const joining = /#join=([\w-]+)/.exec(location.hash);
  const sitting = /#table=([\w-]+)/.exec(location.hash);
  if (joining) join(joining[1]);
  else if (sitting && sessionStorage.getItem(`stonk-serve:${sitting[1]}`)) {
    sit({table: sitting[1], seats: JSON.parse(sessionStorage.getItem(`stonk-serve:${sitting[1]}`))});
  }
}

main().catch((error) => { $("lobby-error").textContent = `the page could not start: ${error.message}`; });
