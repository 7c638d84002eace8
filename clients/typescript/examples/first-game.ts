import { Client, isApiError } from "@canfield-club/client";

const client = new Client(process.env.CANFIELD_URL ?? "http://127.0.0.1:8000");
await client.register(process.env.CANFIELD_NAME ?? "alice", "a long passphrase"); // or login(), or { token }
let game = await client.createGame({ draw: 3 }); // typed from the schema: GameOut
const [first] = await client.legalActions(game.id); // MoveAction | DrawAction | ...
if (first) game = (await client.act(game.id, { ...first, expect: game.moves })).game;
console.log(`${game.moves} move, score ${game.score}`);
try {
  await client.act(game.id, { type: "draw", expect: 0 }); // the game has moved on
} catch (error) {
  if (isApiError(error, "stale")) console.log(error.status, error.code, error.error.message);
}
