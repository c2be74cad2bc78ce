import type * as vscode from 'vscode';
import type { Connection } from '../../core/connections';
import type { Log } from '../logger';
import type { Secrets } from '../secrets';
import type { ResolvedEndpoints } from './connectionEndpoints';
import type { LocalProjects } from './localProjects';

/** The Local connection keeps the flag it had as a region; other local connections have their own. */
const declinedKey = (id: string): string => `knowledgeDesk.local.autoKeyDeclined${id === 'local' ? '' : `.${id}`}`;

/**
 * A local project's own key, stored for its connection: at once on a fresh machine (the first check or request,
 * of the active connection or of any other one: a copy target, a pinned panel's), again with Connect, never after
 * the person cleared it (Clear API Key) until they ask for it. The ConnectionManager's local-key steps.
 */
export class LocalKeyAdoption {
  /** The key being stored, per connection: two local projects used at once each store their own. */
  private readonly adopting = new Map<string, Promise<void>>();

  constructor(
    private readonly local: Pick<LocalProjects, 'host'>,
    private readonly secrets: Pick<Secrets, 'get' | 'store' | 'delete'>,
    private readonly globalState: Pick<vscode.Memento, 'get' | 'update'>,
    private readonly log: Pick<Log, 'info'>,
    /** Where a connection goes (ConnectionManager.endpoints: starts a local project's service). */
    private readonly endpoints: (connection: Connection) => Promise<ResolvedEndpoints>,
  ) {}

  /**
   * The endpoints of any connection, with a local project's own key stored on its first use (as the active one's
   * is): a project that was never active can still be a copy target or a pinned panel's connection.
   */
  async endpointsInUse(connection: Connection): Promise<ResolvedEndpoints> {
    const ep = await this.endpoints(connection);
    await this.adopt(connection, ep);
    return ep;
  }

  /** Stores the embedded service's own key for a local connection (Connect), also after it was cleared. */
  async use(connection: Connection): Promise<void> {
    if (connection.target.kind !== 'local') return;
    const ep = await this.local.host(connection.target.project).ensureStarted();
    await this.globalState.update(declinedKey(connection.id), false);
    await this.secrets.store('apiKey', connection.id, ep.apiKey);
    await this.secrets.store('nluApiKey', connection.id, ep.nluApiKey);
  }

  /** Stores it the first time the connection is used, by the first check or the first request (one store for both). */
  async adopt(connection: Connection, ep: { localKeys?: unknown }): Promise<void> {
    if (connection.target.kind !== 'local' || !ep.localKeys || this.globalState.get<boolean>(declinedKey(connection.id))) return;
    if (await this.secrets.get('apiKey', connection.id)) return;
    let adopting = this.adopting.get(connection.id);
    if (!adopting) {
      adopting = this.use(connection)
        .then(() => this.log.info(`stored the local service key for the connection ${connection.id}`))
        .finally(() => this.adopting.delete(connection.id));
      this.adopting.set(connection.id, adopting);
    }
    await adopting;
  }

  /** Clear API Key: removes the key, and for a local connection keeps it from being stored again on its own. */
  async clear(connection: Connection): Promise<void> {
    if (connection.target.kind === 'local') await this.globalState.update(declinedKey(connection.id), true);
    await this.secrets.delete('apiKey', connection.id);
  }
}
