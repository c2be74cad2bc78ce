import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiValidationError,
  AuthenticationError,
  NotImplementedError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
} from '../api/errors';

export interface UserFacingError {
  message: string;
  /** Extra buttons besides "Show Log"; each is a command id with a label. */
  actions: Array<{ label: string; command: string }>;
}

/** A short message with a next step; the full error goes to the log. */
export function toUserFacing(error: unknown): UserFacingError {
  if (error instanceof AuthenticationError) {
    return {
      message: 'The API key was rejected. Set a valid key for this region.',
      actions: [{ label: 'Set API Key', command: 'knowledgeDesk.setApiKey' }],
    };
  }
  // Entity recognition speaks in its own codes (docs/api.md#entity-recognition-errors).
  if (error instanceof ApiError && error.operation.startsWith('nlu.')) {
    if (error.code === 7001)
      return {
        message: 'The entity-recognition key was rejected. Set a valid key for this region.',
        actions: [{ label: 'Set Entity Recognition Key', command: 'knowledgeDesk.setNluKey' }],
      };
    if (error.code === 7004)
      return { message: 'Entity recognition refused the request because of a billing problem with the project.', actions: [] };
  }
  if (error instanceof PermissionDeniedError) {
    return { message: 'Access denied: the project is inactive or this IP address is not allowed.', actions: [] };
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterMs ? ` Try again in ${Math.ceil(error.retryAfterMs / 1000)} s.` : ' Try again shortly.';
    return { message: `The service is rate limiting requests.${wait}`, actions: [] };
  }
  if (error instanceof PayloadTooLargeError) return { message: trimOperation(error.message), actions: [] };
  if (error instanceof NotImplementedError) {
    return {
      message: 'This operation is not available in the local service yet. Select another region to use it.',
      actions: [{ label: 'Select Region', command: 'knowledgeDesk.selectRegion' }],
    };
  }
  if (error instanceof ApiTimeoutError) {
    return { message: 'The service did not answer in time. Try again, or raise knowledgeDesk.requestTimeoutSeconds.', actions: [] };
  }
  if (error instanceof ApiConnectionError) {
    return {
      message: `Cannot reach the service. Check the network and proxy settings (http.proxy). ${trimOperation(error.message)}`,
      actions: [{ label: 'Select Region', command: 'knowledgeDesk.selectRegion' }],
    };
  }
  if (error instanceof ApiValidationError) {
    return {
      message: `The service sent a response Knowledge Desk does not understand (${error.operation}: ${error.field || 'body'}).`,
      actions: [],
    };
  }
  if (error instanceof ApiError) return { message: trimOperation(error.message), actions: [] };
  if (error instanceof Error) return { message: error.message, actions: [] };
  return { message: String(error), actions: [] };
}

// "kbNodes.search failed (400): limit: too big" reads better without the internal operation name.
function trimOperation(message: string): string {
  return message.replace(/^[\w.]+ failed( \(\d+\))?: /, '').replace(/^[\w.]+: /, '');
}
