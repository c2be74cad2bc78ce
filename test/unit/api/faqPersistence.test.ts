import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import type { Identity } from '../../../src/api/identity';
import { faqStatus } from '../../../src/api/resources/faq';
import type { FaqRecord } from '../../../src/local/faq/faqRecord';
import { startLocalService, type LocalService } from '../../../src/local/service';
import { Journal } from '../../../src/local/store/journal';
import { FAQS } from '../../../src/local/store/collections';

describe('Q&A data survives a restart of the local service', () => {
  let dir: string;
  let service: LocalService | undefined;
  const client = (identity: Identity = {}) => new ApiClient({ baseUrl: service!.url, apiKey: service!.apiKey, identity });
  const agent = { agentEmail: 'persist@example.com' };
  const ids = { vpn: '', off: '' };
  let hashId = '';
  // The days the selection may be counted on, taken around it: mocha runs this file's body long before its hooks,
  // and a run that crosses midnight counted the selection on the next day (ci19).
  const days = { first: '', last: '' };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-faq-restart-'));
    service = await startLocalService({ dataDir: dir }); // fsync on, as in real use
    ids.vpn = (
      await client(agent).faq.register({
        question: 'VPN接続の設定方法',
        answer: '<p>クライアントを入れる</p>',
        status: 'on',
        hashtags: ['it'],
        similarQuestions: ['VPN setup'],
        memo: 'keep me',
      })
    ).id;
    ids.off = (await client(agent).faq.register({ question: 'Old printer driver', answer: 'Retired.', status: 'off' })).id;
    await client(agent).faq.feedback({ query: 'VPN', id: ids.vpn, isPositive: true });
    await client({ ownUserId: 'u-1' }).faq.feedback({ query: 'VPN', id: ids.vpn, isPositive: false });
    hashId = (await client(agent).faq.search({ query: 'VPN接続の設定方法' })).hashId;
    days.first = new Date().toLocaleDateString('sv');
    await client().faq.selectAnswer({ hashId, id: ids.vpn });
    days.last = new Date().toLocaleDateString('sv');
    await client().faq.search({ query: 'Where can I park my bicycle?' });
    await client().faq.search({ query: 'where can i park my BICYCLE?' });
    await client().faq.addCandidates(['会議室の予約方法']);
    await client(agent).faq.register({ question: '会議室の予約方法', answer: 'カレンダーから', status: 'on' });
    await service.close();
    service = await startLocalService({ dataDir: dir });
  });
  after(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps Q&As with their fields, status and feedback', async () => {
    const list = await client().faq.list();
    assert.equal(list.total_count, 3);
    const vpn = await client().faq.get(ids.vpn);
    assert.equal(vpn.question, 'VPN接続の設定方法');
    assert.deepEqual(vpn.similar_questions, ['VPN setup']);
    assert.deepEqual(vpn.hashtags, ['it']);
    assert.deepEqual(vpn.agentFeedback, { positiveCount: 1, negativeCount: 0 });
    assert.deepEqual(vpn.userFeedback, { positiveCount: 0, negativeCount: 1 });
    assert.equal(faqStatus(await client().faq.get(ids.off)), 'off');
    assert.deepEqual((await client().faq.filter({ createdByAgent: true })).total_count, 3);
  });

  it('rebuilds the search index: the same scores, off Q&As still excluded', async () => {
    const res = await client().faq.search({ query: 'VPN setup', autoRegisterCandidates: false });
    assert.equal(res.result[0].id, ids.vpn);
    assert.equal(res.result[0].confidence, 1);
    assert.equal(res.result[0].effectiveConfidence, 1 + (0.05 * 0) / 3);
    const ja = await client().faq.search({ query: 'VPN接続の設定方法', autoRegisterCandidates: false });
    assert.equal(ja.result[0].confidence, 1);
    assert.deepEqual((await client().faq.search({ query: 'Old printer driver', autoRegisterCandidates: false })).result, []);
  });

  it('rebuilds the question index and the votes: register updates, a vote replaces', async () => {
    const again = await client(agent).faq.register({ question: 'vpn接続の設定方法', answer: '<p>新しい手順</p>', status: 'on' });
    assert.deepEqual(again, { status: 'updated', id: ids.vpn });
    await client({ ownUserId: 'u-1' }).faq.feedback({ query: 'VPN', id: ids.vpn, isPositive: true });
    assert.deepEqual((await client().faq.get(ids.vpn)).userFeedback, { positiveCount: 1, negativeCount: 0 });
  });

  it('keeps search history, selections, candidates and their states', async () => {
    const history = await client().faq.searchHistory({ sortOrder: 'ASC' });
    assert.ok(history.count! >= 3);
    assert.equal(history.histories[0].id, hashId);
    assert.equal(history.histories[0].agent?.id, agent.agentEmail);
    const analytics = await client().faq.dailyAnalytics({ topN: 1, startDate: days.first, endDate: days.last });
    assert.equal(analytics.faqDailyAnalytics[0].faq.id, ids.vpn);
    assert.equal(analytics.faqDailyAnalytics[0].totalCount, 1, 'the selection survived');
    const all = (await client().faq.candidates({ status: 'ALL' })).faqCandidates;
    const bike = all.find((c) => c.questions[0].question === 'Where can I park my bicycle?');
    assert.equal(bike?.frequency, 2);
    assert.equal(bike?.state, 'ACTIVE');
    assert.equal(all.find((c) => c.questions[0].question === '会議室の予約方法')?.state, 'ARCHIVED');
    // Counting continues on the same candidate after the restart.
    await client().faq.search({ query: 'Where can I park my bicycle?' });
    assert.equal((await client().faq.candidates()).faqCandidates.find((c) => c.id === bike?.id)?.frequency, 3);
  });

  it('stores the memo durably although no operation returns it', async () => {
    await service!.close();
    const journal = await Journal.open({ dir: path.join(dir, 'db'), fsync: false });
    try {
      assert.equal(journal.get<FaqRecord>(FAQS, ids.vpn)?.memo, 'keep me');
    } finally {
      await journal.close();
    }
    service = await startLocalService({ dataDir: dir });
    assert.equal((await client().faq.list()).total_count, 3);
  });
});
