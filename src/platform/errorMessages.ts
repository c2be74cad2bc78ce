// @vscode/l10n, not vscode: this module also runs in plain Node (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiValidationError,
  AuthenticationError,
  KnowledgeDeskError,
  LocalServiceStoppedError,
  NotImplementedError,
  OperationNotOfferedError,
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
  if (error instanceof LocalServiceStoppedError) {
    return error.restarting
      ? { message: l10n.t('The local service stopped and is being restarted. Try again in a moment.'), actions: [] }
      : {
          message: l10n.t('The local service stopped and was not started again.'),
          actions: [{ label: l10n.t('Restart Local Service'), command: CommandIds.restartLocalService }],
        };
  }
  if (error instanceof ApiTimeoutError) {
    const setting = 'knowledgeDesk.requestTimeoutSeconds';
    return {
      message: error.host
        ? l10n.t('{0} did not answer in time. Try again, or raise {1}.', error.host, setting)
        : l10n.t('The service did not answer in time. Try again, or raise {0}.', setting),
      actions: [],
    };
  }
  if (error instanceof ApiConnectionError) {
    return {
      message: `${unreachableText(error)} ${unreachableNextStep()}`,
      actions: [{ label: l10n.t('Select Region'), command: CommandIds.selectRegion }],
    };
  }
  if (error instanceof ApiValidationError) {
    return {
      message: l10n.t('The service sent a response Knowledge Desk does not understand (at {0}).', error.field || 'body'),
      actions: [],
    };
  }
  if (error instanceof OperationNotOfferedError) {
    return { message: l10n.t('This deployment does not offer that operation through the API.'), actions: [] };
  }
  // A refusal as not valid: the service's sentence, or plain words when it is a schema library's wording.
  if (error instanceof ApiError && (error.status === 400 || error.status === 422))
    return { message: plainRefusal(trimOperation(error.message), error.field), actions: [] };
  if (error instanceof KnowledgeDeskError) return { message: plainInternal(trimOperation(error.message)), actions: [] };
  if (error instanceof Error) return { message: plainInternal(error.message), actions: [] };
  return { message: plainInternal(String(error)), actions: [] };
}

/** "Cannot reach backend.alli.ai: the connection was refused." The host the person can check, in plain words. */
export function unreachableText(error: ApiConnectionError): string {
  const why = reasonText(error.reason);
  if (!error.host) return why ? l10n.t('Cannot reach the service: {0}.', why) : l10n.t('Cannot reach the service.');
  return why ? l10n.t('Cannot reach {0}: {1}.', error.host, why) : l10n.t('Cannot reach {0}.', error.host);
}

/** What to check when a host cannot be reached. */
export function unreachableNextStep(): string {
  return l10n.t('Check the network connection, the proxy settings ({0}) and that the selected region is the right one.', 'http.proxy');
}

/** The system's failure code in words; an unknown code as it is (it is what a search or the log shows). */
function reasonText(code: string | undefined): string | undefined {
  if (!code) return undefined;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('its name could not be found (DNS)');
    case 'ECONNREFUSED':
      return l10n.t('the connection was refused');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return l10n.t('the connection was closed');
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return l10n.t('the connection timed out');
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return l10n.t('the network cannot reach it');
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL/.test(code)) return l10n.t('its certificate was not accepted ({0})', code);
  return code;
}

// "kbNodes.search failed (400): limit: too big" reads better without the internal operation name.
function trimOperation(message: string): string {
  return message.replace(/^[\w.]+ failed( \(\d+\))?: /, '').replace(/^[\w.]+: /, '');
}
