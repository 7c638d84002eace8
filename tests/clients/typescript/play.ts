// A third-party program on the types openapi-typescript generates from the live schema
// (./schema.d.ts, written by tests/clients/test_typescript_client.py): it registers, deals a
// custom deck and wins it by posting back the legal actions the server lists, each with
// `expect`, then reads its public games. Every answer is typed by its path and method in the
// schema, whatever its media type (none is pinned), with no cast. Compiled with `tsc --strict`,
// then run with node: node play.js BASE_URL NAME DECK_JSON
import type { components, paths } from "./schema";

type Action = components["schemas"]["Action"];
type MoveAction = components["schemas"]["MoveAction"];
type ApiError = components["schemas"]["Error"];

// An operation's answer (its 200 or 201) and body, read from the schema's paths.
type Method = "get" | "post";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : never;
type Answer<O> = O extends { responses: infer R } ? ContentOf<R[keyof R & (200 | 201)]> : never;
type Body<O> = O extends { requestBody?: infer B } ? ContentOf<NonNullable<B>> : never;

declare const process: { argv: string[]; exit(code: number): never };

const [base, name, deckJson] = process.argv.slice(2);
let token = "";

async function call<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  parameters: Record<string, string> = {},
  body?: Body<Operation<P, M>>,
): Promise<Answer<Operation<P, M>>> {
  const url = Object.entries(parameters).reduce((url, [key, value]) => url.replace(`{${key}}`, value), `${base}${path}`);
  const response = await fetch(url, {
    method: method.toUpperCase(),
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error: ApiError = await response.json();
    throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  }
  return response.json();
}

function toFoundation(action: Action): action is MoveAction {
  return action.type === "move" && action.to.startsWith("foundation");
}

async function main(): Promise<void> {
  const registered = await call("post", "/api/v1/auth/register", {}, {
    username: name,
    password: "green-felt-canfield-42",
  });
  token = registered.token;
  const deck: string[] = JSON.parse(deckJson);
  let game = await call("post", "/api/v1/games", {}, { deck, draw: 1 });
  while (game.status === "playing") {
    const legal = await call("get", "/api/v1/games/{game_id}/legal-actions", { game_id: game.id });
    const chosen = legal.find(toFoundation) ?? legal.find((a) => a.type === "draw" || a.type === "recycle");
    if (chosen === undefined) throw new Error("nothing to play");
    const acted = await call("post", "/api/v1/games/{game_id}/actions", { game_id: game.id }, { ...chosen, expect: game.moves });
    game = acted.game;
  }
  // a list that also answers NDJSON: its type is the JSON page's, with no media type pinned
  const listed = await call("get", "/api/v1/players/{username}/games", { username: name });
  const ids = listed.results.map((listedGame) => listedGame.id);
  console.log(JSON.stringify({ status: game.status, score: game.score, moves: game.moves, listed: ids.includes(game.id) }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
