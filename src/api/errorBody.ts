// Reads the error body shapes the real service is known to send (docs/api.md#error-bodies):
//   {"type":"APIError","code":7001,"message":"..."}   {"errors":"..."}   {"error":"..."}
// plus the local service's {"errors","code","field"} and FastAPI-style {"detail": ...} seen on v2 paths.
import { isRecord } from '../core/records';

export interface ErrorBodyInfo {
  message?: string;
  code?: number;
  field?: string;
}

const MAX_MESSAGE = 500;

export function readErrorBody(body: unknown): ErrorBodyInfo {
  if (typeof body === 'string') return { message: clip(body.trim()) || undefined };
  if (!isRecord(body)) return {};
  const info: ErrorBodyInfo = {};
  const code = toCode(body.code);
  if (code !== undefined) info.code = code;
  if (typeof body.field === 'string') info.field = body.field;
  const message = describe(body.message) ?? describe(body.errors) ?? describe(body.error) ?? describe(body.detail) ?? describe(body.msg);
  if (message) info.message = clip(message);
  if (!info.field) info.field = fieldOf(body.detail) ?? fieldOf(body.errors);
  return info;
}

/**
 * A 2xx body whose `errors` is a non-empty string, array or object means failure.
 * Returns the message, or undefined when the body reports no error.
 */
export function reportedError(body: unknown): string | undefined {
  if (!isRecord(body) || !('errors' in body)) return undefined;
  const errors = body.errors;
  if (errors === null || errors === undefined || errors === false) return undefined;
  if (typeof errors === 'string') return errors.trim() ? clip(errors.trim()) : undefined;
  if (Array.isArray(errors)) return errors.length ? clip(describe(errors) ?? 'the service reported errors') : undefined;
  if (isRecord(errors)) return Object.keys(errors).length ? clip(describe(errors) ?? 'the service reported errors') : undefined;
  return clip(String(errors));
}

function describe(value: unknown, depth = 0): string | undefined {
  if (value === null || value === undefined || depth > 3) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map((v) => describe(v, depth + 1)).filter((s): s is string => !!s);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (isRecord(value)) {
    const direct = describe(value.message, depth + 1) ?? describe(value.msg, depth + 1) ?? describe(value.error, depth + 1);
    if (direct) {
      const loc = fieldOf([value]);
      return loc ? `${loc}: ${direct}` : direct;
    }
    // {"question": ["is required"]} style: name each field.
    const parts = Object.entries(value)
      .map(([k, v]) => {
        const d = describe(v, depth + 1);
        return d ? `${k}: ${d}` : undefined;
      })
      .filter((s): s is string => !!s);
    return parts.length ? parts.join('; ') : undefined;
  }
  return undefined;
}

function fieldOf(value: unknown): string | undefined {
  if (Array.isArray(value) && isRecord(value[0])) {
    const loc = value[0].loc;
    if (Array.isArray(loc)) {
      // FastAPI locations start with where the field was (body, query, path, header).
      const parts = (['body', 'query', 'path', 'header'].includes(String(loc[0])) ? loc.slice(1) : loc).map(String);
      if (parts.length) return parts.join('.');
    }
    if (typeof value[0].field === 'string') return value[0].field;
  }
  return undefined;
}

function toCode(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/** What a status means when the body does not say. */
export function defaultStatusMessage(status: number): string {
  switch (status) {
    case 400:
      return 'invalid request parameters';
    case 401:
      return 'API key missing or invalid';
    case 403:
      return 'project inactive or request IP not allowed';
    case 404:
      return 'not found';
    case 405:
      return 'method not allowed';
    case 413:
      return 'upload too large';
    case 429:
      return 'rate limited';
    default:
      return status >= 500 ? 'internal server error' : `HTTP ${status}`;
  }
}
