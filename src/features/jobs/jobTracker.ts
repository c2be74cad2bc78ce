// Which jobs finished between two looks at the service (no vscode: unit-tested in plain Node).
import type { BulkResult, RareStatus } from '../../api/schemas/jobs';
import { isActiveState, isFinalState, rareJobError, rareJobState, rareProgress, rareStats, type RareJob } from './jobModel';

export type FinishedJob =
  | { kind: 'rare'; job: RareJob; outcome: string; error?: string; stats: Record<string, unknown> }
  | { kind: 'bulk'; outcome: string; error?: string; result: BulkResult };

/** What one poll saw; a part that could not be fetched is undefined and changes nothing. */
export interface JobSnapshot {
  rare?: RareStatus;
  bulk?: readonly BulkResult[];
}

interface Watch {
  /** The job was seen queued or running. */
  seenActive: boolean;
  /**
   * What the job looked like when the user started it (a final state equal to it is the old run);
   * null when that is unknown (then only a job seen running counts); undefined for new records.
   */
  startFingerprint?: string | null;
  /** When the watch began, or when a watched bulk result was last seen. */
  since: number;
}

/** How long a job the user started may take to show up as queued or running before it is forgotten. */
export const EXPECT_TIMEOUT_MS = 60_000;

/**
 * Follows jobs the user started and jobs seen running, and reports each one once when it reaches a
 * final state (completed, failed, cancelled). A job that finishes between two polls is still caught:
 * its record differs from what it was when the user started it.
 */
export class JobTracker {
  private readonly watches = new Map<string, Watch>();
  private last: { rare?: RareStatus; bulk: readonly BulkResult[] } = { bulk: [] };

  constructor(private readonly now: () => number = Date.now) {}

  /** Jobs being followed that have not been seen queued or running yet (they keep polling alive). */
  get expecting(): boolean {
    return [...this.watches.values()].some((w) => !w.seenActive);
  }

  get watchedKeys(): string[] {
    return [...this.watches.keys()];
  }

  /** The user started (or cancelled) a RARE job: follow it from `current`, its record just before. */
  expectRare(job: RareJob, current: RareStatus | undefined = this.last.rare): void {
    this.watches.set(job, { seenActive: false, startFingerprint: current ? rareFingerprint(current, job) : null, since: this.now() });
  }

  /** The user started a bulk run; the service answered with its id. */
  expectBulk(id: string): void {
    this.watches.set(`bulk:${id}`, { seenActive: false, since: this.now() });
  }

  update(snapshot: JobSnapshot): FinishedJob[] {
    const out: FinishedJob[] = [];
    if (snapshot.rare) {
      for (const job of ['build', 'generate'] as const) {
        const finished = this.step(job, rareJobState(snapshot.rare, job), rareFingerprint(snapshot.rare, job));
        if (finished)
          out.push({ kind: 'rare', job, outcome: finished, error: rareJobError(snapshot.rare, job), stats: rareStats(snapshot.rare, job) });
      }
      this.last.rare = snapshot.rare;
    }
    if (snapshot.bulk) {
      const seen = new Set<string>();
      for (const b of snapshot.bulk) {
        seen.add(`bulk:${b.id}`);
        const finished = this.step(`bulk:${b.id}`, b.status ?? 'unknown', JSON.stringify(b));
        if (finished) out.push({ kind: 'bulk', outcome: finished, error: b.error_message ?? undefined, result: b });
      }
      // A followed result missing from the loaded pages (deleted, or pushed to a later page) is forgotten after a while.
      for (const [key, w] of this.watches) {
        if (key.startsWith('bulk:') && !seen.has(key) && this.now() - w.since > EXPECT_TIMEOUT_MS) this.watches.delete(key);
      }
      this.last.bulk = snapshot.bulk;
    }
    return out;
  }

  /** One job's new state; returns the final state when the job just finished. */
  private step(key: string, state: string, fingerprint: string): string | undefined {
    const watch = this.watches.get(key);
    if (isActiveState(state)) {
      if (watch) {
        watch.seenActive = true;
        watch.since = this.now();
      } else this.watches.set(key, { seenActive: true, since: this.now() });
      return undefined;
    }
    if (!watch) return undefined;
    // Bulk runs are new records (any final state is theirs); a RARE record is reused, so a final state
    // counts once the job was seen running or the record changed since the user started it.
    if (isFinalState(state) && (watch.seenActive || (watch.startFingerprint !== null && fingerprint !== watch.startFingerprint))) {
      this.watches.delete(key);
      return state;
    }
    if (watch.seenActive || this.now() - watch.since > EXPECT_TIMEOUT_MS) this.watches.delete(key);
    return undefined;
  }
}

function rareFingerprint(status: RareStatus | undefined, job: RareJob): string {
  if (!status) return '';
  return JSON.stringify([
    rareJobState(status, job),
    status.build_run_id,
    status.job_type,
    status.error_message,
    rareProgress(status, job),
    rareStats(status, job),
  ]);
}
