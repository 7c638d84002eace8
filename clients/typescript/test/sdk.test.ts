// The SDK against a real server (tests/clients/test_typescript_sdk.py starts it and passes
// CANFIELD_URL, CANFIELD_NAME and CANFIELD_DECK, a deck that wins by playing to the
// foundations). Compiled with the package's strict settings: no answer is cast. Each test has
// a time limit of its own (LIMIT), so that one that waits for what never comes fails by its name;
// the runner exits when they are done (--test-force-exit) even if a failed one left a socket open.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { type Server, createServer } from "node:http";
import { type Socket, createServer as createNetServer } from "node:net";
import { test } from "node:test";
import WebSocket, { WebSocketServer } from "ws";
import { type AccountEvent, type Action, ApiError, Client, type Game, LiveClosed, type StreamEvent, isApiError, items } from "../src/index.js";

const base = process.env["CANFIELD_URL"] ?? "";
const name = process.env["CANFIELD_NAME"] ?? "";
const deck: string[] = JSON.parse(process.env["CANFIELD_DECK"] ?? "[]");
const PASSWORD = "green-felt-canfield-42";
// (the first test sends ~170 requests: 40 s of them on a machine loaded 8 times over)
const LIMIT = { timeout: 100_000 };

function toFoundation(action: Action): boolean {
  return action.type === "move" && action.to.startsWith("foundation");
}

async function rest<T>(iterator: AsyncIterator<T>): Promise<T[]> {
  const seen: T[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value);
  return seen;
}

test("registers, wins a game with legal actions, and the stream follows it to its end", LIMIT, async () => {
  const client = new Client(base);
  const registered = await client.register(name, PASSWORD);
  assert.equal(registered.username, name);
  assert.equal((await client.account()).username, name);

  let game: Game = await client.createGame({ deck, draw: 1 });
  const stream = client.stream(game.id);
  const first = await stream.next(); // the stream is open: every action from here has its line
  assert.equal(first.done, false);
  assert.equal(first.value?.type, "game");
  while (game.status === "playing") {
    const legal = await client.legalActions(game.id);
    const chosen = legal.find(toFoundation) ?? legal.find((a) => a.type === "draw" || a.type === "recycle");
    assert.ok(chosen, "nothing to play");
    game = (await client.act(game.id, { ...chosen, expect: game.moves })).game;
  }
  assert.deepEqual([game.status, game.score, game.moves], ["won", 255, 85]);

  const events: StreamEvent[] = await rest(stream);
  const last = events.at(-1);
  assert.equal(last?.type, "end");
  assert.deepEqual([last.game.status, last.game.moves], ["won", 85]);
  const numbers = events.flatMap((event) => (event.type === "action" ? [event.action.n] : []));
  assert.deepEqual(numbers, Array.from({ length: 85 }, (_, i) => i + 1));
  console.log(`stream: ${events.length} lines after the first, ${numbers.length} actions`);

  // a second client logs in with the password: a new key of the same account
  const again = new Client(base);
  await again.login(name, PASSWORD);
  const read = await again.game(game.id);
  assert.equal(read.status, "won");
  // @ts-expect-error: answers have the schema's types (were `read` any, this would not compile)
  assert.equal(read.stauts, undefined);
  const games = [];
  for await (const played of items(again.games({ status: "won" }))) games.push(played.id);
  assert.deepEqual(games, [game.id]);
  // filters, a batch read and the export, typed by the schema
  const other = await again.createGame({ draw: 3 });
  for await (const page of again.games({ draw: 1, max: 5 })) assert.deepEqual(page.results.map((g) => g.id), [game.id]);
  assert.deepEqual((await again.gamesByIds([other.id, game.id])).map((g) => g.id), [other.id, game.id]);
  const exported: Game[] = [];
  for await (const line of again.export({ status: "won" })) exported.push(line);
  assert.deepEqual(exported.map((g) => [g.id, g.actions?.length]), [[game.id, 85]]);
});

test("iterates a leaderboard page by page", LIMIT, async () => {
  const { date } = await new Client(base).daily();
  const names = [`${name}-a`, `${name}-b`];
  let ranked = false;
  for (const player of names) {
    const client = new Client(base);
    await client.register(player, PASSWORD);
    ranked = (await client.account()).standing.ranked;
    const daily = await client.createGame({ daily: true, draw: 3 });
    await client.act(daily.id, { type: "draw", expect: daily.moves });
  }
  // a new account's entries are provisional where the server asks for a standing (R36)
  const section = ranked ? "ranked" : "provisional";
  const pages = [];
  for await (const page of new Client(base).leaderboard(date, { draw: 3, section, page_size: 1 })) {
    assert.equal(page.date, date);
    pages.push(page);
  }
  const players = pages.flatMap((page) => page.results.map((entry) => entry.player));
  assert.equal(pages.length, pages[0]?.count);
  assert.equal(players.length, pages.length);
  for (const player of names) assert.ok(players.includes(player), `${player} not in ${players.join(", ")}`);
  console.log(`leaderboard: ${pages.length} pages`);
});

test("errors are typed values", LIMIT, async () => {
  const client = new Client(base, { language: "hu" });
  await client.register(`${name}-e`, PASSWORD);
  const game = await client.createGame({ deck, draw: 1 });

  const illegal = await client.act(game.id, { type: "move", from: "tableau:1", to: "tableau:2", expect: 0 }).catch((e: unknown) => e);
  assert.ok(isApiError(illegal, "illegal_move"), String(illegal));
  assert.deepEqual([illegal.status, illegal.error.rule, illegal.error.params?.reason], [422, "R12", "same_colour"]);
  assert.match(illegal.error.message, /pikk/); // in Hungarian, as asked

  const missing = await client.game(randomUUID()).catch((e: unknown) => e);
  assert.ok(missing instanceof ApiError);
  assert.deepEqual([missing.status, missing.code], [404, "not_found"]);

  const anonymous = await new Client(base).account().catch((e: unknown) => e);
  assert.ok(isApiError(anonymous, "not_authenticated"));
  assert.equal(anonymous.status, 401);
});

test("the live board opens with a snapshot; an unknown match closes with 4404", LIMIT, async () => {
  const { date } = await new Client(base).daily();
  const board = new Client(base).liveBoard(date, 3);
  const first = await board.next();
  await board.return(undefined);
  assert.equal(first.value?.type, "snapshot");
  if (first.value?.type === "snapshot") assert.equal(typeof first.value.count, "number");

  const closed = await rest(new Client(base).liveMatch(randomUUID())).catch((e: unknown) => e);
  assert.ok(closed instanceof LiveClosed, String(closed));
  assert.equal(closed.code, 4404);
});

/** A proxy to the server whose first answers fail: a 502 in text, a 503 in the API's shape with
 * Retry-After, then a stream cut after its first line; from then on it passes everything on. */
function failingProxy(): { server: Server; requests: string[] } {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    if (requests.length === 1) {
      response.writeHead(502, { "Content-Type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
      return;
    }
    if (requests.length === 2) {
      const busy = { error: { code: "unavailable", message: "Restarting." } };
      response.writeHead(503, { "Content-Type": "application/json", "Retry-After": "0" }).end(JSON.stringify(busy));
      return;
    }
    const headers = { Authorization: request.headers.authorization ?? "", Accept: request.headers.accept ?? "" };
    fetch(new URL(request.url ?? "/", base), { headers })
      .then(async (upstream) => {
        response.writeHead(upstream.status, { "Content-Type": upstream.headers.get("Content-Type") ?? "" });
        const body = await upstream.text();
        if (requests.length === 3) {
          const firstLine = body.slice(0, body.indexOf("\n") + 1);
          response.write(firstLine, () => response.destroy());
        } else {
          response.end(body);
        }
      })
      .catch(() => response.destroy());
  });
  return { server, requests };
}

test("the stream reconnects after a 502, a 503 and a dropped connection", LIMIT, async () => {
  const client = new Client(base);
  const { token } = await client.register(`${name}-s`, PASSWORD);
  const game = await client.createGame({ deck, draw: 1 });
  await client.act(game.id, { type: "resign", expect: game.moves });

  const { server, requests } = failingProxy();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  try {
    const proxied = new Client(`http://127.0.0.1:${address.port}`, { token });
    const events = await rest(proxied.stream(game.id, { backoff: { initialMs: 10 } }));
    // the cut stream's game line, then the whole stream of the finished game
    assert.deepEqual(events.map((event) => [event.type, event.game.status]), [["game", "resigned"], ["game", "resigned"], ["end", "resigned"]]);
    assert.equal(requests.length, 4);
    assert.ok(requests.every((url) => url === `/api/v1/games/${game.id}/stream`));
  } finally {
    server.close();
  }
});

test("the live board reconnects after the server restarts (1012)", LIMIT, async () => {
  // a socket proxy whose first connection closes as a restarting server's does
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const paths: string[] = [];
  server.on("connection", (socket, request) => {
    paths.push(request.url ?? "");
    if (paths.length === 1) {
      socket.close(1012, "restarting");
      return;
    }
    const upstream = new WebSocket(new URL(request.url ?? "/", base.replace(/^http/, "ws")));
    upstream.on("message", (data) => socket.send(data.toString()));
    socket.on("close", () => upstream.close());
  });
  const { date } = await new Client(base).daily();
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  try {
    const board = new Client(`http://127.0.0.1:${address.port}`).liveBoard(date, 1, { backoff: { initialMs: 10 } });
    const first = await board.next();
    await board.return(undefined);
    assert.equal(first.value?.type, "snapshot");
    assert.deepEqual(paths, [`/ws/daily/${date}/1/`, `/ws/daily/${date}/1/`]);
  } finally {
    server.close();
  }
});

test("a socket whose server never answers the handshake is tried again, then given up", LIMIT, async () => {
  // a server that takes connections and says nothing
  const openings: Socket[] = [];
  const silent = createNetServer((socket) => openings.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  assert.ok(address !== null && typeof address === "object");
  try {
    const board = new Client(`http://127.0.0.1:${address.port}`).liveBoard("2026-12-07", 1, {
      handshakeMs: 300,
      backoff: { initialMs: 10, attempts: 2 },
    });
    await assert.rejects(board.next(), (error: unknown) => error instanceof LiveClosed && error.code === 1006);
    assert.equal(openings.length, 2);
  } finally {
    for (const socket of openings) socket.destroy();
    silent.close();
  }
});

/** A proxy to the server that cuts its first stream after `lines` JSON lines (the first is the
 * `stream_opened` line) and forwards the later ones once `hold` resolved. */
function cuttingProxy(lines = 2, hold: Promise<void> = Promise.resolve()): { server: Server; requests: string[] } {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    const first = requests.length === 1;
    const headers = { Authorization: request.headers.authorization ?? "", Accept: request.headers.accept ?? "" };
    const controller = new AbortController();
    response.on("close", () => controller.abort());
    (first ? Promise.resolve() : hold)
      .then(() => fetch(new URL(request.url ?? "/", base), { headers, signal: controller.signal }))
      .then(async (upstream) => {
        response.writeHead(upstream.status, { "Content-Type": upstream.headers.get("Content-Type") ?? "" });
        const decoder = new TextDecoder();
        const reader = upstream.body?.getReader();
        let sent = "";
        for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
          const text = decoder.decode(read.value, { stream: true });
          sent += text;
          const ends = sent.split("}\n").length - 1;
          if (first && ends >= lines) {
            let cut = -1;
            for (let n = 0; n < lines; n += 1) cut = sent.indexOf("}\n", cut + 1);
            response.write(text.slice(0, text.length - (sent.length - cut - 2)), () => response.destroy());
            return;
          }
          response.write(text);
        }
        response.end();
      })
      .catch(() => response.destroy());
  });
  return { server, requests };
}

test("challenges: made, listed, declined, accepted; account events resume after a cut", LIMIT, async () => {
  const ada = new Client(base);
  const grace = new Client(base);
  const [adaName, graceName] = [`${name}-c`, `${name}-d`];
  const registered = await ada.register(adaName, PASSWORD);
  await grace.register(graceName, PASSWORD);
  // the events from the opening on: the first, a game ada deals
  let opened = (): void => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const events = ada.accountEvents({ onOpen: () => opened() });
  const firstEvent = events.next();
  await open;
  const before = await ada.createGame({ draw: 3 });
  const started = (await firstEvent).value;
  await events.return(undefined);
  assert.ok(started !== undefined && started.type === "game_started");
  assert.ok(JSON.stringify(started.data).includes(before.id));

  // a challenge declined, one taken back, one accepted: the duel's games are dealt
  const declined = await ada.declineChallenge((await grace.challenge({ player: adaName, draw: 1 })).id);
  assert.equal(declined.status, "declined");
  const cancelled = await grace.cancelChallenge((await grace.challenge({ player: adaName })).id);
  assert.equal(cancelled.status, "cancelled");
  const invited = await grace.challenge({ player: adaName, draw: 3, rated: false });
  const listed: string[] = [];
  for await (const challenge of items(ada.challenges({ page_size: 1 }))) listed.push(challenge.id);
  assert.deepEqual(new Set(listed), new Set([declined.id, cancelled.id, invited.id]));
  const match = await ada.acceptChallenge(invited.id, { rated: false });
  assert.equal((await ada.getChallenge(invited.id)).status, "accepted");
  assert.equal(match.size, 2);
  const closed = await ada.acceptChallenge(invited.id).catch((e: unknown) => e);
  assert.ok(isApiError(closed, "challenge_closed"), String(closed));
  assert.equal(closed.error.params?.status, "accepted");

  const after = await ada.createGame({ draw: 1 });

  // the events after ada's first game, through a proxy that cuts the first stream after its
  // first event: the three challenges' news, the duel's game, then the next game, each once
  const { server, requests } = cuttingProxy();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  const types: string[] = [];
  const ids: number[] = [];
  try {
    const proxied = new Client(`http://127.0.0.1:${address.port}`, { token: registered.token });
    for await (const event of proxied.accountEvents({ since: started.id, backoff: { initialMs: 10 } })) {
      types.push(event.type);
      ids.push(event.id);
      if (JSON.stringify(event.data).includes(after.id) || types.length >= 20) break;
    }
  } finally {
    server.close();
  }
  // nothing lost across the cut, nothing twice, in order, the next game last
  assert.deepEqual(types.filter((type) => type.startsWith("challenge_")).sort(), [
    "challenge_accepted",
    "challenge_cancelled",
    "challenge_created",
    "challenge_created",
    "challenge_created",
    "challenge_declined",
  ]);
  assert.equal(types.filter((type) => type === "game_started").length, 2);
  assert.equal(types.at(-1), "game_started");
  assert.ok(ids.every((id, i) => id > (i === 0 ? started.id : (ids[i - 1] ?? 0))));
  assert.deepEqual(requests, [`/api/v1/account/events?since=${started.id}`, `/api/v1/account/events?since=${ids[0]}`]);

  // a player's stats and a month of the archive, typed
  const stats = await ada.playerStats(adaName);
  assert.equal(typeof stats.streak.current, "number");
  const { date } = await ada.daily();
  const month = await ada.dailyMonth(date.slice(0, 7));
  assert.equal(month.month, date.slice(0, 7));
  const unknown = await ada.getChallenge(randomUUID()).catch((e: unknown) => e);
  assert.ok(isApiError(unknown, "not_found"), String(unknown));
});

/** The game an event's `data` names ("" if none). */
function gameOf(event: AccountEvent): string {
  const data = event.data;
  return typeof data === "object" && data !== null && "game" in data && typeof data.game === "string" ? data.game : "";
}

/** A proxy to the server's sockets that kills its first connection after `messages` messages
 * (the first is `stream_opened`) and opens the later ones once `hold` resolved. */
function killingSocketProxy(messages = 2, hold: Promise<void> = Promise.resolve()): { server: WebSocketServer; paths: string[] } {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  const paths: string[] = [];
  server.on("connection", async (socket, request) => {
    paths.push(request.url ?? "");
    const first = paths.length === 1;
    if (!first) await hold;
    const headers = { Authorization: request.headers.authorization ?? "" };
    const upstream = new WebSocket(new URL(request.url ?? "/", base.replace(/^http/, "ws")), { headers });
    let cut = false;
    let count = 0;
    upstream.on("message", (data) => {
      if (cut) return;
      count += 1;
      cut = first && count >= messages;
      socket.send(data.toString(), () => {
        if (cut) {
          socket.terminate();
          upstream.terminate();
        }
      });
    });
    upstream.on("close", (code) => (socket.readyState === WebSocket.OPEN ? socket.close(code) : undefined));
    socket.on("close", () => upstream.terminate());
  });
  return { server, paths };
}

test("account events over the WebSocket: typed, and resumed after a killed connection", LIMIT, async () => {
  const ada = new Client(base);
  const adaName = `${name}-w`;
  const { token } = await ada.register(adaName, PASSWORD);
  const other = new Client(base); // another client of the account: a key of its own
  await other.login(adaName, PASSWORD);
  const play = async (): Promise<string> => {
    const game = await other.createGame({ draw: 3 });
    await other.act(game.id, { type: "resign", expect: game.moves });
    return game.id;
  };

  // the socket open, another client plays: the game's start and end, typed by `type`
  let opened = (): void => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const direct = ada.liveAccountEvents({ onOpen: () => opened() });
  const firstEvent = direct.next();
  await open;
  const a = await play();
  const started = (await firstEvent).value;
  const ended = (await direct.next()).value;
  await direct.return(undefined);
  assert.ok(started?.type === "game_started" && ended?.type === "game_ended");
  assert.deepEqual([gameOf(started), gameOf(ended)], [a, a]);

  // two more games, then the events after the first through a proxy that kills the first
  // connection after one message: reopened after the last event received, each once
  const [b, c] = [await play(), await play()];
  const { server, paths } = killingSocketProxy();
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  const seen: [string, string][] = [];
  const ids: number[] = [];
  try {
    const proxied = new Client(`http://127.0.0.1:${address.port}`, { token });
    for await (const event of proxied.liveAccountEvents({ since: started.id, backoff: { initialMs: 10 } })) {
      seen.push([event.type, gameOf(event)]);
      ids.push(event.id);
      if (seen.length >= 5) break;
    }
  } finally {
    server.close();
  }
  assert.deepEqual(seen, [["game_ended", a], ["game_started", b], ["game_ended", b], ["game_started", c], ["game_ended", c]]);
  assert.ok(ids.every((id, i) => id > (i === 0 ? started.id : (ids[i - 1] ?? 0))));
  assert.deepEqual(paths.slice(0, 2), [`/ws/account/events?since=${started.id}`, `/ws/account/events?since=${ids[0]}`]);

  // refusals reconnecting cannot mend: no credential (4401), an unknown since (4400)
  const anonymous = await rest(new Client(base).liveAccountEvents()).catch((e: unknown) => e);
  assert.ok(anonymous instanceof LiveClosed && anonymous.code === 4401, String(anonymous));
  const unknown = await rest(ada.liveAccountEvents({ since: 10 ** 12 })).catch((e: unknown) => e);
  assert.ok(unknown instanceof LiveClosed && unknown.code === 4400, String(unknown));
});

/** The first four events of `follow` (its `onOpen` called on the `stream_opened` line), two
 * games `play`ed once it opened and before `release` lets a reconnection through; and the games. */
async function acrossACut(
  follow: (onOpen: () => void) => AsyncGenerator<AccountEvent>,
  play: () => Promise<string>,
  release: () => void,
): Promise<{ seen: [string, string][]; games: string[] }> {
  let opened = (): void => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const events = follow(() => opened());
  const firstEvent = events.next();
  await open;
  const games = [await play(), await play()];
  release();
  const seen: [string, string][] = [];
  let next = await firstEvent;
  for (;;) {
    assert.ok(next.value !== undefined);
    seen.push([next.value.type, gameOf(next.value)]);
    if (seen.length === 4) break;
    next = await events.next();
  }
  await events.return(undefined);
  return { seen, games };
}

/** A promise and the function that resolves it. */
function held(): { hold: Promise<void>; release: () => void } {
  let release = (): void => {};
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}

test("account events opened without since lose nothing to a cut before the first event", LIMIT, async () => {
  const ada = new Client(base);
  const adaName = `${name}-o`;
  const { token } = await ada.register(adaName, PASSWORD);
  const other = new Client(base); // another client of the account: a key of its own
  await other.login(adaName, PASSWORD);
  const play = async (): Promise<string> => {
    const game = await other.createGame({ draw: 3 });
    await other.act(game.id, { type: "resign", expect: game.moves });
    return game.id;
  };
  const expected = (games: string[]): [string, string][] => games.flatMap((g): [string, string][] => [["game_started", g], ["game_ended", g]]);
  const backoff = { initialMs: 10 };

  // NDJSON: opened without since, cut right after its `stream_opened` line; two games are played
  // before the SDK may reconnect; then it resumes from the opening's position
  const lines = held();
  const { server, requests } = cuttingProxy(1, lines.hold);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  try {
    const proxied = new Client(`http://127.0.0.1:${address.port}`, { token });
    const { seen, games } = await acrossACut((onOpen) => proxied.accountEvents({ onOpen, backoff }), play, lines.release);
    assert.deepEqual(seen, expected(games));
    assert.equal(requests.length, 2);
    assert.match(requests[1] ?? "", /^\/api\/v1\/account\/events\?since=\d+$/);
  } finally {
    server.close();
  }

  // the WebSocket: the same, killed right after its `stream_opened` message
  const messages = held();
  const proxy = killingSocketProxy(1, messages.hold);
  await new Promise<void>((resolve) => proxy.server.once("listening", resolve));
  const socketAddress = proxy.server.address();
  assert.ok(socketAddress !== null && typeof socketAddress === "object");
  try {
    const proxied = new Client(`http://127.0.0.1:${socketAddress.port}`, { token });
    const { seen, games } = await acrossACut((onOpen) => proxied.liveAccountEvents({ onOpen, backoff }), play, messages.release);
    assert.deepEqual(seen, expected(games));
    assert.equal(proxy.paths[0], "/ws/account/events");
    assert.match(proxy.paths[1] ?? "", /^\/ws\/account\/events\?since=\d+$/);
  } finally {
    proxy.server.close();
  }
});
