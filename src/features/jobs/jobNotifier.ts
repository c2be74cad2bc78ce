// The notification shown when a job the user started or saw running finishes.
import * as vscode from 'vscode';
import { toUserFacing } from '../../platform/errorMessages';
import { Disposable } from '../../platform/lifecycle';
import type { Log } from '../../platform/logger';
import type { BulkResult, RareResult } from '../../api/schemas/jobs';
import { bulkProgressText, generatedCountText } from './jobModel';
import { jobStateLabel } from './jobStatNames';
import type { JobsStore } from './jobsStore';
import type { FinishedJob } from './jobTracker';

export interface JobNotification {
  severity: 'info' | 'warning' | 'error';
  message: string;
  action?: string;
}

export interface NotifierDeps {
  store: JobsStore;
  log: Log;
  /** "Open Result" on a finished job's notification. */
  openRare(result: RareResult): unknown;
  openBulk(result: BulkResult): unknown;
}

export class JobNotifier extends Disposable {
  private readonly notified = this._register(new vscode.EventEmitter<JobNotification>());
  /** Each notification as it is shown. */
  readonly onDidNotify = this.notified.event;

  constructor(private readonly deps: NotifierDeps) {
    super();
  }

  notify(f: FinishedJob): void {
    const openResult = vscode.l10n.t('Open Result');
    if (f.kind === 'rare') {
      const build = f.job === 'build';
      const name = build ? vscode.l10n.t('Build') : vscode.l10n.t('Generate');
      if (f.outcome === 'completed') {
        if (build) return this.show({ severity: 'info', message: vscode.l10n.t('Build completed') });
        const newest = this.deps.store.newestRareResult();
        const count = generatedCountText(f.stats, newest);
        return this.show(
          {
            severity: 'info',
            message: count ? vscode.l10n.t('Generate completed — {0}', count) : vscode.l10n.t('Generate completed'),
            action: newest ? openResult : undefined,
          },
          () => (newest ? this.deps.openRare(newest) : undefined),
        );
      }
      if (f.outcome === 'failed')
        return this.show({
          severity: 'error',
          message: vscode.l10n.t('{0} failed: {1}', name, f.error || vscode.l10n.t('the service gave no reason')),
        });
      return this.show({ severity: 'warning', message: `${name} ${jobStateLabel(f.outcome)}` });
    }
    const b = f.result;
    if (f.outcome === 'completed') {
      const rows = b.processed ?? b.total;
      return this.show(
        {
          severity: 'info',
          message:
            rows === 1
              ? vscode.l10n.t('Bulk processing finished: {0} row', rows)
              : vscode.l10n.t('Bulk processing finished: {0} rows', rows ?? '?'),
          action: b.file_url ? openResult : undefined,
        },
        () => this.deps.openBulk(b),
      );
    }
    if (f.outcome === 'failed')
      return this.show({ severity: 'error', message: vscode.l10n.t('Bulk processing failed: {0}', f.error || bulkProgressText(b)) });
    return this.show({ severity: 'warning', message: vscode.l10n.t('Bulk processing {0}', jobStateLabel(f.outcome)) });
  }

  private show(n: JobNotification, onAction?: () => unknown): void {
    this.notified.fire(n);
    this.deps.log.info(`notify: ${n.message}`);
    const fn =
      n.severity === 'error'
        ? vscode.window.showErrorMessage
        : n.severity === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    void fn(n.message, ...(n.action ? [n.action] : [])).then(async (choice) => {
      if (!choice || !onAction) return;
      try {
        await onAction();
      } catch (error) {
        this.deps.log.error(error as Error);
        void vscode.window.showErrorMessage(toUserFacing(error).message);
      }
    });
  }
}
