// One match (issue 23): its players live while it is open, then places, rating changes and
// the deal's code.
import { api, ApiError, currentUser, format } from "./api.js";
import { modeText, placeItems, placeSentence, setLive, statusText, watchMatch } from "./match-view.js";

const page = document.getElementById("match-page");
const matchId = page.dataset.matchId;
const me = currentUser();
const live = document.getElementById("match-live");

function render(match, finished) {
  const duel = match.duel ? ` · ${match.unrated ? gettext("a duel, unrated") : gettext("a duel")}` : "";
  document.getElementById("match-mode").textContent = `${modeText(match.size, match.draw)} · ${match.players.length}/${match.size}${duel}`;
  let status;
  if (match.status === "open") status = gettext("Open: the players' figures change as they play.");
  else status = placeSentence(match, me) || (match.status === "finished" ? gettext("Finished.") : statusText(match.status));
  document.getElementById("match-status").textContent = status;
  document.getElementById("match-places").replaceChildren(...placeItems(match, me));
  const code = document.getElementById("match-code");
  code.hidden = !match.code;
  code.querySelector("code").textContent = match.code || "";
  const game = document.getElementById("match-game");
  if (match.game) {
    game.hidden = false;
    game.href = finished ? `/replay/${match.game}` : `/play/${match.game}`;
  }
  setLive(live, true, finished);
}

function missing() {
  document.getElementById("match-status").textContent = gettext("No such match.");
  setLive(live, false, true);
}

async function start() {
  let match;
  try {
    match = await api("GET", `matches/${encodeURIComponent(matchId)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return missing();
    throw error;
  }
  render(match, match.status !== "open");
  if (match.status !== "open") return;
  watchMatch(matchId, { onMatch: render, onStatus: (on) => setLive(live, on), onMissing: missing });
}

start().catch((error) => {
  document.getElementById("match-status").textContent = format("%(message)s", { message: error.message });
});
