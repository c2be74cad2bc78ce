// A failed tool call becomes one short text that says what went wrong and what to do next. The next
// step differs by host (a VS Code command, an environment variable), so the host passes its wording.
// Through @vscode/l10n: the chat shows these to a person (in VS Code's display language once the extension
// handed over its bundle); the MCP server never loads a bundle, so agents always read English.
import * as l10n from '@vscode/l10n';
import {
  ApiAbortError,
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  RateLimitError,
} from '../api/errors';
import { isSchemaWording, plainInternal, plainRefusal } from '../api/plainRefusal';
import { MissingKeyError, ToolInputError } from './errors';

export { MissingKeyError };

export interface ErrorHints {
  /** How to set (or fix) the key, e.g. "Run 'Knowledge Desk: Set API Key'." */
  setKey: string;
  /** How to reach the service, e.g. "Check --base-url, or start the local service." */
  unreachable: string;
}

export type ToolErrorKind = 'input' | 'key' | 'unreachable' | 'cancelled' | 'service';

export function describeToolError(error: unknown, hints: ErrorHints): { kind: ToolErrorKind; message: string } {
  if (error instanceof ToolInputError) return { kind: 'input', message: l10n.t('Invalid input: {0}', error.message) };
  if (error instanceof MissingKeyError) return { kind: 'key', message: `${error.message} ${hints.setKey}` };
  if (error instanceof AuthenticationError) return { kind: 'key', message: l10n.t('The service rejected the API key. {0}', hints.setKey) };
  if (error instanceof ApiAbortError) return { kind: 'cancelled', message: l10n.t('Cancelled.') };
  if (error instanceof ApiTimeoutError)
    return { kind: 'unreachable', message: l10n.t('The service did not answer in time. Try again. {0}', hints.unreachable) };
  if (error instanceof ApiConnectionError)
    return {
      kind: 'unreachable',
      message: l10n.t('Cannot reach the Knowledge Desk service ({0}). {1}', trim(error.message), hints.unreachable),
    };
  if (error instanceof PermissionDeniedError)
    return { kind: 'service', message: l10n.t('Access denied: the project is inactive or this IP address is not allowed.') };
  if (error instanceof RateLimitError)
    return { kind: 'service', message: l10n.t('The service is rate limiting requests: wait a little and try again.') };
  if (error instanceof BadRequestError) {
    const said = trim(error.message);
    // Schema wording ("String must contain at most 2000 character(s)") becomes plain words with a next step.
    return {
      kind: 'input',
      message: isSchemaWording(said) ? plainRefusal(said, error.field) : l10n.t('The service refused the request: {0}', said),
    };
  }
  if (error instanceof ApiError) return { kind: 'service', message: l10n.t('The service failed: {0}', plainInternal(trim(error.message))) };
  return { kind: 'service', message: plainInternal(error instanceof Error ? error.message : String(error)) };
}

function trim(message: string): string {
  return message.replace(/^[\w.]+ failed( \(\d+\))?: /, '');
}
