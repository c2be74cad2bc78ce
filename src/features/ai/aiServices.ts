// What the @knowledge participant, the language model tools and the MCP server definition do with a window's
// services (its connection, settings and secrets), apart from registering them (aiFeature.ts): each one is a
// use of Knowledge Desk, so the first of them starts the window's connection like a view or a command does.
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { MissingKeyError, RegionNotConfiguredError } from '../../ai/errors';
import type { ErrorHints } from '../../ai/toolErrors';
import type { ToolName } from '../../ai/toolNames';
import type { Container } from '../../container';
import { DEFAULT_PROJECT } from '../../core/connections';
import { REGION_INFO, type Region } from '../../core/regions';
import { NotConnectedError } from '../../platform/connection/notConnectedError';
import { regionLabel } from '../../platform/regionLabels';
import { configuredBaseUrl } from '../../platform/connection/connectionEndpoints';
import { SettingKeys } from '../../platform/settings';
import { noteUse } from '../../platform/usage';
import type { ChatLinks } from './chatLinkHandler';
import { createChatHandler } from './chatParticipant';
import { knowledgeTool } from './lmTools';
import type { McpProviderDeps } from './mcpProvider';

/** The parts of the container used here (a window's services). */
export type AiWindow = Pick<Container, 'connection' | 'settings' | 'secrets' | 'localProjects' | 'context' | 'log'>;

/**
 * The next step after a failure, naming commands as the palette shows them (in the display language): the chat
 * shows it, and a tool's error reaches the person as well as the model. Read per call (the bundle is loaded then).
 */
const hints = (): ErrorHints => ({
  setKey: vscode.l10n.t('Run "{0}".', vscode.l10n.t('Knowledge Desk: Set API Key')),
  unreachable: vscode.l10n.t(
    'Run "{0}", or "{1}" to use another service.',
    vscode.l10n.t('Knowledge Desk: Check Connection'),
    vscode.l10n.t('Knowledge Desk: Select Region'),
  ),
});

/** Where a remote region's questions go, for the tools' confirmation; undefined for Local (this machine). */
export function destinationOf(region: Region, customBaseUrl: string | undefined): { label: string; host: string } | undefined {
  if (region === 'local') return undefined;
  const base = region === 'custom' ? (customBaseUrl ?? '') : (REGION_INFO[region].baseUrl ?? '');
  let host = base;
  try {
    host = new URL(base).host;
  } catch {
    // An unusable custom URL: the call itself says so; the confirmation names what is configured.
  }
  return { label: regionLabel(region), host: host || vscode.l10n.t('(no service URL set)') };
}

export class AiServices {
  constructor(
    private readonly c: AiWindow,
    private readonly links: ChatLinks,
  ) {}

  /** The chat handler (integration tests call it without a chat UI). */
  readonly chatHandler = createChatHandler(
    () => ({
      client: () => this.client('@knowledge'),
      // The active connection's name (the default ones are named after their region).
      regionLabel: this.c.connection.active.name,
      rememberCitation: (citation, question, answer) => this.links.remember(citation, question, answer),
      autoRegisterCandidates: this.c.settings.get<boolean>(SettingKeys.qnaAutoRegisterCandidates, false),
      hints: hints(),
      log: (m) => this.c.log('chat').warn(m),
    }),
    () => vscode.env.uriScheme,
  );

  tool(name: ToolName): vscode.LanguageModelTool<Record<string, unknown>> {
    return knowledgeTool(name, {
      client: () => this.client(`tool ${name}`),
      hints: hints(),
      log: this.c.log('ai'),
      destination: () => destinationOf(this.c.connection.region, configuredBaseUrl(this.c.connection.active, this.c.settings)),
    });
  }

  mcpDeps(onDidChange: vscode.Event<void>): McpProviderDeps {
    const log = this.c.log('ai');
    return {
      extensionPath: this.c.context.extensionPath,
      localDataDir: () => {
        const target = this.c.connection.active.target;
        return this.c.localProjects.dataDirOf(target.kind === 'local' ? target.project : DEFAULT_PROJECT);
      },
      region: () => this.c.connection.region,
      customBaseUrl: () => configuredBaseUrl(this.c.connection.active, this.c.settings) ?? '',
      // The active connection's key (the region argument is the active connection's region).
      apiKey: () => this.c.secrets.get('apiKey', this.c.connection.active.id),
      onDidChange,
      start: async () => {
        try {
          await this.client('MCP server');
        } catch (error) {
          // The server reports its own connection problems to the agent; the window only tried to start.
          log.warn(`the MCP server starts without this window's connection: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    };
  }

  /**
   * The client, as a use of Knowledge Desk; a missing key is a MissingKeyError so the chat offers Set API Key,
   * a region configured wrong a RegionNotConfiguredError so it offers Select Region.
   */
  private async client(what: string): Promise<ApiClient> {
    noteUse(what);
    try {
      return await this.c.connection.getClient();
    } catch (error) {
      // By its reason, not its text: the message is in the display language (connectionManager.ts).
      if (!(error instanceof NotConnectedError)) throw error;
      if (error.reason === 'noKey' && error.problem) throw new MissingKeyError(error.problem);
      if (error.reason === 'misconfigured') throw new RegionNotConfiguredError(error.message, { cause: error });
      throw error;
    }
  }
}
