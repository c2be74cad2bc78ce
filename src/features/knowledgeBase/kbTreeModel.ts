// @vscode/l10n, not vscode: the model has no vscode (src/platform/l10n.ts hands @vscode/l10n the bundle).
import * as l10n from '@vscode/l10n';
import type { ApiClient } from '../../api/client';
import type { KbNode, NodeOrder } from '../../api/schemas/kbNodes';
import { NodePager } from '../../api/resources/kbPaging';
import { CommandIds } from '../../platform/commandIds';
import type { KbNodeElement } from '../../platform/tree/kbNodeElement';
import { listingFor, type PagedListing } from '../../platform/tree/pagedListing';
import { pagingTail, type PagingElement } from '../../platform/tree/pagingElements';

export const PAGE_SIZE = 50;
export const ROOT = '#root';

export interface KbFilter {
  searchTerm?: string;
  hashtags?: string[];
  hashtagsOperator?: 'and' | 'or';
  order: NodeOrder;
}

/** Tree elements are plain tagged objects; a node element is reused while its id lives, so reveal() works. */
export type KbElement = KbNodeElement | PagingElement;

export type NodeElement = Extract<KbElement, { kind: 'node' }>;

/**
 * Pages of each folder as loaded so far (one shared PagedListing per folder): refresh keeps the
 * loaded pages, concurrent loads are merged, a failed load becomes an error element.
 */
export class KbTreeModel {
  filter: KbFilter = { order: 'name_asc' };
  private readonly listings = new Map<string, PagedListing<NodeElement>>();
  private readonly elements = new Map<string, NodeElement>();

  /** `onListed` hears every page of nodes as the service listed it (first load, Refresh, Load more). */
  constructor(
    private readonly client: () => Promise<ApiClient>,
    private readonly onListed: (nodes: readonly KbNode[]) => void = () => undefined,
  ) {}

  get filtered(): boolean {
    return !!this.filter.searchTerm || !!this.filter.hashtags?.length;
  }

  async children(parentKey: string): Promise<KbElement[]> {
    const listing = this.listing(parentKey);
    await listing.ensure();
    const empty = parentKey !== ROOT ? l10n.t('Empty folder') : this.filtered ? this.nothingMatches() : undefined;
    const tail = pagingTail(listing, parentKey, empty);
    return tail ? [...listing.items, tail] : [...listing.items];
  }

  /** The row of a search or filter that found nothing: says what was looked for, and clears it when clicked. */
  private nothingMatches(): { text: string; command: string } {
    const term = this.filter.searchTerm;
    const text = term
      ? l10n.t('No document or folder name contains "{0}". Click to clear the search.', term)
      : l10n.t('No documents match the filter. Click to clear it.');
    return { text, command: CommandIds.kb.clearFilter };
  }

  async loadMore(parentKey: string): Promise<void> {
    await this.listings.get(parentKey)?.loadMore();
  }

  /** Re-fetches the loaded pages of one folder (or of every folder shown). */
  async refresh(parentKey?: string): Promise<void> {
    const keys = parentKey ? [parentKey] : [...this.listings.keys()];
    await Promise.all(keys.map((key) => this.listings.get(key)?.refresh()));
  }

  /** Drops everything (filter or connection changed). */
  reset(): void {
    for (const listing of this.listings.values()) listing.reset();
    this.listings.clear();
    this.elements.clear();
  }

  element(id: string): NodeElement | undefined {
    return this.elements.get(id);
  }

  parentOf(element: KbElement): NodeElement | undefined {
    return element.parentKey === ROOT ? undefined : this.elements.get(element.parentKey);
  }

  /** Replaces a node in place (processing state changed); returns its element if shown. */
  update(node: KbNode): NodeElement | undefined {
    const element = this.elements.get(node.id);
    if (element) element.node = node;
    return element;
  }

  private listing(parentKey: string): PagedListing<NodeElement> {
    return listingFor(this.listings, parentKey, () => {
      // Offset or cursor paging, a default page smaller than asked, a deployment ignoring offset (kbPaging.ts).
      const pager = new NodePager(PAGE_SIZE);
      return {
        pageSize: PAGE_SIZE,
        fetchPage: async (page, signal) => {
          const client = await this.client();
          const result = await client.kbNodes.search({ ...this.query(parentKey), ...pager.request(page) }, { signal });
          const { fresh, hasMore } = pager.digest(page, result);
          const items = fresh.map((n) => this.elementFor(n, parentKey));
          this.onListed(fresh);
          return { items, total: result.total, hasMore };
        },
      };
    });
  }

  private query(parentKey: string) {
    const base = { order: this.filter.order };
    if (parentKey === ROOT && this.filtered) {
      return {
        ...base,
        parentFolderIds: [null],
        searchTerm: this.filter.searchTerm,
        hashtags: this.filter.hashtags,
        hashtagsOperator: this.filter.hashtagsOperator,
      };
    }
    return { ...base, parentFolderIds: [parentKey === ROOT ? null : parentKey] };
  }

  private elementFor(node: KbNode, parentKey: string): NodeElement {
    const existing = this.elements.get(node.id);
    if (existing && existing.parentKey === parentKey) {
      existing.node = node;
      return existing;
    }
    const element: NodeElement = { kind: 'node', node, parentKey };
    this.elements.set(node.id, element);
    return element;
  }
}
