// Daily leaderboard page: pages from the REST API, kept live over the WebSocket. The first page
// is the snapshot's rows, each batch placing the entries that changed by their current ranks; a
// later page (whose rows shift when any entry above them moves, which no batch says) is read
// again from the API after each batch. Either is read again when a batch leaves it short.
// Two tabs show the day's two boards (R34): the people's and the bots' (`?players=bots`).
// Under each, its provisional entries (R36: accounts not in good standing yet), never ranked
// and never in a live batch: read when the board is shown.
import { api, currentUser, el, formatSeconds } from "./api.js";
import { placeEntries, watchBoard } from "./board.js";
import { cardsHomeOf, parText } from "./messages.js";

const page = document.getElementById("board-page");
const day = page.dataset.day;
const draw = Number(page.dataset.draw);
const rowsBox = document.getElementById("board-rows");
const PAGE_SIZE = 50;

let pageNumber = Number(new URLSearchParams(location.search).get("page") || "1");
let players = new URLSearchParams(location.search).get("players") === "bots" ? "bots" : "people";
// Stops following the shown board's socket (see `follow`).
let stopWatching = () => {};
// The page's entries in rank order (the first is ranked (pageNumber - 1) * PAGE_SIZE + 1),
// null while the page is being read for the first time.
let rows = null;
let count = 0;
// Reads of the page asked for, and whether one is under way (see `reload`).
let wanted = 0;
let loading = false;

// A game ended without a win says how far it got ("35 of 52 cards home"), never "resigned".
function statusText(entry) {
  if (entry.status === "resigned" && entry.home !== undefined) return cardsHomeOf(entry.home);
  return { playing: gettext("Playing"), won: gettext("Won"), resigned: gettext("Ended") }[entry.status] || entry.status;
}

// An entry's row: its rank first on the board, none in the provisional section.
function entryRow(entry, rank) {
  const mine = entry.player === currentUser();
  return el(
    "tr",
    { class: mine ? "mine" : "", "data-player": entry.player },
    ...(rank === null ? [] : [el("td", { class: "num", text: String(rank) })]),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.player)}`, text: entry.player })),
    el("td", { class: "num score", text: String(entry.score) }),
    el("td", { class: "num moves", text: String(entry.moves) }),
    el("td", { class: "num time", text: formatSeconds(entry.seconds) }),
    el("td", { text: statusText(entry) }),
  );
}

function render() {
  const offset = (pageNumber - 1) * PAGE_SIZE;
  rowsBox.replaceChildren(...rows.map((entry, index) => entryRow(entry, offset + index + 1)));
  document.getElementById("board-empty").hidden = rows.length > 0;
  document.getElementById("page-number").textContent = String(pageNumber);
  document.getElementById("prev-page").disabled = pageNumber <= 1;
  document.getElementById("next-page").disabled = count <= pageNumber * PAGE_SIZE;
}

async function readPage(number) {
  try {
    return await api("GET", `daily/${day}/leaderboard?draw=${draw}&players=${players}&page=${number}`);
  } catch (error) {
    // A page past the last (the board is shorter than it was): an empty page.
    if (error.status === 404 && number > 1) return { count: Math.min(count, (number - 1) * PAGE_SIZE), results: [] };
    throw error;
  }
}

// Reads the shown page from the API; when the board changed (or another page was asked for)
// while it was read, reads it again, so that the last answer shown is newer than every batch.
async function reload() {
  wanted += 1;
  if (loading) return;
  loading = true;
  try {
    for (;;) {
      const asked = wanted;
      const number = pageNumber;
      const shownPlayers = players;
      const board = await readPage(number);
      if (number === pageNumber && shownPlayers === players) {
        rows = board.results;
        count = board.count;
        render();
      }
      if (asked === wanted) break;
    }
  } finally {
    loading = false;
  }
}

// The first page follows the socket on its own while no read is under way.
function followsSocket() {
  return pageNumber === 1 && !loading;
}

function goTo(number) {
  pageNumber = number;
  rows = null;
  const url = new URL(location.href);
  url.searchParams.set("page", String(number));
  history.replaceState(null, "", url);
  reload().catch(() => {});
}

document.getElementById("prev-page").addEventListener("click", () => goTo(pageNumber - 1));
document.getElementById("next-page").addEventListener("click", () => goTo(pageNumber + 1));

function pickDay() {
  const chosen = document.getElementById("day-picker").value;
  const mode = document.getElementById("draw-picker").value;
  if (chosen) location.href = `/daily/${chosen}/${mode}/`;
}
document.getElementById("day-picker").addEventListener("change", pickDay);
document.getElementById("draw-picker").addEventListener("change", pickDay);
document.getElementById("board-form").addEventListener("submit", (event) => {
  event.preventDefault();
  pickDay();
});

async function showPastDeal() {
  const info = await api("GET", `daily/${day}`);
  const board = info.boards.find((b) => b.draw === draw);
  if (!board || !board.code) return;
  document.getElementById("past-code").textContent = board.code;
  document.getElementById("par").textContent = parText(board.par);
  document.getElementById("past-deal").hidden = false;
  const practice = document.getElementById("practice");
  if (practice) {
    practice.addEventListener("click", async () => {
      const game = await api("POST", "games", { code: board.code });
      location.href = `/play/${game.id}`;
    });
  }
}

// A day without a challenge (the socket closed with 4404, docs/api.md): said once, no retrying.
function showNoChallenge() {
  document.getElementById("live-status").hidden = true;
  document.querySelector(".leaderboard").hidden = true;
  document.querySelector(".pager").hidden = true;
  document.getElementById("board-empty").hidden = true;
  document.getElementById("no-challenge").hidden = false;
}

function setLive(on) {
  document.querySelector("#live-status .live-dot").classList.toggle("on", on);
  document.querySelector("#live-status .live-text").textContent = on ? gettext("live") : gettext("reconnecting…");
}

// The shown board's provisional entries (their first page), or the section hidden if none.
async function showProvisional() {
  const shownPlayers = players;
  const board = await api(
    "GET",
    `daily/${day}/leaderboard?draw=${draw}&players=${players}&section=provisional`,
  );
  if (shownPlayers !== players) return;
  document.getElementById("provisional-rows").replaceChildren(...board.results.map((entry) => entryRow(entry, null)));
  document.getElementById("provisional").hidden = board.results.length === 0;
}

// The shown board's socket, opened once its page has been read.
function follow() {
  const following = players;
  showProvisional().catch(() => {});
  reload()
    .catch(() => {})
    .finally(() => {
      if (following === players) stopWatching = watch();
    });
}

function watch() {
  return watchBoard(
    day,
    draw,
    {
      onSnapshot: (results, total) => {
        if (!followsSocket()) return void reload().catch(() => {});
        rows = results;
        count = total;
        render();
      },
      onEntries: (entries, total) => {
        if (!followsSocket() || rows === null) return void reload().catch(() => {});
        count = total;
        const placed = placeEntries(rows, entries, PAGE_SIZE, total);
        rows = placed.rows;
        render();
        if (!placed.complete) reload().catch(() => {});
      },
      onRemoved: (player) => {
        if (!followsSocket() || rows === null) return void reload().catch(() => {});
        if (!rows.some((row) => row.player === player)) return;
        rows = rows.filter((row) => row.player !== player);
        count -= 1;
        render();
        reload().catch(() => {});
      },
      onStatus: setLive,
      onMissing: showNoChallenge,
    },
    players,
  );
}

// The tabs (WAI-ARIA tabs, selection follows focus): arrow keys, Home and End move along them.
const tabs = [...document.querySelectorAll('[role="tab"]')];

function showTab(tab) {
  for (const each of tabs) {
    const selected = each === tab;
    each.setAttribute("aria-selected", String(selected));
    each.tabIndex = selected ? 0 : -1;
  }
  document.getElementById("board-panel").setAttribute("aria-labelledby", tab.id);
}

function choosePlayers(tab) {
  showTab(tab);
  if (tab.dataset.players === players) return;
  players = tab.dataset.players;
  stopWatching();
  stopWatching = () => {};
  pageNumber = 1;
  rows = null;
  const url = new URL(location.href);
  url.searchParams.delete("page");
  if (players === "bots") url.searchParams.set("players", "bots");
  else url.searchParams.delete("players");
  history.replaceState(null, "", url);
  follow();
}

for (const [index, tab] of tabs.entries()) {
  tab.addEventListener("click", () => choosePlayers(tab));
  tab.addEventListener("keydown", (event) => {
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    target.focus();
    choosePlayers(target);
  });
}

showTab(tabs.find((tab) => tab.dataset.players === players));
follow();
if (day < page.dataset.today) showPastDeal().catch(() => {});
