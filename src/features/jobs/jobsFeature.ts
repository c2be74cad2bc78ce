import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import type { RareStatus } from '../../api/schemas/jobs';
import type { Poller } from './jobPoller';
import { JobNotifier } from './jobNotifier';
import type * as JobsCommandsModule from './jobsCommands';
import type { JobsCommands, JobsHost } from './jobsCommands';
import { JobsMonitor } from './jobsMonitor';
import { JobsStatusBar } from './jobsStatusBar';
import type { JobsStore } from './jobsStore';
import { ResultDocuments } from './resultDocuments';
import { JOBS_VIEW, JobsTreeProvider, type BulkResultElement, type JobsElement, type RareResultElement } from './jobsTree';
import { CommandIds } from '../../platform/commandIds';
import { noteUseWhenVisible } from '../../platform/usage';

// The commands (with the job prompts and the bulk CSV checks) load on the first command, not at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation
const jobsCommands = (): typeof JobsCommandsModule => require('./jobsCommands');

/**
 * The Jobs view: answer-generation (RARE) build and generate with live status, bulk processing runs and their
 * results. This class builds the parts and wires them: JobsMonitor polls (while the view is visible or a job
 * runs, with backoff), JobsStatusBar shows running jobs, JobNotifier says when a job the user started or saw
 * running finishes, JobsCommands are the view's commands.
 */
export class JobsFeature extends Disposable implements JobsHost {
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<JobsElement>;
  readonly monitor: JobsMonitor;
  readonly status: JobsStatusBar;
  readonly notifier: JobNotifier;
  private jobsCommands?: JobsCommands;
  readonly resultDocuments: ResultDocuments;
  private lastContent = '';

  constructor(private readonly c: Container) {
    super();
    const log = c.log('jobs');
    this.monitor = this._register(
      new JobsMonitor({ client: () => c.connection.getClient(), connected: () => this.connected, visible: () => this.view.visible, log }),
    );
    this.tree = this._register(new JobsTreeProvider(this.monitor.store));
    this.view = this._register(vscode.window.createTreeView(JOBS_VIEW, { treeDataProvider: connectedOnly(this.tree, c.connection) }));
    this._register(noteUseWhenVisible(JOBS_VIEW, this.view));
    this.status = this._register(new JobsStatusBar(this.view));
    this.resultDocuments = this._register(new ResultDocuments());
    this.notifier = this._register(
      new JobNotifier({
        store: this.store,
        log,
        openRare: (r) => this.commands.openResult(this.tree.rareResult(r) as RareResultElement),
        openBulk: (b) => this.commands.openResult(this.tree.bulkResult(b) as BulkResultElement),
      }),
    );
    this._register(
      this.monitor.onDidPoll(({ finished }) => {
        this.render();
        for (const f of finished) this.notifier.notify(f);
      }),
    );
    this._register(this.view.onDidChangeVisibility((e) => (e.visible ? void this.poller.pollNow() : this.poller.update())));
    this._register(c.connection.onDidChangeClient(() => this.onClientChanged()));
    this.registerCommands();
    if (this.connected) void this.poller.pollNow();
  }

  get commands(): JobsCommands {
    return (this.jobsCommands ??= new (jobsCommands().JobsCommands)(this.c, this));
  }

  get store(): JobsStore {
    return this.monitor.store;
  }

  get poller(): Poller {
    return this.monitor.poller;
  }

  get connected(): boolean {
    return this.c.connection.status.state === 'connected';
  }

  /** Something runs: a RARE job or a bulk run queued or running, or a job just started and not seen yet. */
  get active(): boolean {
    return this.monitor.active;
  }

  private registerCommands(): void {
    const k = (): JobsCommands => this.commands;
    const ids = CommandIds.jobs;
    this._register(
      this.c.commands({
        [ids.refresh]: () => this.refresh(),
        [ids.startBuild]: () => k().startBuild(),
        [ids.startGenerate]: () => k().startGenerate(),
        [ids.cancel]: () => k().cancel(),
        [ids.openResult]: (e?: JobsElement) => k().openResult(e),
        [ids.saveResult]: (e?: JobsElement, target?: vscode.Uri) => k().saveResult(e, target),
        [ids.deleteResult]: (e?: JobsElement) => k().deleteResult(e),
        [ids.runBulk]: (clicked?: vscode.Uri, selected?: vscode.Uri[]) => k().runBulk(clicked, selected),
        [ids.loadMoreBulk]: () => k().loadMoreBulk(),
      }),
    );
  }

  /** Refresh: every loaded page again, with the view's progress bar; the backoff starts over. */
  async refresh(): Promise<void> {
    await vscode.window.withProgress({ location: { viewId: JOBS_VIEW } }, () => this.poller.pollNow());
  }

  private onClientChanged(): void {
    this.monitor.reset();
    this.lastContent = '';
    this.render();
    if (this.connected) void this.poller.pollNow();
    else this.poller.update();
  }

  /** Redraws the tree (when its content changed), the status bar and the view badge. */
  render(): void {
    const content = this.store.contentSignature();
    if (content !== this.lastContent) {
      this.lastContent = content;
      this.tree.fire();
    }
    this.status.render(this.store, this.connected);
  }

  /** Follows a job the user just started and polls soon. */
  expectRare(job: 'build' | 'generate', current?: RareStatus): void {
    this.monitor.expectRare(job, current);
  }

  expectBulk(id: string): void {
    this.monitor.expectBulk(id);
  }
}
