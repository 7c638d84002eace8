// The API's one error shape, `{"error": {"code", "message", "rule"?, "params"?}}`, as typed
// values: `ApiError.error` is a union discriminated by `code` (the schema's enum, docs/api.md).
import type { components } from "./schema.js";

export type ErrorCode = components["schemas"]["ErrorCodeEnum"];
/** What an API error says; a 422's (`illegal_move`, `no_destination`) always has `params.reason`. */
export type ErrorDetail = components["schemas"]["ErrorDetail"] | components["schemas"]["MoveErrorDetail"];
type ErrorBody = components["schemas"]["Error"] | components["schemas"]["MoveError"];

/** An answer in the API's error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorDetail,
    /** Seconds from `Retry-After` (429 `throttled`, 503 `unavailable`), else null. */
    readonly retryAfter: number | null,
  ) {
    super(`${status} ${error.code}: ${error.message}`);
    this.name = "ApiError";
  }

  get code(): ErrorCode {
    return this.error.code;
  }
}

/** An answer not in the API's shape: a proxy's 502/504, for instance. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly retryAfter: number | null,
  ) {
    super(`${status}: ${body.slice(0, 200)}`);
    this.name = "HttpError";
  }
}

/** True for an `ApiError`, with that `code` when one is given: narrows `error.error`. */
export function isApiError<C extends ErrorCode>(
  value: unknown,
  code?: C,
): value is ApiError & { readonly error: ErrorDetail & { code: C } } {
  return value instanceof ApiError && (code === undefined || value.code === code);
}

export function retryAfter(response: Response): number | null {
  const header = response.headers.get("Retry-After");
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const { error } = body;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}

/** The error a failed answer stands for; `body` is what openapi-fetch parsed (JSON, or text). */
export function errorOf(body: unknown, response: Response): ApiError | HttpError {
  if (isErrorBody(body)) return new ApiError(response.status, body.error, retryAfter(response));
  return new HttpError(response.status, typeof body === "string" ? body : "", retryAfter(response));
}
