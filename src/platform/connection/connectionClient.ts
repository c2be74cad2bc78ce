import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { Connection } from '../../core/connections';
import { toUserFacing } from '../errorMessages';
import type { Logger } from '../logger';
import type { Secrets } from '../secrets';
import type { ConnectionManager } from './connectionManager';
import { NotConnectedError } from './notConnectedError';

/**
 * A checked client for any named connection (its endpoints and keys), leaving the active connection as it is:
 * a Test Explorer profile per connection runs against it. Throws NotConnectedError naming the connection and the
 * next step when it has no key or does not answer, so a run reports that instead of one failure per request.
 */
export async function checkedClientOf(
  manager: ConnectionManager,
  secrets: Secrets,
  logger: Logger,
  connection: Connection,
  signal?: AbortSignal,
): Promise<ApiClient> {
  const switchCommand = vscode.l10n.t('Knowledge Desk: Switch Connection');
  const notAnswering = (error: unknown): NotConnectedError =>
    new NotConnectedError(
      vscode.l10n.t(
        'The connection {0} did not answer: {1} Check its URL and key with "{2}".',
        connection.name,
        toUserFacing(error).message,
        switchCommand,
      ),
      'misconfigured',
    );
  // A local project that was never active stores its own key here, as on its first use when active.
  const ep = await manager.localKeys.endpointsInUse(connection).catch((error: unknown) => {
    throw signal?.aborted ? error : notAnswering(error);
  });
  const key = await secrets.get('apiKey', connection.id);
  if (!key)
    throw new NotConnectedError(
      vscode.l10n.t(
        'No API key is set for the connection {0}. Switch to it with "{1}" and run "{2}", or add it again with "{3}".',
        connection.name,
        switchCommand,
        vscode.l10n.t('Knowledge Desk: Set API Key'),
        vscode.l10n.t('Knowledge Desk: Add Connection'),
      ),
      'noKey',
    );
  const nluKey = await secrets.get('nluApiKey', connection.id);
  logger.redact(key);
  logger.redact(nluKey);
  try {
    const client = manager.createClient(ep, key, nluKey, connection);
    // One cheap call first: an unreachable service or a rejected key is said once, with the connection's name.
    await client.projects.checkKey({ signal, maxRetries: 0, timeoutMs: 15_000 });
    return client;
  } catch (error) {
    throw signal?.aborted ? error : notAnswering(error);
  }
}
