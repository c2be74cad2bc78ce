// Node listing whatever paging the deployment uses (docs/api.md#paging). Shapes the local service does not
// produce are served by a canned loopback server; the local service covers offset paging with a total.
import assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/client';
import { OfferMemory } from '../../../src/api/offers';
import { NodePager } from '../../../src/api/resources/kbPaging';
import { listChildren } from '../../../src/api/uploads/planUploads';
import { closeCannedServers, startCannedServer, type CannedRequest, type CannedServer } from '../support/cannedServer';
import { startTestService, type TestService } from '../support/localService';

const node = (i: number, extra: Record<string, unknown> = {}) => ({ id: `n${i}`, name: `doc ${i}.txt`, nodeType: 'file', ...extra });
const ALL = Array.from({ length: 25 }, (_, i) => node(i));
type Search = { offset?: number; limit?: number; after?: string };

describe('Node listing over every paging shape (kbNodes.listAll / pages / NodePager)', () => {
  let server: CannedServer | undefined;
  afterEach(async () => {
    // A test may start several servers (one per shape): close every one, not only the last.
    await closeCannedServers();
    server = undefined;
  });
  const serve = async (answer: (body: Search, req: CannedRequest) => unknown) => {
    server = await startCannedServer((req) => ({ body: answer((req.json ?? {}) as Search, req) }));
    return new ApiClient({ baseUrl: server.url, apiKey: 'k', retry: { maxRetries: 0 }, offerMemory: new OfferMemory() });
  };
  const sent = () => server!.requests.map((r) => r.json as Search).map(({ offset, limit, after }) => ({ offset, limit, after }));
  const ids = (nodes: Array<{ id: string }>) => nodes.map((n) => n.id);

  it('offset paging with total (ours), against the local service: every node once, stops at total', async () => {
    const t: TestService = await startTestService();
    try {
      const client = t.client();
      const made = [];
      for (let i = 0; i < 105; i++) made.push((await client.folders.create({ name: `f${String(i).padStart(3, '0')}` })).id);
      const all = await client.kbNodes.listAll({ order: 'name_asc' });
      assert.deepEqual(ids(all), made);
      assert.equal((await listChildren(client, null)).length, 105);
      const capped = await client.kbNodes.listAll({}, { maxNodes: 30, pageSize: 20 });
      assert.equal(capped.length, 30);
    } finally {
      await t.stop();
    }
  });

  it('offset paging without total: a default page smaller than asked is not taken for the last one', async () => {
    // The deployment ignores limit and sends 10 at a time; it honours offset.
    const client = await serve(({ offset = 0 }) => ({ result: { nodes: ALL.slice(offset, offset + 10) } }));
    assert.deepEqual(ids(await client.kbNodes.listAll()), ids(ALL));
    assert.deepEqual(sent(), [
      { offset: 0, limit: 100, after: undefined },
      { offset: 10, limit: 100, after: undefined },
      { offset: 20, limit: 100, after: undefined },
    ]);
  });

  it('cursor paging: a top-level nodes with a cursor, `after` sent back', async () => {
    const client = await serve(({ after }) => {
      const from = after ? Number(after.slice(1)) : 0;
      const nodes = ALL.slice(from, from + 10);
      return { nodes, cursor: from + 10 < ALL.length ? `c${from + 10}` : null };
    });
    assert.deepEqual(ids(await client.kbNodes.listAll()), ids(ALL));
    assert.deepEqual(
      sent().map((s) => s.after),
      [undefined, 'c10', 'c20'],
    );
    assert.ok(
      server!.requests.slice(1).every((r) => !('offset' in (r.json as object))),
      'no offset next to a cursor',
    );
  });

  it('cursor paging with a cursor on each node (the last one is sent as after)', async () => {
    const withCursors = ALL.map((n, i) => ({ ...n, cursor: `k${i}` }));
    const client = await serve(({ after }) => {
      const from = after ? Number(after.slice(1)) + 1 : 0;
      return { result: withCursors.slice(from, from + 10) };
    });
    assert.deepEqual(ids(await client.kbNodes.listAll()), ids(ALL));
    assert.deepEqual(
      sent().map((s) => s.after),
      [undefined, 'k9', 'k19'],
      'the third page (5 nodes) is short: the last one',
    );
  });

  it('never loops on a deployment that ignores offset (the same full page every time)', async () => {
    const page = Array.from({ length: 100 }, (_, i) => node(i));
    const client = await serve(() => ({ result: { nodes: page } }));
    assert.equal((await client.kbNodes.listAll()).length, 100);
    assert.equal(server!.requests.length, 2, 'the second page brought nothing new: stop');
    // planUploads.listChildren looped forever here before.
    assert.equal((await listChildren(client, 'folder-1')).length, 100);
  });

  it('a cursor the deployment ignores gets one try with offset, then stops if that brings nothing new either', async () => {
    const withCursors = ALL.map((n, i) => ({ ...n, cursor: `k${i}` }));
    const client = await serve(({ offset = 0 }) => ({ result: { items: withCursors.slice(offset, offset + 10) } }));
    assert.deepEqual(ids(await client.kbNodes.listAll()), ids(ALL));
    const stuck = await serve(() => ({ result: { items: withCursors.slice(0, 10) } }));
    assert.equal((await stuck.kbNodes.listAll()).length, 10);
    assert.equal(server!.requests.length, 3, 'page 1, the cursor try, the offset try');
  });

  it('stops at a short page and at an empty page', async () => {
    const client = await serve(({ offset = 0 }) => ({
      result: { knowledgeBaseNodes: ALL.slice(offset, offset + 10).slice(0, offset >= 20 ? 3 : 10) },
    }));
    assert.equal((await client.kbNodes.listAll()).length, 23);
    assert.equal(server!.requests.length, 3);
    const empty = await serve(() => ({ result: { nodes: [] } }));
    assert.deepEqual(await empty.kbNodes.listAll(), []);
    assert.equal(server!.requests.length, 1);
  });

  it('NodePager (a tree loading one page at a time) follows the same rules', async () => {
    const pager = new NodePager(50);
    assert.deepEqual(pager.request(0), { offset: 0, limit: 50 });
    // A default page of 10, then the same page again (offset ignored from then on).
    const first = pager.digest(0, { nodes: ALL.slice(0, 10).map(asNode) });
    assert.equal(first.fresh.length, 10);
    assert.equal(first.hasMore, true, 'a 10-node page of 50 asked is not the last one when the deployment pages by 10');
    assert.deepEqual(pager.request(1), { offset: 10, limit: 50 });
    const again = pager.digest(1, { nodes: ALL.slice(0, 10).map(asNode) });
    assert.deepEqual(again, { fresh: [], hasMore: false });
    // Cursor: the next request carries it; page 0 starts over.
    assert.deepEqual(pager.request(0), { offset: 0, limit: 50 });
    pager.digest(0, { nodes: ALL.slice(0, 10).map(asNode), cursor: 'c10' });
    assert.deepEqual(pager.request(1), { after: 'c10', limit: 50 });
    const last = pager.digest(1, { nodes: ALL.slice(10, 25).map(asNode), total: 25 });
    assert.equal(last.hasMore, false, 'total reached');
  });
});

function asNode(n: { id: string; name: string }) {
  return { ...n, nodeType: 'file', createdAt: 0, updatedAt: 0, breadcrumbs: [], unknownFields: [] } as never;
}
