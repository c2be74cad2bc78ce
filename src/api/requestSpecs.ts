// Request specs of the common kinds, so that a resource method says only what differs: its operation, path,
// schema and parameters. Anything else (a JSON body, multipart, retry choices) is written out in full.
import { z } from 'zod';
import type { RequestSpec } from './requester';
import type { QueryParams } from './url';

/** A GET whose JSON body `schema` validates (retried: GET is safe to resend). */
export function getJson<S extends z.ZodTypeAny>(operation: string, path: string, schema: S, query?: QueryParams): RequestSpec<S> {
  return { operation, method: 'GET', path, query, schema };
}

/** A GET whose body is text, e.g. a CSV file. */
export function getText(operation: string, path: string, query?: QueryParams): RequestSpec<z.ZodString> {
  return { operation, method: 'GET', path, query, schema: z.string(), response: 'text' };
}

/** A DELETE whose answer has no body worth reading. */
export function deleteEmpty(operation: string, path: string): RequestSpec<z.ZodUnknown> {
  return { operation, method: 'DELETE', path, schema: z.unknown(), response: 'empty' };
}

/** A POST or PUT of a JSON body; `extra` says whether it is safe to resend and which service it goes to. */
export function sendJson<S extends z.ZodTypeAny>(
  operation: string,
  method: 'POST' | 'PUT',
  path: string,
  json: unknown,
  schema: S,
  extra: Pick<RequestSpec, 'idempotent' | 'target'> = {},
): RequestSpec<S> {
  return { operation, method, path, json, schema, ...extra };
}
