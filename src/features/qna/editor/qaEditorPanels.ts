import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Container } from '../../../container';
import { Disposable } from '../../../platform/lifecycle';
import { pickHashtags } from '../../../platform/pickers/hashtagPicker';
import { SettingKeys } from '../../../platform/settings';
import { createPanel, PanelRegistry } from '../../../platform/webview/webviewPanel';
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
    this._register({ dispose: () => this.registry.dispose() });
  }

  open(target: QaEditorTarget): QaEditorPanel {
    if (target.kind === 'existing') {
      return this.registry.revealOrCreate(target.id, () =>
        this.create(createPanel(QA_EDITOR_VIEW_TYPE, vscode.l10n.t('Q&A'), this.c.context.extensionUri), {
          kind: 'existing',
          id: target.id,
        }),
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
    return this.registry.get(id);
  }

  get panels(): QaEditorPanel[] {
    return this.registry.values();
  }

  /** Serializer: a panel VS Code restored, with the state the page saved (undefined: start blank). */
  restore(panel: vscode.WebviewPanel, state: QaEditorState | undefined): void {
    const target: QaTarget = state?.target ?? { kind: 'new', key: randomUUID() };
    const key = target.kind === 'existing' ? target.id : `new:${target.key}`;
    const open = this.registry.get(key);
    if (open) {
      panel.dispose();
      open.reveal();
      return;
    }
    this.registry.add(key, this.create(panel, target));
  }

  private create(panel: vscode.WebviewPanel, target: QaTarget, prefill?: Partial<QaDraft>): QaEditorPanel {
    return new QaEditorPanel(panel, this.ctx, target, prefill);
  }

  private onSaved(panel: QaEditorPanel, e: QaSaveEvent): void {
    if (e.change === 'created') {
      // "register" with an existing question updates that Q&A: its open editor takes over.
      const other = this.registry.get(e.id);
      if (other && other !== panel) {
        void other.load();
        other.reveal();
        setTimeout(() => panel.dispose(), 0);
      } else {
        this.registry.rekey(panel, e.id);
      }
    }
    this.saveEmitter.fire(e);
  }
}
