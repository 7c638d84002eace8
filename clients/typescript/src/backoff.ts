// Waiting between reconnections: exponential back-off with full jitter, at least what the
// server's Retry-After asks for.

export interface Backoff {
  /** First delay's ceiling in ms (default 250); each failure in a row doubles it... */
  initialMs?: number;
  /** ...up to this (default 10 000). */
  maxMs?: number;
  /** Failures in a row before giving up (default 10): the last one is thrown. */
  attempts?: number;
}

/** The delay before reconnection `attempt` (1, 2, ...): random in [ceiling/2, ceiling). */
export function delayMs(attempt: number, backoff: Backoff, retryAfterSeconds: number | null): number {
  const ceiling = Math.min(backoff.maxMs ?? 10_000, (backoff.initialMs ?? 250) * 2 ** (attempt - 1));
  const jittered = ceiling / 2 + Math.random() * (ceiling / 2);
  return Math.max(jittered, (retryAfterSeconds ?? 0) * 1000);
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const done = (): void => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
