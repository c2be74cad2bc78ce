// Error classes of the API client, one per failure the UI must tell apart (openai-node style).
// Nothing here carries request headers, so the API key can never leak through an error.

export class KnowledgeDeskError extends Error {
  override readonly name: string = 'KnowledgeDeskError';
}

export interface ApiErrorDetails {
  operation: string;
  status: number;
  /** Service error code (e.g. 7001) when the body carried one. */
  code?: number;
  /** Request field the service blamed, when it said. */
  field?: string;
  /** Parsed error body (or the raw text when it was not JSON). */
  body?: unknown;
  /** Request id header, when the service sends one (for support). */
  requestId?: string;
}

/** The service answered with a failure status (or a 2xx carrying `errors`). */
export class ApiError extends KnowledgeDeskError {
  override readonly name: string = 'ApiError';
  readonly operation: string;
  readonly status: number;
  readonly code?: number;
  readonly field?: string;
  readonly body?: unknown;
  readonly requestId?: string;

  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    this.operation = details.operation;
    this.status = details.status;
    this.code = details.code;
    this.field = details.field;
    this.body = details.body;
    this.requestId = details.requestId;
  }
}

/** The class of one failure status: `name` says which, in logs and to callers that test it. */
function statusError<N extends string>(name: N) {
  return class extends ApiError {
    override readonly name: N = name;
  };
}

export class BadRequestError extends statusError('BadRequestError') {}
export class AuthenticationError extends statusError('AuthenticationError') {}
export class PermissionDeniedError extends statusError('PermissionDeniedError') {}
export class NotFoundError extends statusError('NotFoundError') {}
export class MethodNotAllowedError extends statusError('MethodNotAllowedError') {}
/** A name already taken in the folder (create folder, rename). */
export class ConflictError extends statusError('ConflictError') {}
export class PayloadTooLargeError extends statusError('PayloadTooLargeError') {}
export class RequestTimeoutError extends statusError('RequestTimeoutError') {}
export class InternalServerError extends statusError('InternalServerError') {}
export class NotImplementedError extends statusError('NotImplementedError') {}

export class RateLimitError extends statusError('RateLimitError') {
  /** Delay the service asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
}

/** A 2xx response whose `errors` field was not empty: the service says it failed. */
export class ServiceReportedError extends statusError('ServiceReportedError') {}

/** The request never got an HTTP answer (DNS, refused, reset, TLS, proxy). */
export class ApiConnectionError extends KnowledgeDeskError {
  override readonly name: string = 'ApiConnectionError';
  /** The host (and port) that could not be reached, when known: the user checks that one. */
  readonly host?: string;
  /** The system's code for the failure (ENOTFOUND, ECONNREFUSED, a TLS code), when it gave one. */
  readonly reason?: string;
  constructor(
    readonly operation: string,
    message: string,
    options?: { cause?: unknown; host?: string; reason?: string },
  ) {
    super(message, options);
    this.host = options?.host;
    this.reason = options?.reason;
  }
}

/** No answer within the per-call timeout. */
export class ApiTimeoutError extends ApiConnectionError {
  override readonly name = 'ApiTimeoutError';
}

/**
 * The local service's process stopped while the request ran, or is not running: `restarting` when the
 * extension host is starting it again, false when it gave up (then "Restart Local Service" is the way back).
 */
export class LocalServiceStoppedError extends ApiConnectionError {
  override readonly name = 'LocalServiceStoppedError';
  constructor(
    operation: string,
    message: string,
    readonly restarting: boolean,
    options?: { cause?: unknown; host?: string },
  ) {
    super(operation, message, options);
  }
}

/** The caller cancelled (AbortSignal / cancellation token). Callers treat it as silent. */
export class ApiAbortError extends KnowledgeDeskError {
  override readonly name = 'ApiAbortError';
  constructor(
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation} was cancelled`, options);
  }
}

/** The response did not have the shape the client relies on. */
export class ApiValidationError extends KnowledgeDeskError {
  override readonly name = 'ApiValidationError';
  constructor(
    readonly operation: string,
    /** Dotted path of the offending field, e.g. `result.nodes.3.id` ('' for the root). */
    readonly field: string,
    readonly issue: string,
  ) {
    super(`Unexpected response from ${operation}: ${field || 'body'} ${issue}`);
  }
}

type ApiErrorClass = new (message: string, details: ApiErrorDetails) => ApiError;

const byStatus: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  408: RequestTimeoutError,
  409: ConflictError,
  413: PayloadTooLargeError,
  429: RateLimitError,
  501: NotImplementedError,
};

export function apiErrorFor(status: number, message: string, details: ApiErrorDetails): ApiError {
  const Class = byStatus[status] ?? (status >= 500 ? InternalServerError : ApiError);
  return new Class(message, details);
}

export function isAbortError(error: unknown): boolean {
  return error instanceof ApiAbortError || (error instanceof Error && error.name === 'AbortError');
}

/**
 * A deployment answered 404/405 for a route it does not have (docs/api.md#operations-a-deployment-may-not-offer):
 * the client remembers it per deployment (`client.offers`) so the UI can hide the command.
 */
export class OperationNotOfferedError extends KnowledgeDeskError {
  override readonly name: string = 'OperationNotOfferedError';
  constructor(
    /** The client operation, e.g. `folders.create`. */
    readonly operation: string,
    message = `This deployment does not offer ${operation}.`,
  ) {
    super(message);
  }
}

/** Not every deployment offers delete; one without it answers 404/405 (docs/api.md#delete-a-node). */
export class DeleteNotSupportedError extends OperationNotOfferedError {
  override readonly name = 'DeleteNotSupportedError';
  constructor(operation = 'kbNodes.delete') {
    super(operation, 'This deployment does not offer deleting knowledge-base nodes.');
  }
}
