// Errors the local service answers with, in the body shapes of docs/api.md#error-bodies.
import type { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: { code?: number; field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string): HttpError => new HttpError(400, message, { field });
/**
 * `value` parsed by `schema`, or a 400 for its first problem: the message starts with the dotted path
 * ("similarQuestions.3: must be at most 1000 characters") and `field` is that same dotted path, the most
 * specific place (every handler answers this way; nothing for a problem of the whole body).
 */
export function parseOrBadRequest<S extends z.ZodTypeAny>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data as z.output<S>;
  const issue = result.error.issues[0];
  const field = issue.path.join('.');
  throw badRequest(field ? `${field}: ${issue.message}` : issue.message, field || undefined);
}

export const notFound = (message: string, code?: number): HttpError => new HttpError(404, message, { code });

/** Entity-recognition errors (docs/api.md#entity-recognition-errors): `{type, code, message}`. */
export class NluError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

export const NLU_INVALID_KEY = (): NluError => new NluError(403, 7001, 'API-KEY is not valid.');
export const NLU_INVALID_JSON = (): NluError => new NluError(403, 7002, 'Cannot decode the requested JSON body.');

export function baseErrorBody(error: HttpError): Record<string, unknown> {
  const body: Record<string, unknown> = { errors: error.message, code: error.options.code ?? error.status };
  if (error.options.field) body.field = error.options.field;
  return body;
}

export function nluErrorBody(error: NluError): Record<string, unknown> {
  return error.code === undefined
    ? { type: 'APIError', message: error.message }
    : { type: 'APIError', code: error.code, message: error.message };
}
