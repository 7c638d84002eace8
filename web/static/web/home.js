import { api, currentUser, el, format, formatSeconds, strings } from "./api.js";
import { LiveBoard, watchBoard } from "./board.js";

const t = strings();

function statusText(game) {
  return { playing: t.playing, won: t.won, resigned: t.resigned }[game.status] || game.status;
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
    article.querySelector(".players-count").textContent = board.players;
    const list = article.querySelector(".top10");
    const live = new LiveBoard(10);
    const render = () => {
      const rows = live.list();
      list.replaceChildren(...(rows.length ? rows.map(boardRow) : [el("li", { class: "empty", text: t.no_players })]));
    };
    watchBoard(daily.date, board.draw, {
      onSnapshot: (results) => {
        live.snapshot(results);
        render();
      },
      onEntry: (entry) => {
        live.update(entry);
        render();
      },
    });
  }
}

function gameLine(game) {
  const mode = game.draw === 3 ? t.draw3 : t.draw1;
  const kind = game.daily ? `${t.daily} ${game.daily.date}` : game.code || t.custom;
  const href = game.status === "playing" ? `/play/${game.id}` : `/replay/${game.id}`;
  return el(
    "li",
    {},
    el("a", { href, text: game.status === "playing" ? t.continue : t.replay }),
    el("span", { text: ` ${kind} · ${mode} · ${statusText(game)} · ${game.score} · ${game.moves} · ${formatSeconds(game.seconds)}` }),
  );
}

async function showRecent() {
  const list = document.getElementById("recent-games");
  if (!list) return;
  const page = await api("GET", "games");
  list.replaceChildren(...(page.results.length ? page.results.slice(0, 10).map(gameLine) : [el("li", { text: t.no_games })]));
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
        alert(error.message);
      }
    });
  }
  const form = document.getElementById("new-game");
  if (!form) return;
  const errorBox = document.getElementById("new-game-error");
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
      errorBox.textContent = error.message;
      errorBox.hidden = false;
    }
  });
}

wireNewGame();
showDaily().catch(() => {});
showRecent().catch(() => {});
