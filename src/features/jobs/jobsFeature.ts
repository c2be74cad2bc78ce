import * as vscode from 'vscode';
import type { Container } from '../../container';
import { toUserFacing } from '../../platform/errorMessages';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import type { Log } from '../../platform/logger';
import type { RareStatus } from '../../api/schemas/jobs';
import { anyActive, bulkProgressText, generatedCountText, isActiveState, jobStateLabel, rareJobState, statusBarText } from './jobModel';
import { Poller, POLL_ACTIVE_MAX_MS, POLL_MAX_MS } from './jobPoller';
import { JobsCommands, type JobsHost } from './jobsCommands';
import { JobsStore } from './jobsStore';
import { ResultDocuments } from './resultDocuments';
import { JobTracker, type FinishedJob } from './jobTracker';
import { JOBS_VIEW, JobsTreeProvider, type BulkResultElement, type JobsElement, type RareResultElement } from './jobsTree';
import { CommandIds } from '../../platform/commandIds';
import { noteUseWhenVisible } from '../../platform/usage';
import { ProbeKeys } from '../../platform/testProbe';

export interface JobNotification {
  severity: 'info' | 'warning' | 'error';
  message: string;
  action?: string;
}

/**
 * The Jobs view: answer-generation (RARE) build and generate with live status, bulk processing runs
 * and their results. Polls while the view is visible or a job runs, with backoff; a status-bar item
 * shows running jobs; a notification says when a job the user started or saw running finishes.
 */
export class JobsFeature extends Disposable implements JobsHost {
  readonly store: JobsStore;
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<JobsElement>;
  readonly poller: Poller;
  readonly statusBar: vscode.StatusBarItem;
  readonly commands: JobsCommands;
  readonly resultDocuments: ResultDocuments;
  tracker = new JobTracker();
  /** The status-bar text now; undefined while the item is hidden. */
  statusBarText: string | undefined;
  /** The last error of a poll, if the last poll failed as a whole. */
  lastPollError: string | undefined;
  private lastContent = '';
  private readonly log: Log;

  constructor(private readonly c: Container) {
    super();
    this.log = c.log('jobs');
    this.store = new JobsStore((error) => toUserFacing(error).message);
    this.tree = this._register(new JobsTreeProvider(this.store));
    this.view = this._register(vscode.window.createTreeView(JOBS_VIEW, { treeDataProvider: connectedOnly(this.tree, c.connection) }));
    this._register(noteUseWhenVisible(JOBS_VIEW, this.view));
    this.poller = new Poller({
      tick: () => this.tick(),
      shouldPoll: () => this.shouldPoll(),
      maxMs: () => (this.active ? POLL_ACTIVE_MAX_MS : POLL_MAX_MS),
    });
    this._register(toDisposable(() => this.poller.dispose()));
    this.statusBar = this._register(vscode.window.createStatusBarItem('knowledgeDesk.jobs', vscode.StatusBarAlignment.Left, 49));
    this.statusBar.name = vscode.l10n.t('Knowledge Desk Jobs');
    this.statusBar.command = `${JOBS_VIEW}.focus`;
    this.resultDocuments = this._register(new ResultDocuments());
    this.commands = new JobsCommands(c, this);
    this._register(this.view.onDidChangeVisibility((e) => (e.visible ? void this.poller.pollNow() : this.poller.update())));
    this._register(c.connection.onDidChangeClient(() => this.onClientChanged()));
    this.registerCommands();
    if (this.connected) void this.poller.pollNow();
  }

  /** The wait before the next poll (ms), or undefined when polling has stopped. */
  get pollInterval(): number | undefined {
    return this.poller.interval;
  }

  get pollCount(): number {
    return this.poller.polls;
  }

  /** The RARE status of the last successful poll. */
  get lastStatus(): RareStatus | undefined {
    return this.store.rare;
  }

  get connected(): boolean {
    return this.c.connection.status.state === 'connected';
  }

  /** Something runs: a RARE job or a bulk run queued or running, or a job just started and not seen yet. */
  get active(): boolean {
    return anyActive(this.store.rareError ? undefined : this.store.rare, this.store.bulk) || this.tracker.expecting;
  }

  shouldPoll(): boolean {
    return this.connected && (this.view.visible || this.active);
  }

  private registerCommands(): void {
    const k = this.commands;
    const ids = CommandIds.jobs;
    this._register(
      this.c.commands({
        [ids.refresh]: () => this.refresh(),
        [ids.startBuild]: () => k.startBuild(),
        [ids.startGenerate]: () => k.startGenerate(),
        [ids.cancel]: () => k.cancel(),
        [ids.openResult]: (e?: JobsElement) => k.openResult(e),
        [ids.saveResult]: (e?: JobsElement, target?: vscode.Uri) => k.saveResult(e, target),
        [ids.deleteResult]: (e?: JobsElement) => k.deleteResult(e),
        [ids.runBulk]: (clicked?: vscode.Uri, selected?: vscode.Uri[]) => k.runBulk(clicked, selected),
        [ids.loadMoreBulk]: () => k.loadMoreBulk(),
      }),
    );
  }

  /** Refresh: every loaded page again, with the view's progress bar; the backoff starts over. */
  async refresh(): Promise<void> {
    await vscode.window.withProgress({ location: { viewId: JOBS_VIEW } }, () => this.poller.pollNow());
  }

  private onClientChanged(): void {
    this.store.reset();
    this.tracker = new JobTracker();
    this.lastContent = '';
    this.render();
    if (this.connected) void this.poller.pollNow();
    else this.poller.update();
  }

  /** One poll: fetch everything, redraw if anything changed, report finished jobs. */
  private async tick(): Promise<boolean> {
    const before = this.store.stateSignature();
    try {
      const client = await this.c.connection.getClient();
      await this.store.refresh(client);
      this.lastPollError = undefined;
    } catch (error) {
      this.lastPollError = toUserFacing(error).message;
      this.store.fail(error);
    }
    for (const e of [this.store.rareError, this.store.rareResultsError, this.store.bulkError]) if (e) this.log.debug(`poll: ${e}`);
    const finished = this.tracker.update({
      rare: this.store.rareError ? undefined : this.store.rare,
      bulk: this.store.bulkError ? undefined : this.store.bulk,
    });
    if (finished.some((f) => f.kind === 'rare' && f.job === 'generate')) {
      // The new result may be listed a moment after the status says completed.
      const client = await this.c.connection.getClient().catch(() => undefined);
      if (client) await this.store.fetchRareResults(client);
    }
    this.render();
    for (const f of finished) this.notify(f);
    return this.store.stateSignature() !== before;
  }

  /** Redraws the tree (when its content changed), the status bar and the view badge. */
  render(): void {
    const content = this.store.contentSignature();
    if (content !== this.lastContent) {
      this.lastContent = content;
      this.tree.fire();
    }
    const text = this.connected ? statusBarText(this.store.rareError ? undefined : this.store.rare, this.store.bulk) : undefined;
    if (text) {
      this.statusBar.text = text;
      this.statusBar.tooltip = vscode.l10n.t('Knowledge Desk jobs are running. Click to open the Jobs view.');
      this.statusBar.accessibilityInformation = { label: text.replace(/^\$\([^)]*\)\s*/, '') };
      this.statusBar.show();
      if (this.c.probe && this.c.probe.statusBar.last !== text) this.c.probe.statusBar.push(text);
    } else this.statusBar.hide();
    this.statusBarText = text;
    const rare = this.store.rareError ? undefined : this.store.rare;
    const running =
      this.store.bulk.filter((b) => isActiveState(b.status)).length +
      (['build', 'generate'] as const).filter((j) => isActiveState(rareJobState(rare, j))).length;
    this.view.badge = running
      ? { value: running, tooltip: running === 1 ? vscode.l10n.t('{0} job running', running) : vscode.l10n.t('{0} jobs running', running) }
      : undefined;
  }

  /** Follows a job the user just started and polls soon. */
  expectRare(job: 'build' | 'generate', current?: RareStatus): void {
    this.tracker.expectRare(job, current);
  }

  expectBulk(id: string): void {
    this.tracker.expectBulk(id);
  }

  private notify(f: FinishedJob): void {
    const openResult = vscode.l10n.t('Open Result');
    if (f.kind === 'rare') {
      const build = f.job === 'build';
      const name = build ? vscode.l10n.t('Build') : vscode.l10n.t('Generate');
      if (f.outcome === 'completed') {
        if (build) return this.show({ severity: 'info', message: vscode.l10n.t('Build completed') });
        const newest = this.store.newestRareResult();
        const count = generatedCountText(f.stats, newest);
        return this.show(
          {
            severity: 'info',
            message: count ? vscode.l10n.t('Generate completed — {0}', count) : vscode.l10n.t('Generate completed'),
            action: newest ? openResult : undefined,
          },
          () => (newest ? this.commands.openResult(this.tree.rareResult(newest) as RareResultElement) : undefined),
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
        () => this.commands.openResult(this.tree.bulkResult(b) as BulkResultElement),
      );
    }
    if (f.outcome === 'failed')
      return this.show({ severity: 'error', message: vscode.l10n.t('Bulk processing failed: {0}', f.error || bulkProgressText(b)) });
    return this.show({ severity: 'warning', message: vscode.l10n.t('Bulk processing {0}', jobStateLabel(f.outcome)) });
  }

  private show(n: JobNotification, onAction?: () => unknown): void {
    this.c.probe?.record(this, ProbeKeys.jobNotifications, n);
    this.log.info(`notify: ${n.message}`);
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
        this.log.error(error as Error);
        void vscode.window.showErrorMessage(toUserFacing(error).message);
      }
    });
  }
}
