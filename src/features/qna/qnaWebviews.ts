import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { SECTION, SettingKeys } from '../../platform/settings';
import { lazyPanels, type LazyPanelHost } from '../../platform/webview/lazyPanelHost';
import type * as AnalyticsPanelModule from './analytics/analyticsPanel';
import type { AnalyticsPanels } from './analytics/analyticsPanel';
import type * as AnalyticsProtocol from './analytics/protocol';
import type * as EditorProtocol from './editor/protocol';
import type * as EditorPanelModule from './editor/qaEditorPanels';
import type { QaSaveEvent } from './editor/qaEditorPanel';
import type { QaEditorPanels } from './editor/qaEditorPanels';
import type { QaEditorOpener } from './qnaFeature';

// The panels and their protocols (zod schemas) load when a panel is first needed (a command, a restored
// panel), not at activation: building the schemas costs activation time.
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not at activation */
const lazy = {
  editor: (): typeof EditorPanelModule => require('./editor/qaEditorPanels'),
  editorProtocol: (): typeof EditorProtocol => require('./editor/protocol'),
  analytics: (): typeof AnalyticsPanelModule => require('./analytics/analyticsPanel'),
  analyticsProtocol: (): typeof AnalyticsProtocol => require('./analytics/protocol'),
};
/* eslint-enable @typescript-eslint/no-require-imports */
const QA_EDITOR_VIEW_TYPE: typeof EditorProtocol.QA_EDITOR_VIEW_TYPE = 'knowledgeDesk.qaEditor';
const ANALYTICS_VIEW_TYPE: typeof AnalyticsProtocol.ANALYTICS_VIEW_TYPE = 'knowledgeDesk.analytics';
import { CommandIds } from '../../platform/commandIds';

/** The Q&A webviews: editor panels and the analytics panel, their commands and serializers. */
export class QnaWebviews extends Disposable {
  private readonly editors: LazyPanelHost<typeof EditorProtocol.qaEditorStateSchema, QaEditorPanels>;
  private readonly analyticsHost: LazyPanelHost<typeof AnalyticsProtocol.analyticsStateSchema, AnalyticsPanels>;
  private readonly saved = this._register(new vscode.EventEmitter<QaSaveEvent>());
  /** What the Q&A views need from the editor, without loading it. */
  readonly opener: QaEditorOpener = { open: (target) => this.editor.open(target), onDidSave: this.saved.event };

  constructor(private readonly c: Container) {
    super();
    const panels = lazyPanels(c.log('webview'));
    this.editors = this._register(
      panels(
        QA_EDITOR_VIEW_TYPE,
        () => lazy.editorProtocol().qaEditorStateSchema,
        () => this.createEditors(),
      ),
    );
    this.analyticsHost = this._register(
      panels(
        ANALYTICS_VIEW_TYPE,
        () => lazy.analyticsProtocol().analyticsStateSchema,
        () => new (lazy.analytics().AnalyticsPanels)(this.c),
      ),
    );
    this._register(
      c.commands({
        [CommandIds.qna.new]: () => this.editor.open({ kind: 'new' }),
        [CommandIds.qna.open]: (arg?: unknown) => this.openCommand(c, arg),
        [CommandIds.qna.showAnalytics]: () => this.analytics.show(),
      }),
    );
    // Editors opened from now on follow the setting; open ones keep the policy they were rendered with.
    this._register(
      vscode.workspace.onDidChangeConfiguration(
        (e) =>
          e.affectsConfiguration(`${SECTION}.${SettingKeys.allowRemoteImages}`) &&
          c.log('webview').info('remote image setting changed: applies to Q&A editors opened from now on'),
      ),
    );
  }

  /** The Q&A editor panels; built on first use. */
  get editor(): QaEditorPanels {
    return this.editors.get();
  }

  /** The analytics panel's host; built on first use. */
  get analytics(): AnalyticsPanels {
    return this.analyticsHost.get();
  }

  /** `knowledgeDesk.qna.open` with an id, `{ id, connectionId? }` (tree items, citations), or nothing (asks for an id). */
  private async openCommand(c: Container, arg: unknown): Promise<unknown> {
    let id =
      typeof arg === 'string'
        ? arg
        : typeof (arg as { id?: unknown } | undefined)?.id === 'string'
          ? (arg as { id: string }).id
          : undefined;
    if (id === undefined) {
      id = (
        await c.ui.showInputBox({
          title: vscode.l10n.t('Open Q&A'),
          prompt: vscode.l10n.t('The ID of the Q&A to open'),
          validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter an ID')),
        })
      )?.trim();
      if (!id) return undefined;
    }
    // A pinned caller's connection (a chat's Q&A citation, issue 27); the active one otherwise.
    const connectionId = (arg as { connectionId?: unknown } | undefined)?.connectionId;
    return this.editor.open({ kind: 'existing', id, ...(typeof connectionId === 'string' && connectionId ? { connectionId } : {}) });
  }

  private createEditors(): QaEditorPanels {
    const panels = new (lazy.editor().QaEditorPanels)(this.c);
    this._register(panels.onDidSave((e) => this.saved.fire(e)));
    return panels;
  }
}
