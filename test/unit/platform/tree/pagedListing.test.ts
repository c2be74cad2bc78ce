import assert from 'node:assert/strict';
import yazl from 'yazl';
import type { ApiClient } from '../../../../src/api/client';
import type { KbNode } from '../../../../src/api/schemas/kbNodes';
import { toUserFacing } from '../../../../src/platform/errorMessages';
import { PagedListing, type FetchedPage } from '../../../../src/platform/tree/pagedListing';
import { pagingTail } from '../../../../src/platform/tree/pagingElements';
import { startTestService, type TestService } from '../../support/localService';

async function zipOf(count: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (let i = 0; i < count; i++) zip.addBuffer(Buffer.from(`Item ${i}`), `item-${String(i).padStart(2, '0')}.txt`);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A listing of one knowledge-base folder on the real local service, pages of `size`; `pages` logs each request. */
function folderListing(client: () => ApiClient, folderId: string, size: number, pages: number[] = []) {
  return new PagedListing<KbNode>({
    pageSize: size,
    keyOf: (n) => n.id,
    fetchPage: async (page, signal) => {
      pages.push(page);
      const r = await client().kbNodes.search(
        { parentFolderIds: [folderId], order: 'name_asc', offset: page * size, limit: size },
        { signal },
      );
      return { items: r.nodes, total: r.total };
    },
  });
}

const names = (l: PagedListing<KbNode>) => l.items.map((n) => n.name);

/**
 * A page source the test answers by hand, to order concurrent loads deterministically. Like a real
 * request it fails when aborted, unless `ignoreAbort` (a service that answers anyway).
 */
function manualSource<T>(ignoreAbort = false) {
  const calls: Array<{ page: number; signal: AbortSignal; resolve: (p: FetchedPage<T>) => void; reject: (e: unknown) => void }> = [];
  const fetchPage = (page: number, signal: AbortSignal) =>
    new Promise<FetchedPage<T>>((resolve, reject) => {
      calls.push({ page, signal, resolve, reject });
      if (!ignoreAbort) signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  return { calls, fetchPage };
}

/** Waits until `n` requests were made (each load asks after an await). */
async function requests(calls: unknown[], n: number): Promise<void> {
  for (let i = 0; i < 100 && calls.length < n; i++) await new Promise((r) => setImmediate(r));
  assert.equal(calls.length, n, `expected ${n} request(s)`);
}

describe('PagedListing against the local service', () => {
  let t: TestService;
  let folderId = '';
  before(async () => {
    t = await startTestService();
    const [folder] = await t.client().kbNodes.upload({ file: { data: await zipOf(12) }, fileName: 'paged.zip' });
    folderId = folder.id;
  });
  after(() => t.stop());

  it('loads the first page, then one page per Load more, and says when the last page is in', async () => {
    const listing = folderListing(() => t.client(), folderId, 5);
    assert.equal(pagingTail(listing, 'f'), undefined, 'nothing loaded: no row yet');
    await listing.ensure();
    assert.deepEqual(names(listing), ['item-00.txt', 'item-01.txt', 'item-02.txt', 'item-03.txt', 'item-04.txt']);
    assert.deepEqual(pagingTail(listing, 'f'), { kind: 'loadMore', parentKey: 'f', loaded: 5, total: 12 });
    await listing.loadMore();
    await listing.loadMore();
    assert.equal(listing.items.length, 12);
    assert.equal(listing.pages, 3);
    assert.equal(listing.hasMore, false);
    assert.equal(pagingTail(listing, 'f'), undefined);
    await listing.loadMore();
    assert.equal(listing.items.length, 12, 'Load more after the last page fetches nothing');
  });

  it('refresh re-fetches every loaded page and keeps them, with what changed meanwhile', async () => {
    const pages: number[] = [];
    const listing = folderListing(() => t.client(), folderId, 5, pages);
    await listing.ensure();
    await listing.loadMore();
    const [added] = await t.client().kbNodes.upload({ file: { data: 'new' }, fileName: 'item-00a.txt', targetFolderId: folderId });
    pages.length = 0;
    await listing.refresh();
    assert.deepEqual(pages, [0, 1], 'both loaded pages again, not only the first');
    assert.equal(listing.items.length, 10);
    assert.equal(listing.items[1].name, 'item-00a.txt');
    assert.equal(listing.total, 13);
    await t.client().kbNodes.delete(added.id);
  });

  it('an empty listing shows the message it is given, or nothing', async () => {
    const listing = new PagedListing<KbNode>({
      pageSize: 5,
      fetchPage: async (page, signal) => {
        const query = { parentFolderIds: [folderId], searchTerm: 'nothing-matches-this', offset: page * 5, limit: 5 };
        const r = await t.client().kbNodes.search(query, { signal });
        return { items: r.nodes, total: r.total };
      },
    });
    await listing.ensure();
    assert.deepEqual(pagingTail(listing, 'e', 'Empty folder'), { kind: 'message', parentKey: 'e', text: 'Empty folder' });
    assert.equal(pagingTail(listing, 'e'), undefined);
  });

  it('a failed load becomes an error row with the user-facing message; Retry (refresh) recovers and keeps the items', async () => {
    let client = t.client();
    const listing = folderListing(() => client, folderId, 5);
    await listing.ensure();
    client = t.client({ apiKey: 'not-the-key' });
    await listing.loadMore();
    const expected = toUserFacing(await client.kbNodes.search({}).catch((e: unknown) => e)).message;
    assert.match(expected, /API key was rejected/);
    assert.equal(listing.error, expected, 'the same text a command would show, not the raw error');
    assert.deepEqual(pagingTail(listing, 'f'), { kind: 'error', parentKey: 'f', message: expected });
    assert.equal(listing.items.length, 5, 'the loaded page stays visible');
    client = t.client();
    await listing.refresh();
    assert.equal(listing.error, undefined);
    assert.equal(pagingTail(listing, 'f')?.kind, 'loadMore');
  });
});

describe('PagedListing: concurrent and stale loads', () => {
  const page = (from: number, n: number, total: number): FetchedPage<number> => ({
    items: Array.from({ length: n }, (_, i) => from + i),
    total,
  });

  it('merges concurrent first loads and concurrent Load mores into one request each', async () => {
    const src = manualSource<number>();
    const listing = new PagedListing<number>({ fetchPage: src.fetchPage, pageSize: 2 });
    const both = Promise.all([listing.ensure(), listing.ensure(), listing.loadMore()]);
    await requests(src.calls, 1);
    src.calls[0].resolve(page(0, 2, 5));
    await both;
    assert.deepEqual(listing.items, [0, 1]);
    const more = Promise.all([listing.loadMore(), listing.loadMore()]);
    await requests(src.calls, 2);
    assert.equal(src.calls[1].page, 1);
    src.calls[1].resolve(page(2, 2, 5));
    await more;
    assert.deepEqual(listing.items, [0, 1, 2, 3], 'one page appended, not two');
  });

  it('refresh aborts a stale load, drops its result, and its callers get the fresh one', async () => {
    const src = manualSource<number>(true);
    const listing = new PagedListing<number>({ fetchPage: src.fetchPage, pageSize: 2 });
    const first = listing.ensure();
    await requests(src.calls, 1);
    const refreshed = listing.refresh();
    assert.equal(src.calls[0].signal.aborted, true, 'the stale request is aborted');
    await requests(src.calls, 2);
    src.calls[1].resolve(page(100, 2, 2));
    src.calls[0].resolve(page(0, 2, 2)); // answers late: must not win
    await Promise.all([first, refreshed]);
    assert.deepEqual(listing.items, [100, 101]);
    assert.equal(listing.loading, false);
  });

  it('a refresh during a Load more fetches that page too', async () => {
    const src = manualSource<number>();
    const listing = new PagedListing<number>({ fetchPage: src.fetchPage, pageSize: 2 });
    const first = listing.ensure();
    await requests(src.calls, 1);
    src.calls[0].resolve(page(0, 2, 6));
    await first;
    const more = listing.loadMore();
    await requests(src.calls, 2);
    const refreshed = listing.refresh();
    await requests(src.calls, 3);
    src.calls[2].resolve(page(0, 2, 6));
    await requests(src.calls, 4);
    assert.equal(src.calls[3].page, 1, 'the page Load more asked for');
    src.calls[3].resolve(page(2, 2, 6));
    await Promise.all([more, refreshed]);
    assert.deepEqual(listing.items, [0, 1, 2, 3]);
    assert.equal(listing.pages, 2);
  });

  it('an error of a stale load is dropped; reset aborts and forgets', async () => {
    const src = manualSource<number>(true);
    const listing = new PagedListing<number>({ fetchPage: src.fetchPage, describeError: (e) => `shown: ${(e as Error).message}` });
    const first = listing.ensure();
    await requests(src.calls, 1);
    const refreshed = listing.refresh();
    await requests(src.calls, 2);
    src.calls[0].reject(new Error('late failure'));
    src.calls[1].resolve({ items: [7], hasMore: false });
    await Promise.all([first, refreshed]);
    assert.equal(listing.error, undefined);
    assert.deepEqual(listing.items, [7]);
    const again = listing.refresh();
    await requests(src.calls, 3);
    listing.reset();
    assert.equal(src.calls[2].signal.aborted, true);
    src.calls[2].resolve({ items: [8], hasMore: false });
    await again;
    assert.deepEqual([listing.items, listing.loaded, listing.pages], [[], false, 0]);
  });

  it('bad pages: an empty page ends the listing even if total says more; duplicates by key are kept once', async () => {
    const listing = new PagedListing<{ id: string }>({
      keyOf: (x) => x.id,
      fetchPage: async (p) => (p === 0 ? { items: [{ id: 'a' }, { id: 'b' }], total: 10 } : { items: [{ id: 'b' }], hasMore: false }),
    });
    await listing.ensure();
    assert.equal(listing.hasMore, true);
    await listing.loadMore();
    assert.deepEqual(
      listing.items.map((x) => x.id),
      ['a', 'b'],
    );
    const empty = new PagedListing<number>({ fetchPage: async () => ({ items: [], total: 10 }) });
    await empty.ensure();
    assert.equal(empty.hasMore, false, 'no endless Load more');
    assert.equal(pagingTail(empty, 'x'), undefined);
  });

  it('a failure before the first page (no client) shows as an error; Load more then retries the first page', async () => {
    let fail = true;
    const listing = new PagedListing<number>({
      describeError: (e) => (e as Error).message,
      fetchPage: async () => {
        if (fail) throw new Error('offline');
        return { items: [1], hasMore: false };
      },
    });
    await listing.ensure();
    assert.deepEqual(pagingTail(listing, 'r'), { kind: 'error', parentKey: 'r', message: 'offline' });
    await listing.ensure();
    assert.equal(listing.error, 'offline', 'ensure does not hammer a failing service');
    fail = false;
    await listing.loadMore();
    assert.deepEqual([listing.items, listing.error], [[1], undefined]);
  });
});
