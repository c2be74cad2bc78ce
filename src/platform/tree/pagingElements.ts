// The rows a paged tree adds after its items (no vscode: the model and its tests use them).
import type { PagedListing } from './pagedListing';

/** "Load more…" at the end of a listing with more pages; its command gets this element. */
export interface LoadMoreElement {
  kind: 'loadMore';
  parentKey: string;
  loaded: number;
  total?: number;
}

/** A load that failed: the user-facing message, and Retry (the tree's refresh command) on click. */
export interface ErrorElement {
  kind: 'error';
  parentKey: string;
  message: string;
  /** Set on the element the row's Retry passes; a title-bar Refresh gets the focused row without it. */
  retry?: true;
}

/** A line of text (empty listing, nothing matches, loading); optionally a command to run on click. */
export interface MessageElement {
  kind: 'message';
  parentKey: string;
  text: string;
  command?: string;
}

export type PagingElement = LoadMoreElement | ErrorElement | MessageElement;

/**
 * The row after a listing's items: the error if the last load failed, else Load more while pages
 * remain, else `empty` when there are no items (no row when `empty` is omitted).
 */
export function pagingTail<T>(
  listing: PagedListing<T>,
  parentKey: string,
  empty?: string | Omit<MessageElement, 'kind' | 'parentKey'>,
): PagingElement | undefined {
  if (listing.error) return { kind: 'error', parentKey, message: listing.error };
  const loaded = listing.items.length;
  if (listing.hasMore && loaded) return { kind: 'loadMore', parentKey, loaded, total: listing.total };
  if (!loaded && empty !== undefined) return { kind: 'message', parentKey, ...(typeof empty === 'string' ? { text: empty } : empty) };
  return undefined;
}
