import * as vscode from 'vscode';
import type { Connection } from '../../core/connections';
import { remoteEndpoints, type Endpoints } from '../../core/regions';
import type { Settings } from '../settings';
import type { LocalProjects } from './localProjects';
import { NotConnectedError } from './notConnectedError';

export type ResolvedEndpoints = Endpoints & { localKeys?: { apiKey: string; nluApiKey: string } };

/**
 * Where a connection goes; starts the local service for a local project. A custom connection without
 * its own URL (the one migrated from the Custom region) follows `knowledgeDesk.custom.*`, as the region did.
 */
export async function endpointsOf(connection: Connection, settings: Settings, local: LocalProjects): Promise<ResolvedEndpoints> {
  const target = connection.target;
  if (target.kind === 'local') {
    const ep = await local.host(target.project).ensureStarted();
    return { baseUrl: ep.url, nluUrl: ep.url, localKeys: { apiKey: ep.apiKey, nluApiKey: ep.nluApiKey } };
  }
  const custom = target.kind === 'custom' && target.baseUrl ? { baseUrl: target.baseUrl, nluUrl: target.nluUrl } : settings.custom;
  const resolved = remoteEndpoints(target.kind, custom);
  if ('error' in resolved)
    throw new NotConnectedError(
      vscode.l10n.t(
        'The connection {0} is not configured: {1}. Run "{2}".',
        connection.name,
        resolved.error,
        vscode.l10n.t('Knowledge Desk: Select Region'),
      ),
      'misconfigured',
    );
  return resolved;
}

/** The base URL a connection names without starting anything (the MCP definition, the tools' confirmation). */
export function configuredBaseUrl(connection: Connection, settings: Settings): string | undefined {
  const t = connection.target;
  if (t.kind === 'local') return undefined;
  if (t.kind === 'custom') return t.baseUrl || settings.custom.baseUrl || undefined;
  const resolved = remoteEndpoints(t.kind, {});
  return 'error' in resolved ? undefined : resolved.baseUrl;
}
