// Knowledge Desk in VS Code's chat and for agents: the @knowledge participant, the language model tools
// and the MCP server definition. All of it exists only while knowledgeDesk.ai.enabled is on (an
// application setting), and comes and goes with it without a reload.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { MissingKeyError } from '../../ai/errors';
import type { ErrorHints } from '../../ai/toolErrors';
import type { Container } from '../../container';
import { Disposable, disposeAll, type IDisposable } from '../../platform/lifecycle';
import { regionLabel } from '../../platform/regionLabels';
import { SECTION, SettingKeys } from '../../platform/settings';
import { ChatLinks } from './chatLinkHandler';
import { createChatHandler, createParticipant } from './chatParticipant';
import { registerKnowledgeTools } from './lmTools';
import { registerMcpProvider } from './mcpProvider';

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

export class AiFeature extends Disposable {
  private active: IDisposable[] = [];
  private readonly links: ChatLinks;
  /** What is registered now (tests, log). */
  readonly registered = { participant: false, tools: 0, mcp: false };
  private readonly mcpChanged = this._register(new vscode.EventEmitter<void>());

  constructor(private readonly c: Container) {
    super();
    this.links = new ChatLinks(c.log('chat-links'));
    // One UriHandler per extension; it stays whether or not the AI features are on (old links still open).
    this._register(vscode.window.registerUriHandler(this.links));
    this._register({ dispose: () => this.deactivate() });
    this._register(
      c.settings.onDidChange((e) => {
        if (e.affectsConfiguration(`${SECTION}.${SettingKeys.aiEnabled}`)) this.update();
        else if (['region', 'custom.baseUrl'].some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) this.mcpChanged.fire();
      }),
    );
    this._register(c.secrets.onDidChange(() => this.mcpChanged.fire()));
    this.update();
  }

  get enabled(): boolean {
    return this.c.settings.get<boolean>(SettingKeys.aiEnabled, true);
  }

  /** The chat handler with this window's services (integration tests call it without a chat UI). */
  readonly chatHandler = createChatHandler(
    () => ({
      client: () => this.client(),
      stateful: !!this.c.settings.identity.ownUserId,
      regionLabel: regionLabel(this.c.settings.region),
      rememberCitation: (citation, question, answer) => this.links.remember(citation, question, answer),
      autoRegisterCandidates: this.c.settings.get<boolean>(SettingKeys.qnaAutoRegisterCandidates, false),
      hints: hints(),
      log: (m) => this.c.log('chat').warn(m),
    }),
    () => vscode.env.uriScheme,
  );

  get chatLinks(): ChatLinks {
    return this.links;
  }

  private update(): void {
    const on = this.enabled;
    if (on === this.active.length > 0) return;
    if (!on) return this.deactivate();
    const log = this.c.log('ai');
    const participant = createParticipant(this.chatHandler, this.c.context.extensionUri);
    const tools = registerKnowledgeTools({ client: () => this.client(), hints: hints(), log });
    const mcp = registerMcpProvider(
      {
        extensionPath: this.c.context.extensionPath,
        localDataDir: path.join(this.c.context.globalStorageUri.fsPath, 'local-service'),
        region: () => this.c.settings.region,
        customBaseUrl: () => this.c.settings.custom.baseUrl ?? '',
        apiKey: (region) => this.c.secrets.get('apiKey', region),
        onDidChange: this.mcpChanged.event,
      },
      (m) => log.warn(m),
    );
    this.active = [participant, ...tools, ...(mcp ? [mcp] : [])];
    Object.assign(this.registered, { participant: true, tools: tools.length, mcp: !!mcp });
    log.info(
      `chat participant, ${tools.length} language model tools${mcp ? ' and the MCP server definition' : ' (no MCP API in this VS Code)'} registered`,
    );
  }

  private deactivate(): void {
    if (!this.active.length) return;
    disposeAll(this.active);
    this.active = [];
    Object.assign(this.registered, { participant: false, tools: 0, mcp: false });
    this.c.log('ai').info('chat participant, language model tools and MCP server definition removed (knowledgeDesk.ai.enabled is off)');
  }

  /** The client; a missing key is a MissingKeyError so the chat offers Set API Key. */
  private async client(): Promise<ApiClient> {
    try {
      return await this.c.connection.getClient();
    } catch (error) {
      // By its reason, not its text: the message is in the display language (connectionManager.ts).
      const missing = error as { name?: string; reason?: string; problem?: string } | undefined;
      if (missing?.name === 'NotConnectedError' && missing.reason === 'noKey' && missing.problem) {
        throw new MissingKeyError(missing.problem);
      }
      throw error;
    }
  }
}
