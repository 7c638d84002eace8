// The SDK's OAuth helpers against a real server (tests/clients/test_typescript_oauth.py starts it,
// passes CANFIELD_URL and CANFIELD_NAME, and expires an access token when this program writes
// `expire: <token>`, answering `expired` on stdin): an app registers itself, a player signs in
// with the site's login form and allows it on the consent page (over HTTP, as a browser does),
// the app gets tokens with PKCE, plays, refreshes once on the 401 of an expired access token
// (rotation: the old refresh token is refused) and loses its access on revocation; its live
// account events refresh an expired token and reopen. No answer is cast.
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { ApiError, Client, OAuthApp, OAuthError, type Tokens, isApiError, s256 } from "../src/index.js";

const base = process.env["CANFIELD_URL"] ?? "";
const name = `${process.env["CANFIELD_NAME"] ?? ""}-oauth`;
const PASSWORD = "green-felt-canfield-42";
const REDIRECT = "http://127.0.0.1/callback";
const TIMEOUT = { timeout: 60_000 };
const input = createInterface({ input: process.stdin });
const answers = input[Symbol.asyncIterator]();
after(() => input.close());

/** The server's test expires the access token (as if its hour were over). */
async function expire(token: string): Promise<void> {
  console.log(`expire: ${token}`);
  assert.equal((await answers.next()).value, "expired");
}

/** A client address of its own (the server trusts one proxy): registrations are limited per address. */
function address(): string {
  return `10.${randomInt(250)}.${randomInt(250)}.${randomInt(1, 251)}`;
}

/** A browser's requests: cookies kept, redirects not followed. */
class Browser {
  private readonly cookies = new Map<string, string>();
  private readonly forwarded = address();

  async send(path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers({ "X-Forwarded-For": this.forwarded });
    headers.set("Cookie", [...this.cookies].map(([key, value]) => `${key}=${value}`).join("; "));
    const init: RequestInit = { headers, redirect: "manual" };
    if (form !== undefined) Object.assign(init, { method: "POST", body: new URLSearchParams(form) });
    const response = await fetch(new URL(path, base), init);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const equals = pair.indexOf("=");
      this.cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    return response;
  }
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, key = "", value = ""] of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)) {
    fields[key] = value.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }
  return fields;
}

async function registerApp(): Promise<string> {
  const answer = await fetch(new URL("/oauth/register", base), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address() },
    body: JSON.stringify({ client_name: "TS Test App", redirect_uris: [REDIRECT] }),
  });
  assert.equal(answer.status, 201);
  const body: unknown = await answer.json();
  assert.ok(typeof body === "object" && body !== null && "client_id" in body && typeof body.client_id === "string");
  return body.client_id;
}

let player: Browser | null = null;

/** The player signed in with the login form (once), allowing what the app asks: its tokens. */
async function allowed(app: OAuthApp): Promise<Tokens> {
  if (player === null) {
    await new Client(base).register(name, PASSWORD);
    player = new Browser();
    const form = await (await player.send("/accounts/login/")).text();
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form)?.[1] ?? "";
    const signed = await player.send("/accounts/login/", { csrfmiddlewaretoken: csrf, username: name, password: PASSWORD });
    assert.equal(signed.status, 302);
  }
  const asked = await app.authorization(["account:read", "game:play"]);
  const page = await player.send(asked.url);
  assert.equal(page.status, 200);
  const consent = await player.send(asked.url, { ...hiddenFields(await page.text()), allow: "1" });
  assert.equal(consent.status, 302);
  return app.fetchToken(asked, consent.headers.get("Location") ?? "");
}

test("the authorization URL carries a fresh S256 challenge and state", TIMEOUT, async () => {
  const app = new OAuthApp("https://canfield.example", { clientId: "an-app", redirectUri: REDIRECT });
  const first = await app.authorization(["board:read"]);
  const second = await app.authorization(["board:read"]);
  const url = new URL(first.url);
  assert.equal(`${url.origin}${url.pathname}`, "https://canfield.example/oauth/authorize");
  assert.deepEqual(Object.fromEntries(url.searchParams), {
    response_type: "code",
    client_id: "an-app",
    redirect_uri: REDIRECT,
    scope: "board:read",
    state: first.state,
    code_challenge: await s256(first.codeVerifier),
    code_challenge_method: "S256",
  });
  // RFC 7636 appendix B's example
  assert.equal(await s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  assert.equal(first.codeVerifier.length, 43);
  assert.ok(!first.url.includes(first.codeVerifier));
  assert.notEqual(first.state, second.state);
  await assert.rejects(app.fetchToken(first, `${REDIRECT}?code=abc&state=${second.state}`), (error) => error instanceof OAuthError && error.error === "state_mismatch");
  await assert.rejects(app.fetchToken(first, `${REDIRECT}?error=access_denied&state=${first.state}`), (error) => error instanceof OAuthError && error.error === "access_denied");
});

test("code, tokens, a call, then an expired access token refreshes once and rotates", TIMEOUT, async () => {
  const app = new OAuthApp(base, { clientId: await registerApp(), redirectUri: REDIRECT });
  const tokens = await allowed(app);
  assert.match(tokens.accessToken, /^cfo_/);
  assert.match(tokens.refreshToken ?? "", /^cfr_/);
  assert.deepEqual([...tokens.scopes].sort(), ["account:read", "game:play"]);
  const saved: Tokens[] = [];
  const client = app.client(tokens, { onTokens: (renewed) => saved.push(renewed) });
  assert.equal((await client.account()).username, name);
  const game = await client.createGame({ draw: 3 });

  // when: the access token expires: the server answers 401 not_authenticated
  await expire(tokens.accessToken);
  await assert.rejects(new Client(base, { token: tokens.accessToken }).account(), (error) => isApiError(error, "not_authenticated"));
  // then: one refresh, the request sent again, the new tokens handed over
  assert.equal((await client.game(game.id)).id, game.id);
  assert.equal(saved.length, 1);
  const [renewed] = saved;
  assert.ok(renewed && renewed.refreshToken !== null && renewed.refreshToken !== tokens.refreshToken);
  assert.equal(client.token, renewed.accessToken);
  // concurrent calls after a refresh need none
  await Promise.all([client.account(), client.game(game.id)]);
  assert.equal(saved.length, 1);

  // the old refresh token is refused (rotation); its re-use ends the grant (re-use detection)
  await assert.rejects(app.refreshToken(tokens.refreshToken ?? ""), (error) => error instanceof OAuthError && error.error === "invalid_grant" && error.status === 400);
  await assert.rejects(client.account(), (error) => error instanceof OAuthError && error.error === "invalid_grant");
});

test("a revoked grant answers 401", TIMEOUT, async () => {
  const app = new OAuthApp(base, { clientId: await registerApp(), redirectUri: REDIRECT });
  const tokens = await allowed(app);
  const renewed = await app.refreshToken(tokens.refreshToken ?? "");
  const client = new Client(base, { token: renewed.accessToken });
  assert.equal((await client.account()).username, name);

  await app.revokeToken(renewed.refreshToken ?? "", "refresh_token");

  await assert.rejects(client.account(), (error) => isApiError(error, "not_authenticated") && error instanceof ApiError && error.status === 401);
  await assert.rejects(app.refreshToken(renewed.refreshToken ?? ""), (error) => error instanceof OAuthError && error.error === "invalid_grant");
});

test("a live event socket refreshes an expired token once and resumes", TIMEOUT, async () => {
  const app = new OAuthApp(base, { clientId: await registerApp(), redirectUri: REDIRECT });
  const tokens = await allowed(app);
  const saved: Tokens[] = [];
  const client = app.client(tokens, { onTokens: (renewed) => saved.push(renewed) });
  let opened = (): void => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const events = client.liveAccountEvents({ onOpen: () => opened() });
  const first = events.next();
  await open;

  // when: the access token expires with the socket open, and a game starts (its request
  // refreshes once: the server reads the socket's next event only for a live credential)
  await expire(tokens.accessToken);
  const game = await client.createGame({ draw: 3 });
  assert.equal(saved.length, 1);

  // then: the socket, closed with 4401, reopens with the new token after the last event it
  // received: the game's start comes, and no second refresh was made
  const started = (await first).value;
  await events.return(undefined);
  const data = started?.data;
  assert.ok(started?.type === "game_started" && typeof data === "object" && data !== null && "game" in data);
  assert.equal(data.game, game.id);
  assert.equal(saved.length, 1);
  assert.equal(client.token, saved[0]?.accessToken);
});
