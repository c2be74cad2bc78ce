// One paged listing behind a tree node (no vscode: unit-tested in plain Node).
import { uniqueBy } from '../../core/uniqueBy';
import { toUserFacing } from '../errorMessages';

/** One page as the service returned it. */
export interface FetchedPage<T> {
  items: T[];
  /** Items in the whole listing, when the service says. */
  total?: number;
  /** Whether a later page exists; when omitted: a full page, and fewer items than `total` loaded. */
  hasMore?: boolean;
}

export interface PagedListingOptions<T> {
  /** Fetches page `page` (0-based). `signal` aborts when the load became stale (refresh, reset). */
  fetchPage: (page: number, signal: AbortSignal) => Promise<FetchedPage<T>>;
  /** Page size, to tell a full page from the last one when the service gives neither total nor hasMore. */
  pageSize?: number;
  /** Identity of an item: a refresh that finds one item twice (a new item shifted it) keeps the first. */
  keyOf?: (item: T) => string;
  /** What the error item says; by default the same user-facing text commands show. */
  describeError?: (error: unknown) => string;
}

/**
 * The pages of one listing loaded so far. Refresh re-fetches as many pages as were loaded (users
 * complain when a refresh drops them) and makes any load still running stale: it is aborted and its
 * result dropped. Concurrent first loads or Load mores share one request. A failed load keeps the
 * items already shown and records a user-facing error (shown as an error item with Retry).
 */
export class PagedListing<T> {
  private itemList: T[] = [];
  private pageCount = 0;
  private totalCount: number | undefined;
  private more = true;
  private errorText: string | undefined;
  private fetched = false;
  private pending: { promise: Promise<void>; controller: AbortController; kind: 'first' | 'more' | 'refresh' } | undefined;
  private readonly describe: (error: unknown) => string;

  constructor(private readonly options: PagedListingOptions<T>) {
    this.describe = options.describeError ?? ((error) => toUserFacing(error).message);
  }

  get items(): readonly T[] {
    return this.itemList;
  }

  /** Pages loaded so far. */
  get pages(): number {
    return this.pageCount;
  }

  get total(): number | undefined {
    return this.totalCount;
  }

  get hasMore(): boolean {
    return this.more;
  }

  get error(): string | undefined {
    return this.errorText;
  }

  /** Whether a load finished (successfully or not) since creation or the last reset. */
  get loaded(): boolean {
    return this.fetched;
  }

  get loading(): boolean {
    return this.pending !== undefined;
  }

  /** The first page, once; later calls wait for a load in progress and return. */
  async ensure(): Promise<void> {
    if (this.pending) return this.pending.promise;
    if (this.fetched) return;
    return this.start('first', 0, 1, false);
  }

  /** The next page, appended; merged with a load in progress. */
  async loadMore(): Promise<void> {
    if (this.pending) return this.pending.promise;
    if (!this.fetched) return this.ensure();
    if (!this.more && !this.errorText) return;
    // After a failed first page there is nothing to append to: load it again.
    return this.pageCount ? this.start('more', this.pageCount, 1, true) : this.start('first', 0, 1, false);
  }

  /** Re-fetches every loaded page (at least one); a load in progress is aborted and its result dropped. */
  refresh(): Promise<void> {
    // A Load more in progress is not lost: the refresh fetches its page too.
    const pages = this.pageCount + (this.pending?.kind === 'more' ? 1 : 0);
    this.pending?.controller.abort();
    this.pending = undefined;
    return this.start('refresh', 0, Math.max(1, pages), false);
  }

  /** Forgets everything (filter or connection changed); a load in progress is aborted and dropped. */
  reset(): void {
    this.pending?.controller.abort();
    this.pending = undefined;
    this.itemList = [];
    this.pageCount = 0;
    this.totalCount = undefined;
    this.more = true;
    this.errorText = undefined;
    this.fetched = false;
  }

  /** Records a failure that happened before a load could start (no client): items stay, the error row shows. */
  fail(error: unknown): void {
    this.errorText = this.describe(error);
    this.fetched = true;
  }

  private start(kind: 'first' | 'more' | 'refresh', from: number, count: number, append: boolean): Promise<void> {
    const controller = new AbortController();
    const promise = this.run(from, count, append, controller).finally(() => {
      if (this.pending?.controller === controller) this.pending = undefined;
    });
    this.pending = { promise, controller, kind };
    return promise;
  }

  /** A stale load's callers wait for the load that replaced it (none after a reset). */
  private superseded(): Promise<void> {
    return this.pending?.promise ?? Promise.resolve();
  }

  private async run(from: number, count: number, append: boolean, controller: AbortController): Promise<void> {
    const fetched: T[] = [];
    let total: number | undefined;
    let more = true;
    let loadedPages = from;
    try {
      for (let page = from; page < from + count && more; page++) {
        const result = await this.options.fetchPage(page, controller.signal);
        if (controller.signal.aborted) return this.superseded();
        fetched.push(...result.items);
        total = result.total;
        loadedPages = page + 1;
        more = this.hasMoreAfter(result, (append ? this.itemList.length : 0) + fetched.length);
      }
    } catch (error) {
      if (controller.signal.aborted) return this.superseded();
      this.errorText = this.describe(error);
      this.fetched = true;
      return;
    }
    if (controller.signal.aborted) return this.superseded();
    this.itemList = this.merge(append ? [...this.itemList, ...fetched] : fetched);
    this.pageCount = loadedPages;
    this.totalCount = total;
    this.more = more;
    this.errorText = undefined;
    this.fetched = true;
  }

  private hasMoreAfter(page: FetchedPage<T>, loaded: number): boolean {
    if (page.hasMore !== undefined) return page.hasMore;
    if (page.total !== undefined) return loaded < page.total && page.items.length > 0;
    return this.options.pageSize !== undefined && page.items.length >= this.options.pageSize;
  }

  private merge(items: T[]): T[] {
    const keyOf = this.options.keyOf;
    return keyOf ? uniqueBy(items, keyOf) : items;
  }
}

/** The listing of `key` (one per tree node whose children page), made with `options` on first use. */
export function listingFor<K, T>(listings: Map<K, PagedListing<T>>, key: K, options: () => PagedListingOptions<T>): PagedListing<T> {
  let listing = listings.get(key);
  if (!listing) listings.set(key, (listing = new PagedListing<T>(options())));
  return listing;
}
