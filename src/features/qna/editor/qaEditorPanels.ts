import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Container } from '../../../container';
import { PinnedClients } from '../../../platform/connection/pinnedClients';
import { Disposable } from '../../../platform/lifecycle';
import { pickHashtags } from '../../../platform/pickers/hashtagPicker';
import { SettingKeys } from '../../../platform/settings';
import { createPanel } from '../../../platform/webview/panelRegistration';
import { PanelRegistry } from '../../../platform/webview/panelRegistry';
import { QA_EDITOR_VIEW_TYPE, type QaDraft, type QaEditorState, type QaTarget } from './protocol';
import { QaEditorPanel, type EditorContext, type QaEditorTarget, type QaSaveEvent } from './qaEditorPanel';

/** All Q&A editors: one panel per Q&A id (revealed if open), any number of new ones. */
export class QaEditorPanels extends Disposable {
  private readonly registry = new PanelRegistry<QaEditorPanel>();
  private readonly saveEmitter = this._register(new vscode.EventEmitter<QaSaveEvent>());
  private readonly deleteEmitter = this._register(new vscode.EventEmitter<string>());
  /** A Q&A was created, changed, turned on/off or rated from an editor (the Q&A tree refreshes). */
  readonly onDidSave = this.saveEmitter.event;
  readonly onDidDelete = this.deleteEmitter.event;
  private readonly ctx: EditorContext;
  private readonly pinned: PinnedClients;
  /** The connection each editor was opened with (it keeps working on it after a switch). */
  private readonly connectionOf = new WeakMap<QaEditorPanel, string>();

  constructor(private readonly c: Container) {
    super();
    const basics = c.panelBasics('qaEditor');
    this.ctx = {
      ...basics,
      faq: async () => (await c.connection.getClient()).faq,
      confirm: async (message, action) => (await c.ui.showWarningMessage(message, { modal: true }, action)) === action,
      pickHashtags: async (current) =>
        pickHashtags(c.ui, await c.connection.getClient(), {
          title: vscode.l10n.t('Hashtags of the Q&A'),
          current,
          log: basics.log,
        }),
      allowRemoteImages: () => c.settings.get<boolean>(SettingKeys.allowRemoteImages, false),
      saved: (panel, e) => this.onSaved(panel, e),
      deleted: (_panel, id) => this.deleteEmitter.fire(id),
    };
    this.pinned = new PinnedClients(c.connection, c.secrets, c.logger);
    this._register({ dispose: () => this.registry.dispose() });
    // A rename, or the removal of an editor's connection: its title says so.
    const changed = c.connection.store.onDidChange(() => this.registry.values().forEach((p) => p.updateTitle()));
    this._register({ dispose: () => changed.dispose() });
  }

  /** Registry keys: a Q&A id is one project's, so the same id on two connections is two editors. */
  private keyOf(connectionId: string, id: string): string {
    return `${connectionId}/${id}`;
  }

  open(target: QaEditorTarget): QaEditorPanel {
    if (target.kind === 'existing') {
      const connectionId = target.connectionId ?? this.c.connection.active.id;
      return this.registry.revealOrCreate(this.keyOf(connectionId, target.id), () =>
        this.create(
          createPanel(QA_EDITOR_VIEW_TYPE, vscode.l10n.t('Q&A'), this.c.context.extensionUri),
          { kind: 'existing', id: target.id },
          undefined,
          connectionId,
        ),
      );
    }
    const key = randomUUID();
    const prefill = target.prefill ? { ...target.prefill } : undefined;
    return this.registry.add(
      `new:${key}`,
      this.create(createPanel(QA_EDITOR_VIEW_TYPE, vscode.l10n.t('New Q&A'), this.c.context.extensionUri), { kind: 'new', key }, prefill),
    );
  }

  /** The open editor of a Q&A, if any. */
  get(id: string): QaEditorPanel | undefined {
    return this.registry.get(this.keyOf(this.c.connection.active.id, id));
  }

  get panels(): QaEditorPanel[] {
    return this.registry.values();
  }

  /** Serializer: a panel VS Code restored, with the state the page saved (undefined: start blank). */
  restore(panel: vscode.WebviewPanel, state: QaEditorState | undefined): void {
    const target: QaTarget = state?.target ?? { kind: 'new', key: randomUUID() };
    // Back on the connection the page kept (issue 27), even one removed since: its title then says so.
    const pinned = state?.connection;
    const key = target.kind === 'existing' ? this.keyOf(pinned?.id ?? this.c.connection.active.id, target.id) : `new:${target.key}`;
    const open = this.registry.get(key);
    if (open) {
      panel.dispose();
      open.reveal();
      return;
    }
    this.registry.add(key, this.create(panel, target, undefined, pinned?.id, pinned?.name));
  }

  /** `connectionId`: the connection its caller is pinned to (it may have been removed since); else the active one. */
  private create(
    panel: vscode.WebviewPanel,
    target: QaTarget,
    prefill?: Partial<QaDraft>,
    connectionId?: string,
    connectionName?: string,
  ): QaEditorPanel {
    const store = this.c.connection.store;
    const id = connectionId ?? this.pinned.pin().id;
    let name = store.get(id)?.name ?? connectionName ?? id;
    const client = () => this.pinned.clientFor(id, name);
    const ctx: EditorContext = {
      ...this.ctx,
      faq: async () => (await client()).faq,
      pickHashtags: async (current) =>
        pickHashtags(this.c.ui, await client(), { title: vscode.l10n.t('Hashtags of the Q&A'), current, log: this.ctx.log }),
      connectionLabel: () => {
        const now = store.get(id);
        if (!now) return vscode.l10n.t('{0} (removed)', name);
        name = now.name;
        // As every panel: named once the user has connections of their own, and always when it is not the active one.
        return this.ctx.connectionLabel?.() !== undefined || id !== this.c.connection.active.id ? name : undefined;
      },
      connection: () => ({ id, name: (store.get(id)?.name ?? name).slice(0, 80) }),
    };
    const editor = new QaEditorPanel(panel, ctx, target, prefill);
    this.connectionOf.set(editor, id);
    return editor;
  }

  private onSaved(panel: QaEditorPanel, e: QaSaveEvent): void {
    if (e.change === 'created') {
      // "register" with an existing question updates that Q&A: its open editor takes over.
      const key = this.keyOf(this.connectionOf.get(panel) ?? this.c.connection.active.id, e.id);
      const other = this.registry.get(key);
      if (other && other !== panel) {
        void other.load();
        other.reveal();
        setTimeout(() => panel.dispose(), 0);
      } else {
        this.registry.rekey(panel, key);
      }
    }
    this.saveEmitter.fire(e);
  }
}
