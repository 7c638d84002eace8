// A ratings board (issue 23, R33): one mode's players, best first, a page at a time.
import { api, currentUser, el } from "./api.js";
import { changeText, ratingNumber } from "./match-view.js";

const page = document.getElementById("ratings-page");
const size = Number(page.dataset.size);
const draw = Number(page.dataset.draw);
let pageNumber = Number(new URLSearchParams(location.search).get("page") || "1");

async function show() {
  let board;
  try {
    board = await api("GET", `ratings?size=${size}&draw=${draw}&page=${pageNumber}`);
  } catch (error) {
    if (error.status !== 404) throw error;
    board = { count: 0, next: null, previous: null, results: [] };
  }
  document.getElementById("ratings-rows").replaceChildren(
    ...board.results.map((entry) =>
      el(
        "tr",
        { class: entry.player === currentUser() ? "mine" : "", "data-player": entry.player },
        el("td", { class: "num", text: String(entry.rank) }),
        el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.player)}`, text: entry.player })),
        el("td", { class: "num", text: ratingNumber(entry.rating) + (entry.provisional ? "?" : "") }),
        el("td", { class: "num", text: String(entry.matches) }),
      ),
    ),
  );
  document.getElementById("ratings-empty").hidden = board.results.length > 0;
  document.getElementById("page-number").textContent = String(pageNumber);
  document.getElementById("prev-page").disabled = !board.previous;
  document.getElementById("next-page").disabled = !board.next;
}

function goTo(number) {
  pageNumber = number;
  const url = new URL(location.href);
  url.searchParams.set("page", String(number));
  history.replaceState(null, "", url);
  show().catch(() => {});
}

document.getElementById("prev-page").addEventListener("click", () => goTo(pageNumber - 1));
document.getElementById("next-page").addEventListener("click", () => goTo(pageNumber + 1));
show().catch(() => {});

// The week's best rating gains of the mode (its first page).
async function showWeek() {
  const week = await api("GET", `ratings/weekly?size=${size}&draw=${draw}`);
  document.getElementById("weekly-since").textContent = week.week;
  document.getElementById("weekly-rows").replaceChildren(
    ...week.results.map((entry) =>
      el(
        "tr",
        { class: entry.player === currentUser() ? "mine" : "", "data-player": entry.player },
        el("td", { class: "num", text: String(entry.rank) }),
        el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.player)}`, text: entry.player })),
        el("td", { class: "num", text: changeText({ rating_before: 0, rating_after: entry.gain }) }),
        el("td", { class: "num", text: String(entry.matches) }),
      ),
    ),
  );
  document.getElementById("weekly-empty").hidden = week.results.length > 0;
}

showWeek().catch(() => {});
