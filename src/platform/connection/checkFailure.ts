import { ApiConnectionError, AuthenticationError, LocalServiceStoppedError, PermissionDeniedError } from '../../api/errors';
import type { Region } from '../../core/regions';
import { toUserFacing } from '../errorMessages';
import type { ConnectionStatus } from './connectionStatus';
import { NotConnectedError } from './notConnectedError';

/** The status a failed connection check leaves: a rejected key, a host that cannot be reached, a missing URL… */
export function failedStatus(error: unknown, region: Region, baseUrl: string | undefined): ConnectionStatus {
  const detail = error instanceof Error ? error.message : String(error);
  const problem = toUserFacing(error).message;
  const base = { region, baseUrl, detail, problem };
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return { state: 'unauthorized', ...base };
  if (error instanceof LocalServiceStoppedError && error.restarting) return { state: 'restarting', ...base };
  if (error instanceof ApiConnectionError) return { state: 'unreachable', ...base };
  if (error instanceof NotConnectedError) return { state: 'misconfigured', ...base };
  return { state: 'error', ...base };
}
