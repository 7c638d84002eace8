// Matches (issue 23, R32-R33) in the pages: the live match over `WS /ws/matches/{id}/` (a
// snapshot on connect, one players[] row per change, `finished` at the end), a match's
// players in words, places with rating changes, and a rating history as an inline SVG chart.
// The opponents' cards and actions never come: only their figures.
import { api, counted, el, format, formatSeconds } from "./api.js";
import { retryDelay } from "./board.js";

// Closes after which no reconnection helps: a bad id, no such match.
const CLOSE_FINAL = new Set([4400, 4404]);

export function modeText(size, draw) {
  const players = size === 2 ? gettext("1 v 1") : gettext("Table of 4");
  const cards = draw === 3 ? gettext("3 cards (Hard)") : gettext("1 card (Easy)");
  return `${players} · ${cards}`;
}

// A challenge's duel (issue 32): its draw, rated or not.
export function challengeModeText(challenge) {
  return `${modeText(2, challenge.draw)} · ${challenge.rated ? gettext("rated") : gettext("unrated")}`;
}

// Accepts the challenge `id` (rated as asked, or `{ rated: false }`) and opens the duel's match
// page, the player's game a click away; an ApiError when the server refuses.
export async function acceptChallenge(id, body = {}) {
  const match = await api("POST", `challenges/${id}/accept`, body);
  location.href = `/matches/${match.id}`;
}

// R22 scores each card the first time it reaches a foundation (+5), the base card never: a
// score of 110 is 22 cards placed, 23 home with the base card.
export function cardsHome(score) {
  return Math.floor(score / 5) + 1;
}

// A seat's game that ended without a win "ended" (R20: the player ends it, no defeat), as the
// table and the boards say it, never "resigned".
export function statusText(status) {
  return (
    {
      playing: gettext("playing"),
      won: gettext("won"),
      resigned: gettext("ended"),
      match_over: gettext("time up"),
    }[status] || status
  );
}

// "anna: 23 cards home, 140 moves, 3:20 (won)"
export function seatText(seat) {
  return `${seat.player}: ${seatFigures(seat)}`;
}

// "23 cards home, 140 moves, 3:20 (won)"
export function seatFigures(seat) {
  const figures = format(gettext("%(cards)s, %(moves)s, %(time)s"), {
    cards: counted(ngettext("%(count)s card home", "%(count)s cards home", cardsHome(seat.score)), cardsHome(seat.score)),
    moves: counted(ngettext("%(count)s move", "%(count)s moves", seat.moves), seat.moves),
    time: formatSeconds(seat.seconds),
  });
  const status = seat.status === "playing" ? "" : ` (${statusText(seat.end_reason === "match_over" ? "match_over" : seat.status)})`;
  return `${figures}${status}`;
}

export function ratingNumber(value) {
  return value === null || value === undefined ? "–" : String(Math.round(value));
}

export function changeText(seat) {
  if (seat.rating_before === null || seat.rating_after === null || seat.rating_before === undefined) return "";
  const change = Math.round(seat.rating_after) - Math.round(seat.rating_before);
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

// The players of a finished match in place order, each "1. anna: 255 points ... 1512 (+12)";
// an aborted seat (R33a: its game ended with fewer than 10 actions) last, marked so.
export function placeItems(match, me) {
  const seats = [...match.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  return seats.map((seat) => {
    const change = changeText(seat);
    const rating =
      seat.rating_after === null || seat.rating_after === undefined
        ? ""
        : format(gettext("rating %(rating)s (%(change)s)"), { rating: ratingNumber(seat.rating_after), change });
    return el(
      "li",
      {
        class: seat.player === me ? "mine" : "",
        "data-player": seat.player,
        "data-aborted": seat.aborted ? "true" : undefined,
        value: seat.place || undefined,
      },
      el("span", {
        class: "place",
        text: seat.aborted
          ? `${gettext("aborted")} · `
          : seat.place
            ? format(gettext("%(place)s."), { place: seat.place }) + " "
            : "",
      }),
      el("span", { class: "who", text: seatText(seat) }),
      rating ? el("span", { class: "rating-change", text: ` · ${rating}` }) : null,
    );
  });
}

// What a finished match says to one of its players.
export function placeSentence(match, me) {
  const seat = match.players.find((each) => each.player === me);
  if (!seat) return "";
  if (seat.aborted) {
    return gettext("Your game ended after fewer than 10 actions: your seat was aborted. It takes no place and moves no rating.");
  }
  if (match.cancelled) return gettext("The match was cancelled: nobody else played it. Ratings did not change.");
  if (!match.rated) {
    return format(gettext("You placed %(place)s of %(count)s. Ratings change once the fair-play review of the match's games is done."), {
      place: seat.place,
      count: match.players.length,
    });
  }
  return format(gettext("You placed %(place)s of %(count)s. Rating: %(rating)s (%(change)s)."), {
    place: seat.place,
    count: match.players.length,
    rating: ratingNumber(seat.rating_after),
    change: changeText(seat),
  });
}

// A match that changes no more: finished and rated, or cancelled.
const settled = (match) => match.status !== "open" && (match.rated || match.cancelled);

// Follows a match: `onMatch(match, finished)` with the whole match after the snapshot and each
// change; reconnects with back-off until the match is settled (finished and rated, or
// cancelled: a finished match is rated after the fair-play review of its games, R35, and comes
// again then); `onStatus(live)`; `onMissing()` when the server says there is no such match.
export function watchMatch(matchId, { onMatch, onStatus = () => {}, onMissing = () => {} }) {
  let socket = null;
  let closed = false;
  let failures = 0;
  let match = null;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${encodeURIComponent(matchId)}/`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "snapshot") {
        failures = 0;
        onStatus(true);
        match = message.match;
        onMatch(match, match.status !== "open");
      } else if (message.type === "player" && match) {
        const row = typeof message.player === "object" ? message.player : message;
        const { type: _type, ...seat } = row;
        const players = match.players.filter((each) => each.player !== seat.player);
        const index = match.players.findIndex((each) => each.player === seat.player);
        players.splice(index < 0 ? players.length : index, 0, seat);
        match = { ...match, players };
        onMatch(match, false);
      } else if (message.type === "finished" || message.type === "rated") {
        match = message.match;
        onMatch(match, true);
      }
      if (match && settled(match)) {
        closed = true;
        socket.close();
      }
    });
    socket.addEventListener("close", (event) => {
      if (CLOSE_FINAL.has(event.code)) {
        closed = true;
        onMissing(event.code);
        return;
      }
      if (closed) return;
      onStatus(false);
      setTimeout(connect, retryDelay(failures++));
    });
  };
  connect();
  return () => {
    closed = true;
    if (socket) socket.close();
  };
}

export function setLive(box, on, finished = false) {
  box.querySelector(".live-dot").classList.toggle("on", on && !finished);
  box.querySelector(".live-text").textContent = finished ? "" : on ? gettext("live") : gettext("reconnecting…");
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// A rating history (oldest first, the rating before the first match included) as a line chart:
// an inline SVG with a title and a description that say in words what the line shows.
export function ratingChart(points, label) {
  const width = 320;
  const height = 120;
  const pad = { left: 40, right: 8, top: 10, bottom: 18 };
  const low = Math.min(...points);
  const high = Math.max(...points);
  const span = Math.max(high - low, 20);
  const x = (i) => pad.left + (points.length < 2 ? 0 : (i * (width - pad.left - pad.right)) / (points.length - 1));
  const y = (v) => pad.top + (1 - (v - (low + high - span) / 2) / span) * (height - pad.top - pad.bottom);
  const id = `chart-${Math.random().toString(36).slice(2, 9)}`;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "rating-chart",
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
  });
  const title = svg("title", { id: `${id}-title` });
  title.textContent = label;
  const desc = svg("desc", { id: `${id}-desc` });
  const last = points[points.length - 1];
  desc.textContent = format(
    ngettext(
      "From %(first)s to %(last)s over %(count)s match; lowest %(low)s, highest %(high)s.",
      "From %(first)s to %(last)s over %(count)s matches; lowest %(low)s, highest %(high)s.",
      points.length - 1,
    ),
    { first: ratingNumber(points[0]), last: ratingNumber(last), count: points.length - 1, low: ratingNumber(low), high: ratingNumber(high) },
  );
  chart.append(title, desc);
  for (const value of [high, low]) {
    chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: "grid" }));
    const tick = svg("text", { x: pad.left - 4, y: y(value) + 4, "text-anchor": "end", class: "tick" });
    tick.textContent = ratingNumber(value);
    chart.append(tick);
  }
  chart.append(svg("polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }));
  for (const [i, v] of points.entries()) chart.append(svg("circle", { cx: x(i), cy: y(v), r: 2.5, class: "dot" }));
  return chart;
}

// A player's rating history in one mode ("2-3") as the chart's points: the rating before their
// first match, then after each (the API keeps the last 200), oldest first.
export async function ratingHistory(player, mode, rating) {
  const [size, draw] = mode.split("-");
  const history = await api("GET", `players/${encodeURIComponent(player)}/ratings?size=${size}&draw=${draw}`);
  if (!history.results.length) return [rating.rating];
  return [history.results[0].rating_before, ...history.results.map((change) => change.rating_after)];
}
