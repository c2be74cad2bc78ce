// A connection as a quick pick item: its name, where it goes and, when asked for, its state, checked as the list
// opens. Switch Connection and the promote's target picker (Copy to / Compare with Connection…) both list them so,
// so a connection without a key or one that fails is recognisable before it is picked.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_PROJECT, type Connection } from '../../core/connections';
import { regionDescription } from '../regionLabels';
import type { Secrets } from '../secrets';
import type { Settings } from '../settings';
import { configuredBaseUrl } from './connectionEndpoints';
import type { ConnectionManager } from './connectionManager';
import { checkConnectionState } from './connectionStates';
import type { ConnectionState } from './connectionStatus';
import type { LocalProjects } from './localProjects';

/** How long a list waits for each connection's check before listing it as unreachable. */
const CHECK_MS = 8_000;

// Functions, not strings: vscode.l10n.t must run after activation has the bundle.
const STATE: Record<ConnectionState, () => string> = {
  idle: () => vscode.l10n.t('not checked yet'),
  checking: () => vscode.l10n.t('checking…'),
  starting: () => vscode.l10n.t('starting…'),
  connected: () => vscode.l10n.t('connected'),
  noKey: () => vscode.l10n.t('no key'),
  unreachable: () => vscode.l10n.t('cannot be reached'),
  restarting: () => vscode.l10n.t('restarting'),
  unauthorized: () => vscode.l10n.t('key rejected'),
  misconfigured: () => vscode.l10n.t('not configured'),
  error: () => vscode.l10n.t('error'),
};

export interface ConnectionItemServices {
  manager: ConnectionManager;
  secrets: Secrets;
  settings: Settings;
  localProjects: LocalProjects;
}

/**
 * The quick pick options of every list of connectionItems: typing matches the descriptions too, so "Local" finds the
 * local projects ("Local project · folder …") as well as the connection named Local, and a URL finds its connections.
 */
export const CONNECTION_PICK_OPTIONS = { matchOnDescription: true } as const satisfies vscode.QuickPickOptions;

export interface ConnectionItem extends vscode.QuickPickItem {
  /** The name, so a scripted answer (and a person typing) finds it by name. */
  id: string;
  connection: Connection;
  /** Its state, when the list was asked to check it. */
  state?: ConnectionState;
}

/** Items for `connections`, the active one ticked; with `withState` each is checked first (in parallel). */
export async function connectionItems(
  services: ConnectionItemServices,
  connections: readonly Connection[],
  withState: boolean,
): Promise<ConnectionItem[]> {
  const active = services.manager.active.id;
  return Promise.all(
    connections.map(async (connection) => {
      const state = withState ? await stateOf(services, connection) : undefined;
      return {
        id: connection.name,
        label: `${connection.id === active ? '$(check) ' : ''}${connection.name}`,
        description: connectionDescription(services, connection),
        ...(state ? { detail: state.problem ? `${STATE[state.state]()}: ${state.problem}` : STATE[state.state]() } : {}),
        ...(state ? { state: state.state } : {}),
        connection,
      };
    }),
  );
}

/**
 * Where a connection goes: the service URL, the default Local's words, or for another local project its data
 * folder's name, so two local connections differ by more than their names.
 */
export function connectionDescription(
  services: Pick<ConnectionItemServices, 'settings' | 'localProjects'>,
  connection: Connection,
): string {
  const t = connection.target;
  if (t.kind === 'local')
    return t.project === DEFAULT_PROJECT
      ? regionDescription('local')
      : vscode.l10n.t('Local project · folder {0}', path.basename(services.localProjects.dataDirOf(t.project)));
  return configuredBaseUrl(connection, services.settings) ?? vscode.l10n.t('(no service URL set)');
}

async function stateOf(services: ConnectionItemServices, connection: Connection): Promise<{ state: ConnectionState; problem?: string }> {
  const status = await checkConnectionState(services.manager, services.secrets, connection, AbortSignal.timeout(CHECK_MS));
  return { state: status.state, problem: status.state === 'connected' ? undefined : status.problem };
}
