// The game table. The client never decides legality: every gesture becomes an action sent
// with `expect` (the moves it last saw), and the table is redrawn from the state the server
// returns; a refused action leaves the table as it was and says why in the page's language.
// Quick inputs queue: each action goes out once the previous one is answered, in order.
import { api, ApiError, counted, el, format, formatSeconds, pageLang } from "./api.js";
import {
  animateAutoFinish,
  animateChanges,
  animateDeal,
  animateRecycle,
  celebrate,
  finishAnimations,
  measure,
  moveOrigin,
  shake,
} from "./motion.js";
import { cardWords, nextRank } from "./cards.js";
import { actionText, cardsHome, errorText, parText } from "./messages.js";
import { fitColumns, renderTable } from "./render.js";
import { applyLook } from "./site.js";
import { confirmLeave } from "./dialogs.js";
import { play, setSound, soundOn } from "./sound.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const table = document.getElementById("table");
const messageBox = document.getElementById("message");
const announcer = document.getElementById("announce");
const description = document.getElementById("description");
const doubleClick = document.getElementById("double-click");

let game = null;
let fetchedAt = 0;
let picked = null; // keyboard pick-up: {pile, count}
let depth = {}; // keyboard: which card of each column is chosen, counted from the end

// ---- settings -------------------------------------------------------------------------------

doubleClick.checked = localStorage.getItem("doubleClick") !== "off";
doubleClick.addEventListener("change", () => {
  localStorage.setItem("doubleClick", doubleClick.checked ? "on" : "off");
});
for (const select of document.querySelectorAll("[data-look]")) {
  select.value = document.body.dataset[select.dataset.look] || select.value;
  select.addEventListener("change", () => {
    localStorage.setItem(select.dataset.look, select.value);
    applyLook();
    fitColumns(table);
  });
}
const soundBox = document.getElementById("sound");
soundBox.checked = soundOn();
soundBox.addEventListener("change", () => setSound(soundBox.checked));
const settingsDialog = document.getElementById("settings");
document.getElementById("settings-open").addEventListener("click", () => {
  closeMenu();
  settingsDialog.showModal();
});

// On a phone the less used controls sit in a sheet above the bottom bar, opened by the menu
// button (on a desktop the sheet is the header's second half and the button is not shown).
const hud = root.querySelector(".hud");
const menuButton = document.getElementById("menu-open");
function closeMenu() {
  hud.classList.remove("menu-open");
  menuButton.setAttribute("aria-expanded", "false");
}
menuButton.addEventListener("click", () => {
  const open = !hud.classList.contains("menu-open");
  hud.classList.toggle("menu-open", open);
  menuButton.setAttribute("aria-expanded", String(open));
});
document.getElementById("more").addEventListener("click", (event) => {
  if (event.target.closest("button, a")) closeMenu();
});
// The sheet closes with Esc or a touch anywhere else, as menus do.
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && hud.classList.contains("menu-open")) closeMenu();
});
document.addEventListener("pointerdown", (event) => {
  if (hud.classList.contains("menu-open") && !event.target.closest("#more, #menu-open")) closeMenu();
});

// ---- talking to the server ------------------------------------------------------------------

// A toast over the felt: an error (announced at once) or a neutral note, shown by the pile it
// is about (`near`, a pile name) or at the top of the felt, and faded out after a while.
let toastTimer = 0;
function say(text, kind = "note", near = null) {
  messageBox.textContent = text || "";
  messageBox.dataset.kind = kind;
  messageBox.setAttribute("role", kind === "error" ? "alert" : "status");
  clearTimeout(toastTimer);
  messageBox.classList.toggle("shown", Boolean(text));
  if (!text) return;
  placeToast(near);
  toastTimer = setTimeout(() => messageBox.classList.remove("shown"), kind === "error" ? 6000 : 4000);
}

// Just below the pile concerned, kept inside the felt; else along the felt's top edge.
function placeToast(near) {
  const box = root.getBoundingClientRect();
  const felt = table.getBoundingClientRect();
  const pile = near && table.querySelector(`[data-pile="${near}"]`);
  const cards = pile && pile.querySelectorAll(".card");
  const anchor = cards && cards.length ? cards[cards.length - 1].getBoundingClientRect() : null;
  const width = Math.min(felt.width - 16, 360);
  messageBox.style.maxWidth = `${width}px`;
  let top = felt.top + 8;
  let left = felt.left + felt.width / 2;
  if (anchor) {
    top = Math.min(anchor.bottom + 6, felt.bottom - 60);
    left = Math.min(Math.max(anchor.left + anchor.width / 2, felt.left + width / 2 + 8), felt.right - width / 2 - 8);
  }
  messageBox.style.top = `${top - box.top}px`;
  messageBox.style.left = `${left - box.left}px`;
}

// What a screen reader hears after a move: one short sentence about what changed.
function announce(text) {
  announcer.textContent = text;
}

// The full description (R28) is fetched on demand (the D key with Shift, or the button) and
// after each state, but only read out when asked for. Answers can come back out of order (a
// draw's text after the undo that followed it), so only the answer for the latest state counts.
let textTicket = 0;
let textShownTicket = 0; // the ticket whose answer the description shows
let readWhenFresh = false; // asked for while the latest description was on its way

async function refreshText(retries = 2) {
  const ticket = ++textTicket;
  const moves = game.moves;
  try {
    const result = await api("GET", `games/${gameId}/text?lang=${pageLang()}`);
    if (ticket !== textTicket) return;
    description.textContent = result.text;
    description.dataset.moves = String(moves);
    textShownTicket = ticket;
    if (readWhenFresh) {
      readWhenFresh = false;
      announce(result.text);
    }
  } catch (error) {
    // The table is up to date already; a lost answer is asked for again, shortly.
    if (ticket === textTicket && retries > 0) setTimeout(() => {
      if (ticket === textTicket) refreshText(retries - 1);
    }, 1000);
  }
}

function readDescription() {
  // Asked for right after a move, the description of the new state may still be on its way:
  // it is read out when it comes, never the previous state's.
  if (textShownTicket !== textTicket) {
    readWhenFresh = true;
    return;
  }
  announce(description.textContent);
}

// `action`: the logged action that led to this state (its cards travel), null for a load.
function accept(next, action = null) {
  const first = game === null;
  const wasPlaying = game && game.status === "playing";
  game = next;
  fetchedAt = performance.now();
  render(action, first);
  refreshText();
  if (first) loadNewSettings(game);
  if (wasPlaying && game.status !== "playing" && !restarting) showEnd(true);
}

async function load() {
  try {
    const first = game === null;
    accept(await api("GET", `games/${gameId}`));
    if (first && game.status !== "playing") showEnd(false);
    if (first) endWithTheDay();
  } catch (error) {
    say(errorText(error), "error");
  }
}

// A daily game still in progress ends with its day (R26a): the server ends it at midnight, and
// the table reads it again then, so that it shows the game over without waiting for a move.
async function endWithTheDay() {
  if (!game.daily || game.status !== "playing") return;
  try {
    const day = await api("GET", `daily/${game.daily.date}`);
    const wait = Date.parse(day.ends_at) - Date.now();
    // Beyond what a timer holds (about 24 days) there is nothing to wait for: a day is shorter.
    if (wait < 2 ** 31 - 1000) setTimeout(load, Math.max(wait, 0) + 1000);
  } catch (error) {
    // No end to wait for: the next move or visit finds the game over.
  }
}

const DAY_OVER = () => gettext("The day is over: this game ended at midnight.");

// The status words: how the game ended, a daily game ended by its day's end included; a game
// that was not won says how far it got (never "resigned": R20 ends it, it is no defeat).
function statusText() {
  if (game.status === "won") return gettext("Won");
  if (game.status === "playing") return "";
  if (game.end_reason === "day_over") return `${gettext("Day over")} · ${cardsHome(game)}`;
  return cardsHome(game);
}

// Actions waiting for their turn: {make, resolve}, `make` building the action from the state
// the server last answered with (a stock click is a draw or a recycle by then).
const queue = [];
let sending = false;

async function pump() {
  if (sending) return;
  sending = true;
  while (queue.length) {
    const { make, resolve } = queue.shift();
    if (!game || game.status !== "playing") {
      resolve(false);
      continue;
    }
    const action = typeof make === "function" ? make(game) : make;
    try {
      const result = await api("POST", `games/${gameId}/actions`, { ...action, expect: game.moves });
      say("");
      accept(result.game, result.action);
      announce(actionText(result.action, result.game));
      soundOf(result.action);
      resolve(true);
    } catch (error) {
      // What was queued after a refused action was meant for a table that did not happen.
      for (const waiting of queue.splice(0)) waiting.resolve(false);
      // The game moved on elsewhere, or ended (its day is over): show it as it is now.
      if (error instanceof ApiError && (error.code === "stale" || error.code === "game_over")) await load();
      // A game its day ended says so itself (showEnd). A card that cannot go shakes, and the
      // reason shows by it.
      if (game.end_reason !== "day_over") say(errorText(error), "error", refusedPile(action, error));
      resolve(false);
    }
  }
  sending = false;
}

// Queues one action; resolves true when the server applied it.
function act(make) {
  if (!game) return Promise.resolve(false);
  return new Promise((resolve) => {
    queue.push({ make, resolve });
    pump();
  });
}

// The pile whose card was refused (it shakes), for a move or a tap the server turned down.
function refusedPile(action, error) {
  if (!(error instanceof ApiError) || !["illegal_move", "no_destination"].includes(error.code)) return null;
  const pile = action && action.from;
  if (!pile || !table.querySelector(`[data-pile="${pile}"]`)) return null;
  const cards = table.querySelectorAll(`[data-pile="${pile}"] .card.face`);
  const count = pile.startsWith("tableau:") ? action.count || 1 : 1;
  shake([...cards].slice(-count));
  play("refused");
  return pile;
}

function soundOf(action) {
  if (action.type === "draw" || action.type === "recycle") play("draw");
  else if (game.status === "won") play("win");
  else if (action.type === "move" && action.to && action.to.startsWith("foundation")) play("home");
  else if (action.type === "move" || action.type === "undo") play("move");
}

function drawOrRecycle() {
  return act((now) => ({ type: now.stock.count === 0 && now.waste.count > 0 ? "recycle" : "draw" }));
}

function tap(pile, count) {
  const action = { type: "tap", from: pile, columns: doubleClick.checked };
  if (count > 1) action.count = count;
  return act(action);
}

// ---- drawing the table ----------------------------------------------------------------------

export const RULESET_NAMES = {
  app: () => gettext("Canfield app rules"),
  cardgames: () => gettext("Cardgames rules"),
  classic: () => gettext("Classic rules"),
};

// A practice game can be dealt again: its code is known (a code game, or a random game once
// it has ended and its code is revealed); a daily game never, a custom deck has no code.
// A random game in progress can be dealt again too: its code is hidden while it lasts (R19), so
// restarting ends it first (its code is then revealed) and deals that code as practice.
function restartable() {
  if (game.daily) return false;
  return Boolean(game.code) || (game.status === "playing" && !game.practice);
}

function renderHud() {
  document.getElementById("score").textContent = game.score;
  document.getElementById("moves").textContent = game.moves;
  const undo = document.getElementById("undo");
  undo.disabled = game.undo_available === 0 || game.status !== "playing";
  document.getElementById("resign").disabled = game.status !== "playing";
  document.getElementById("restart").hidden = !restartable();
  // No hints in a ranked daily game or a match game (R30, R32): the button is not offered there.
  document.getElementById("hint").hidden = Boolean(game.daily) || Boolean(game.match) || game.status !== "playing";
  document.getElementById("finish").hidden = !canFinish(game) || finishing;
  // R20a: nothing but drawing is left; the table says so and offers the two ways on. R20c: two
  // passes through the talon brought nothing on; the same note offers to end the game or to
  // play on (moves may be left: it stays away then until the game makes progress again).
  if (!game.no_progress) playingOn = false;
  const noProgress = game.no_progress && !game.stuck;
  const stuck = document.getElementById("stuck");
  stuck.hidden = !(game.status === "playing" && (game.stuck || (noProgress && !playingOn)));
  document.getElementById("stuck-title").hidden = noProgress;
  document.getElementById("no-progress-title").hidden = !noProgress;
  document.getElementById("stuck-undo").hidden = noProgress;
  document.getElementById("play-on").hidden = !noProgress;
  document.getElementById("stuck-undo").disabled = game.undo_available === 0;
  const deal = document.getElementById("deal");
  // A daily game in progress has no code (docs/api.md): the box stays hidden.
  deal.hidden = !game.code;
  document.getElementById("deal-code").textContent = game.code || "";
  const mode = game.draw === 3 ? gettext("3 cards (Hard)") : gettext("1 card (Easy)");
  document.getElementById("mode").textContent = game.daily ? `${format(gettext("daily %(date)s"), { date: game.daily.date })} · ${mode}` : mode;
  const rules = document.getElementById("rules-link");
  rules.textContent = RULESET_NAMES[game.ruleset]();
  rules.href = `/rules/${game.ruleset}/`;
  const status = document.getElementById("status");
  status.hidden = game.status === "playing";
  status.textContent = statusText();
  status.dataset.status = game.end_reason === "day_over" ? "day_over" : game.status;
  tickClock();
}

// The player chose to play on from the "no progress" note (R20c).
let playingOn = false;
document.getElementById("no-progress-title").textContent = gettext("This game makes no progress");
document.getElementById("play-on").textContent = gettext("Play on");
document.getElementById("play-on").addEventListener("click", () => {
  playingOn = true;
  renderHud();
});

// Where the cards of a drop were let go, for the move's animation to start from there.
let droppedAt = new Map();

function render(action = null, first = false) {
  const before = measure(table);
  for (const [name, rect] of droppedAt) moveOrigin(before, name, rect);
  droppedAt = new Map();
  renderTable(table, game);
  for (const node of table.querySelectorAll(".hinted")) node.classList.remove("hinted");
  renderHud();
  markKeyboardChoice();
  if (first && game.moves === 0) animateDeal(table);
  else if (action && action.type === "recycle") animateRecycle(table, before);
  else if (action) {
    animateChanges(table, before);
    // A finish (R20b) lists the cards it sent home in `cards`, in the order they went.
    animateAutoFinish(table, before, action.type === "finish" ? action.cards : action.auto_finish);
  }
}

function tickClock() {
  if (!game) return;
  let seconds = game.seconds;
  if (game.status === "playing") seconds += (performance.now() - fetchedAt) / 1000;
  document.getElementById("clock").textContent = formatSeconds(seconds);
}
setInterval(tickClock, 250);

// ---- the end of a game ----------------------------------------------------------------------

// A finished game as text to share: the figures, how far it got and, for a daily, the
// standing and the board's address; never a card (a practice game's code, once revealed, is
// the deal itself and may be shared: R19).
function shareText() {
  const mode = game.draw === 3 ? gettext("3 cards (Hard)") : gettext("1 card (Easy)");
  const lines = [
    game.daily
      ? `Canfield Club · ${format(gettext("daily %(date)s"), { date: game.daily.date })} · ${mode}`
      : `Canfield Club · ${mode}${game.code ? ` · ${game.code}` : ""}`,
    `${game.status === "won" ? gettext("Won") : cardsHome(game)} · ${gettext("Score")} ${game.score} · ${counted(ngettext("%(count)s move", "%(count)s moves", game.moves), game.moves)} · ${formatSeconds(game.seconds)}`,
  ];
  if (game.daily && game.daily.rank) {
    lines.push(format(gettext("Rank %(rank)s of %(count)s"), { rank: game.daily.rank, count: game.daily.players }));
  }
  if (game.daily) lines.push(`${location.origin}/daily/${game.daily.date}/${game.draw}/`);
  return lines.join("\n");
}

// `justEnded`: the game ended in this page just now (a win then cascades first).
function showEnd(justEnded) {
  const dialog = document.getElementById("win");
  document.getElementById("win-title").textContent = game.status === "won" ? gettext("You won!") : gettext("Game over");
  document.getElementById("win-score").textContent = game.score;
  document.getElementById("win-moves").textContent = game.moves;
  document.getElementById("win-time").textContent = formatSeconds(game.seconds);
  const dayOver = game.end_reason === "day_over";
  document.getElementById("win-reason").textContent = dayOver ? DAY_OVER() : "";
  // How far a game not won got, never "resigned".
  document.getElementById("win-home").textContent = game.status === "won" ? "" : cardsHome(game);
  if (dayOver) say(DAY_OVER());
  const rankLine = document.getElementById("win-rank");
  rankLine.textContent = "";
  const boardLink = document.getElementById("win-board");
  boardLink.hidden = !game.daily;
  document.getElementById("win-share").hidden = false;
  document.getElementById("win-restart").hidden = !restartable();
  if (game.daily) {
    boardLink.href = `/daily/${game.daily.date}/${game.draw}/`;
    // The server adds the board standing to a finished daily game (absent if disqualified).
    if (game.daily.rank) {
      rankLine.textContent = format(gettext("Your rank on today's board: %(rank)s of %(count)s"), { rank: game.daily.rank, count: game.daily.players });
    } else if (game.daily.provisional) {
      // R36: a new account's daily is listed apart from the ranks until it is in good standing.
      rankLine.textContent = gettext("Provisional: listed apart from the ranks until this account is in good standing.");
    } else if (game.daily.review === "held") {
      // R35: the fair-play review holds it off the public boards until staff look at it.
      rankLine.textContent = gettext("Held for a fair-play review: off the public boards until staff have looked at it.");
    }
  }
  document.getElementById("win-par").textContent = "";
  if (game.daily) showPar(game.daily.date, game.draw);
  (justEnded ? celebrate(game) : Promise.resolve()).finally(() => {
    // A match's result, once it is shown (match-panel.js), is the end screen: not this one.
    if (!dialog.open && !document.getElementById("match-end").open) dialog.showModal();
  });
}
document.getElementById("win-close").addEventListener("click", () => document.getElementById("win").close());

// The day's par (R31) beside the result, once the day is over and the solver's figure is out.
async function showPar(date, draw) {
  try {
    const day = await api("GET", `daily/${date}`);
    const board = day.boards.find((b) => b.draw === draw);
    document.getElementById("win-par").textContent = parText(board && board.par);
  } catch (error) {
    // No par to show: the line stays empty.
  }
}

// ---- starting again -------------------------------------------------------------------------

// Settings for new games (draw mode and rule set), kept in this browser. The classic rules
// draw three cards only (docs/rules.md), so choosing them turns the 1-card option off.
const newDraw = document.getElementById("new-draw");
const newRuleset = document.getElementById("new-ruleset");

function syncNewSettings() {
  const classic = newRuleset.value === "classic";
  newDraw.querySelector('option[value="1"]').disabled = classic;
  if (classic) newDraw.value = "3";
  localStorage.setItem("newGame", JSON.stringify({ draw: Number(newDraw.value), ruleset: newRuleset.value }));
}

function loadNewSettings(current) {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem("newGame") || "null");
  } catch (error) {
    saved = null;
  }
  const chosen = saved || { draw: current.draw, ruleset: current.ruleset };
  newRuleset.value = chosen.ruleset in RULESET_NAMES ? chosen.ruleset : "app";
  newDraw.value = String(chosen.draw === 1 ? 1 : 3);
  syncNewSettings();
}
newDraw.addEventListener("change", syncNewSettings);
newRuleset.addEventListener("change", syncNewSettings);

async function startGame(body) {
  try {
    const created = await api("POST", "games", body);
    location.href = `/play/${created.id}`;
  } catch (error) {
    say(errorText(error), "error");
  }
}

async function newGame() {
  // Mid-game (a move made), ask first: a daily stays open until midnight (dialogs.js).
  if (game && game.status === "playing" && game.moves > 0 && !(await confirmLeave(game))) return;
  return startGame({ draw: Number(newDraw.value), ruleset: newRuleset.value });
}

let restarting = false; // the game ends on its way to being dealt again: no end screen

async function restart() {
  if (!game.code) {
    if (!confirm(gettext("Restart this deal? This game ends here and the same cards are dealt again as practice."))) return;
    restarting = true;
    if (!(await act({ type: "resign" }))) {
      restarting = false;
      return;
    }
  }
  return startGame({ code: game.code, ruleset: game.ruleset });
}

// Today's daily challenge: the other draw mode's board after a daily game, else the 3-card one.
function nextDaily() {
  // A guest's dailies need an account: one click to the sign-up, which keeps this game.
  const signup = document.getElementById("game").dataset.signup;
  if (signup) {
    location.href = signup;
    return undefined;
  }
  const draw = game.daily ? (game.draw === 3 ? 1 : 3) : 3;
  return startGame({ daily: true, draw });
}

for (const [id, handler] of [
  ["new-game", newGame],
  ["win-new", newGame],
  ["restart", restart],
  ["win-restart", restart],
  ["next-daily", nextDaily],
  ["win-daily", nextDaily],
]) {
  document.getElementById(id).addEventListener("click", handler);
}

// ---- finishing (R21: only when asked) -------------------------------------------------------

// Whether Finish is offered (R20b): every card is in sight (stock empty, the reserve's and the
// waste's cards all shown) and they all go up one after another. The server judges the finish
// itself: this only decides whether to show the button.
function canFinish(current) {
  if (!current || current.status !== "playing" || current.stock.count > 0) return false;
  if (current.reserve.count > 1 || current.waste.count > current.waste.fan.length) return false;
  const foundations = current.foundations.map((f) => ({ ...f }));
  const piles = [
    [...current.waste.fan],
    current.reserve.top ? [current.reserve.top] : [],
    ...current.tableau.map((column) => [...column]),
  ];
  let sent = 0;
  for (let progress = true; progress; ) {
    progress = false;
    for (const cards of piles) {
      const card = cards[cards.length - 1];
      if (!card) continue;
      const foundation = foundations.find((f) => f.suit === card.slice(-1));
      if (nextRank(foundation, current.starting_rank) !== card.slice(0, -1)) continue;
      cards.pop();
      foundation.top = card;
      foundation.count += 1;
      sent += 1;
      progress = true;
    }
  }
  return piles.every((cards) => cards.length === 0) && sent > 0;
}

let finishing = false;

// Every card home in one `finish` action (counted as the moves it makes); its answer lists the
// cards in the order they went, and they fly home one after another (render).
async function finish() {
  if (!canFinish(game) || finishing) return;
  finishing = true;
  document.getElementById("finish").hidden = true;
  try {
    await act({ type: "finish" });
  } finally {
    finishing = false;
    if (game) renderHud();
  }
}

// ---- hints (R30) ----------------------------------------------------------------------------

// The cards a move would take from a pile of the state shown.
function cardsOf(pile, count) {
  const [kind, which] = pile.split(":");
  if (kind === "tableau") return game.tableau[Number(which) - 1].slice(-count);
  if (kind === "waste") return game.waste.fan.slice(-1);
  if (kind === "reserve") return game.reserve.top ? [game.reserve.top] : [];
  const foundation = game.foundations.find((f) => f.suit === which);
  return foundation && foundation.top ? [foundation.top] : [];
}

function showHint(action) {
  for (const node of table.querySelectorAll(".hinted")) node.classList.remove("hinted");
  const piles = action.type === "move" ? [action.from, action.to] : ["stock"];
  for (const pile of piles) {
    const node = table.querySelector(`[data-pile="${pile}"]`);
    if (node) node.classList.add("hinted");
  }
}

async function askHint() {
  let hint;
  try {
    hint = await api("GET", `games/${gameId}/hint`);
  } catch (error) {
    say(errorText(error), "error");
    return;
  }
  let text;
  if (hint.action) {
    showHint(hint.action);
    const what = hint.action.type === "move"
      ? actionText({ ...hint.action, cards: cardsOf(hint.action.from, hint.action.count || 1), auto_fill: null }, game)
      : actionText(hint.action, game);
    text = format(gettext("Hint: %(action)s"), { action: what.charAt(0).toLowerCase() + what.slice(1) });
  } else if (hint.winnable === false) {
    text = gettext("No winning line from here.");
  } else {
    text = gettext("No hint: the solver could not decide in time.");
  }
  // By the cards the hint moves (or the stock it draws from).
  const near = hint.action ? (hint.action.type === "move" ? hint.action.from : "stock") : null;
  say(text, "note", near);
  announce(text);
}

// ---- buttons --------------------------------------------------------------------------------

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    say(gettext("Copied!"));
  } catch (error) {
    say(text);
  }
}

document.getElementById("undo").addEventListener("click", () => act({ type: "undo" }));
document.getElementById("hint").addEventListener("click", askHint);
document.getElementById("resign").addEventListener("click", () => {
  if (confirm(gettext("End this game? It ends with its current score."))) act({ type: "resign" });
});
// From the "No more moves" note the player has already been told why: no second question.
document.getElementById("stuck-end").addEventListener("click", () => act({ type: "resign" }));
document.getElementById("stuck-undo").addEventListener("click", () => act({ type: "undo" }));
document.getElementById("finish").addEventListener("click", finish);
document.getElementById("copy-code").addEventListener("click", () => copyText(game.code));
document.getElementById("describe").addEventListener("click", readDescription);
document.getElementById("win-share").addEventListener("click", async () => {
  const text = shareText();
  document.getElementById("share-text").value = text;
  document.getElementById("share-text").hidden = false;
  if (navigator.share) {
    try {
      await navigator.share({ text });
      return;
    } catch (error) {
      // Cancelled or refused: copying is the fallback.
    }
  }
  await copyText(text);
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
  // A card still on its way (a draw, a move) is where the player sees it, not where it will
  // land: the motion jumps to its end, and the card under the pointer is asked for again.
  let target = event.target;
  if (finishAnimations(table)) target = document.elementFromPoint(event.clientX, event.clientY) || target;
  const pileNode = target.closest("[data-pile]");
  if (!pileNode || !table.contains(pileNode)) return;
  if (pileNode.dataset.pile === "stock") {
    event.preventDefault();
    drawOrRecycle();
    return;
  }
  const grab = grabbable(target);
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
  lightTargets(gesture);
}

// While a card is dragged, the piles that would take it light up (the server's legal moves for
// this pile and count), and the one under the pointer more so.
async function lightTargets(current) {
  let legal = [];
  try {
    legal = await api("GET", `games/${gameId}/legal-actions`);
  } catch (error) {
    return;
  }
  if (gesture !== current) return;
  for (const action of legal) {
    if (action.type !== "move" || action.from !== current.pile || action.count !== current.count) continue;
    const pile = table.querySelector(`[data-pile="${action.to}"]`);
    if (pile) pile.classList.add("drop-ok");
  }
}

function hoverTarget(pile) {
  for (const node of table.querySelectorAll(".drop-hover")) {
    if (node.dataset.pile !== pile) node.classList.remove("drop-hover");
  }
  const node = pile && table.querySelector(`[data-pile="${pile}"]`);
  if (node) node.classList.add("drop-hover");
}

function unlightTargets() {
  for (const node of table.querySelectorAll(".drop-ok, .drop-hover")) node.classList.remove("drop-ok", "drop-hover");
}

table.addEventListener("pointermove", (event) => {
  if (!gesture || event.pointerId !== gesture.id) return;
  const dx = event.clientX - gesture.startX;
  const dy = event.clientY - gesture.startY;
  if (!gesture.ghost && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
  if (!gesture.ghost) startDrag();
  gesture.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  hoverTarget(dropTarget(event.clientX, event.clientY));
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
  const target = dropTarget(event.clientX, event.clientY);
  unlightTargets();
  if (!target || target === current.pile) {
    snapBack(current);
    return;
  }
  const action = { type: "move", from: current.pile, to: target };
  if (current.count > 1) action.count = current.count;
  for (const copy of current.ghost.querySelectorAll("[data-card]")) {
    droppedAt.set(copy.dataset.card, copy.getBoundingClientRect());
  }
  const applied = await act(action);
  if (applied) current.ghost.remove();
  else {
    droppedAt = new Map();
    snapBack(current);
  }
});

table.addEventListener("pointercancel", () => {
  unlightTargets();
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
  if (lower === "i") {
    event.preventDefault();
    readDescription();
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
    const column = game.tableau[Number(current.split(":")[1]) - 1];
    if (column.length) announce(cardWords(column[column.length - depth[current]]));
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
      say(format(gettext("Picked up: %(card)s. Choose where to put it and press Enter."), { card: cardWords(card.dataset.card) }));
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
