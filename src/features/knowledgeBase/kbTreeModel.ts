import type { ApiClient } from '../../api/client';
import type { KbNode, NodeOrder } from '../../api/schemas/kbNodes';

export const PAGE_SIZE = 50;
export const ROOT = '#root';

export interface KbFilter {
  searchTerm?: string;
  hashtags?: string[];
  hashtagsOperator?: 'and' | 'or';
  order: NodeOrder;
}

/** Tree elements are plain tagged objects; a node element is reused while its id lives, so reveal() works. */
export type KbElement =
  | { kind: 'node'; node: KbNode; parentKey: string }
  | { kind: 'loadMore'; parentKey: string; loaded: number; total?: number }
  | { kind: 'error'; parentKey: string; message: string }
  | { kind: 'message'; parentKey: string; text: string };

export type NodeElement = Extract<KbElement, { kind: 'node' }>;

interface Listing {
  nodes: NodeElement[];
  total?: number;
  pages: number;
  hasMore: boolean;
  error?: string;
  loading?: Promise<void>;
}

/**
 * Pages of each folder as loaded so far. Refresh re-fetches the pages already loaded (users
 * complain when a refresh drops them), concurrent loads of one folder are merged, and a failed
 * load becomes an error element instead of an exception.
 */
export class KbTreeModel {
  filter: KbFilter = { order: 'name_asc' };
  private readonly listings = new Map<string, Listing>();
  private readonly elements = new Map<string, NodeElement>();

  constructor(private readonly client: () => Promise<ApiClient>) {}

  get filtered(): boolean {
    return !!this.filter.searchTerm || !!this.filter.hashtags?.length;
  }

  async children(parentKey: string): Promise<KbElement[]> {
    let listing = this.listings.get(parentKey);
    if (!listing) {
      listing = { nodes: [], pages: 0, hasMore: true };
      this.listings.set(parentKey, listing);
      await this.load(parentKey, listing, 1);
    } else if (listing.loading) {
      await listing.loading;
    }
    return this.render(parentKey, listing);
  }

  async loadMore(parentKey: string): Promise<void> {
    const listing = this.listings.get(parentKey);
    if (!listing || !listing.hasMore) return;
    await (listing.loading ?? this.load(parentKey, listing, listing.pages + 1, true));
  }

  /** Re-fetches the loaded pages of one folder (or of every folder shown). */
  async refresh(parentKey?: string): Promise<void> {
    const keys = parentKey ? [parentKey] : [...this.listings.keys()];
    await Promise.all(
      keys.map(async (key) => {
        const listing = this.listings.get(key);
        if (!listing) return;
        await listing.loading;
        await this.load(key, listing, Math.max(1, listing.pages));
      }),
    );
  }

  /** Drops everything (filter or connection changed). */
  reset(): void {
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

  private load(parentKey: string, listing: Listing, pages: number, append = false): Promise<void> {
    const run = async (): Promise<void> => {
      try {
        const client = await this.client();
        const start = append ? listing.pages : 0;
        const fetched: KbNode[] = [];
        let total: number | undefined;
        let lastPageFull = true;
        for (let page = start; page < pages && lastPageFull; page++) {
          const result = await client.kbNodes.search({ ...this.query(parentKey), offset: page * PAGE_SIZE, limit: PAGE_SIZE });
          fetched.push(...result.nodes);
          total = result.total;
          lastPageFull = result.nodes.length === PAGE_SIZE;
        }
        const previous = append ? listing.nodes : [];
        listing.nodes = [...previous, ...fetched.map((n) => this.elementFor(n, parentKey))];
        listing.total = total;
        listing.pages = Math.max(1, Math.ceil(listing.nodes.length / PAGE_SIZE));
        listing.hasMore = total !== undefined ? listing.nodes.length < total : lastPageFull;
        listing.error = undefined;
      } catch (error) {
        listing.error = error instanceof Error ? error.message : String(error);
      } finally {
        listing.loading = undefined;
      }
    };
    listing.loading = run();
    return listing.loading;
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

  private render(parentKey: string, listing: Listing): KbElement[] {
    const out: KbElement[] = [...listing.nodes];
    if (listing.error) out.push({ kind: 'error', parentKey, message: listing.error });
    else if (listing.hasMore && listing.nodes.length)
      out.push({ kind: 'loadMore', parentKey, loaded: listing.nodes.length, total: listing.total });
    else if (!listing.nodes.length && parentKey !== ROOT) out.push({ kind: 'message', parentKey, text: 'Empty folder' });
    else if (!listing.nodes.length && this.filtered) out.push({ kind: 'message', parentKey, text: 'No documents match the filter' });
    return out;
  }
}
