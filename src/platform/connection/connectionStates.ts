import { regionOf, type Connection } from '../../core/connections';
import { failedStatus } from './checkFailure';
import type { ConnectionManager } from './connectionManager';
import type { ConnectionStatus } from './connectionStatus';
import type { Secrets } from '../secrets';

/**
 * A connection's state for Switch and Check Connection: the active one is checked again; another one has
 * its stored key checked without building or changing this window's client.
 */
export async function checkConnectionState(
  manager: ConnectionManager,
  secrets: Secrets,
  connection: Connection,
  signal?: AbortSignal,
): Promise<ConnectionStatus> {
  if (connection.id === manager.active.id) return manager.refresh();
  const region = regionOf(connection.target);
  const named = { id: connection.id, name: connection.name };
  let baseUrl: string | undefined;
  try {
    const ep = await manager.endpoints(connection);
    baseUrl = ep.baseUrl;
    // A local connection without a stored key would adopt the service's own on first use.
    const key = (await secrets.get('apiKey', connection.id)) ?? ep.localKeys?.apiKey;
    if (!key) return { state: 'noKey', region, baseUrl, connection: named };
    await manager.verifyKey(connection, key, signal);
    return { state: 'connected', region, baseUrl, connection: named };
  } catch (error) {
    return { ...failedStatus(error, region, baseUrl), connection: named };
  }
}
