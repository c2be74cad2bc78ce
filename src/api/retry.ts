// When and how long to wait before retrying (openai-node's policy, narrowed to this service):
// idempotent calls retry 408/429/5xx and connection failures; any call retries 429, because a
// rate-limited request was not processed. Retry-After is honoured up to a cap; otherwise
// exponential backoff with jitter.

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff step; later steps double. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After we are willing to wait; longer ones fail fast with the 429. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export type Outcome = { kind: 'status'; status: number; retryAfter?: string | null } | { kind: 'connection' } | { kind: 'timeout' };

export function isRetryable(outcome: Outcome, idempotent: boolean): boolean {
  if (outcome.kind === 'status') {
    if (outcome.status === 429) return true;
    return idempotent && (outcome.status === 408 || outcome.status >= 500) && outcome.status !== 501;
  }
  // A timed-out or dropped non-idempotent call may have been applied: never resend it.
  return idempotent;
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds, or undefined. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (1-based). Returns undefined when the service asked for a
 * longer wait than the policy allows (the caller then gives up with the 429).
 */
export function retryDelay(attempt: number, policy: RetryPolicy, retryAfter?: string | null, random = Math.random): number | undefined {
  const asked = parseRetryAfter(retryAfter);
  if (asked !== undefined) return asked <= policy.maxRetryAfterMs ? asked : undefined;
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Full jitter in [50%, 100%] keeps clients that failed together from retrying together.
  return Math.round(exp * (0.5 + random() * 0.5));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
