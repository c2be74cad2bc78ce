// Request specs of the common kinds, so that a resource method says only what differs: its operation (by name
// in the operation table, endpoint.ts), schema and parameters. Anything else (a JSON body, multipart, retry
// choices) is written out in full, spreading an `endpoint()`.
//
// The builders below write their objects out field by field: `{ ...at, query, schema }` (a spread followed by more
// properties) took V8's slow path, about 3 µs per request, a tenth of the client's own cost per call (`npm run bench`).
import { z } from 'zod';
import type { RequestSpec } from './requester';
import type { Endpoint } from './endpoint';
import type { QueryParams } from './url';

/** A GET whose JSON body `schema` validates (retried: GET is safe to resend). */
export function getJson<S extends z.ZodTypeAny>(at: Endpoint, schema: S, query?: QueryParams): RequestSpec<S> {
  return { operation: at.operation, method: at.method, path: at.path, query, schema };
}

/** A GET whose body is text, e.g. a CSV file. */
export function getText(at: Endpoint, query?: QueryParams): RequestSpec<z.ZodString> {
  return { operation: at.operation, method: at.method, path: at.path, query, schema: z.string(), response: 'text' };
}

/** A DELETE whose answer has no body worth reading. */
export function deleteEmpty(at: Endpoint): RequestSpec<z.ZodUnknown> {
  return { operation: at.operation, method: at.method, path: at.path, schema: z.unknown(), response: 'empty' };
}

/** A POST or PUT of a JSON body; `extra` says whether it is safe to resend and which service it goes to. */
export function sendJson<S extends z.ZodTypeAny>(
  at: Endpoint,
  json: unknown,
  schema: S,
  extra: Pick<RequestSpec, 'idempotent' | 'target'> = {},
): RequestSpec<S> {
  return {
    operation: at.operation,
    method: at.method,
    path: at.path,
    json,
    schema,
    idempotent: extra.idempotent,
    target: extra.target,
  };
}
