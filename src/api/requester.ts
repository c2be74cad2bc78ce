// What a resource needs of the client: the request types and one call of each kind. Resources take a
// Requester, not the ApiClient class, so the client and its resource modules do not import each other.
import type { z } from 'zod';
import type { MultipartFields } from './multipart';
import type { OptionalSpec } from './offers';
import type { QueryParams } from './url';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestSpec<S extends z.ZodTypeAny = z.ZodTypeAny> {
  /** Name used in errors and logs: the operation table's (core/operations.ts), e.g. `kbNodes.search`. */
  operation: string;
  method: HttpMethod;
  /** Encoded path, from `endpoint()` (endpoint.ts) for the operations of the table. */
  path: string;
  query?: QueryParams;
  json?: unknown;
  multipart?: MultipartFields;
  schema: S;
  /** Safe to resend after a failure; defaults to true for GET/PUT/DELETE, false for POST. */
  idempotent?: boolean;
  target?: 'base' | 'nlu';
  /** `json` (default) parses and validates; `text` validates the text; `empty` ignores the body. */
  response?: 'json' | 'text' | 'empty';
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array>;
  /** Ends the request early (frees the connection); idempotent. */
  cancel(): void;
}

/** The calls a resource makes (ApiClient implements them: timeouts, retries, errors, offers). */
export interface Requester {
  /** Sends a request and returns its validated body. */
  request<S extends z.ZodTypeAny>(spec: RequestSpec<S>, options?: CallOptions): Promise<z.output<S>>;
  /** `request()` for an operation a deployment may not offer (404/405 → OperationNotOfferedError, remembered). */
  requestOptional<S extends z.ZodTypeAny>(spec: RequestSpec<S>, options?: CallOptions, optional?: OptionalSpec): Promise<z.output<S>>;
  /** The undecoded body as it arrives (streams, downloads). */
  requestRaw(spec: RequestSpec, options?: CallOptions): Promise<RawResponse>;
  /** `requestRaw()` for an operation a deployment may not offer. */
  requestRawOptional(spec: RequestSpec, options?: CallOptions, optional?: OptionalSpec): Promise<RawResponse>;
}
