// A player's match ratings (issue 23) on their page: one line per mode they have played.
import { api, el, format } from "./api.js";
import { modeText, ratingChart, ratingHistory, ratingNumber } from "./match-view.js";

const section = document.getElementById("player-ratings");

async function show() {
  const player = await api("GET", `players/${encodeURIComponent(section.dataset.username)}`);
  const modes = Object.keys(player.ratings || {}).sort();
  if (!modes.length) return;
  const histories = await Promise.all(modes.map((mode) => ratingHistory(player.username, mode, player.ratings[mode])));
  document.getElementById("player-ratings-list").replaceChildren(
    ...modes.map((mode, index) => {
      const [size, draw] = mode.split("-").map(Number);
      const rating = player.ratings[mode];
      return el(
        "div",
        { "data-mode": mode },
        el("dt", {}, el("a", { href: `/ratings/${size}/${draw}/`, text: modeText(size, draw) })),
        el(
          "dd",
          {},
          `${ratingNumber(rating.rating)}${rating.provisional ? "?" : ""} · ${format(ngettext("%(count)s match", "%(count)s matches", rating.matches), { count: rating.matches })}`,
          ratingChart(histories[index], `${modeText(size, draw)}: ${ratingNumber(rating.rating)}`),
        ),
      );
    }),
  );
  section.hidden = false;
}

show().catch(() => {});
