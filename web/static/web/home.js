import { api, counted, currentUser, el, formatSeconds } from "./api.js";
import { cardsHome, errorText } from "./messages.js";
import { LiveBoard, watchBoard } from "./board.js";


function statusText(game) {
  if (game.status === "resigned" && game.foundations) return cardsHome(game);
  return { playing: gettext("Playing"), won: gettext("Won") }[game.status] || game.status;
}

function boardRow(entry) {
  const mine = entry.player === currentUser();
  return el(
    "li",
    { class: mine ? "mine" : "", "data-player": entry.player },
    el("span", { class: "rank", text: `${entry.rank}.` }),
    el("a", { class: "who", href: `/players/${encodeURIComponent(entry.player)}`, text: entry.player }),
    el("span", { class: "score", text: String(entry.score) }),
    el("span", { class: "moves", text: String(entry.moves) }),
    el("span", { class: "time", text: formatSeconds(entry.seconds) }),
  );
}

async function showDaily() {
  const daily = await api("GET", "daily");
  for (const board of daily.boards) {
    const article = document.querySelector(`.board[data-draw="${board.draw}"]`);
    if (!article) continue;
    article.querySelector(".players-count").textContent = counted(ngettext("%(count)s player", "%(count)s players", board.players), board.players);
    const list = article.querySelector(".top10");
    const live = new LiveBoard(10);
    const render = () => {
      const rows = live.list();
      list.replaceChildren(...(rows.length ? rows.map(boardRow) : [el("li", { class: "empty", text: gettext("Nobody has played yet.") })]));
    };
    watchBoard(daily.date, board.draw, {
      onSnapshot: (results, count) => {
        live.snapshot(results, count);
        render();
      },
      onEntries: (entries, count) => {
        live.update(entries, count);
        render();
      },
      onRemoved: (player) => {
        live.remove(player);
        render();
      },
    });
  }
}

function gameLine(game) {
  const mode = game.draw === 3 ? gettext("3 cards (Hard)") : gettext("1 card (Easy)");
  const kind = game.daily ? interpolate(gettext("daily %(date)s"), { date: game.daily.date }, true) : game.code || (game.practice ? gettext("custom deal") : gettext("random deal"));
  const href = game.status === "playing" ? `/play/${game.id}` : `/replay/${game.id}`;
  return el(
    "li",
    {},
    el("a", { href, text: game.status === "playing" ? gettext("Continue") : gettext("Replay") }),
    el("span", { text: ` ${kind} · ${mode} · ${statusText(game)} · ${game.score} · ${game.moves} · ${formatSeconds(game.seconds)}` }),
  );
}

async function showRecent() {
  const list = document.getElementById("recent-games");
  if (!list) return;
  const page = await api("GET", "games");
  list.replaceChildren(...(page.results.length ? page.results.slice(0, 10).map(gameLine) : [el("li", { text: gettext("No games yet.") })]));
}

function wireNewGame() {
  for (const button of document.querySelectorAll(".play-daily")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const game = await api("POST", "games", { daily: true, draw: Number(button.dataset.draw) });
        location.href = `/play/${game.id}`;
      } catch (error) {
        button.disabled = false;
        alert(errorText(error));
      }
    });
    button.disabled = false; // disabled in the page until this script listens
  }
  const form = document.getElementById("new-game");
  if (!form) return;
  const errorBox = document.getElementById("new-game-error");
  // The classic rules draw three cards only (docs/rules.md): the 1-card choice goes with them.
  const ruleset = form.querySelector("#ruleset");
  const syncDraw = () => {
    const one = form.querySelector('input[name="draw"][value="1"]');
    one.disabled = ruleset.value === "classic";
    if (one.disabled && one.checked) form.querySelector('input[name="draw"][value="3"]').checked = true;
  };
  ruleset.addEventListener("change", syncDraw);
  syncDraw();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const code = String(data.get("code") || "").trim();
    const body = { ruleset: data.get("ruleset") };
    if (code) body.code = code;
    else body.draw = Number(data.get("draw"));
    try {
      const game = await api("POST", "games", body);
      location.href = `/play/${game.id}`;
    } catch (error) {
      errorBox.textContent = errorText(error);
      errorBox.hidden = false;
    }
  });
  form.querySelector('button[type="submit"]').disabled = false; // disabled until this listens
}

wireNewGame();
showDaily().catch(() => {});
showRecent().catch(() => {});
