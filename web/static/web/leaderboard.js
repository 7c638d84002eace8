// Daily leaderboard page: pages from the REST API, kept live over the WebSocket (the first
// page follows the snapshot and every change; later pages update the rows they show).
import { api, currentUser, el, formatSeconds } from "./api.js";
import { byStanding, watchBoard } from "./board.js";
import { parText } from "./messages.js";

const page = document.getElementById("board-page");
const day = page.dataset.day;
const draw = Number(page.dataset.draw);
const rowsBox = document.getElementById("board-rows");
const PAGE_SIZE = 50;

let pageNumber = Number(new URLSearchParams(location.search).get("page") || "1");
let entries = new Map();
let hasNext = false;

function statusText(status) {
  return { playing: gettext("Playing"), won: gettext("Won"), resigned: gettext("Resigned") }[status] || status;
}

function render() {
  const sorted = [...entries.values()].sort(byStanding);
  const offset = (pageNumber - 1) * PAGE_SIZE;
  rowsBox.replaceChildren(
    ...sorted.map((entry, index) => {
      const mine = entry.player === currentUser();
      return el(
        "tr",
        { class: mine ? "mine" : "", "data-player": entry.player },
        el("td", { class: "num", text: String(pageNumber === 1 ? offset + index + 1 : entry.rank) }),
        el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.player)}`, text: entry.player })),
        el("td", { class: "num score", text: String(entry.score) }),
        el("td", { class: "num moves", text: String(entry.moves) }),
        el("td", { class: "num time", text: formatSeconds(entry.seconds) }),
        el("td", { text: statusText(entry.status) }),
      );
    }),
  );
  document.getElementById("board-empty").hidden = sorted.length > 0;
  document.getElementById("page-number").textContent = String(pageNumber);
  document.getElementById("prev-page").disabled = pageNumber <= 1;
  document.getElementById("next-page").disabled = !hasNext;
}

async function loadPage() {
  const board = await api("GET", `daily/${day}/leaderboard?draw=${draw}&page=${pageNumber}`);
  entries = new Map(board.results.map((entry) => [entry.player, entry]));
  hasNext = Boolean(board.next);
  render();
}

function goTo(number) {
  pageNumber = number;
  const url = new URL(location.href);
  url.searchParams.set("page", String(number));
  history.replaceState(null, "", url);
  loadPage().catch(() => {});
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

// A day without a challenge (the socket closed with 4404, API.md): said once, no retrying.
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

loadPage()
  .catch(() => {})
  .finally(() => {
    watchBoard(day, draw, {
      onSnapshot: (results) => {
        if (pageNumber !== 1) return;
        entries = new Map(results.map((entry) => [entry.player, entry]));
        render();
      },
      onEntry: (entry) => {
        // The first page shows every newcomer; a later page only refreshes its own rows.
        if (pageNumber === 1 || entries.has(entry.player)) {
          entries.set(entry.player, entry);
          if (pageNumber === 1 && entries.size > PAGE_SIZE) {
            const last = [...entries.values()].sort(byStanding).pop();
            entries.delete(last.player);
          }
          render();
        }
      },
      onRemoved: (player) => {
        if (entries.delete(player)) render();
      },
      onStatus: setLive,
      onMissing: showNoChallenge,
    });
  });
if (day < page.dataset.today) showPastDeal().catch(() => {});
