import { api, formatSeconds } from "./api.js";

const page = document.getElementById("player-page");

async function showStats() {
  const stats = await api("GET", `players/${encodeURIComponent(page.dataset.username)}`);
  for (const node of page.querySelectorAll("[data-stat]")) {
    const value = stats[node.dataset.stat];
    if (value === null || value === undefined) node.textContent = "–";
    else node.textContent = node.dataset.stat === "best_win_seconds" ? formatSeconds(value) : String(value);
  }
  document.getElementById("bot-mark").hidden = !stats.bot;
}

showStats().catch(() => {});
