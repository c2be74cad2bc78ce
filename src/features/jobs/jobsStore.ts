// What the service said about jobs, fetched together (no vscode: unit-tested with a fake client).
import type { ApiClient } from '../../api/client';
import type { BulkResult, RareResult, RareStatus } from '../../api/schemas/jobs';
import { newestFirst } from './jobModel';

type JobsClient = Pick<ApiClient, 'rare' | 'bulk'>;

/**
 * The RARE status and results and the loaded pages of bulk results. A part that fails keeps its last
 * value and records the error (the view shows it as an item); the other parts still update.
 */
export class JobsStore {
  rare: RareStatus | undefined;
  rareError: string | undefined;
  rareResults: RareResult[] = [];
  rareResultsError: string | undefined;
  bulk: BulkResult[] = [];
  bulkError: string | undefined;
  /** Bulk pages loaded so far (refresh re-fetches all of them). */
  bulkPages = 0;
  bulkTotalPages: number | undefined;
  /** Whether anything was fetched since the last reset. */
  loaded = false;

  constructor(private readonly describeError: (error: unknown) => string) {}

  reset(): void {
    this.rare = undefined;
    this.rareError = this.rareResultsError = this.bulkError = undefined;
    this.rareResults = [];
    this.bulk = [];
    this.bulkPages = 0;
    this.bulkTotalPages = undefined;
    this.loaded = false;
  }

  get hasMoreBulk(): boolean {
    return this.bulkTotalPages !== undefined && this.bulkPages < this.bulkTotalPages;
  }

  /** Job states and result ids: a change here resets the polling backoff (progress alone does not). */
  stateSignature(): string {
    return JSON.stringify([
      this.rare && [this.rare.build_status, this.rare.job_status, this.rare.job_type, this.rare.build_run_id, this.rare.error_message],
      this.rareResults.map((r) => r.id),
      this.bulk.map((b) => [b.id, b.status]),
      [this.rareError, this.rareResultsError, this.bulkError],
    ]);
  }

  /** Everything shown: a change here redraws the view. */
  contentSignature(): string {
    return JSON.stringify([
      this.rare,
      this.rareResults,
      this.bulk,
      this.bulkPages,
      this.bulkTotalPages,
      this.rareError,
      this.rareResultsError,
      this.bulkError,
    ]);
  }

  /** Fetches the status, the RARE results and every loaded bulk page (at least the first) in parallel. */
  async refresh(client: JobsClient, signal?: AbortSignal): Promise<void> {
    await Promise.all([
      this.fetchStatus(client, signal),
      this.fetchRareResults(client, signal),
      this.fetchBulk(client, Math.max(1, this.bulkPages), signal),
    ]);
    this.loaded = true;
  }

  async fetchStatus(client: JobsClient, signal?: AbortSignal): Promise<RareStatus | undefined> {
    try {
      this.rare = await client.rare.status({ signal });
      this.rareError = undefined;
      return this.rare;
    } catch (error) {
      this.rareError = this.describeError(error);
      return undefined;
    }
  }

  async fetchRareResults(client: JobsClient, signal?: AbortSignal): Promise<void> {
    try {
      this.rareResults = newestFirst(await client.rare.results({ signal }));
      this.rareResultsError = undefined;
    } catch (error) {
      this.rareResultsError = this.describeError(error);
    }
  }

  /** Pages 1..pages again, merged by id (a new result shifts the others to later pages). */
  async fetchBulk(client: JobsClient, pages: number, signal?: AbortSignal): Promise<void> {
    try {
      const merged = new Map<string, BulkResult>();
      let total: number | undefined;
      let loaded = 0;
      for (let page = 1; page <= pages; page++) {
        const res = await client.bulk.results(page, { signal });
        for (const r of res.results) if (!merged.has(r.id)) merged.set(r.id, r);
        total = res.total_pages;
        loaded = page;
        if (total !== undefined && page >= total) break;
      }
      this.bulk = [...merged.values()];
      this.bulkPages = loaded;
      this.bulkTotalPages = total;
      this.bulkError = undefined;
    } catch (error) {
      this.bulkError = this.describeError(error);
    }
  }

  /** Appends the next bulk page. */
  async loadMoreBulk(client: JobsClient, signal?: AbortSignal): Promise<void> {
    try {
      const page = this.bulkPages + 1;
      const res = await client.bulk.results(page, { signal });
      const known = new Set(this.bulk.map((b) => b.id));
      this.bulk = [...this.bulk, ...res.results.filter((r) => !known.has(r.id))];
      this.bulkPages = page;
      this.bulkTotalPages = res.total_pages;
      this.bulkError = undefined;
    } catch (error) {
      this.bulkError = this.describeError(error);
    }
  }

  newestRareResult(): RareResult | undefined {
    return this.rareResults[0];
  }

  bulkResult(id: string): BulkResult | undefined {
    return this.bulk.find((b) => b.id === id);
  }
}
