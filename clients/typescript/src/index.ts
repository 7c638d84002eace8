// The Canfield Club API from TypeScript: openapi-fetch on the types openapi-typescript generates
// from the server's schema (./schema.ts), and a small layer over it: auth, typed calls that
// answer data or throw an ApiError, page iterators, the NDJSON game stream and the live sockets.
import createClient, { type Client as FetchClient } from "openapi-fetch";
import { type Backoff, delayMs, pause } from "./backoff.js";
import { ApiError, HttpError, errorOf, retryAfter } from "./errors.js";
import { type BoardMessage, type LiveOptions, type MatchMessage, live, socketUrl } from "./live.js";
import type { components, operations, paths } from "./schema.js";

export { ApiError, HttpError, isApiError, type ErrorCode, type ErrorDetail } from "./errors.js";
export { LiveClosed, type BoardMessage, type LiveOptions, type MatchMessage } from "./live.js";
export type { Backoff } from "./backoff.js";
export { OAuthApp, OAuthError, s256, type Authorization, type OAuthAppOptions, type Scope, type Tokens } from "./oauth.js";
export type { components, operations, paths } from "./schema.js";

export type Schemas = components["schemas"];
export type Game = Schemas["GameOut"];
export type Action = Schemas["Action"];
/** An action to post: any `Action`, with `expect` (the `moves` last seen) for safe retries. */
export type ActionRequest = NonNullable<operations["games_actions_create"]["requestBody"]>["content"]["application/json"];
type Query<O extends keyof operations> = NonNullable<operations[O]["parameters"]["query"]>;
type PageQuery<O extends keyof operations> = Omit<Query<O>, "page">;

/** A line of `GET games/{id}/stream` (docs/api.md "Streams"): the schema's StreamLine, keyed by `type`. */
export type StreamEvent = Schemas["StreamLine"];
/** A line of `GET account/events` (docs/api.md "Streams and exports"): `data` by `type`. */
export type AccountEvent = Schemas["AccountEvent"];
/** The type of an account event stream's first line: its `id` is where the stream starts. The
 * client keeps it as its resume point and never yields it. */
export const OPENED = "stream_opened";
export type Challenge = Schemas["Challenge"];

export interface ClientOptions {
  /** An API key or an OAuth access token, sent as `Authorization: Bearer`. */
  token?: string;
  /** `Accept-Language` for error messages: en, hu or pl. */
  language?: string;
  fetch?: (request: Request) => Promise<Response>;
  /** Called with the token a live socket was closed for (4401: it expired or was revoked): a
   * new token, or null (`OAuthApp.client`: a refresh). The socket reopens with it at once. */
  renew?: (refused: string) => Promise<string | null>;
}

export interface StreamOptions {
  signal?: AbortSignal;
  backoff?: Backoff;
  /** Called each time the stream is open (answered 200): what happens from then on is told. */
  onOpen?: () => void;
}

interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** An answer's data, or its error thrown as an ApiError (HttpError when not in the API's shape). */
async function unwrap<D>(pending: Promise<Answer<D>>): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw errorOf(error, response);
  return data;
}

async function noContent(pending: Promise<Answer<unknown>>): Promise<void> {
  const { error, response } = await pending;
  if (!response.ok) throw errorOf(error, response);
}

interface Paged {
  next: string | null;
}

/** Pages one after another, following each page's `next` until it is null. */
export async function* pages<P extends Paged>(load: (page: number) => Promise<P>): AsyncGenerator<P> {
  for (let page = 1; ; ) {
    const answer = await load(page);
    yield answer;
    if (answer.next === null) return;
    page = Number(new URL(answer.next).searchParams.get("page"));
  }
}

/** Every result of every page. */
export async function* items<T>(source: AsyncIterable<{ results: T[] }>): AsyncGenerator<T> {
  for await (const page of source) yield* page.results;
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      yield* parts;
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}

/** An NDJSON line, typed by the schema's `x-ndjson.itemSchema` of its answer. */
function parseLine<Line extends StreamEvent | AccountEvent | Game>(line: string): Line {
  return JSON.parse(line);
}

/** The non-empty lines of an NDJSON body, each parsed (empty lines are keep-alives). */
async function* ndjson<Line extends StreamEvent | AccountEvent | Game>(body: ReadableStream<Uint8Array>): AsyncGenerator<Line> {
  for await (const line of lines(body)) if (line.trim() !== "") yield parseLine<Line>(line);
}

const RETRIED = new Set([502, 503, 504]);

type Opened = Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>;

/** The lines of the NDJSON stream `open` opens, opened again (with jittered back-off, at least
 * Retry-After) after a dropped connection or a 502/503/504, until `backoff.attempts` failures
 * in a row; an error answer in the API's shape (404, 429...) is thrown as an ApiError. */
async function* follow<Line extends StreamEvent | AccountEvent>(
  open: (signal: AbortSignal | undefined) => Opened,
  options: StreamOptions,
): AsyncGenerator<Line> {
  const backoff = options.backoff ?? {};
  for (let failures = 1; ; failures += 1) {
    let wait: number | null = null;
    try {
      const { data, error, response } = await open(options.signal);
      if (!response.ok || !data) {
        const failure = errorOf(error, response);
        if (!RETRIED.has(response.status) || failures >= (backoff.attempts ?? 10)) throw failure;
        wait = retryAfter(response);
      } else {
        options.onOpen?.();
        for await (const line of ndjson<Line>(data)) {
          failures = 0;
          yield line;
        }
      }
    } catch (error) {
      options.signal?.throwIfAborted();
      if (error instanceof ApiError || error instanceof HttpError || failures >= (backoff.attempts ?? 10)) throw error;
    }
    await pause(delayMs(Math.max(failures, 1), backoff, wait), options.signal);
  }
}

export class Client {
  /** The openapi-fetch client (typed by path) for what this class does not wrap. */
  readonly api: FetchClient<paths>;
  token: string | undefined;
  private readonly renew: ClientOptions["renew"];

  constructor(
    readonly baseUrl: string,
    options: ClientOptions = {},
  ) {
    this.token = options.token;
    this.renew = options.renew;
    this.api = createClient<paths>({ baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.api.use({
      onRequest: ({ request }) => {
        if (this.token !== undefined) request.headers.set("Authorization", `Bearer ${this.token}`);
        if (options.language !== undefined) request.headers.set("Accept-Language", options.language);
        return request;
      },
    });
  }

  // ---- auth --------------------------------------------------------------------------------

  /** A new account; its key becomes this client's token. */
  async register(username: string, password: string): Promise<Schemas["Registered"]> {
    const registered = await unwrap(this.api.POST("/api/v1/auth/register", { body: { username, password } }));
    this.token = registered.token;
    return registered;
  }

  /** A new key (every scope) of an existing account; it becomes this client's token. */
  async login(username: string, password: string): Promise<string> {
    const { token } = await unwrap(this.api.POST("/api/v1/auth/token", { body: { username, password } }));
    this.token = token;
    return token;
  }

  // ---- games -------------------------------------------------------------------------------

  createGame(body: Schemas["GameCreateRequest"]): Promise<Game> {
    return unwrap(this.api.POST("/api/v1/games", { body }));
  }

  game(gameId: string): Promise<Game> {
    return unwrap(this.api.GET("/api/v1/games/{game_id}", { params: { path: { game_id: gameId } } }));
  }

  act(gameId: string, action: ActionRequest): Promise<Schemas["Acted"]> {
    return unwrap(this.api.POST("/api/v1/games/{game_id}/actions", { params: { path: { game_id: gameId } }, body: action }));
  }

  legalActions(gameId: string): Promise<Action[]> {
    return unwrap(this.api.GET("/api/v1/games/{game_id}/legal-actions", { params: { path: { game_id: gameId } } }));
  }

  /** The table in words (R28), in `lang` (en, hu or pl). */
  async text(gameId: string, lang: Schemas["LangEnum"] = "en"): Promise<string> {
    const answer = await unwrap(this.api.GET("/api/v1/games/{game_id}/text", { params: { path: { game_id: gameId }, query: { lang } } }));
    return answer.text;
  }

  hint(gameId: string): Promise<Schemas["Hint"]> {
    return unwrap(this.api.GET("/api/v1/games/{game_id}/hint", { params: { path: { game_id: gameId } } }));
  }

  /** Up to 100 games by id, those the caller may see, in the order asked (others left out). */
  gamesByIds(ids: string[]): Promise<Game[]> {
    return unwrap(this.api.GET("/api/v1/games", { params: { query: { ids } } })).then((page) => page.results);
  }

  /** The caller's games, page by page (filters: since, until, max, status, daily, draw, ruleset, match). */
  games(query: PageQuery<"games_list"> = {}): AsyncGenerator<Schemas["GamePage"]> {
    return pages((page) => unwrap(this.api.GET("/api/v1/games", { params: { query: { ...query, page } } })));
  }

  /**
   * The game's events as they happen (NDJSON), to its `end` line. After a dropped connection
   * or a 502/503/504 it reconnects with jittered back-off (at least Retry-After): the stream
   * then starts again with a `game` line, the game as it is then.
   */
  async *stream(gameId: string, options: StreamOptions = {}): AsyncGenerator<StreamEvent> {
    const open = (signal: AbortSignal | undefined) =>
      this.api.GET("/api/v1/games/{game_id}/stream", {
        params: { path: { game_id: gameId } },
        headers: { Accept: "application/x-ndjson" },
        parseAs: "stream",
        ...(signal ? { signal } : {}),
      });
    for await (const event of follow<StreamEvent>(open, options)) {
      yield event;
      if (event.type === "end") return;
    }
  }

  /**
   * The account's events as they happen (`GET account/events`, NDJSON, scope `account:read`):
   * games started and ended, matches found, filled, finished and rated, reviews, analyses, a
   * new day. After `since` (an event's `id`) when given, else from the opening on; endless. A
   * dropped stream (or a 502/503/504) is opened again after the last event received, with
   * jittered back-off, so none is lost. The stream's first line (`stream_opened`: where it
   * starts) is never yielded: its `id` is the resume point until an event comes, so a
   * reconnection before the first event loses nothing either; `onOpen` is called on it.
   */
  async *accountEvents(options: StreamOptions & { since?: number } = {}): AsyncGenerator<AccountEvent> {
    let since = options.since;
    const open = (signal: AbortSignal | undefined) =>
      this.api.GET("/api/v1/account/events", {
        params: { query: since === undefined ? {} : { since } },
        headers: { Accept: "application/x-ndjson" },
        parseAs: "stream",
        ...(signal ? { signal } : {}),
      });
    const { onOpen, ...rest } = options;
    for await (const event of follow<AccountEvent>(open, rest)) {
      since = event.id;
      if (event.type === OPENED) onOpen?.();
      else yield event;
    }
  }

  /**
   * The account's events over the WebSocket (`/ws/account/events`, scope `account:read`): the
   * events of `accountEvents`, one message each, after `since` (an event's `id`) when given,
   * else from the opening on (`onOpen`, called on the socket's `stream_opened` message, which is
   * never yielded: what happens from then on is told); endless. A dropped connection (or 4429,
   * 1011, 1012) is opened again with jittered back-off after the last event received, or the
   * `stream_opened` message's `id` before any event, so none is lost or repeated. 4400 (a
   * `since` from the future or after which events were forgotten), 4401 (no credential, or it
   * ended) and 4403 (no `account:read`) throw a `LiveClosed`, but for a 4401 that `renew` mends
   * (`OAuthApp.client`: an expired token refreshed): the socket reopens with the new token at
   * once, after the last event received; a second 4401 before any message throws.
   */
  async *liveAccountEvents(options: LiveOptions & { since?: number } = {}): AsyncGenerator<AccountEvent> {
    let since = options.since;
    let renewed = false; // since the last message
    let sent: string | undefined; // the token of the last opening
    const url = (): string => socketUrl(this.baseUrl, since === undefined ? "/ws/account/events" : `/ws/account/events?since=${since}`);
    const headers = (): Record<string, string> => {
      sent = this.token;
      return sent === undefined ? {} : { Authorization: `Bearer ${sent}` };
    };
    const mend = async (code: number): Promise<boolean> => {
      if (code !== 4401 || renewed || this.renew === undefined || sent === undefined) return false;
      const fresh = await this.renew(sent); // (the client's requests may have renewed it already)
      if (fresh === null || fresh === sent) return false;
      this.token = fresh;
      renewed = true;
      return true;
    };
    const { onOpen, ...rest } = options;
    for await (const event of live<AccountEvent>(url, rest, headers, mend)) {
      renewed = false;
      since = event.id;
      if (event.type === OPENED) onOpen?.();
      else yield event;
    }
  }

  // ---- daily, boards, players --------------------------------------------------------------

  /** Today's daily (or that of `date`, YYYY-MM-DD). */
  async daily(date?: string): Promise<Schemas["DailyOut"]> {
    if (date !== undefined) return unwrap(this.api.GET("/api/v1/daily/{date}", { params: { path: { date } } }));
    // `GET daily` answers a day, or a month when asked for one (the schema's `DailyAnswer`).
    const answer = await unwrap(this.api.GET("/api/v1/daily"));
    if ("month" in answer) throw new Error("GET daily answered a month");
    return answer;
  }

  /** The archive: a month's dailies (`month`: YYYY-MM), codes and par of the days over. */
  async dailyMonth(month: string): Promise<Schemas["DailyMonthOut"]> {
    const answer = await unwrap(this.api.GET("/api/v1/daily", { params: { query: { month } } }));
    if (!("month" in answer)) throw new Error("GET daily?month= answered a day");
    return answer;
  }

  /** A day's leaderboard, page by page. */
  leaderboard(date: string, query: PageQuery<"daily_leaderboard"> = {}): AsyncGenerator<Schemas["LeaderboardOut"]> {
    return pages((page) =>
      unwrap(this.api.GET("/api/v1/daily/{date}/leaderboard", { params: { path: { date }, query: { ...query, page } } })),
    );
  }

  player(username: string): Promise<Schemas["PlayerOut"]> {
    return unwrap(this.api.GET("/api/v1/players/{username}", { params: { path: { username } } }));
  }

  /** A player's daily streak (current, best) and history: heat map days, weeks, moves against par. */
  playerStats(username: string): Promise<Schemas["PlayerStatsOut"]> {
    return unwrap(this.api.GET("/api/v1/players/{username}/stats", { params: { path: { username } } }));
  }

  /** A player's finished public games, page by page. */
  playerGames(username: string, query: PageQuery<"players_games"> = {}): AsyncGenerator<Schemas["GamePage"]> {
    return pages((page) =>
      unwrap(this.api.GET("/api/v1/players/{username}/games", { params: { path: { username }, query: { ...query, page } } })),
    );
  }

  /** The live board: a snapshot, then changes (reconnecting; each reconnection snapshots again). */
  liveBoard(date: string, draw: 3 | 1, options: LiveOptions & { players?: "people" | "bots" } = {}): AsyncGenerator<BoardMessage> {
    const query = options.players === undefined ? "" : `?players=${options.players}`;
    return live<BoardMessage>(socketUrl(this.baseUrl, `/ws/daily/${date}/${draw}/${query}`), options);
  }

  // ---- matches and ratings -----------------------------------------------------------------

  createMatch(body: Schemas["MatchCreateRequest"]): Promise<Schemas["Match"]> {
    return unwrap(this.api.POST("/api/v1/matches", { body }));
  }

  match(matchId: string): Promise<Schemas["Match"]> {
    return unwrap(this.api.GET("/api/v1/matches/{match_id}", { params: { path: { match_id: matchId } } }));
  }

  /** The caller's matches, page by page. */
  matches(query: PageQuery<"matches_list"> = {}): AsyncGenerator<Schemas["MatchPage"]> {
    return pages((page) => unwrap(this.api.GET("/api/v1/matches", { params: { query: { ...query, page } } })));
  }

  /** A match live: snapshot, player changes, finished, rated (reconnecting). */
  liveMatch(matchId: string, options: LiveOptions = {}): AsyncGenerator<MatchMessage> {
    return live<MatchMessage>(socketUrl(this.baseUrl, `/ws/matches/${matchId}/`), options);
  }

  ratings(query: PageQuery<"ratings_list"> = {}): AsyncGenerator<Schemas["RatingPage"]> {
    return pages((page) => unwrap(this.api.GET("/api/v1/ratings", { params: { query: { ...query, page } } })));
  }

  // ---- challenges ------------------------------------------------------------------------

  /** Invite `player` to a duel on a fresh winnable deal, pending for 24 hours (R33 when `rated`). */
  challenge(body: Schemas["ChallengeCreateRequest"]): Promise<Challenge> {
    return unwrap(this.api.POST("/api/v1/challenges", { body }));
  }

  getChallenge(challengeId: string): Promise<Challenge> {
    return unwrap(this.api.GET("/api/v1/challenges/{challenge_id}", { params: { path: { challenge_id: challengeId } } }));
  }

  /** The caller's challenges, made and received, page by page. */
  challenges(query: PageQuery<"challenges_list"> = {}): AsyncGenerator<Schemas["ChallengePage"]> {
    return pages((page) => unwrap(this.api.GET("/api/v1/challenges", { params: { query: { ...query, page } } })));
  }

  /** Accept a challenge made to the caller: the duel starts; `rated: false` plays it unrated. */
  acceptChallenge(challengeId: string, body: Schemas["ChallengeAcceptRequest"] = {}): Promise<Schemas["Match"]> {
    return unwrap(
      this.api.POST("/api/v1/challenges/{challenge_id}/accept", { params: { path: { challenge_id: challengeId } }, body }),
    );
  }

  declineChallenge(challengeId: string): Promise<Challenge> {
    return unwrap(this.api.POST("/api/v1/challenges/{challenge_id}/decline", { params: { path: { challenge_id: challengeId } } }));
  }

  /** Take back a pending challenge the caller made. */
  cancelChallenge(challengeId: string): Promise<Challenge> {
    return unwrap(this.api.POST("/api/v1/challenges/{challenge_id}/cancel", { params: { path: { challenge_id: challengeId } } }));
  }

  // ---- account and keys --------------------------------------------------------------------

  account(): Promise<Schemas["Account"]> {
    return unwrap(this.api.GET("/api/v1/account"));
  }

  /** The caller's games with their actions, oldest first, read line by line (NDJSON), kept by the filters. */
  async *export(query: Query<"account_export"> = {}): AsyncGenerator<Game> {
    const { data, error, response } = await this.api.GET("/api/v1/account/export", {
      params: { query },
      headers: { Accept: "application/x-ndjson" },
      parseAs: "stream",
    });
    if (!response.ok || !data) throw errorOf(error, response);
    yield* ndjson<Game>(data);
  }

  tokens(): Promise<Schemas["Key"][]> {
    return unwrap(this.api.GET("/api/v1/account/tokens"));
  }

  /** A new key with some scopes; its secret (`token`) is shown this once. */
  createToken(body: Schemas["KeyInRequest"]): Promise<Schemas["NewKey"]> {
    return unwrap(this.api.POST("/api/v1/account/tokens", { body }));
  }

  deleteToken(keyId: string): Promise<void> {
    return noContent(this.api.DELETE("/api/v1/account/tokens/{key_id}", { params: { path: { key_id: keyId } } }));
  }
}
