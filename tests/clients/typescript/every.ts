// Every operation of the schema, called by a program on the types openapi-typescript generates
// from the live schema (./schema.d.ts): tests/clients/test_typescript_client.py writes
// ./examples.ts, one `call` per request example of the schema (canfield_site/examples.py, with
// the ids of a world built for it), so that `tsc --strict` checks each example's path, query
// parameters and body against the operation's types and node sends them all. Every answer is
// typed by its path and method, whatever its media type (none is pinned), with no cast.
// Run with node: node examples.js BASE_URL; prints one line per call: [operationId, status].
import type { paths } from "./schema";

type Method = "get" | "post" | "delete";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : never;
type Answer<O> = O extends { responses: infer R } ? ContentOf<R[keyof R & (200 | 201 | 202)]> : never;
type Body<O> = O extends { requestBody?: infer B } ? ContentOf<NonNullable<B>> : never;
type Parameters<O, K extends "path" | "query"> = O extends { parameters: infer A }
  ? K extends keyof A
    ? [NonNullable<A[K]>] extends [never]
      ? Record<string, never>
      : NonNullable<A[K]>
    : Record<string, never>
  : Record<string, never>;

declare const process: { argv: string[]; exit(code: number): never };

const base = process.argv[2];
const called: [string, number][] = [];

// The first line of an endless NDJSON stream (the account's events) that is not a keep-alive.
async function firstLine(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    text += decoder.decode(value, { stream: !done });
    const line = text.split("\n").find((part) => part.trim() !== "");
    if (done || (line !== undefined && text.includes(`${line}\n`))) {
      await reader.cancel();
      return line ?? "";
    }
  }
}

export async function call<P extends keyof paths, M extends Method>(
  operationId: string,
  method: M,
  path: P,
  token: string,
  pathParameters: Parameters<Operation<P, M>, "path">,
  query: Parameters<Operation<P, M>, "query">,
  body?: Body<Operation<P, M>>,
): Promise<Answer<Operation<P, M>>> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const each of Array.isArray(value) ? value : [value]) search.append(name, String(each));
  }
  const filled = Object.entries(pathParameters).reduce(
    (url, [name, value]) => url.replace(`{${name}}`, encodeURIComponent(String(value))),
    `${base}${path}`,
  );
  const response = await fetch(search.size ? `${filled}?${search}` : filled, {
    method: method.toUpperCase(),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  called.push([operationId, response.status]);
  const ndjson = (response.headers.get("content-type") ?? "").startsWith("application/x-ndjson");
  const text = ndjson && path.endsWith("/events") ? await firstLine(response) : await response.text();
  // JSON answers parsed; an NDJSON answer is its text (the schema types it `string`); a 204 null
  return JSON.parse(ndjson ? JSON.stringify(text) : text || "null");
}

export function run(calls: (() => Promise<unknown>)[]): void {
  calls
    .reduce<Promise<unknown>>((previous, next) => previous.then(next), Promise.resolve())
    .then(() => console.log(JSON.stringify(called)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
