// What the Jobs view shows outside its tree: the status-bar item while jobs run, and the view's badge.
import * as vscode from 'vscode';
import { Disposable } from '../../platform/lifecycle';
import { isActiveState, rareJobState, statusBarText } from './jobModel';
import type { JobsStore } from './jobsStore';
import { JOBS_VIEW, type JobsElement } from './jobsTree';

export class JobsStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly changed = this._register(new vscode.EventEmitter<string | undefined>());
  /** The status-bar text when it changes; undefined when the item is hidden. */
  readonly onDidChangeText = this.changed.event;
  private shown: string | undefined;

  constructor(private readonly view: vscode.TreeView<JobsElement>) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('knowledgeDesk.jobs', vscode.StatusBarAlignment.Left, 49));
    this.item.name = vscode.l10n.t('Knowledge Desk Jobs');
    this.item.command = `${JOBS_VIEW}.focus`;
  }

  /** The status-bar text now; undefined while the item is hidden. */
  get text(): string | undefined {
    return this.shown;
  }

  /** Shows what `store` says runs (nothing when not connected). */
  render(store: JobsStore, connected: boolean): void {
    const rare = store.rareError ? undefined : store.rare;
    const text = connected ? statusBarText(rare, store.bulk) : undefined;
    if (text) {
      this.item.text = text;
      this.item.tooltip = vscode.l10n.t('Knowledge Desk jobs are running. Click to open the Jobs view.');
      this.item.accessibilityInformation = { label: text.replace(/^\$\([^)]*\)\s*/, '') };
      this.item.show();
    } else this.item.hide();
    if (text !== this.shown) {
      this.shown = text;
      this.changed.fire(text);
    }
    const running =
      store.bulk.filter((b) => isActiveState(b.status)).length +
      (['build', 'generate'] as const).filter((j) => isActiveState(rareJobState(rare, j))).length;
    this.view.badge = running
      ? { value: running, tooltip: running === 1 ? vscode.l10n.t('{0} job running', running) : vscode.l10n.t('{0} jobs running', running) }
      : undefined;
  }
}
