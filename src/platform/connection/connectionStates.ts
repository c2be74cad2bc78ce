import { regionOf, type Connection } from '../../core/connections';
import { failedStatus } from './checkFailure';
import type { ConnectionManager } from './connectionManager';
import type { ConnectionStatus } from './connectionStatus';
import type { Secrets } from '../secrets';

/**
 * A connection's state for Switch and Check Connection: the active one is checked again (until `signal`); another one has
 * its stored key checked without building or changing this window's client. A local project whose service is
 * still starting when `signal` ends the check (a new project's first start on a busy machine can outlast a list's
 * 8 s) is `starting`, not an error: the start goes on, and the connection can be picked.
 */
export async function checkConnectionState(
  manager: Pick<ConnectionManager, 'active' | 'refresh' | 'endpoints' | 'verifyKey'>,
  secrets: Pick<Secrets, 'get'>,
  connection: Connection,
  signal?: AbortSignal,
): Promise<ConnectionStatus> {
  const region = regionOf(connection.target);
  const named = { id: connection.id, name: connection.name };
  if (connection.id === manager.active.id) {
    // The list is often opened to leave a connection that hangs: it shows "checking…" when the check outlasts the
    // signal (the check goes on, and the status bar follows it) rather than waiting up to its own 15 s.
    return untilAborted(manager.refresh(), signal).catch((error: unknown) => {
      if (signal?.aborted) return { state: 'checking' as const, region, connection: named };
      throw error;
    });
  }
  let baseUrl: string | undefined;
  let started = false;
  try {
    // Not waited for beyond the signal: the list shows the state it has instead of waiting for a slow start.
    const ep = await untilAborted(manager.endpoints(connection), signal);
    started = true;
    baseUrl = ep.baseUrl;
    // A local connection without a stored key would adopt the service's own on first use.
    const key = (await secrets.get('apiKey', connection.id)) ?? ep.localKeys?.apiKey;
    if (!key) return { state: 'noKey', region, baseUrl, connection: named };
    await manager.verifyKey(connection, key, signal);
    return { state: 'connected', region, baseUrl, connection: named };
  } catch (error) {
    if (!started && signal?.aborted && connection.target.kind === 'local') return { state: 'starting', region, connection: named };
    return { ...failedStatus(error, region, baseUrl), connection: named };
  }
}

/** `promise`, or a rejection with the signal's reason once it aborts (the promise itself goes on, its failure handled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
