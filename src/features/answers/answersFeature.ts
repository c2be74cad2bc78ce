import * as vscode from 'vscode';
import { kbNodeOf } from '../../platform/tree/kbNodeElement';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { SECTION, SettingKeys } from '../../platform/settings';
import { createPanel, registerPanelSerializer } from '../../platform/webview/webviewPanel';
import { pickFolder } from '../../platform/pickers/folderPicker';
import { selectionQuestion } from './chat/answerRequest';
import { CHAT_VIEW_TYPE, lazy } from './lazyModules';
import type { ChatContext, ChatPanel } from './chat/chatPanel';
import type { ConversationStore } from './chat/conversationStore';
import type { ChatState, Conversation, ScopeItem } from './chat/protocol';

import { CommandIds } from '../../platform/commandIds';

/** Generative answers: the "Ask Knowledge Desk" chat panel, its commands and its serializer. */
export class AnswersFeature extends Disposable {
  private conversations: ConversationStore | undefined;
  private panel: ChatPanel | undefined;
  private readonly ctx: ChatContext;
  /** The last Markdown export (tests). */
  lastExport: vscode.TextDocument | undefined;

  constructor(private readonly c: Container) {
    super();
    const log = c.log('chat');
    // The store is read from workspace state on first use: the context hands it out through a getter.
    const store = (): ConversationStore => this.store;
    this.ctx = {
      ...c.panelBasics('chat'),
      get store() {
        return store();
      },
      client: () => c.connection.getClient(),
      ownUserIdSet: () => !!c.settings.identity.ownUserId,
      logRawStream: () => c.settings.get<boolean>(SettingKeys.logRawStream, false),
      allowRemoteImages: () => c.settings.get<boolean>(SettingKeys.allowRemoteImages, false),
      pickScope: () => this.pickScope(),
      exportConversation: (conversation) => this.exportConversation(conversation),
    };
    this._register({ dispose: () => this.panel?.dispose() });
    this._register(
      registerPanelSerializer(
        CHAT_VIEW_TYPE,
        () => lazy.protocol().chatStateSchema,
        log,
        (panel, state) => void this.restore(panel, state),
      ),
    );
    this._register(
      c.settings.onDidChange((e) => e.affectsConfiguration(`${SECTION}.${SettingKeys.ownUserId}`) && this.panel?.updateIdentity()),
    );
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

  /** Conversations of this workspace; read from workspace state on first use. */
  get store(): ConversationStore {
    return (this.conversations ??= new (lazy.store().ConversationStore)(this.c.context.workspaceState, {
      onProblem: (m) => this.c.log('chat').warn(m),
    }));
  }

  /** The open chat panel, if any. */
  get current(): ChatPanel | undefined {
    return this.panel;
  }

  /** Reveals the panel, or opens it on the current conversation. */
  show(): ChatPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    return this.adopt(createPanel(CHAT_VIEW_TYPE, vscode.l10n.t('Ask Knowledge Desk'), this.c.context.extensionUri));
  }

  /** Serializer: the panel VS Code restored after a restart, on the conversation it showed. */
  restore(panel: vscode.WebviewPanel, state: ChatState | undefined): ChatPanel {
    if (this.panel) {
      panel.dispose();
      this.panel.reveal();
      return this.panel;
    }
    if (state?.conversationId && !this.store.select(state.conversationId)) {
      // The conversation is gone (another workspace, or history trimmed): start one with the page's options.
      this.store.create(state.options ?? this.store.current().options);
    }
    return this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): ChatPanel {
    const p = new (lazy.panel().ChatPanel)(panel, this.ctx);
    this.panel = p;
    p.onDidDispose(() => this.panel === p && (this.panel = undefined));
    return p;
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
    const p = this.show();
    p.newChat();
    return p;
  }

  private async exportChat(): Promise<vscode.TextDocument | undefined> {
    if (this.panel) {
      await this.panel.exportChat();
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

  private async pickScope(): Promise<ScopeItem | null | undefined> {
    const client = await this.c.connection.getClient();
    const choice = await pickFolder(this.c.ui, client, {
      title: vscode.l10n.t('Ask Knowledge Desk About a Folder'),
      placeHolder: vscode.l10n.t('Answers use only the documents in this folder'),
    });
    if (!choice) return undefined;
    return choice.id === null ? null : { id: choice.id, name: choice.label, kind: 'folder' };
  }
}
