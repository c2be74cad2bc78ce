// Knowledge Desk in VS Code's chat and for agents: the @knowledge participant, and the knowledge tools
// either as language model tools (the default) or through the MCP server definition (knowledgeDesk.ai.mcpServer,
// where this VS Code has the API), never both: VS Code would list each tool twice. All of it exists only
// while knowledgeDesk.ai.enabled is on (an application setting), and follows both settings without a reload.
import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable, disposeAll, type IDisposable } from '../../platform/lifecycle';
import { ContextKeys } from '../../platform/commandIds';
import { SECTION, SettingKeys } from '../../platform/settings';
import { AiServices } from './aiServices';
import { ChatLinks } from './chatLinkHandler';
import { createParticipant } from './chatParticipant';
import { registerKnowledgeTools } from './lmTools';
import { registerMcpProvider } from './mcpProvider';

export class AiFeature extends Disposable {
  private participant: IDisposable | undefined;
  private tools: IDisposable[] = [];
  private mcp: IDisposable | undefined;
  private readonly links: ChatLinks;
  private readonly services: AiServices;
  /** What is registered now (tests, log). */
  readonly registered = { participant: false, tools: 0, mcp: false };
  private readonly mcpChanged = this._register(new vscode.EventEmitter<void>());

  constructor(private readonly c: Container) {
    super();
    this.links = new ChatLinks(c.log('chat-links'));
    this.services = new AiServices(c, this.links);
    // One UriHandler per extension; it stays whether or not the AI features are on (old links still open).
    this._register(vscode.window.registerUriHandler(this.links));
    this._register({ dispose: () => this.deactivate() });
    this._register(
      c.settings.onDidChange((e) => {
        if ([SettingKeys.aiEnabled, SettingKeys.aiMcpServer].some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) this.update();
        else if (['region', 'custom.baseUrl'].some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) this.mcpChanged.fire();
      }),
    );
    this._register(c.secrets.onDidChange(() => this.mcpChanged.fire()));
    // The definition follows the active connection (its region or URL, and its key at start).
    this._register(c.connection.store.onDidChange(() => this.mcpChanged.fire()));
    this.update();
  }

  get enabled(): boolean {
    return this.c.settings.get<boolean>(SettingKeys.aiEnabled, true);
  }

  /** The chat handler with this window's services (integration tests call it without a chat UI). */
  get chatHandler(): vscode.ChatRequestHandler {
    return this.services.chatHandler;
  }

  get chatLinks(): ChatLinks {
    return this.links;
  }

  private update(): void {
    if (!this.enabled) return this.deactivate();
    const log = this.c.log('ai');
    const before = { ...this.registered };
    this.participant ??= createParticipant(this.chatHandler, this.c.context.extensionUri);
    const viaMcp = this.c.settings.get<boolean>(SettingKeys.aiMcpServer, false);
    if (viaMcp && !this.mcp) {
      this.mcp = registerMcpProvider(this.services.mcpDeps(this.mcpChanged.event), (m) => log.warn(m));
      if (!this.mcp)
        log.warn(
          'knowledgeDesk.ai.mcpServer is on, but this VS Code cannot start MCP servers of extensions (1.101 or later): the language model tools stay',
        );
    } else if (!viaMcp && this.mcp) {
      this.mcp.dispose();
      this.mcp = undefined;
    }
    // The tools come from one place only: the MCP server when its definition is registered, else these.
    if (this.mcp && this.tools.length) {
      disposeAll(this.tools);
      this.tools = [];
    }
    if (!this.mcp && !this.tools.length) this.tools = registerKnowledgeTools((name) => this.services.tool(name));
    void vscode.commands.executeCommand('setContext', ContextKeys.aiLmTools, this.tools.length > 0);
    Object.assign(this.registered, { participant: true, tools: this.tools.length, mcp: !!this.mcp });
    if (before.participant === this.registered.participant && before.mcp === this.registered.mcp) return;
    log.info(
      this.mcp
        ? 'chat participant and the MCP server definition registered (the knowledge tools come from the MCP server)'
        : `chat participant and ${this.tools.length} language model tools registered`,
    );
  }

  private deactivate(): void {
    if (!this.participant) return;
    disposeAll([this.participant, ...this.tools, ...(this.mcp ? [this.mcp] : [])]);
    this.participant = this.mcp = undefined;
    this.tools = [];
    void vscode.commands.executeCommand('setContext', ContextKeys.aiLmTools, false);
    Object.assign(this.registered, { participant: false, tools: 0, mcp: false });
    this.c.log('ai').info('chat participant, language model tools and MCP server definition removed (knowledgeDesk.ai.enabled is off)');
  }
}
