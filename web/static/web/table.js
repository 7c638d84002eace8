// The game table. The client never decides legality: every gesture becomes an action sent
// with `expect` (the moves it last saw), and the table is redrawn from the state the server
// returns; a refused action leaves the table as it was and shows the server's message.
import { api, ApiError, currentUser, el, format, formatSeconds, pageLang, strings } from "./api.js";
import { cardLabel } from "./cards.js";
import { renderTable } from "./render.js";

const t = strings();
const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const table = document.getElementById("table");
const messageBox = document.getElementById("message");
const description = document.getElementById("description");
const doubleClick = document.getElementById("double-click");

let game = null;
let fetchedAt = 0;
let busy = false;
let picked = null; // keyboard pick-up: {pile, count}
let depth = {}; // keyboard: which card of each column is chosen, counted from the end

// ---- settings -------------------------------------------------------------------------------

doubleClick.checked = localStorage.getItem("doubleClick") !== "off";
doubleClick.addEventListener("change", () => {
  localStorage.setItem("doubleClick", doubleClick.checked ? "on" : "off");
});
const settingsDialog = document.getElementById("settings");
document.getElementById("settings-open").addEventListener("click", () => settingsDialog.showModal());

// ---- talking to the server ------------------------------------------------------------------

function say(text) {
  messageBox.textContent = text || "";
}

// Each state asks for its own description; answers can come back out of order (a draw's text
// after the undo that followed it), so only the answer for the latest state is shown.
let textTicket = 0;

async function refreshText(retries = 2) {
  const ticket = ++textTicket;
  const moves = game.moves;
  try {
    const result = await api("GET", `games/${gameId}/text?lang=${pageLang()}`);
    if (ticket !== textTicket) return;
    description.textContent = result.text;
    description.dataset.moves = String(moves);
  } catch (error) {
    // The table is up to date already; a lost answer is asked for again, shortly.
    if (ticket === textTicket && retries > 0) setTimeout(() => {
      if (ticket === textTicket) refreshText(retries - 1);
    }, 1000);
  }
}

function accept(next) {
  const wasPlaying = game && game.status === "playing";
  game = next;
  fetchedAt = performance.now();
  render();
  refreshText();
  if (wasPlaying && game.status !== "playing") showEnd();
}

async function load() {
  try {
    accept(await api("GET", `games/${gameId}`));
    if (game.status !== "playing") showEnd();
  } catch (error) {
    say(error.message);
  }
}

// Sends one action; resolves true when the server applied it.
async function act(action) {
  if (!game || busy) return false;
  busy = true;
  try {
    const result = await api("POST", `games/${gameId}/actions`, { ...action, expect: game.moves });
    say("");
    accept(result.game);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "stale") {
      await load();
      say(t.stale);
    } else {
      say(error.message);
    }
    return false;
  } finally {
    busy = false;
  }
}

function drawOrRecycle() {
  if (!game) return;
  act({ type: game.stock.count === 0 && game.waste.count > 0 ? "recycle" : "draw" });
}

function tap(pile, count) {
  const action = { type: "tap", from: pile, columns: doubleClick.checked };
  if (count > 1) action.count = count;
  return act(action);
}

// ---- drawing the table ----------------------------------------------------------------------

function renderHud() {
  document.getElementById("score").textContent = game.score;
  document.getElementById("moves").textContent = game.moves;
  const undo = document.getElementById("undo");
  undo.disabled = game.undo_available === 0 || game.status !== "playing";
  document.getElementById("resign").disabled = game.status !== "playing";
  const deal = document.getElementById("deal");
  // A daily game in progress has no code (API.md): the box stays hidden.
  deal.hidden = !game.code;
  document.getElementById("deal-code").textContent = game.code || "";
  const mode = game.draw === 3 ? t.draw3 : t.draw1;
  document.getElementById("mode").textContent = game.daily ? `${t.daily} ${game.daily.date} · ${mode}` : mode;
  const status = document.getElementById("status");
  status.hidden = game.status === "playing";
  status.textContent = { won: t.won, resigned: t.resigned }[game.status] || "";
  status.dataset.status = game.status;
  tickClock();
}

function render() {
  renderTable(table, game);
  renderHud();
  markKeyboardChoice();
}

function tickClock() {
  if (!game) return;
  let seconds = game.seconds;
  if (game.status === "playing") seconds += (performance.now() - fetchedAt) / 1000;
  document.getElementById("clock").textContent = formatSeconds(seconds);
}
setInterval(tickClock, 250);

// ---- the end of a game ----------------------------------------------------------------------

function showEnd() {
  const dialog = document.getElementById("win");
  document.getElementById("win-title").textContent = game.status === "won" ? t.you_won : t.game_over;
  document.getElementById("win-score").textContent = game.score;
  document.getElementById("win-moves").textContent = game.moves;
  document.getElementById("win-time").textContent = formatSeconds(game.seconds);
  const rankLine = document.getElementById("win-rank");
  rankLine.textContent = "";
  const boardLink = document.getElementById("win-board");
  boardLink.hidden = !game.daily;
  if (!dialog.open) dialog.showModal();
  if (game.daily) {
    boardLink.href = `/daily/${game.daily.date}/${game.draw}/`;
    // The server adds the board standing to a finished daily game (absent if disqualified).
    if (game.daily.rank) {
      rankLine.textContent = format(t.rank_line, { rank: game.daily.rank, count: game.daily.players });
    }
  }
}
document.getElementById("win-close").addEventListener("click", () => document.getElementById("win").close());

// ---- buttons --------------------------------------------------------------------------------

document.getElementById("undo").addEventListener("click", () => act({ type: "undo" }));
document.getElementById("resign").addEventListener("click", () => {
  if (confirm(t.confirm_resign)) act({ type: "resign" });
});
document.getElementById("copy-code").addEventListener("click", async () => {
  const code = document.getElementById("deal-code").textContent;
  try {
    await navigator.clipboard.writeText(code);
  } catch (error) {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("deal-code"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    document.execCommand("copy");
  }
  say(t.copied);
});

// ---- pointer: drag and drop, and tap --------------------------------------------------------

// The card under the pointer that may be picked up, with its pile and how many cards it takes.
function grabbable(target) {
  const card = target.closest(".card.face");
  const pile = target.closest("[data-pile]");
  if (!card || !pile) return null;
  const name = pile.dataset.pile;
  if (name.startsWith("tableau:")) return { pile: name, card, count: Number(card.dataset.count) };
  if (card.classList.contains("top")) return { pile: name, card, count: 1 };
  return null;
}

let gesture = null;
const DRAG_THRESHOLD = 6;

table.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || !game || game.status !== "playing") return;
  const pileNode = event.target.closest("[data-pile]");
  if (!pileNode) return;
  if (pileNode.dataset.pile === "stock") {
    event.preventDefault();
    drawOrRecycle();
    return;
  }
  const grab = grabbable(event.target);
  if (!grab) return;
  event.preventDefault();
  const cards = grab.pile.startsWith("tableau:")
    ? [...pileNode.querySelectorAll(".card.face")].slice(-grab.count)
    : [grab.card];
  gesture = { ...grab, cards, startX: event.clientX, startY: event.clientY, ghost: null, id: event.pointerId };
  table.setPointerCapture(event.pointerId);
});

function startDrag() {
  const first = gesture.cards[0].getBoundingClientRect();
  const ghost = el("div", { class: "ghost" });
  ghost.style.left = `${first.left}px`;
  ghost.style.top = `${first.top}px`;
  for (const card of gesture.cards) {
    const rect = card.getBoundingClientRect();
    const copy = card.cloneNode(true);
    copy.style.position = "absolute";
    copy.style.left = `${rect.left - first.left}px`;
    copy.style.top = `${rect.top - first.top}px`;
    copy.style.margin = "0";
    ghost.append(copy);
    card.classList.add("lifted");
  }
  document.body.append(ghost);
  gesture.ghost = ghost;
}

table.addEventListener("pointermove", (event) => {
  if (!gesture || event.pointerId !== gesture.id) return;
  const dx = event.clientX - gesture.startX;
  const dy = event.clientY - gesture.startY;
  if (!gesture.ghost && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
  if (!gesture.ghost) startDrag();
  gesture.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
});

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  const pile = under && under.closest("#table [data-pile]");
  return pile ? pile.dataset.pile : null;
}

function snapBack(current) {
  const { ghost, cards } = current;
  ghost.classList.add("returning");
  ghost.style.transform = "translate(0px, 0px)";
  const done = () => {
    ghost.remove();
    for (const card of cards) card.classList.remove("lifted");
  };
  ghost.addEventListener("transitionend", done, { once: true });
  setTimeout(done, 400);
}

table.addEventListener("pointerup", async (event) => {
  if (!gesture || event.pointerId !== gesture.id) return;
  const current = gesture;
  gesture = null;
  if (!current.ghost) {
    tap(current.pile, current.count);
    return;
  }
  current.ghost.style.display = "none";
  const target = dropTarget(event.clientX, event.clientY);
  current.ghost.style.display = "";
  if (!target || target === current.pile) {
    snapBack(current);
    return;
  }
  const action = { type: "move", from: current.pile, to: target };
  if (current.count > 1) action.count = current.count;
  const applied = await act(action);
  if (applied) current.ghost.remove();
  else snapBack(current);
});

table.addEventListener("pointercancel", () => {
  if (gesture && gesture.ghost) snapBack(gesture);
  gesture = null;
});

// ---- keyboard -------------------------------------------------------------------------------

function pileOrder() {
  return [...table.querySelectorAll("[data-pile]")].sort((a, b) => {
    const order = (node) => {
      const name = node.dataset.pile;
      if (name === "stock") return 0;
      if (name === "waste") return 1;
      if (name.startsWith("foundation")) return 2;
      if (name === "reserve") return 3;
      return 4;
    };
    return order(a) - order(b);
  });
}

function focusedPile() {
  const node = document.activeElement && document.activeElement.closest && document.activeElement.closest("#table [data-pile]");
  return node ? node.dataset.pile : null;
}

function countFor(pile) {
  if (!pile.startsWith("tableau:")) return 1;
  return depth[pile] || 1;
}

function markKeyboardChoice() {
  for (const node of table.querySelectorAll(".chosen, .picked")) node.classList.remove("chosen", "picked");
  for (const [pile, count] of Object.entries(depth)) {
    const cards = table.querySelectorAll(`[data-pile="${pile}"] .card.face`);
    const card = cards[cards.length - count];
    if (card) card.classList.add("chosen");
  }
  if (picked) {
    const node = table.querySelector(`[data-pile="${picked.pile}"]`);
    if (node) node.classList.add("picked");
  }
}

function focusPile(name) {
  const node = table.querySelector(`[data-pile="${name}"]`);
  if (node) node.focus();
}

document.addEventListener("keydown", async (event) => {
  if (!game) return;
  const tag = event.target.tagName;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  // Space and Enter on a focused button or link keep their usual meaning.
  if (["BUTTON", "A"].includes(tag) && (event.key === " " || event.key === "Enter")) return;
  if (document.querySelector("dialog[open]")) return;
  const key = event.key;
  const lower = key.toLowerCase();
  if (lower === "z" && !event.altKey) {
    event.preventDefault();
    act({ type: "undo" });
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (key === " " || lower === "d") {
    event.preventDefault();
    drawOrRecycle();
    return;
  }
  const current = focusedPile();
  if (key === "ArrowRight" || key === "ArrowLeft") {
    event.preventDefault();
    const order = pileOrder().map((node) => node.dataset.pile);
    const index = current ? order.indexOf(current) : -1;
    const next = key === "ArrowRight" ? index + 1 : index - 1;
    focusPile(order[(next + order.length) % order.length]);
    return;
  }
  if ((key === "ArrowUp" || key === "ArrowDown") && current && current.startsWith("tableau:")) {
    event.preventDefault();
    const size = game.tableau[Number(current.split(":")[1]) - 1].length;
    const now = depth[current] || 1;
    depth[current] = Math.min(Math.max(key === "ArrowUp" ? now + 1 : now - 1, 1), Math.max(size, 1));
    markKeyboardChoice();
    return;
  }
  if (key === "Escape") {
    picked = null;
    depth = {};
    markKeyboardChoice();
    say("");
    return;
  }
  if (!current) return;
  if (lower === "t") {
    event.preventDefault();
    const count = countFor(current);
    depth = {};
    await tap(current, count);
    focusPile(current);
    return;
  }
  if (key === "Enter") {
    event.preventDefault();
    if (current === "stock") {
      drawOrRecycle();
      return;
    }
    if (!picked) {
      const count = countFor(current);
      const cards = table.querySelectorAll(`[data-pile="${current}"] .card.face`);
      const card = current === "waste" || current === "reserve" || current.startsWith("foundation")
        ? table.querySelector(`[data-pile="${current}"] .card.face.top`)
        : cards[cards.length - count];
      if (!card) return;
      picked = { pile: current, count };
      say(format(t.picked, { card: cardLabel(card.dataset.card) }));
      markKeyboardChoice();
      return;
    }
    const from = picked;
    picked = null;
    depth = {};
    if (from.pile === current) await tap(current, from.count);
    else {
      const action = { type: "move", from: from.pile, to: current };
      if (from.count > 1) action.count = from.count;
      await act(action);
    }
    markKeyboardChoice();
    focusPile(current);
  }
});

// Another tab may have played on: catch up when this one comes back into view.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") load();
});

load();
