// The match beside the table (issue 23): for a game played in a match, the other players'
// figures live ("anna: 23 cards home, 140 moves"), then an end screen with the places and
// rating changes. A module of its own beside table.js: it reads the game once to learn its
// match, then follows the match's socket.
import { api, currentUser, el, format } from "./api.js";
import { modeText, placeItems, placeSentence, seatFigures, seatText, setLive, watchMatch } from "./match-view.js";

const panel = document.getElementById("match-panel");
const gameId = document.getElementById("game").dataset.gameId;
const me = currentUser();
const endDialog = document.getElementById("match-end");

// What a screen reader hears: a player sitting down or ending their game, not every move
// (the list itself is not a live region: it changes with each of the others' moves).
let known = null; // player -> status, as last rendered

function announce(match) {
  const said = [];
  for (const seat of match.players) {
    if (seat.player === me) continue;
    const before = known && known.get(seat.player);
    if (known && before === undefined) said.push(format(gettext("%(player)s joined the match."), { player: seat.player }));
    else if (before === "playing" && seat.status !== "playing") said.push(format(gettext("%(player)s's game ended: %(figures)s"), { player: seat.player, figures: seatFigures(seat) }));
  }
  known = new Map(match.players.map((seat) => [seat.player, seat.status]));
  if (said.length) document.getElementById("match-announce").textContent = said.join(" ");
}

function render(match) {
  announce(match);
  document.getElementById("match-mode").textContent = `${modeText(match.size, match.draw)} · ${match.players.length}/${match.size}`;
  const others = match.players.filter((seat) => seat.player !== me);
  document.getElementById("match-players").replaceChildren(
    ...(others.length
      ? others.map((seat) =>
          el("li", {
            "data-player": seat.player,
            "data-moves": String(seat.moves),
            "data-status": seat.status,
            text: seatText(seat),
          }),
        )
      : [el("li", { class: "note", text: gettext("Nobody else has sat down yet: your opponents play this deal when they come.") })]),
  );
  const mine = match.players.find((seat) => seat.player === me);
  document.getElementById("match-waiting").hidden = !(match.status === "open" && mine && mine.status !== "playing");
}

function showEnd(match) {
  render(match);
  document.getElementById("match-end-place").textContent = placeSentence(match, me);
  document.getElementById("match-end-places").replaceChildren(...placeItems(match, me));
  const code = document.getElementById("match-end-code");
  code.hidden = !match.code;
  code.querySelector("code").textContent = match.code || "";
  document.getElementById("match-end-board").href = `/ratings/${match.size}/${match.draw}/`;
  // The match's result replaces the table's own end dialog (table.js opens that one no more).
  const tableEnd = document.getElementById("win");
  if (tableEnd.open) tableEnd.close();
  if (!endDialog.open) endDialog.showModal();
}

document.getElementById("match-end-close").addEventListener("click", () => endDialog.close());

async function start() {
  const game = await api("GET", `games/${gameId}`);
  if (!game.match) return;
  document.getElementById("match-link").href = `/matches/${encodeURIComponent(game.match)}`;
  const live = document.getElementById("match-live");
  watchMatch(game.match, {
    onMatch: (match, finished) => {
      panel.hidden = false; // shown with its first figures, never empty
      if (finished) {
        setLive(live, false, true);
        showEnd(match);
      } else render(match);
    },
    onStatus: (on) => setLive(live, on),
  });
}

start().catch(() => {});
