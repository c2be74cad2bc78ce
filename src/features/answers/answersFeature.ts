import * as vscode from 'vscode';
import { kbNodeOf } from '../../platform/tree/kbNodeElement';
import type { Container } from '../../container';
import type { ApiClient } from '../../api/client';
import { PinnedClients } from '../../platform/connection/pinnedClients';
import { Disposable } from '../../platform/lifecycle';
import type { PanelBasics } from '../../platform/webview/panelErrors';
import { SECTION, SettingKeys } from '../../platform/settings';
import { createPanel, registerPanelSerializer } from '../../platform/webview/panelRegistration';
import { PanelRegistry } from '../../platform/webview/panelRegistry';
import { pickFolder } from '../../platform/pickers/folderPicker';
import { selectionQuestion } from './chat/answerRequest';
import { CHAT_VIEW_TYPE, lazy } from './lazyModules';
import type { ChatContext } from './chat/chatContext';
import type { ChatPanel } from './chat/chatPanel';
import type { ConversationStore } from './chat/conversationStore';
import type { ChatState, Conversation, ScopeItem } from './chat/protocol';

import { CommandIds } from '../../platform/commandIds';

/**
 * Generative answers: the "Ask Knowledge Desk" chat panels, their commands and their serializer. One panel per
 * connection, as analytics: a panel asks the connection it was opened with, with that connection's client,
 * identity and conversations, and keeps doing so after a switch (issue 27); Ask Knowledge Desk then opens or
 * reveals the panel of the newly active connection. One panel retargeted at each switch would put one project's
 * conversation and thread in front of another project, the mix-up pinning exists to prevent.
 */
export class AnswersFeature extends Disposable {
  /** Conversations per connection: their threads, citations and scope folders are that project's. */
  private readonly stores = new Map<string, ConversationStore>();
  private readonly panels = new PanelRegistry<ChatPanel>();
  private readonly basics: PanelBasics;
  private readonly pinned: PinnedClients;
  /** The last Markdown export (tests). */
  lastExport: vscode.TextDocument | undefined;

  constructor(private readonly c: Container) {
    super();
    const log = c.log('chat');
    this.basics = c.panelBasics('chat');
    this.pinned = new PinnedClients(c.connection, c.secrets, c.logger);
    this._register(this.panels);
    this._register(
      registerPanelSerializer(
        CHAT_VIEW_TYPE,
        () => lazy.protocol().chatStateSchema,
        log,
        (panel, state) => void this.restore(panel, state),
      ),
    );
    const identityChanged = () => this.panels.values().forEach((p) => p.updateIdentity());
    this._register(c.settings.onDidChange((e) => e.affectsConfiguration(`${SECTION}.${SettingKeys.ownUserId}`) && identityChanged()));
    // A switch, a rename, an identity of its own, or the removal of a panel's connection: its title says so.
    const changed = c.connection.store.onDidChange(() => (this.panels.values().forEach((p) => p.updateTitle()), identityChanged()));
    this._register({ dispose: () => changed.dispose() });
    const ids = CommandIds.answers;
    this._register(
      c.commands({
        [ids.ask]: (question?: unknown) => this.askCommand(question),
        [ids.askSelection]: () => this.askSelection(),
        [ids.askAboutFolderOrDocument]: (element?: unknown) => this.askAboutFolderOrDocument(element),
        [ids.newChat]: () => this.newChat(),
        [ids.exportChat]: () => this.exportChat(),
      }),
    );
  }

  /** The active connection's conversations of this workspace; read from workspace state on first use. */
  get store(): ConversationStore {
    return this.storeOf(this.c.connection.active.id);
  }

  private storeOf(connectionId: string): ConversationStore {
    let store = this.stores.get(connectionId);
    if (!store) {
      const { ConversationStore, STORE_KEY } = lazy.store();
      // Before connections the chat had one project, the region's, which became the active connection: the first
      // connection to open its chat after the upgrade takes those conversations over.
      store = new ConversationStore(this.c.context.workspaceState, {
        key: `${STORE_KEY}/${connectionId}`,
        legacyKey: STORE_KEY,
        onProblem: (m) => this.c.log('chat').warn(m),
      });
      this.stores.set(connectionId, store);
    }
    return store;
  }

  /** The active connection's chat panel, if open. */
  get current(): ChatPanel | undefined {
    return this.panelOf(this.c.connection.active.id);
  }

  /** The chat panel pinned to a connection, if open (the active one's, or one that stayed on its own). */
  panelOf(connectionId: string): ChatPanel | undefined {
    return this.panels.get(connectionId);
  }

  /**
   * The chat panel in front (the active webview panel), whichever connection it asks, else the active connection's:
   * New Chat and Export Chat from the palette act on the chat the person is looking at.
   */
  private get inFront(): ChatPanel | undefined {
    return [...this.panels.values()].find((p) => !p.isDisposed && p.panel.active) ?? this.current;
  }

  /** Reveals the active connection's panel, or opens it on its current conversation. */
  show(): ChatPanel {
    return (
      this.panels.reveal(this.c.connection.active.id) ??
      this.adopt(createPanel(CHAT_VIEW_TYPE, vscode.l10n.t('Ask Knowledge Desk'), this.c.context.extensionUri))
    );
  }

  /**
   * Serializer: the panel VS Code restored after a restart, on the connection and conversation it showed (the
   * active connection for a panel saved before connections). A connection removed since: its title says so.
   */
  restore(panel: vscode.WebviewPanel, state: ChatState | undefined): ChatPanel {
    const open = this.panels.get(state?.connection?.id ?? this.c.connection.active.id);
    if (open) {
      panel.dispose();
      open.reveal();
      return open;
    }
    const store = this.storeOf(state?.connection?.id ?? this.c.connection.active.id);
    if (state?.conversationId && !store.select(state.conversationId)) {
      // The conversation is gone (another workspace, or history trimmed): start one with the page's options.
      store.create(state.options ?? store.current().options);
    }
    return this.adopt(panel, state?.connection);
  }

  private adopt(panel: vscode.WebviewPanel, to?: { id: string; name: string }): ChatPanel {
    const c = this.c;
    const pin = this.pinned.panel(this.basics.connectionLabel, to);
    const connection = () => c.connection.store.get(pin.id);
    const ctx: ChatContext = {
      ...this.basics,
      connectionLabel: pin.connectionLabel,
      store: this.storeOf(pin.id),
      client: () => pin.client(),
      connection: () => ({ id: pin.id, name: pin.name() }),
      gone: () =>
        connection()
          ? undefined
          : vscode.l10n.t(
              'The connection "{0}" this chat asks was removed, so your question was not sent; it is back in the box. Close this chat and run "{1}" to ask the active connection.',
              pin.name(),
              vscode.l10n.t('Knowledge Desk: Ask Knowledge Desk…'),
            ),
      // Its connection's own user id, else the setting: what its client sends.
      ownUserIdSet: () => !!c.connection.identityOf(connection() ?? c.connection.active).ownUserId,
      logRawStream: () => c.settings.get<boolean>(SettingKeys.logRawStream, false),
      allowRemoteImages: () => c.settings.get<boolean>(SettingKeys.allowRemoteImages, false),
      pickScope: () => this.pickScope(ctx.client),
      exportConversation: (conversation) => this.exportConversation(conversation),
    };
    const p = new (lazy.panel().ChatPanel)(panel, ctx);
    return this.panels.add(pin.id, p);
  }

  private askCommand(question: unknown): ChatPanel {
    const p = this.show();
    if (typeof question === 'string' && question.trim()) void p.ask(question);
    return p;
  }

  private async askSelection(): Promise<ChatPanel | undefined> {
    const editor = vscode.window.activeTextEditor;
    const text = editor?.selections
      .filter((s) => !s.isEmpty)
      .map((s) => editor.document.getText(s))
      .join('\n\n');
    const question = editor && text ? selectionQuestion(text, editor.document.languageId) : undefined;
    if (!question) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Select some text in an editor to ask Knowledge Desk about it.'));
      return undefined;
    }
    const p = this.show();
    void p.ask(question);
    return p;
  }

  /** From the Knowledge Base tree (`{ kind: 'node', node }`), or with a folder picked now. */
  private async askAboutFolderOrDocument(element: unknown): Promise<ChatPanel | undefined> {
    const node = kbNodeOf(element);
    let scope: ScopeItem | null | undefined = node
      ? { id: node.id, name: node.name, kind: node.nodeType === 'file' ? 'document' : 'folder' }
      : undefined;
    if (!scope) scope = await this.pickScope();
    if (scope === undefined) return undefined;
    const p = this.show();
    p.setScope(scope ? [scope] : []);
    return p;
  }

  private newChat(): ChatPanel {
    const front = this.inFront;
    front?.reveal();
    const p = front ?? this.show();
    p.newChat();
    return p;
  }

  private async exportChat(): Promise<vscode.TextDocument | undefined> {
    const front = this.inFront;
    if (front) {
      await front.exportChat();
      return this.lastExport;
    }
    const conversation = this.store.current();
    if (!conversation.turns.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to export yet: ask Knowledge Desk a question first.'));
      return undefined;
    }
    await this.exportConversation(conversation);
    return this.lastExport;
  }

  private async exportConversation(conversation: Conversation): Promise<void> {
    const document = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: lazy.markdown().conversationToMarkdown(conversation),
    });
    this.lastExport = document;
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  }

  /** A folder of the project `client` reaches: a chat's own connection, or the active one. */
  private async pickScope(client: () => Promise<ApiClient> = () => this.c.connection.getClient()): Promise<ScopeItem | null | undefined> {
    const choice = await pickFolder(this.c.ui, await client(), {
      title: vscode.l10n.t('Ask Knowledge Desk About a Folder'),
      placeHolder: vscode.l10n.t('Answers use only the documents in this folder'),
    });
    if (!choice) return undefined;
    return choice.id === null ? null : { id: choice.id, name: choice.label, kind: 'folder' };
  }
}
