// Listing every page of a node search, whatever paging the deployment uses (docs/api.md#paging):
// offset paging (ours), cursor paging (`after`, a `cursor` on the page or on each node; seen second-hand),
// a default page smaller than asked, and deployments that ignore `offset` and send page 1 again.
// Stops at an empty page, a page shorter than the pages before it, `total` reached, a page that brings
// nothing new (no progress), or `maxNodes`; it can never loop forever.
import type { CallOptions } from '../requester';
import type { KbNode, NodeSearchResult } from '../schemas/kbNodes';
import type { NodeSearchParams } from './kbNodeParams';

export type SearchPage = (params: NodeSearchParams, options?: CallOptions) => Promise<NodeSearchResult>;

export interface ListAllOptions extends CallOptions {
  /** Page size asked for (default 100, the service's maximum). */
  pageSize?: number;
  /** Stop once this many nodes were collected (default 10,000). */
  maxNodes?: number;
}

export interface PageInfo {
  nodes: KbNode[];
  /** Nodes of this page not seen on an earlier page. */
  fresh: KbNode[];
  total?: number;
}

/** Yields each page (with the nodes new on it) until the listing is complete; see the file comment for when it stops. */
export async function* searchPages(search: SearchPage, params: NodeSearchParams, options: ListAllOptions = {}): AsyncGenerator<PageInfo> {
  const { pageSize = 100, maxNodes = 10_000, ...callOptions } = options;
  const seen = new Set<string>();
  let pageLength = 0; // the largest page seen: the deployment's real page size when it ignores `limit`
  let request: NodeSearchParams = { ...params, offset: 0, limit: pageSize, after: undefined };
  let triedOffsetInstead = false;
  for (let pageNo = 0; pageNo < 10_000; pageNo++) {
    const page = await search(request, callOptions);
    const fresh = page.nodes.filter((n) => !seen.has(n.id));
    for (const node of fresh) seen.add(node.id);
    if (fresh.length) yield { nodes: page.nodes, fresh, total: page.total };
    if (!page.nodes.length || seen.size >= maxNodes) return;
    if (page.total !== undefined && seen.size >= page.total) return;
    if (!fresh.length) {
      // Nothing new: the deployment ignored what we sent. A cursor it does not honour gets one try with offset.
      if (request.after !== undefined && !triedOffsetInstead) {
        triedOffsetInstead = true;
        request = { ...request, after: undefined, offset: seen.size };
        continue;
      }
      return;
    }
    if (page.nodes.length < pageLength) return; // a short page is the last one
    pageLength = Math.max(pageLength, page.nodes.length);
    request =
      page.cursor !== undefined && !triedOffsetInstead
        ? { ...request, after: page.cursor, offset: undefined }
        : { ...request, after: undefined, offset: seen.size };
  }
}

/** Every node of a listing (all pages), each once, at most `maxNodes`. */
export async function listAllNodes(search: SearchPage, params: NodeSearchParams, options: ListAllOptions = {}): Promise<KbNode[]> {
  const out: KbNode[] = [];
  for await (const page of searchPages(search, params, options)) out.push(...page.fresh);
  return options.maxNodes !== undefined ? out.slice(0, options.maxNodes) : out;
}

/**
 * The same rules for a listing loaded one page at a time (a tree's "Load more"): `request(n)` says what to send
 * for page n (page 0 starts over), `digest(n, result)` returns the nodes new on it and whether a later page
 * exists. Pages must be asked in order 0, 1, 2…
 */
export class NodePager {
  private readonly next: Array<{ offset?: number; after?: string }> = [{ offset: 0 }];
  private seen = new Set<string>();
  private pageLength = 0;

  constructor(private readonly pageSize: number) {}

  request(page: number): { offset?: number; after?: string; limit: number } {
    if (page === 0) {
      this.seen = new Set();
      this.pageLength = 0;
      this.next.length = 1;
    }
    const at = this.next[page] ?? { offset: this.seen.size };
    return at.after !== undefined
      ? { after: at.after, limit: this.pageSize }
      : { offset: at.offset ?? this.seen.size, limit: this.pageSize };
  }

  digest(page: number, result: NodeSearchResult): { fresh: KbNode[]; hasMore: boolean } {
    const fresh = result.nodes.filter((n) => !this.seen.has(n.id));
    for (const node of fresh) this.seen.add(node.id);
    const short = result.nodes.length < this.pageLength || result.nodes.length === 0;
    this.pageLength = Math.max(this.pageLength, result.nodes.length);
    const done = !fresh.length || short || (result.total !== undefined && this.seen.size >= result.total);
    this.next[page + 1] = result.cursor !== undefined ? { after: result.cursor } : { offset: this.seen.size };
    return { fresh, hasMore: !done };
  }
}
