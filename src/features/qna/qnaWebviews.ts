import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { SECTION, SettingKeys } from '../../platform/settings';
import { registerPanelSerializer } from '../../platform/webview/webviewPanel';
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
  private editorPanels: QaEditorPanels | undefined;
  private analyticsPanels: AnalyticsPanels | undefined;
  private readonly saved = this._register(new vscode.EventEmitter<QaSaveEvent>());
  /** What the Q&A views need from the editor, without loading it. */
  readonly opener: QaEditorOpener = { open: (target) => this.editor.open(target), onDidSave: this.saved.event };

  constructor(private readonly c: Container) {
    super();
    this._register({
      dispose: () => {
        this.editorPanels?.dispose();
        this.analyticsPanels?.dispose();
      },
    });
    const log = c.log('webview');
    this._register(
      registerPanelSerializer(
        QA_EDITOR_VIEW_TYPE,
        () => lazy.editorProtocol().qaEditorStateSchema,
        log,
        (panel, state) => this.editor.restore(panel, state),
      ),
    );
    this._register(
      registerPanelSerializer(
        ANALYTICS_VIEW_TYPE,
        () => lazy.analyticsProtocol().analyticsStateSchema,
        log,
        (panel) => this.analytics.restore(panel),
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
          log.info('remote image setting changed: applies to Q&A editors opened from now on'),
      ),
    );
  }

  /** The Q&A editor panels; built on first use. */
  get editor(): QaEditorPanels {
    if (!this.editorPanels) {
      this.editorPanels = new (lazy.editor().QaEditorPanels)(this.c);
      this._register(this.editorPanels.onDidSave((e) => this.saved.fire(e)));
    }
    return this.editorPanels;
  }

  /** The analytics panel's host; built on first use. */
  get analytics(): AnalyticsPanels {
    return (this.analyticsPanels ??= new (lazy.analytics().AnalyticsPanels)(this.c));
  }

  /** `knowledgeDesk.qna.open` with an id, `{ id }` (tree items), or nothing (asks for an id). */
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
          title: 'Open Q&A',
          prompt: 'The ID of the Q&A to open',
          validateInput: (v) => (v.trim() ? undefined : 'Enter an ID'),
        })
      )?.trim();
      if (!id) return undefined;
    }
    return this.editor.open({ kind: 'existing', id });
  }
}
