// Bulk processing in the local service: each run is recorded (queued) before the request is answered, then
// runs in the background, one run at a time in arrival order, one row per step (jobControl.ts). The record is
// committed at each state change; `processed` between them is live in memory. The result CSV (the input
// columns plus answer, confidence, sources) goes to the blob store when the run completes. A run left queued
// or running by a stopped service is reported failed on the next start.
import { randomUUID } from 'node:crypto';
import { badRequest, notFound } from '../http/errors';
import { answerRow, type AnswerDeps } from './bulkAnswer';
import { RESULT_COLUMNS, type BulkInput } from './bulkInput';
import { csvText } from './csvText';
import { releaseBlob, type BlobDeps } from './jobBlobs';
import { JobCancelled, JobControl, JobInterrupted } from './jobControl';
import { ACTIVE, bulkRunBody, INTERRUPTED_MESSAGE, newestFirst, type BulkType, type StoredBulkRun } from './jobRecords';
import { BULK_RUNS } from '../store/collections';

export const BULK_PAGE_SIZE = 20;

export interface BulkDeps extends BlobDeps, AnswerDeps {
  stepDelayMs: number;
}

interface Pending {
  record: StoredBulkRun;
  input: BulkInput;
}

export class BulkJobs {
  /** Queued and running runs, in arrival order; their records here are the live ones. */
  private readonly pending = new Map<string, Pending>();
  private current: { id: string; control: JobControl; done: Promise<void> } | undefined;
  private pumping: Promise<void> | undefined;
  private closing = false;

  constructor(private readonly deps: BulkDeps) {}

  private get records(): ReadonlyMap<string, StoredBulkRun> {
    return this.deps.journal.collection<StoredBulkRun>(BULK_RUNS);
  }

  /** At start: runs the last service left queued or running are failed, with the reason. */
  async recover(): Promise<void> {
    const stale = [...this.records.values()].filter((r) => ACTIVE.has(r.status));
    if (!stale.length) return;
    await this.deps.journal.commit(
      stale.map((r) => ({ c: BULK_RUNS, k: r.id, v: { ...r, status: 'failed', error_message: INTERRUPTED_MESSAGE } })),
    );
    this.deps.logger.warn(`bulk processing: ${stale.length} ${stale.length === 1 ? 'run' : 'runs'} ${INTERRUPTED_MESSAGE}`);
  }

  async run(input: BulkInput, bulkType: BulkType, fileName: string): Promise<{ id: string; status: 'queued' }> {
    const id = randomUUID();
    const record: StoredBulkRun = {
      id,
      created_at: new Date().toISOString(),
      bulk_type: bulkType,
      status: 'queued',
      total: input.rows.length,
      processed: 0,
      file_url: null,
      file_name: fileName,
    };
    await this.save(record);
    this.pending.set(id, { record, input });
    this.kick();
    return { id, status: 'queued' };
  }

  list(page: number): { results: Array<Record<string, unknown>>; page: number; total_pages: number } {
    const all = newestFirst([...this.records.values()].map((r) => this.pending.get(r.id)?.record ?? r));
    const start = (page - 1) * BULK_PAGE_SIZE;
    return {
      results: all.slice(start, start + BULK_PAGE_SIZE).map(bulkRunBody),
      page,
      total_pages: Math.max(1, Math.ceil(all.length / BULK_PAGE_SIZE)),
    };
  }

  async download(fileUrl: string): Promise<{ text: string; record: StoredBulkRun }> {
    const record = [...this.records.values()].find((r) => r.file_url === fileUrl);
    if (!record?.blob) throw notFound(`Bulk-processing result file not found: ${JSON.stringify(fileUrl.slice(0, 300))}.`);
    if (!this.deps.blobs.has(record.blob)) throw notFound(`Bulk-processing result file not found in the data folder (run ${record.id}).`);
    return { text: (await this.deps.blobs.read(record.blob)).toString('utf8'), record };
  }

  /** Deletes a run and its file; a queued or running run is stopped first. */
  async deleteResult(id: string): Promise<void> {
    if (!this.records.get(id)) throw notFound(`Bulk-processing result not found: ${JSON.stringify(id.slice(0, 200))}.`);
    if (this.current?.id === id) {
      this.current.control.cancel();
      await this.current.done;
    }
    this.pending.delete(id);
    const record = this.records.get(id);
    if (!record) return;
    await this.deps.journal.commit([{ c: BULK_RUNS, k: id }]);
    await releaseBlob(this.deps, record.blob);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.current?.control.wakeUp();
    await this.pumping;
  }

  private save(record: StoredBulkRun): Promise<void> {
    return this.deps.journal.commit([{ c: BULK_RUNS, k: record.id, v: record }]);
  }

  private kick(): void {
    if (this.pumping || this.closing) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      if (this.pending.size) this.kick(); // a run added while the loop was ending
    });
  }

  private async pump(): Promise<void> {
    for (;;) {
      const next = this.pending.values().next().value as Pending | undefined;
      if (!next || this.closing) return;
      const control = new JobControl(() => this.closing, this.deps.stepDelayMs);
      const done = this.process(next, control);
      this.current = { id: next.record.id, control, done };
      await done;
      this.current = undefined;
      if (!this.closing) this.pending.delete(next.record.id);
    }
  }

  private async process({ record, input }: Pending, control: JobControl): Promise<void> {
    try {
      await control.step();
      record.status = 'running';
      await this.save(record);
      const out: Array<Array<string | number>> = [];
      for (const row of input.rows) {
        await control.step();
        const a = await answerRow(record.bulk_type, row, this.deps).catch((error: unknown) => ({
          answer: `(not answered: ${(error as Error)?.message ?? String(error)})`,
          confidence: 0,
          sources: '',
        }));
        out.push([...row.cells, a.answer, a.confidence, a.sources]);
        record.processed++;
      }
      const { hash } = await this.deps.blobs.putBuffer(csvText([...input.columns, ...RESULT_COLUMNS], out));
      // Committed before the live record shows it: whoever sees "completed" can download the file at once.
      const completed: StoredBulkRun = { ...record, status: 'completed', blob: hash, file_url: `bulk/results/${record.id}.csv` };
      await this.save(completed);
      Object.assign(record, completed);
    } catch (error) {
      // Cancelled = being deleted (the delete removes the record); interrupted = the service is stopping.
      if (error instanceof JobCancelled || error instanceof JobInterrupted) return;
      const failed: StoredBulkRun = {
        ...record,
        status: 'failed',
        error_message: `bulk processing failed: ${(error as Error)?.message ?? String(error)}`,
      };
      this.deps.logger.error(`bulk run ${record.id}: ${(error as Error)?.stack ?? error}`);
      await this.save(failed).catch((e) => this.deps.logger.error(`bulk run ${record.id}: cannot record the failure: ${e}`));
      Object.assign(record, failed);
    }
  }
}

/** `page` query parameter: a whole number from 1 (default 1). */
export function pageParam(query: URLSearchParams): number {
  const raw = query.get('page')?.trim();
  if (!raw) return 1;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest('page: must be a whole number from 1', 'page');
  return Number(raw);
}
