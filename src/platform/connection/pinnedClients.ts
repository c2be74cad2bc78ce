import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { Connection } from '../../core/connections';
import type { Logger } from '../logger';
import type { Secrets } from '../secrets';
import type { ConnectionManager } from './connectionManager';
import { NotConnectedError } from './notConnectedError';

/** A panel's connection: the one it was opened with. */
export interface PanelPin {
  readonly id: string;
  client(): Promise<ApiClient>;
  /** What its title names: the connection, "name (removed)", or nothing. */
  connectionLabel(): string | undefined;
  /** The connection's name now, or the last one known once it was removed. */
  name(): string;
}

/**
 * Clients of the connections panels were opened with: a panel keeps working on its connection after a switch
 * (issue 27), and says so clearly once that connection is removed. One client per connection, rebuilt only when
 * its endpoints or keys changed; the active connection's is the manager's own.
 */
export class PinnedClients {
  private readonly clients = new Map<string, { key: string; value: ApiClient }>();

  constructor(
    private readonly manager: ConnectionManager,
    private readonly secrets: Secrets,
    private readonly logger: Logger,
  ) {}

  /** The connection a panel opens with now. */
  pin(): Connection {
    return this.manager.active;
  }

  /**
   * Pins a new panel to the active connection (or to `to`, the one a restored panel or a pinned caller names): its
   * client, and the name its title shows — always when it is not the active one, "(removed)" once removed, otherwise
   * as `usual` says (the name once the user has connections of their own).
   */
  panel(usual?: () => string | undefined, to?: { id: string; name?: string }): PanelPin {
    const { id } = to ?? this.manager.active;
    let name = this.manager.store.get(id)?.name ?? to?.name ?? id;
    return {
      id,
      client: () => this.clientFor(id, name),
      name: () => (name = this.manager.store.get(id)?.name ?? name),
      connectionLabel: () => {
        const now = this.manager.store.get(id);
        if (!now) return vscode.l10n.t('{0} (removed)', name);
        name = now.name;
        return usual?.() !== undefined || id !== this.manager.active.id ? name : undefined;
      },
    };
  }

  /** The client of the connection `id`; NotConnectedError naming it when it was removed or has no key. */
  async clientFor(id: string, name: string): Promise<ApiClient> {
    const connection = this.manager.store.get(id);
    if (!connection) throw new NotConnectedError(removedMessage(name), 'misconfigured');
    if (connection.id === this.manager.active.id) return this.manager.getClient();
    const ep = await this.manager.localKeys.endpointsInUse(connection);
    const key = await this.secrets.get('apiKey', connection.id);
    if (!key)
      throw new NotConnectedError(
        vscode.l10n.t('No API key is set for {0}.', connection.name),
        'noKey',
        vscode.l10n.t('No API key is set for {0}.', connection.name),
      );
    const nluKey = await this.secrets.get('nluApiKey', connection.id);
    const inputs = JSON.stringify([connection, ep.baseUrl, ep.nluUrl, key, nluKey]);
    let client = this.clients.get(id);
    if (client?.key !== inputs) {
      this.logger.redact(key);
      this.logger.redact(nluKey);
      client = { key: inputs, value: this.manager.createClient(ep, key, nluKey, connection) };
      this.clients.set(id, client);
    }
    return client.value;
  }
}

function removedMessage(name: string): string {
  return vscode.l10n.t(
    'The connection "{0}" this panel shows was removed. Close the panel; open it again to use the active connection.',
    name,
  );
}
