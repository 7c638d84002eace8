// A third-party program on the types openapi-typescript generates from the live schema
// (./schema.d.ts, written by tests/games/test_typescript_client.py): it registers, deals a
// custom deck and wins it by posting back the legal actions the server lists, each with
// `expect`. Compiled with `tsc --strict`, then run with node: node play.js BASE_URL NAME DECK_JSON
import type { components, paths } from "./schema";

type Game = components["schemas"]["GameOut"];
type Action = components["schemas"]["Action"];
type MoveAction = components["schemas"]["MoveAction"];
type Acted = components["schemas"]["Acted"];
type Registered = components["schemas"]["Registered"];
type CreateBody = paths["/api/v1/games"]["post"]["requestBody"]["content"]["application/json"];
type ActionBody = paths["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"];
type ApiError = components["schemas"]["Error"];

declare const process: { argv: string[]; exit(code: number): never };

const [base, name, deckJson] = process.argv.slice(2);
let token = "";

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/api/v1/${path}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = (await response.json()) as ApiError;
    throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  }
  return (await response.json()) as T;
}

function toFoundation(action: Action): action is MoveAction {
  return action.type === "move" && action.to.startsWith("foundation");
}

async function main(): Promise<void> {
  const registered = await call<Registered>("POST", "auth/register", {
    username: name,
    password: "green-felt-canfield-42",
  });
  token = registered.token;
  const body: CreateBody = { deck: JSON.parse(deckJson) as string[], draw: 1 };
  let game = await call<Game>("POST", "games", body);
  while (game.status === "playing") {
    const legal = await call<Action[]>("GET", `games/${game.id}/legal-actions`);
    const chosen = legal.find(toFoundation) ?? legal.find((a) => a.type === "draw" || a.type === "recycle");
    if (chosen === undefined) throw new Error("nothing to play");
    const sent: ActionBody = { ...chosen, expect: game.moves };
    game = (await call<Acted>("POST", `games/${game.id}/actions`, sent)).game;
  }
  console.log(JSON.stringify({ status: game.status, score: game.score, moves: game.moves }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
