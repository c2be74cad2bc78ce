// Promote between connections (issue 27): two real local services as two projects, compared and copied over HTTP.
import assert from 'node:assert/strict';
import { applyQaItems } from '../../../src/api/promote/applyQas';
import { PromoteRefusedError } from '../../../src/api/promote/promoteErrors';
import { compareProjectQas } from '../../../src/api/promote/readQas';
import { ApiClient } from '../../../src/api/client';
import { OfferMemory } from '../../../src/api/offers';
import { qaCsv } from '../../../src/core/qaFile/exportCsv';
import { closeCannedServers, startCannedServer } from '../support/cannedServer';
import { startTestService, type TestService } from '../support/localService';

describe('Promote Q&As between two projects (two local services)', () => {
  let a: TestService;
  let b: TestService;
  let source: ApiClient;
  let target: ApiClient;
  beforeEach(async () => {
    [a, b] = await Promise.all([startTestService({ fsync: false }), startTestService({ fsync: false })]);
    [source, target] = [a.client(), b.client()];
  });
  afterEach(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await closeCannedServers();
  });

  const qa = (question: string, extra: Partial<Parameters<ApiClient['faq']['register']>[0]> = {}) => ({
    question,
    answer: `Answer to ${question}`,
    status: 'on' as const,
    similarQuestions: [] as string[],
    hashtags: [] as string[],
    ...extra,
  });

  it('lists new, changed (field by field, in the import dry run words), same and only-in-target; applying makes the target like the source', async () => {
    await source.faq.register(
      qa('Only in source?', { hashtags: ['hr'], status: 'off', folder: 'People/Leave', similarQuestions: ['Source only'] }),
    );
    await source.faq.register(qa('Changed?', { answer: 'New answer', hashtags: ['a', 'b'], folder: 'Docs' }));
    await source.faq.register(qa('Same?', { hashtags: ['x'] }));
    await target.faq.register(qa('changed?', { answer: 'Old answer', hashtags: ['a'], status: 'off' }));
    await target.faq.register(qa('Same?', { hashtags: ['x'] }));
    await target.faq.register(qa('Only in target?'));

    const cmp = await compareProjectQas(source, target);
    assert.deepEqual(cmp.counts, { new: 1, changed: 1, same: 1, onlyInTarget: 1 });
    const changed = cmp.items.find((i) => i.kind === 'changed')!;
    assert.equal(changed.question, 'Changed?', 'matched by the normalized question, as the import matches');
    assert.deepEqual(changed.changes!.map((c) => c.field).sort(), ['answer', 'folder', 'hashtags', 'status']);
    assert.ok(changed.changes!.some((c) => c.text === 'hashtags #a → #a #b'));

    const out = await applyQaItems(source, target, cmp.items);
    assert.deepEqual([out.created, out.updated, out.deleted, out.failed], [1, 1, 0, 0], 'nothing deleted unless asked');
    assert.deepEqual(
      [...out.outcomes.values()].map((o) => o.status),
      ['done', 'done'],
      'one outcome per picked copy',
    );

    const again = await compareProjectQas(source, target);
    assert.deepEqual(again.counts, { new: 0, changed: 0, same: 3, onlyInTarget: 1 });
    const copied = again.items.find((i) => i.question === 'Only in source?')!.target!;
    assert.deepEqual(
      [copied.hashtags, copied.status, copied.folder, copied.similarQuestions],
      [['hr'], 'off', 'People/Leave', ['Source only']],
    );

    const deleted = await applyQaItems(source, target, again.items, { deleteOnlyInTarget: true });
    assert.equal(deleted.deleted, 1, 'only when asked');
    assert.deepEqual((await compareProjectQas(source, target)).counts, { new: 0, changed: 0, same: 3, onlyInTarget: 0 });
  });

  it('a selection compares only the chosen Q&As, and lists nothing as only in the target', async () => {
    const { id } = await source.faq.register(qa('Picked?'));
    await source.faq.register(qa('Not picked?'));
    await target.faq.register(qa('Elsewhere?'));
    const cmp = await compareProjectQas(source, target, { ids: [id] });
    assert.deepEqual(
      cmp.items.map((i) => [i.kind, i.question]),
      [['new', 'Picked?']],
    );
  });

  it('refuses to copy a project onto itself (same address, same key), before any request', async () => {
    const again = new ApiClient({ baseUrl: `${a.service.url.replace('127.0.0.1', 'localhost')}/`, apiKey: a.service.apiKey });
    await assert.rejects(
      compareProjectQas(source, again),
      (e: unknown) => e instanceof PromoteRefusedError && e.reason === 'sameProject' && /same project/.test(e.message),
    );
  });

  it('a target without the Q&A listing (405) or where it is missing (404) is refused with a message naming the target', async () => {
    for (const status of [405, 404]) {
      const canned = await startCannedServer(() => ({ status, body: { errors: 'Method Not Allowed' } }));
      const missing = new ApiClient({ baseUrl: canned.url, apiKey: 'k', retry: { maxRetries: 0 }, offerMemory: new OfferMemory() });
      await assert.rejects(compareProjectQas(source, missing), (e: unknown) => {
        assert.ok(e instanceof PromoteRefusedError && e.reason === 'notOffered', String(e));
        assert.match(e.message, new RegExp(`^The target project does not offer GET /webapi/faqs \\(answer: ${status}\\)`));
        return true;
      });
    }
  });

  it('5,000 Q&As: compared; 500 picked, cancelled part way and resumed with no duplicate', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      question: `Question number ${i}?`,
      answer: `Answer ${i}`,
      hashtags: [`t${i % 7}`],
      status: i % 5 ? ('on' as const) : ('off' as const),
      folder: `F${i % 3}`,
    }));
    const stale = rows.slice(0, 250).map((r, i) => (i % 2 ? r : { ...r, answer: 'stale' }));
    await source.faq.uploadFile({ kind: 'buffer', data: qaCsv(rows), fileName: 'qa.csv' });
    await target.faq.uploadFile({ kind: 'buffer', data: qaCsv(stale), fileName: 'qa.csv' });
    const cmp = await compareProjectQas(source, target, { concurrency: 16 });
    assert.deepEqual(cmp.counts, { new: 4750, changed: 125, same: 125, onlyInTarget: 0 });

    const wanted = new Set(rows.slice(0, 625).map((r) => r.question.toLowerCase()));
    const pick = (items: typeof cmp.items) => items.filter((i) => wanted.has(i.key) && i.kind !== 'same');
    assert.equal(pick(cmp.items).length, 500);
    const stop = new AbortController();
    const first = await applyQaItems(source, target, pick(cmp.items), {
      signal: stop.signal,
      concurrency: 8,
      onProgress: (done) => done >= 200 && stop.abort(),
    });
    assert.ok(first.cancelled > 0 && first.failed === 0, `cancelled ${first.cancelled}, failed ${first.failed}`);
    assert.equal(first.outcomes.size, 500, 'an outcome for every picked item');
    const resumed = await compareProjectQas(source, target, { concurrency: 16 });
    assert.equal(resumed.counts.same, 125 + first.created + first.updated, 'what was done before the cancel is the same now');
    const second = await applyQaItems(source, target, pick(resumed.items), { concurrency: 8 });
    assert.deepEqual([second.failed, second.cancelled], [0, 0]);
    assert.equal((await target.faq.list({ limit: 1 })).total_count, 625, 'no duplicate after the resume');
    const last = await compareProjectQas(source, target, { concurrency: 16 });
    assert.deepEqual(last.counts, { new: 4375, changed: 0, same: 625, onlyInTarget: 0 });
    const off = last.items.find((i) => i.key === 'question number 600?')!.target!;
    assert.deepEqual([off.status, off.folder, off.hashtags], ['off', 'F0', ['t5']], 'status, folder and hashtags carried');
  });
});
