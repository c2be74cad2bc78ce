// What the service said about jobs, fetched together (no vscode: unit-tested with a fake client).
import * as l10n from '@vscode/l10n';
import type { ApiClient } from '../../api/client';
import type { BulkResult, RareResult, RareStatus } from '../../api/schemas/jobs';
import { PagedListing } from '../../platform/tree/pagedListing';
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
  /** Bulk results: the shared paged listing (refresh re-fetches every loaded page, merged by id). */
  readonly bulkListing: PagedListing<BulkResult>;
  bulkTotalPages: number | undefined;
  /** Whether anything was fetched since the last reset. */
  loaded = false;
  /** The client of the call in progress (the listing fetches through it). */
  private client: JobsClient | undefined;
  private signal: AbortSignal | undefined;

  constructor(private readonly describeError: (error: unknown) => string) {
    this.bulkListing = new PagedListing<BulkResult>({
      keyOf: (r) => r.id,
      describeError,
      fetchPage: async (page, signal) => {
        if (!this.client) throw new Error(l10n.t('Not connected.'));
        const res = await this.client.bulk.results(page + 1, { signal: this.signal ? AbortSignal.any([signal, this.signal]) : signal });
        this.bulkTotalPages = res.total_pages;
        const hasMore = res.total_pages !== undefined && page + 1 < res.total_pages;
        return { items: res.results, hasMore };
      },
    });
  }

  get bulk(): readonly BulkResult[] {
    return this.bulkListing.items;
  }

  get bulkError(): string | undefined {
    return this.bulkListing.error;
  }

  /** Bulk pages loaded so far. */
  get bulkPages(): number {
    return this.bulkListing.pages;
  }

  get hasMoreBulk(): boolean {
    return this.bulkListing.loaded && this.bulkListing.hasMore;
  }

  reset(): void {
    this.rare = undefined;
    this.rareError = this.rareResultsError = undefined;
    this.rareResults = [];
    this.bulkListing.reset();
    this.bulkTotalPages = undefined;
    this.loaded = false;
  }

  /** A poll that failed before it could ask (no client): every part shows the error. */
  fail(error: unknown): void {
    this.rareError = this.describeError(error);
    this.bulkListing.fail(error);
    this.loaded = true;
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
    await Promise.all([this.fetchStatus(client, signal), this.fetchRareResults(client, signal), this.fetchBulk(client, signal)]);
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

  /** Every loaded bulk page again (at least the first), merged by id (a new result shifts the others to later pages). */
  async fetchBulk(client: JobsClient, signal?: AbortSignal): Promise<void> {
    await this.withClient(client, signal, () => this.bulkListing.refresh());
  }

  /** Appends the next bulk page. */
  async loadMoreBulk(client: JobsClient, signal?: AbortSignal): Promise<void> {
    await this.withClient(client, signal, () => this.bulkListing.loadMore());
  }

  private async withClient(client: JobsClient, signal: AbortSignal | undefined, run: () => Promise<void>): Promise<void> {
    this.client = client;
    this.signal = signal;
    await run();
  }

  newestRareResult(): RareResult | undefined {
    return this.rareResults[0];
  }

  bulkResult(id: string): BulkResult | undefined {
    return this.bulk.find((b) => b.id === id);
  }
}
