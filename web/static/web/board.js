// Live daily leaderboard over the WebSocket of API.md: a snapshot on connect, then one entry
// per change; reconnects (and so gets a fresh snapshot) when the connection drops.
export function watchBoard(date, draw, { onSnapshot, onEntry, onStatus = () => {} }) {
  let socket = null;
  let closed = false;
  let retry = 500;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/daily/${date}/${draw}/`);
    socket.addEventListener("open", () => {
      retry = 500;
      onStatus(true);
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "snapshot") onSnapshot(message.results);
      else if (message.type === "entry") onEntry(message.entry);
    });
    socket.addEventListener("close", () => {
      onStatus(false);
      if (!closed) setTimeout(connect, (retry = Math.min(retry * 2, 10000)));
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

  list() {
    const sorted = [...this.entries.values()].sort(byStanding);
    return sorted.slice(0, this.limit).map((entry, index) => ({ ...entry, rank: index + 1 }));
  }
}
