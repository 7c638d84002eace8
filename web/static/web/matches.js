// The Matches page (issue 23): play a match (1 v 1 or a table of 4, draw 3 or 1), the
// player's open and recent matches, and their ratings with a chart per mode.
import { api, currentUser, el, format, pageLang } from "./api.js";
import { errorText } from "./messages.js";
import { acceptChallenge, challengeModeText, changeText, modeText, ratingChart, ratingHistory, ratingNumber } from "./match-view.js";

const me = currentUser();
const form = document.getElementById("match-form");

if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const errorBox = document.getElementById("match-error");
    const button = document.getElementById("match-play");
    button.disabled = true;
    errorBox.hidden = true;
    try {
      const match = await api("POST", "matches", { size: Number(data.get("size")), draw: Number(data.get("draw")) });
      location.href = `/play/${match.game}`;
    } catch (error) {
      errorBox.textContent = errorText(error);
      errorBox.hidden = false;
      button.disabled = false;
    }
  });
  // Disabled in the page until now: a click before this listens would submit the form to
  // the page itself (a reload, and no match).
  document.getElementById("match-play").disabled = false;
}

function results(data) {
  return Array.isArray(data) ? data : data.results;
}

function showOpen(matches) {
  const list = document.getElementById("open-matches");
  list.replaceChildren(
    ...matches.map((match) =>
      el(
        "li",
        { "data-match": match.id },
        el("a", { href: `/play/${match.game}`, text: modeText(match.size, match.draw) }),
        ` · ${format(gettext("%(taken)s of %(size)s seats taken"), { taken: match.players.length, size: match.size })} · `,
        el("a", { href: `/matches/${match.id}`, text: gettext("the match") }),
      ),
    ),
  );
  document.getElementById("open-none").hidden = matches.length > 0;
}

function showRecent(matches) {
  const rows = matches.map((match) => {
    const seat = match.players.find((each) => each.player === me) || {};
    const others = match.players.filter((each) => each.player !== me).map((each) => each.player);
    return el(
      "tr",
      { "data-match": match.id },
      el("td", { text: match.created ? new Date(match.created).toLocaleString(pageLang(), { dateStyle: "short", timeStyle: "short" }) : "" }),
      el("td", { text: modeText(match.size, match.draw) }),
      el("td", { class: "num", text: seat.aborted ? gettext("aborted") : seat.place ? `${seat.place}/${match.players.length}` : "–" }),
      el("td", { text: others.join(", ") }),
      el("td", { class: "num", text: seat.rating_after == null ? "–" : `${ratingNumber(seat.rating_after)} (${changeText(seat)})` }),
      el("td", {}, el("a", { href: `/matches/${match.id}`, text: gettext("Details") })),
    );
  });
  document.getElementById("recent-matches").replaceChildren(...rows);
  document.getElementById("recent-table").hidden = rows.length === 0;
  document.getElementById("recent-none").hidden = rows.length > 0;
}

async function showRatings() {
  const player = await api("GET", `players/${encodeURIComponent(me)}`);
  const ratings = player.ratings || {};
  const modes = Object.keys(ratings).sort();
  const histories = await Promise.all(modes.map((mode) => ratingHistory(me, mode, ratings[mode])));
  const box = document.getElementById("my-ratings");
  const figures = modes.map((mode, index) => {
      const [size, draw] = mode.split("-").map(Number);
      const rating = ratings[mode];
      const label = `${modeText(size, draw)}: ${ratingNumber(rating.rating)}${rating.provisional ? "?" : ""}`;
      const points = histories[index];
      return el(
        "figure",
        { class: "rating-figure", "data-mode": mode },
        el("figcaption", {}, el("a", { href: `/ratings/${size}/${draw}/`, text: label }), ` · ${format(ngettext("%(count)s match", "%(count)s matches", rating.matches), { count: rating.matches })}`),
        ratingChart(points, label),
      );
    });
  box.replaceChildren(...figures);
  document.getElementById("ratings-none").hidden = figures.length > 0;
}

function challengeButton(label, onClick) {
  const button = el("button", { type: "button", text: label });
  button.addEventListener("click", async () => {
    const errorBox = document.getElementById("challenges-error");
    errorBox.hidden = true;
    button.disabled = true;
    try {
      await onClick();
    } catch (error) {
      errorBox.textContent = errorText(error);
      errorBox.hidden = false;
    }
    await loadChallenges();
  });
  return button;
}

function challengeItem(challenge) {
  const path = `challenges/${challenge.id}`;
  const mode = challengeModeText(challenge);
  const until = new Date(challenge.expires_at).toLocaleString(pageLang(), { dateStyle: "short", timeStyle: "short" });
  const accept = (body) => acceptChallenge(challenge.id, body);
  const incoming = challenge.player === me;
  const words = incoming
    ? format(gettext("%(player)s challenges you"), { player: challenge.challenger })
    : format(gettext("You challenged %(player)s"), { player: challenge.player });
  const buttons = incoming
    ? [
        challengeButton(gettext("Accept"), () => accept({})),
        ...(challenge.rated ? [challengeButton(gettext("Accept unrated"), () => accept({ rated: false }))] : []),
        challengeButton(gettext("Decline"), () => api("POST", `${path}/decline`)),
      ]
    : [challengeButton(gettext("Cancel"), () => api("POST", `${path}/cancel`))];
  return el(
    "li",
    { "data-challenge": challenge.id },
    `${words} · ${mode} · ${format(gettext("until %(time)s"), { time: until })} `,
    ...buttons,
  );
}

async function loadChallenges() {
  const pending = results(await api("GET", "challenges?page_size=100")).filter((each) => each.status === "pending");
  document.getElementById("challenge-list").replaceChildren(...pending.map(challengeItem));
  document.getElementById("challenges-none").hidden = pending.length > 0;
}

async function load() {
  if (!me) return;
  await loadChallenges();
  const [open, finished] = await Promise.all([api("GET", "matches?status=open"), api("GET", "matches?status=finished")]);
  showOpen(results(open));
  showRecent(results(finished));
  await showRatings();
}

load().catch(() => {});
