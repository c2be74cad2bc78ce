// Knowledge Desk in VS Code's chat and for agents: the @knowledge participant, the language model tools
// and the MCP server definition. All of it exists only while knowledgeDesk.ai.enabled is on (an
// application setting), and comes and goes with it without a reload.
import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable, disposeAll, type IDisposable } from '../../platform/lifecycle';
import { SECTION, SettingKeys } from '../../platform/settings';
import { AiServices } from './aiServices';
import { ChatLinks } from './chatLinkHandler';
import { createParticipant } from './chatParticipant';
import { registerKnowledgeTools } from './lmTools';
import { registerMcpProvider } from './mcpProvider';

export class AiFeature extends Disposable {
  private active: IDisposable[] = [];
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
  get chatHandler(): vscode.ChatRequestHandler {
    return this.services.chatHandler;
  }

  get chatLinks(): ChatLinks {
    return this.links;
  }

  private update(): void {
    const on = this.enabled;
    if (on === this.active.length > 0) return;
    if (!on) return this.deactivate();
    const log = this.c.log('ai');
    const participant = createParticipant(this.chatHandler, this.c.context.extensionUri);
    const tools = registerKnowledgeTools((name) => this.services.tool(name));
    const mcp = registerMcpProvider(this.services.mcpDeps(this.mcpChanged.event), (m) => log.warn(m));
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
}
