// Live daily leaderboard over the WebSocket of API.md: a snapshot on connect, then at most once
// a second a batch of the entries that changed (`onEntry` for each) and `removed` for a
// disqualified player (`onRemoved`); reconnects (and so gets a fresh snapshot) when the connection drops, waiting
// longer after each failure (exponential back-off with full jitter, so that a server restart
// does not bring every page back at the same instant). A socket closed with 4400 or 4404 (a bad
// board, a day without a challenge) is final: no retry, `onMissing` says so.
export const CLOSE_FINAL = new Set([4400, 4404]);
const RETRY_FIRST = 500;
const RETRY_MAX = 30000;

export function retryDelay(failures, random = Math.random) {
  return Math.round(random() * Math.min(RETRY_MAX, RETRY_FIRST * 2 ** failures));
}

export function watchBoard(date, draw, { onSnapshot, onEntry, onRemoved = () => {}, onStatus = () => {}, onMissing = () => {} }) {
  let socket = null;
  let closed = false;
  let failures = 0;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/daily/${date}/${draw}/`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "snapshot") {
        // Only a connection that delivered its snapshot counts as a success: one that opens
        // and drops at once keeps backing off.
        failures = 0;
        onStatus(true);
        onSnapshot(message.results);
      } else if (message.type === "entries") message.entries.forEach(onEntry);
      else if (message.type === "removed") onRemoved(message.player);
    });
    socket.addEventListener("close", (event) => {
      if (CLOSE_FINAL.has(event.code)) {
        closed = true;
        onMissing(event.code);
        return;
      }
      onStatus(false);
      if (!closed) setTimeout(connect, retryDelay(failures++));
    });
  };
  connect();
  return () => {
    closed = true;
    if (socket) socket.close();
  };
}

// The board's order (API.md): score high first, then fewer moves, then less time; the server's
// rank breaks the remaining ties (who got there first).
export function byStanding(a, b) {
  return b.score - a.score || a.moves - b.moves || a.seconds - b.seconds || a.rank - b.rank;
}

// Keeps a list of entries up to date from snapshot and entry messages, renumbered in order.
export class LiveBoard {
  constructor(limit) {
    this.limit = limit;
    this.entries = new Map();
  }

  snapshot(results) {
    this.entries = new Map(results.map((entry) => [entry.player, entry]));
  }

  update(entry) {
    this.entries.set(entry.player, entry);
  }

  remove(player) {
    this.entries.delete(player);
  }

  list() {
    const sorted = [...this.entries.values()].sort(byStanding);
    return sorted.slice(0, this.limit).map((entry, index) => ({ ...entry, rank: index + 1 }));
  }
}
