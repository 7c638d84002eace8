// Live daily leaderboard over the WebSocket of docs/api.md: a snapshot on connect (`onSnapshot` with
// its results and count), then at most once a second a batch of the entries that changed
// (`onEntries` with them and the board's count) and `removed` for a disqualified player
// (`onRemoved`); reconnects (and so gets a fresh snapshot) when the connection drops, waiting
// longer after each failure (exponential back-off with full jitter, so that a server restart
// does not bring every page back at the same instant). A socket closed with 4400 or 4404 (a bad
// board, a day without a challenge) is final: no retry, `onMissing` says so. `players`: whose
// board, the people's (the default) or the bots' (R34).
export const CLOSE_FINAL = new Set([4400, 4404]);
const RETRY_FIRST = 500;
const RETRY_MAX = 30000;

export function retryDelay(failures, random = Math.random) {
  return Math.round(random() * Math.min(RETRY_MAX, RETRY_FIRST * 2 ** failures));
}

export function watchBoard(date, draw, { onSnapshot, onEntries, onRemoved = () => {}, onStatus = () => {}, onMissing = () => {} }, players = "people") {
  let socket = null;
  let closed = false;
  let failures = 0;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = players === "bots" ? "?players=bots" : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws/daily/${date}/${draw}/${query}`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "snapshot") {
        // Only a connection that delivered its snapshot counts as a success: one that opens
        // and drops at once keeps backing off.
        failures = 0;
        onStatus(true);
        onSnapshot(message.results, message.count);
      } else if (message.type === "entries") onEntries(message.entries, message.count);
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

// The top `size` rows of the board (in rank order) after a batch: each entry that changed goes
// to the place its rank (current, docs/api.md) gives it, or off these rows when it ranks below them;
// the rows that did not change keep their order around them (the order of two entries that did
// not change does not change). `complete` is false when a place is left that only a row of the
// board below these could fill (one of them left, or was disqualified): the rows are then
// right as far as they go, and the caller reads the rest from the API.
export function placeEntries(rows, changed, size, count) {
  const moved = new Set(changed.map((entry) => entry.player));
  const placed = rows.filter((row) => !moved.has(row.player));
  let complete = true;
  for (const entry of [...changed].sort((a, b) => a.rank - b.rank)) {
    if (entry.rank > size) continue;
    if (entry.rank - 1 > placed.length) complete = false;
    placed.splice(entry.rank - 1, 0, entry);
  }
  const top = placed.slice(0, size);
  return { rows: top, complete: complete && top.length >= Math.min(count, size) };
}

// Keeps the top `limit` entries of a board from its snapshot and batches, numbered in order.
// The first 50 (the snapshot's) are followed, so that entries leaving the top `limit` are
// replaced by the right ones.
export class LiveBoard {
  constructor(limit) {
    this.limit = limit;
    this.rows = [];
    this.count = 0;
  }

  snapshot(results, count) {
    this.rows = results;
    this.count = count;
  }

  update(entries, count) {
    this.count = count;
    this.rows = placeEntries(this.rows, entries, SNAPSHOT_SIZE, count).rows;
  }

  remove(player) {
    this.rows = this.rows.filter((row) => row.player !== player);
  }

  list() {
    return this.rows.slice(0, this.limit).map((entry, index) => ({ ...entry, rank: index + 1 }));
  }
}

// The snapshot's rows (docs/api.md): the top 50.
export const SNAPSHOT_SIZE = 50;
