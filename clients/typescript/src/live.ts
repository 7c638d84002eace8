// The live board and live match WebSockets (docs/asyncapi.yaml) as async iterators of typed
// messages, reconnecting with back-off. Node 20 has no WebSocket without a flag: `ws` it is.
import WebSocket from "ws";
import { type Backoff, delayMs, pause } from "./backoff.js";
import type { components } from "./schema.js";

type Schemas = components["schemas"];

/** `WS /ws/daily/{date}/{draw}/` (asyncapi.yaml: snapshot, entries, removed). */
export type BoardMessage =
  | { type: "snapshot"; count: number; results: Schemas["Entry"][] }
  | { type: "entries"; count: number; entries: Schemas["Entry"][] }
  | { type: "removed"; player: string };

/** `WS /ws/matches/{id}/` (asyncapi.yaml); the socket's `match.game` is always null. */
export type MatchMessage =
  | { type: "snapshot"; match: Schemas["Match"] }
  | ({ type: "player" } & Schemas["MatchPlayer"])
  | { type: "finished"; match: Schemas["Match"] }
  | { type: "rated"; match: Schemas["Match"] };

export interface LiveOptions {
  signal?: AbortSignal;
  backoff?: Backoff;
  /** Called each time the socket is open: what happens from then on is told. */
  onOpen?: () => void;
  /** How long an opening may wait for the server's handshake before it counts as a drop
   * (and is tried again with back-off); default 10 000 ms. */
  handshakeMs?: number;
}

/** The server closed the socket for a reason reconnecting cannot mend (4400, 4404, 1009; on
 * the account events also 4401, no credential or it ended, and 4403, no `account:read`). */
export class LiveClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`the socket was closed: ${code} ${reason}`);
    this.name = "LiveClosed";
  }
}

const FINAL = new Set([4400, 4401, 4403, 4404, 1009]);

function parse<M>(text: string): M {
  return JSON.parse(text);
}

/** Messages of the socket at `url` (a function: asked again for each connection, so that a
 * resuming socket says where it stopped), opened again after a drop, 4408, 4429, 1011 or 1012
 * (a board or match starts each reconnection with a fresh snapshot); ends when the server
 * closes with 1000. `headers` go with each opening request (a credential; asked again for each
 * connection). A final close code that `mend` mends (a new credential) reopens at once. */
export async function* live<M>(
  url: string | (() => string),
  options: LiveOptions = {},
  headers: () => Record<string, string> = () => ({}),
  mend: (code: number) => Promise<boolean> = async () => false,
): AsyncGenerator<M> {
  const backoff = options.backoff ?? {};
  for (let failures = 0; ; ) {
    const socket = new WebSocket(typeof url === "string" ? url : url(), {
      headers: headers(),
      handshakeTimeout: options.handshakeMs ?? 10_000,
    });
    if (options.onOpen) socket.on("open", options.onOpen);
    const messages: string[] = [];
    const state: { closed: { code: number; reason: string } | null } = { closed: null };
    let wake = (): void => {};
    socket.on("message", (data) => {
      messages.push(data.toString());
      wake();
    });
    socket.on("close", (code, reason) => {
      state.closed = { code, reason: reason.toString() };
      wake();
    });
    socket.on("error", () => {}); // a close follows
    const abort = (): void => socket.terminate();
    options.signal?.addEventListener("abort", abort, { once: true });
    try {
      for (;;) {
        const text = messages.shift();
        if (text !== undefined) {
          failures = 0;
          yield parse<M>(text);
        } else if (state.closed === null) {
          await new Promise<void>((resolve) => (wake = resolve));
        } else {
          break;
        }
      }
    } finally {
      options.signal?.removeEventListener("abort", abort);
      socket.terminate();
    }
    options.signal?.throwIfAborted();
    const { code, reason } = state.closed ?? { code: 1006, reason: "" };
    if (code === 1000) return;
    if (FINAL.has(code) && (await mend(code))) continue;
    failures += 1;
    if (FINAL.has(code) || failures >= (backoff.attempts ?? 10)) throw new LiveClosed(code, reason);
    await pause(delayMs(failures, backoff, null), options.signal);
  }
}

export function socketUrl(base: string, path: string): string {
  const url = new URL(path, base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}
