// Polling the service for the Jobs view: the store of what it said, the backoff, and which jobs finished.
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { RareStatus } from '../../api/schemas/jobs';
import { toUserFacing } from '../../platform/errorMessages';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import type { Log } from '../../platform/logger';
import { anyActive } from './jobModel';
import { Poller, POLL_ACTIVE_MAX_MS, POLL_MAX_MS } from './jobPoller';
import { JobsStore } from './jobsStore';
import { JobTracker, type FinishedJob } from './jobTracker';

/** One poll as it ended: what the service said, and the jobs that finished since the poll before. */
export interface JobsPoll {
  rare: RareStatus | undefined;
  /** The poll's failure as a whole (undefined when it succeeded). */
  error: string | undefined;
  finished: FinishedJob[];
}

export interface MonitorDeps {
  client(): Promise<ApiClient>;
  connected(): boolean;
  /** The Jobs view is visible: polling goes on while it is, or while a job runs. */
  visible(): boolean;
  log: Log;
}

export class JobsMonitor extends Disposable {
  readonly store = new JobsStore((error) => toUserFacing(error).message);
  readonly poller: Poller;
  private tracker = new JobTracker();
  private readonly polled = this._register(new vscode.EventEmitter<JobsPoll>());
  /** Fired after each poll (the view redraws, finished jobs are notified). */
  readonly onDidPoll = this.polled.event;

  constructor(private readonly deps: MonitorDeps) {
    super();
    this.poller = new Poller({
      tick: () => this.tick(),
      shouldPoll: () => this.shouldPoll(),
      maxMs: () => (this.active ? POLL_ACTIVE_MAX_MS : POLL_MAX_MS),
    });
    this._register(toDisposable(() => this.poller.dispose()));
  }

  /** Something runs: a RARE job or a bulk run queued or running, or a job just started and not seen yet. */
  get active(): boolean {
    return anyActive(this.store.rareError ? undefined : this.store.rare, this.store.bulk) || this.tracker.expecting;
  }

  shouldPoll(): boolean {
    return this.deps.connected() && (this.deps.visible() || this.active);
  }

  /** Another service (or none): forget what the previous one said. */
  reset(): void {
    this.store.reset();
    this.tracker = new JobTracker();
  }

  /** Follows a job the user just started and polls soon. */
  expectRare(job: 'build' | 'generate', current?: RareStatus): void {
    this.tracker.expectRare(job, current);
  }

  expectBulk(id: string): void {
    this.tracker.expectBulk(id);
  }

  /** One poll: fetch everything, then report what finished. Resolves true when the state changed. */
  private async tick(): Promise<boolean> {
    const before = this.store.stateSignature();
    let error: string | undefined;
    try {
      await this.store.refresh(await this.deps.client());
    } catch (e) {
      error = toUserFacing(e).message;
      this.store.fail(e);
    }
    for (const e of [this.store.rareError, this.store.rareResultsError, this.store.bulkError]) if (e) this.deps.log.debug(`poll: ${e}`);
    const finished = this.tracker.update({
      rare: this.store.rareError ? undefined : this.store.rare,
      bulk: this.store.bulkError ? undefined : this.store.bulk,
    });
    if (finished.some((f) => f.kind === 'rare' && f.job === 'generate')) {
      // The new result may be listed a moment after the status says completed.
      const client = await this.deps.client().catch(() => undefined);
      if (client) await this.store.fetchRareResults(client);
    }
    this.polled.fire({ rare: this.store.rare, error, finished });
    return this.store.stateSignature() !== before;
  }
}
