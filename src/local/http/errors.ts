// Errors the local service answers with, in the body shapes of docs/api.md#error-bodies.

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
export const NLU_EMPTY_TEXT = (): NluError => new NluError(400, 7003, "Requested parameters are not valid. 'text' is empty.");

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
