import type { ApiClient } from '../client';
import { ApiConnectionError, ApiError, RateLimitError, RequestTimeoutError } from '../errors';
import type { UploadOptions } from '../resources/kbNodeParams';
import type { KbNode, UploadAction } from '../schemas/kbNodes';
import { sleep } from '../retry';
import { findUploaded } from './reconcile';
import type { UploadJob } from './uploadJob';

export type { UploadJob } from './uploadJob';

export type JobOutcome =
  | { status: 'done'; action: UploadAction; nodes: KbNode[]; reconciled?: boolean }
  | { status: 'failed'; message: string; retryable: boolean; error?: unknown }
  | { status: 'cancelled' };

export interface UploadProgress {
  total: number;
  finished: number;
  failed: number;
  bytesTotal: number;
  bytesDone: number;
  byAction: Record<UploadAction, number>;
  current?: string;
}

export interface RunOptions {
  concurrency: number;
  options: UploadOptions;
  signal?: AbortSignal;
  /** Attempts per job for transient failures (5xx, dropped connections, timeouts). Default 3. */
  attempts?: number;
  onProgress?: (progress: UploadProgress) => void;
  onOutcome?: (job: UploadJob, outcome: JobOutcome) => void;
  /** Backoff base between the runner's own attempts, ms (default 1000). */
  backoffMs?: number;
  /** Look for the document before the first send too (a "Retry Failed" of earlier failures). */
  reconcileFirst?: boolean;
}

/**
 * Uploads jobs with bounded concurrency. A failure that may have been applied by the service
 * (5xx, dropped connection, timeout) is reconciled before any resend: if the document is already
 * in the target folder it counts as uploaded, so a retry never creates a duplicate.
 */
export async function runUploads(client: ApiClient, jobs: UploadJob[], run: RunOptions): Promise<Map<string, JobOutcome>> {
  const outcomes = new Map<string, JobOutcome>();
  const progress: UploadProgress = {
    total: jobs.length,
    finished: 0,
    failed: 0,
    bytesTotal: jobs.reduce((n, j) => n + j.size, 0),
    bytesDone: 0,
    byAction: { created: 0, overwritten: 0, skipped: 0, suffix_added: 0 },
  };
  const queue = [...jobs];
  const settle = (job: UploadJob, outcome: JobOutcome): void => {
    outcomes.set(job.id, outcome);
    if (outcome.status !== 'cancelled') progress.finished++;
    if (outcome.status === 'failed') progress.failed++;
    if (outcome.status === 'done') {
      progress.byAction[outcome.action]++;
      progress.bytesDone += job.size;
    }
    run.onOutcome?.(job, outcome);
    run.onProgress?.({ ...progress, byAction: { ...progress.byAction } });
  };
  // Cancel empties the queue at once: no worker starts another job, whatever it is waiting for.
  const cancelQueued = (): void => {
    for (const job of queue.splice(0)) settle(job, { status: 'cancelled' });
  };
  if (run.signal?.aborted) cancelQueued();
  else run.signal?.addEventListener('abort', cancelQueued, { once: true });
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      run.onProgress?.({ ...progress, current: job.fileName });
      settle(job, await uploadOne(client, job, run));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(run.concurrency, jobs.length)) }, worker));
  } finally {
    run.signal?.removeEventListener('abort', cancelQueued);
  }
  return outcomes;
}

/**
 * One job's attempts. After a cancel nothing new is sent for it (no lookup, no resend, no wait): a request
 * already in flight finishes, so its outcome is what the service answered and needs no looking up.
 */
async function uploadOne(client: ApiClient, job: UploadJob, run: RunOptions): Promise<JobOutcome> {
  if (job.problem) return { status: 'failed', message: job.problem, retryable: false };
  const attempts = run.attempts ?? 3;
  // Only a job sent before (a failure being retried) can already be in the knowledge base.
  const sentBefore = job.firstAttemptAt !== undefined;
  const started = (job.firstAttemptAt ??= Date.now());
  let last: JobOutcome = { status: 'cancelled' };
  let rateLimited = false;
  const cancelled = (): boolean => run.signal?.aborted === true;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (cancelled()) return last;
    if ((attempt > 1 || (run.reconcileFirst && sentBefore)) && !rateLimited) {
      // The previous attempt may have reached the service: look before sending again.
      const found = await findUploaded(client, job, started, run.signal).catch(() => undefined);
      if (found) return { status: 'done', action: found.action, nodes: found.nodes, reconciled: true };
    }
    if (attempt > 1 && !rateLimited) {
      try {
        await sleep((run.backoffMs ?? 1000) * 2 ** (attempt - 2) * (0.5 + Math.random() / 2), run.signal);
      } catch {
        return last;
      }
    }
    if (cancelled()) return last;
    try {
      // No signal: a request that has started is let finish (Cancel stops what comes after it).
      const nodes = await client.kbNodes.upload(
        {
          ...run.options,
          file: { path: job.path },
          fileName: job.fileName,
          targetFolderId: job.targetFolderId ?? run.options.targetFolderId,
        },
        { maxRetries: 0 },
      );
      return { status: 'done', action: actionOf(nodes), nodes };
    } catch (error) {
      last = classify(error);
      if (!last.retryable) return last;
      // A 429 was not processed: wait as asked and send again, nothing to reconcile.
      rateLimited = error instanceof RateLimitError;
      if (rateLimited && attempt < attempts) {
        try {
          await sleep(Math.min((error as RateLimitError).retryAfterMs ?? 1000, 60_000), run.signal);
        } catch {
          return last;
        }
      }
    }
  }
  return last;
}

function actionOf(nodes: KbNode[]): UploadAction {
  const file = nodes.find((n) => n.nodeType === 'file') ?? nodes[0];
  const action = (file as { action?: string | null }).action;
  return action === 'overwritten' || action === 'skipped' || action === 'suffix_added' ? action : 'created';
}

/** Transient (worth a retry, maybe applied) or final (the request itself is wrong). */
export function classify(error: unknown): Extract<JobOutcome, { status: 'failed' }> {
  const message = error instanceof Error ? error.message.replace(/^[\w.]+ failed( \(\d+\))?: /, '') : String(error);
  if (error instanceof ApiConnectionError || error instanceof RateLimitError || error instanceof RequestTimeoutError) {
    return { status: 'failed', message, retryable: true, error };
  }
  if (error instanceof ApiError) return { status: 'failed', message, retryable: error.status >= 500 && error.status !== 501, error };
  return { status: 'failed', message, retryable: false, error };
}
