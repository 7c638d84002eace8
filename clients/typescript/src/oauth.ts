// OAuth 2.0 for third-party apps (docs/api.md "Accounts"): the authorization code grant with
// PKCE (S256) of a public client, as the server wants it, on fetch and Web Crypto alone. Shaped
// as oauth4webapi shapes it (a random verifier and state kept by the app, the redirect's state
// checked before any code is sent, token answers checked field by field, RFC 6749 errors as
// typed values), without the dependency: one server, one grant.
import { errorOf } from "./errors.js";
import { Client, type ClientOptions } from "./index.js";
import type { components } from "./schema.js";

export type Scope = components["schemas"]["ScopesEnum"];

/** An authorization request: send the player to `url`; keep `state` and `codeVerifier` (secret:
 * never in the URL) until the player comes back. */
export interface Authorization {
  url: string;
  state: string;
  codeVerifier: string;
}

/** A token answer; `expiresAt` in milliseconds since the epoch (`Date.now()`). */
export interface Tokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number;
  scopes: string[];
}

/** An answer of the OAuth endpoints in RFC 6749's shape (`invalid_grant` for a used, expired or
 * revoked code or refresh token...), an authorization the player denied (`access_denied`), or
 * a redirect whose state is not the one sent (`state_mismatch`). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: number = 0,
  ) {
    super(`${error}: ${description}`);
    this.name = "OAuthError";
  }
}

export interface OAuthAppOptions {
  /** From `POST /oauth/register` (or the staff). */
  clientId: string;
  /** One of the app's redirect URIs. */
  redirectUri: string;
  fetch?: (request: Request) => Promise<Response>;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomString(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 challenge of a PKCE code verifier (RFC 7636 4.2). */
export async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

function field(body: object, name: string): unknown {
  return Object.entries(body).find(([key]) => key === name)?.[1];
}

function tokensOf(body: unknown): Tokens {
  if (typeof body !== "object" || body === null) throw new OAuthError("invalid_response", "the token answer is not an object");
  const access = field(body, "access_token");
  const refresh = field(body, "refresh_token");
  const expiresIn = field(body, "expires_in");
  const scope = field(body, "scope");
  if (typeof access !== "string") throw new OAuthError("invalid_response", "the token answer has no access_token");
  return {
    accessToken: access,
    refreshToken: typeof refresh === "string" ? refresh : null,
    expiresAt: Date.now() + (typeof expiresIn === "number" ? expiresIn * 1000 : 0),
    scopes: typeof scope === "string" ? scope.split(" ").filter((s) => s !== "") : [],
  };
}

/** A public client (no secret: PKCE instead) of the server's OAuth endpoints. */
export class OAuthApp {
  readonly clientId: string;
  readonly redirectUri: string;
  private readonly fetch: (request: Request) => Promise<Response>;

  constructor(
    readonly baseUrl: string,
    options: OAuthAppOptions,
  ) {
    this.clientId = options.clientId;
    this.redirectUri = options.redirectUri;
    this.fetch = options.fetch ?? ((request) => fetch(request));
  }

  /** The consent page's URL for `scopes`, with a fresh state and PKCE pair. */
  async authorization(scopes: Scope[]): Promise<Authorization> {
    const codeVerifier = randomString();
    const state = randomString();
    const url = new URL("/oauth/authorize", this.baseUrl);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      scope: scopes.join(" "),
      state,
      code_challenge: await s256(codeVerifier),
      code_challenge_method: "S256",
    }).toString();
    return { url: url.toString(), state, codeVerifier };
  }

  /** The tokens for the code of `redirectedTo` (the URL the player came back to): its state must
   * be the authorization's (else `state_mismatch`, and no code is sent); an `error` there
   * (`access_denied`) is thrown as an OAuthError. */
  async fetchToken(authorization: Authorization, redirectedTo: string): Promise<Tokens> {
    const query = new URL(redirectedTo).searchParams;
    if (query.get("state") !== authorization.state) throw new OAuthError("state_mismatch", "the redirect's state is not the one sent");
    const code = query.get("code");
    if (code === null || query.has("error")) throw new OAuthError(query.get("error") ?? "invalid_request", query.get("error_description") ?? "");
    return this.grant({ grant_type: "authorization_code", code, redirect_uri: this.redirectUri, code_verifier: authorization.codeVerifier });
  }

  /** New tokens for a refresh token, which is refused from then on (rotation): keep the answer's. */
  refreshToken(refreshToken: string): Promise<Tokens> {
    return this.grant({ grant_type: "refresh_token", refresh_token: refreshToken });
  }

  /** Revoke an access or refresh token (RFC 7009); a refresh token takes its access tokens along. */
  async revokeToken(token: string, hint?: "access_token" | "refresh_token"): Promise<void> {
    await this.post("revoke", { token, client_id: this.clientId, ...(hint === undefined ? {} : { token_type_hint: hint }) });
  }

  /** A `Client` that uses the access token and, on a 401 (the server's `not_authenticated` for an
   * expired or revoked token), refreshes once and retries the request; `onTokens` gets the new
   * tokens each time. Concurrent 401s share one refresh (a rotated refresh token used twice
   * would end the grant). Its live account events refresh the same way when the server closes
   * them with 4401, and reopen. */
  client(tokens: Tokens, options: Omit<ClientOptions, "token" | "fetch" | "renew"> & { onTokens?: (tokens: Tokens) => void } = {}): Client {
    let current = tokens;
    let renewing: Promise<Tokens> | null = null;
    const renew = async (refused: string | null): Promise<string | null> => {
      if (refused !== `Bearer ${current.accessToken}`) return current.accessToken; // renewed meanwhile
      if (current.refreshToken === null) return null;
      renewing ??= this.refreshToken(current.refreshToken)
        .then((renewed) => {
          current = renewed;
          options.onTokens?.(renewed);
          return renewed;
        })
        .finally(() => {
          renewing = null;
        });
      return (await renewing).accessToken;
    };
    const { onTokens: _, ...rest } = options;
    const client: Client = new Client(this.baseUrl, {
      ...rest,
      token: tokens.accessToken,
      renew: async (refused) => renew(`Bearer ${refused}`),
      fetch: async (request) => {
        const again = request.clone();
        const response = await this.fetch(request);
        if (response.status !== 401) return response;
        const fresh = await renew(request.headers.get("Authorization"));
        if (fresh === null) return response;
        client.token = fresh;
        again.headers.set("Authorization", `Bearer ${fresh}`);
        return this.fetch(again);
      },
    });
    return client;
  }

  private async grant(body: Record<string, string>): Promise<Tokens> {
    return tokensOf(await this.post("token", { ...body, client_id: this.clientId }));
  }

  private async post(endpoint: string, body: Record<string, string>): Promise<unknown> {
    const response = await this.fetch(
      new Request(new URL(`/oauth/${endpoint}`, this.baseUrl), { method: "POST", body: new URLSearchParams(body) }),
    );
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (response.ok) return parsed;
    if (typeof parsed === "object" && parsed !== null) {
      const error = field(parsed, "error");
      const description = field(parsed, "error_description");
      if (typeof error === "string") throw new OAuthError(error, typeof description === "string" ? description : "", response.status);
    }
    throw errorOf(parsed, response); // (429 and 503 come in the API's own error shape)
  }
}
