// @vscode/l10n, not vscode: this module also runs in plain Node (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
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
import { plainInternal, plainRefusal } from '../api/plainRefusal';
import { CommandIds } from './commandIds';

export interface UserFacingError {
  message: string;
  /** Extra buttons besides "Show Log"; each is a command id with a label. */
  actions: Array<{ label: string; command: string }>;
}

/** A short message with a next step; the full error goes to the log. */
export function toUserFacing(error: unknown): UserFacingError {
  if (error instanceof AuthenticationError) {
    return {
      message: l10n.t('The API key was rejected. Set a valid key for this region.'),
      actions: [{ label: l10n.t('Set API Key'), command: CommandIds.setApiKey }],
    };
  }
  // Entity recognition speaks in its own codes (docs/api.md#entity-recognition-errors).
  if (error instanceof ApiError && error.operation.startsWith('nlu.')) {
    if (error.code === 7001)
      return {
        message: l10n.t('The entity-recognition key was rejected. Set a valid key for this region.'),
        actions: [{ label: l10n.t('Set Entity Recognition Key'), command: CommandIds.setNluKey }],
      };
    if (error.code === 7004)
      return { message: l10n.t('Entity recognition refused the request because of a billing problem with the project.'), actions: [] };
  }
  if (error instanceof PermissionDeniedError) {
    return { message: l10n.t('Access denied: the project is inactive or this IP address is not allowed.'), actions: [] };
  }
  if (error instanceof RateLimitError) {
    const message = error.retryAfterMs
      ? l10n.t('The service is rate limiting requests. Try again in {0} s.', Math.ceil(error.retryAfterMs / 1000))
      : l10n.t('The service is rate limiting requests. Try again shortly.');
    return { message, actions: [] };
  }
  if (error instanceof PayloadTooLargeError) return { message: trimOperation(error.message), actions: [] };
  if (error instanceof NotImplementedError) {
    return {
      message: l10n.t('This operation is not available in the local service yet. Select another region to use it.'),
      actions: [{ label: l10n.t('Select Region'), command: CommandIds.selectRegion }],
    };
  }
  if (error instanceof ApiTimeoutError) {
    return {
      message: l10n.t('The service did not answer in time. Try again, or raise {0}.', 'knowledgeDesk.requestTimeoutSeconds'),
      actions: [],
    };
  }
  if (error instanceof ApiConnectionError) {
    return {
      message: l10n.t(
        'Cannot reach the service. Check the network and proxy settings ({0}). {1}',
        'http.proxy',
        trimOperation(error.message),
      ),
      actions: [{ label: l10n.t('Select Region'), command: CommandIds.selectRegion }],
    };
  }
  if (error instanceof ApiValidationError) {
    return {
      message: l10n.t('The service sent a response Knowledge Desk does not understand ({0}: {1}).', error.operation, error.field || 'body'),
      actions: [],
    };
  }
  // A refusal as not valid: the service's sentence, or plain words when it is a schema library's wording.
  if (error instanceof ApiError && (error.status === 400 || error.status === 422))
    return { message: plainRefusal(trimOperation(error.message), error.field), actions: [] };
  if (error instanceof ApiError) return { message: plainInternal(trimOperation(error.message)), actions: [] };
  if (error instanceof Error) return { message: plainInternal(error.message), actions: [] };
  return { message: plainInternal(String(error)), actions: [] };
}

// "kbNodes.search failed (400): limit: too big" reads better without the internal operation name.
function trimOperation(message: string): string {
  return message.replace(/^[\w.]+ failed( \(\d+\))?: /, '').replace(/^[\w.]+: /, '');
}
