// What a failed call becomes: one error class per status (with the body's code and field), or a connection,
// timeout or cancel error. Kept apart from the transport so that the mapping reads in one place.
import type { Attempt } from './attempt';
import { defaultStatusMessage, readErrorBody } from './errorBody';
import {
  ApiAbortError,
  ApiConnectionError,
  ApiTimeoutError,
  ApiValidationError,
  KnowledgeDeskError,
  RateLimitError,
  ServiceReportedError,
  apiErrorFor,
} from './errors';
import { parseRetryAfter, type Outcome } from './retry';

type Headers = Record<string, string | string[] | undefined>;

/** The error for a failure status, with what the body and headers say. */
export function statusError(operation: string, status: number, text: string, headers: Headers): Error {
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  const info = readErrorBody(body);
  const message = `${operation} failed (${status}): ${info.message ?? defaultStatusMessage(status)}`;
  const error = apiErrorFor(status, message, {
    operation,
    status,
    code: info.code,
    field: info.field,
    body,
    requestId: headerValue(headers, 'x-request-id'),
  });
  if (error instanceof RateLimitError) error.retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
  return error;
}

/** What a failed attempt becomes: the caller's cancel, a timeout, or a connection failure (errors of ours pass through). */
export function translateFailure(operation: string, error: unknown, done: Attempt, url?: string): unknown {
  const host = url ? hostOf(url) : undefined;
  if (error instanceof ApiValidationError || error instanceof ServiceReportedError) return error;
  if (done.abortedByCaller) return new ApiAbortError(operation, { cause: error });
  if (done.timedOut || (error as { code?: string })?.code === 'UND_ERR_BODY_TIMEOUT') {
    return new ApiTimeoutError(operation, `${operation} timed out`, { cause: error, host });
  }
  if (error instanceof KnowledgeDeskError) return error;
  const reason = (error as { cause?: { code?: string }; code?: string })?.cause?.code ?? (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiConnectionError(operation, `${operation}: cannot reach ${host ?? 'the service'} (${reason ?? message})`, {
    cause: error,
    host,
    reason,
  });
}

export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'status') return `HTTP ${outcome.status}`;
  return outcome.kind === 'timeout' ? 'timed out' : 'connection failed';
}

/** The host (and port) of a service address, named in "cannot reach …" so the person knows which one to check. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
