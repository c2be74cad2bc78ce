import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { registerPanelSerializer } from '../../platform/webview/webviewPanel';
import { AnalyticsPanels } from './analytics/analyticsPanel';
import { ANALYTICS_VIEW_TYPE, analyticsStateSchema } from './analytics/protocol';
import { QA_EDITOR_VIEW_TYPE, qaEditorStateSchema } from './editor/protocol';
import { SECTION, SettingKeys } from '../../platform/settings';
import { QaEditorPanels } from './editor/qaEditorPanel';
import { CommandIds } from '../../platform/commandIds';

/** The Q&A webviews: editor panels and the analytics panel, their commands and serializers. */
export class QnaWebviews extends Disposable {
  readonly editor: QaEditorPanels;
  readonly analytics: AnalyticsPanels;

  constructor(c: Container) {
    super();
    this.editor = this._register(new QaEditorPanels(c));
    this.analytics = this._register(new AnalyticsPanels(c));
    const log = c.log('webview');
    this._register(
      registerPanelSerializer(QA_EDITOR_VIEW_TYPE, qaEditorStateSchema, log, (panel, state) => this.editor.restore(panel, state)),
    );
    this._register(registerPanelSerializer(ANALYTICS_VIEW_TYPE, analyticsStateSchema, log, (panel) => this.analytics.restore(panel)));
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
