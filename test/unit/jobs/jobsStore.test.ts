import assert from 'node:assert/strict';
import {
  bulkResultSchema,
  rareStatusSchema,
  type BulkResult,
  type BulkResultsPage,
  type RareResult,
  type RareStatus,
} from '../../../src/api/schemas/jobs';
import { JobsStore } from '../../../src/features/jobs/jobsStore';

const b = (id: string, status = 'completed'): BulkResult =>
  bulkResultSchema.parse({ id, status, bulk_type: 'ga', total: 2, processed: 2, file_url: `f/${id}`, created_at: null });
const rare = (body: Record<string, unknown>): RareStatus => rareStatusSchema.parse(body);

/** A client with the two resources the store uses; `pages` is what each bulk page returns. */
function fakeClient(opts: { status?: () => RareStatus; results?: RareResult[]; pages: BulkResult[][]; failBulk?: boolean }) {
  const calls: string[] = [];
  const client = {
    rare: {
      status: async () => {
        calls.push('status');
        if (!opts.status) throw new Error('not available');
        return opts.status();
      },
      results: async () => (calls.push('results'), opts.results ?? []),
    },
    bulk: {
      results: async (page: number): Promise<BulkResultsPage> => {
        calls.push(`bulk:${page}`);
        if (opts.failBulk) throw new Error('bulk down');
        return { results: opts.pages[page - 1] ?? [], page, total_pages: opts.pages.length };
      },
    },
  };
  return { client: client as never, calls, opts };
}

describe('jobsStore', () => {
  it('fetches everything; a failing part keeps its error and the others update', async () => {
    const store = new JobsStore((e) => `shown: ${(e as Error).message}`);
    const { client } = fakeClient({
      results: [
        { id: 'old', created_at: '2025-01-01T00:00:00Z' },
        { id: 'new', created_at: '2025-02-01T00:00:00Z' },
      ] as RareResult[],
      pages: [[b('1')]],
    });
    await store.refresh(client);
    assert.equal(store.rareError, 'shown: not available');
    assert.deepEqual(
      store.rareResults.map((r) => r.id),
      ['new', 'old'],
    );
    assert.deepEqual(
      store.bulk.map((x) => x.id),
      ['1'],
    );
    assert.equal(store.loaded, true);
    assert.equal(store.newestRareResult()?.id, 'new');
  });

  it('pages bulk results with Load more, and refresh re-fetches every loaded page merged by id', async () => {
    const store = new JobsStore(String);
    const f = fakeClient({ status: () => rare({ build_status: 'idle' }), pages: [[b('3'), b('2')], [b('1')]] });
    await store.refresh(f.client);
    assert.equal(store.hasMoreBulk, true);
    await store.loadMoreBulk(f.client);
    assert.deepEqual(
      store.bulk.map((x) => x.id),
      ['3', '2', '1'],
    );
    assert.equal(store.hasMoreBulk, false);
    // A new run shifts "2" to page 2: it must not appear twice.
    f.opts.pages = [
      [b('4', 'queued'), b('3')],
      [b('2'), b('1')],
    ];
    f.calls.length = 0;
    await store.refresh(f.client);
    assert.deepEqual(
      f.calls.filter((c) => c.startsWith('bulk')),
      ['bulk:1', 'bulk:2'],
    );
    assert.deepEqual(
      store.bulk.map((x) => x.id),
      ['4', '3', '2', '1'],
    );
  });

  it('tells a state change (resets the backoff) from a progress change (redraw only)', async () => {
    const store = new JobsStore(String);
    let s: RareStatus = rare({ build_status: 'running', build_progress: { percent: 10 } });
    const f = fakeClient({ status: () => s, pages: [[]] });
    await store.refresh(f.client);
    const state = store.stateSignature();
    const content = store.contentSignature();
    s = rare({ build_status: 'running', build_progress: { percent: 50 } });
    await store.refresh(f.client);
    assert.equal(store.stateSignature(), state);
    assert.notEqual(store.contentSignature(), content);
    s = rare({ build_status: 'completed', build_progress: { percent: 100 } });
    await store.refresh(f.client);
    assert.notEqual(store.stateSignature(), state);
  });

  it('keeps the loaded results when bulk fails, and forgets everything on reset', async () => {
    const store = new JobsStore((e) => (e as Error).message);
    const f = fakeClient({ status: () => rare({}), pages: [[b('1')]] });
    await store.refresh(f.client);
    f.opts.failBulk = true;
    await store.refresh(f.client);
    assert.equal(store.bulkError, 'bulk down');
    assert.deepEqual(
      store.bulk.map((x) => x.id),
      ['1'],
    );
    store.reset();
    assert.deepEqual([store.bulk, store.rare, store.loaded, store.bulkPages], [[], undefined, false, 0]);
  });
});
