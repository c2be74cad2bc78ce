import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { ApiClient } from '../../../src/api/client';
import { BadRequestError } from '../../../src/api/errors';
import type { HistoryParams } from '../../../src/api/resources/faq';
import { FaqService } from '../../../src/local/faq/faqService';
import { startLocalService, type LocalService } from '../../../src/local/service';
import { Journal } from '../../../src/local/store/journal';

/** Local noon `days` ago, and its date: history is dated in the service's local time. */
const noon = (daysAgo: number): number => {
  const d = new Date();
  d.setHours(12, 0, 0, 0);
  d.setDate(d.getDate() - daysAgo);
  return d.getTime();
};
const day = (daysAgo: number): string => new Date(noon(daysAgo)).toLocaleDateString('sv');

const searchParams = (query: string) => ({
  query,
  maxResults: -1,
  format: 'html' as const,
  hashtags: [],
  hashtagsOperator: 'OR' as const,
  autoRegisterCandidates: true,
});

describe('Q&A search history, daily count and daily analytics (local service)', () => {
  let dir: string;
  let service: LocalService;
  const ids = { vpn: '', leave: '' };
  const seeded: string[] = [];
  const client = (agentEmail?: string) =>
    new ApiClient({ baseUrl: service.url, apiKey: service.apiKey, identity: agentEmail ? { agentEmail } : {} });

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-faq-analytics-'));
    // Searches of earlier days cannot be made through HTTP: record them through the store with the clock set back.
    const journal = await Journal.open({ dir: path.join(dir, 'db'), fsync: false });
    const faq = new FaqService(journal);
    const realNow = Date.now;
    try {
      Date.now = () => noon(5);
      ids.vpn = (await faq.register({ question: 'How do I set up the VPN?', answer: 'Install the client.', status: 'on' }, {})).id;
      ids.leave = (await faq.register({ question: '有給休暇の申請方法', answer: '人事システムから', status: 'on' }, {})).id;
      Date.now = () => noon(3);
      seeded.push((await faq.search(searchParams('How do I set up the VPN?'), { agentEmail: 'old@example.com' })).hashId);
      seeded.push((await faq.search(searchParams('VPN setup question'), {})).hashId);
      Date.now = () => noon(3) + 1000;
      await faq.selectAnswer(seeded[0], ids.vpn);
      Date.now = () => noon(1);
      seeded.push((await faq.search(searchParams('有給休暇の申請方法'), { userEmail: 'u@example.com' })).hashId);
      await faq.selectAnswer(seeded[2], ids.leave);
    } finally {
      Date.now = realNow;
    }
    await journal.close();
    service = await startLocalService({ dataDir: dir, fsync: false });
    // Today: the VPN Q&A is shown three more times and selected once; the leave one is shown once.
    for (const q of ['How do I set up the VPN?', 'how do I set up the vpn', 'VPN set up how']) {
      const s = await client('today@example.com').faq.search({ query: q });
      if (q === 'how do I set up the vpn') await client().faq.selectAnswer({ hashId: s.hashId, id: ids.vpn });
    }
    await client().faq.search({ query: '有給休暇の申請方法' });
  });
  after(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  const histories = async (params: HistoryParams = {}) => (await client().faq.searchHistory(params)).histories;

  it('lists every recorded search, latest first, with the documented shape', async () => {
    const res = await request(`${service.url}/webapi/faq_histories`, { headers: { 'API-KEY': service.apiKey } });
    const json = (await res.body.json()) as any;
    assert.deepEqual(Object.keys(json), ['result', 'errors']);
    assert.deepEqual(json.errors, {});
    assert.equal(json.result.count, 7);
    assert.deepEqual(
      json.result.histories.map((h: any) => h.question),
      [
        '有給休暇の申請方法',
        'VPN set up how',
        'how do I set up the vpn',
        'How do I set up the VPN?',
        '有給休暇の申請方法',
        'VPN setup question',
        'How do I set up the VPN?',
      ],
    );
    const oldest = json.result.histories[6];
    assert.deepEqual(Object.keys(oldest).sort(), ['agent', 'answers', 'createdAt', 'id', 'question']);
    assert.equal(oldest.id, seeded[0]);
    assert.deepEqual(oldest.agent, { id: 'old@example.com' });
    assert.equal(oldest.createdAt, noon(3));
    assert.deepEqual(oldest.answers, [{ faq: { id: ids.vpn }, effectiveConfidence: 1, confidence: 1 }]);
    assert.deepEqual(json.result.histories[4].agent, { id: null }, 'a user search has no agent');
  });

  it('sorts ASC, filters by inclusive dates and by a term of the query, and pages', async () => {
    assert.deepEqual((await histories({ sortOrder: 'ASC' })).map((h) => h.id).slice(0, 3), seeded);
    assert.deepEqual(
      (await histories({ startDate: day(3), endDate: day(3) })).map((h) => h.id),
      [seeded[1], seeded[0]],
    );
    assert.deepEqual(
      (await histories({ startDate: day(2), endDate: day(1) })).map((h) => h.id),
      [seeded[2]],
    );
    assert.equal((await histories({ startDate: day(0) })).length, 4);
    assert.equal((await histories({ endDate: day(1) })).length, 3);
    assert.deepEqual(await histories({ startDate: day(10), endDate: day(4) }), []);
    assert.deepEqual(
      (await histories({ searchTerm: 'VPN SET' })).map((h) => h.question),
      ['VPN set up how', 'VPN setup question'],
      'one substring, case ignored',
    );
    assert.equal((await histories({ searchTerm: 'ｖｐｎ' })).length, 5, 'full-width matches too');
    assert.deepEqual(
      (await histories({ searchTerm: '休暇', startDate: day(1), endDate: day(1) })).map((h) => h.id),
      [seeded[2]],
    );
    const page = await client().faq.searchHistory({ offset: 2, limit: 2 });
    assert.equal(page.count, 7);
    assert.deepEqual(
      page.histories.map((h) => h.question),
      ['how do I set up the vpn', 'How do I set up the VPN?'],
    );
  });

  it('rejects invalid dates, sort orders and limits with 400 naming the parameter', async () => {
    const bad: Array<[HistoryParams, string]> = [
      [{ startDate: '2024-02-30' }, 'startDate'],
      [{ endDate: 'yesterday' }, 'endDate'],
      [{ startDate: '2024/01/01' }, 'startDate'],
      [{ startDate: day(1), endDate: day(3) }, 'endDate'],
      [{ sortOrder: 'UP' as never }, 'sortOrder'],
      [{ sortOrder: 'desc' as never }, 'sortOrder'],
      [{ limit: 1001 }, 'limit'],
      [{ offset: -1 }, 'offset'],
    ];
    for (const [params, field] of bad) {
      await assert.rejects(
        client().faq.searchHistory(params),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(params),
      );
    }
    assert.equal((await histories({ limit: 1000, startDate: '2024-02-29' })).length, 7, 'a leap day is a date');
  });

  it('counts searches per day over every day of the range, zeros included', async () => {
    const res = await client().faq.dailyCount({ startDate: day(4), endDate: day(0) });
    assert.deepEqual(res.dailyTotalCount, [
      { date: day(4), count: 0 },
      { date: day(3), count: 2 },
      { date: day(2), count: 0 },
      { date: day(1), count: 1 },
      { date: day(0), count: 4 },
    ]);
    assert.equal(res.state, 'DONE');
    assert.equal(res.campaignCount, 0);
    assert.deepEqual((await client().faq.dailyCount({ startDate: day(0), endDate: day(0) })).dailyTotalCount, [{ date: day(0), count: 4 }]);
  });

  it('reads daily count dates from a JSON body too (the sample shape), with the documented body', async () => {
    const res = await request(`${service.url}/webapi/faq_daily_count`, {
      method: 'GET',
      headers: { 'API-KEY': service.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ startDate: day(3), endDate: day(2) }),
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), {
      result: {
        dailyTotalCount: [
          { date: day(3), count: 2 },
          { date: day(2), count: 0 },
        ],
        state: 'DONE',
        campaignCount: 0,
      },
      errors: {},
    });
  });

  it('rejects missing or invalid dates, an end before the start and ranges over 366 days', async () => {
    const bad: Array<[Record<string, string>, string]> = [
      [{ endDate: day(0) }, 'startDate'],
      [{ startDate: day(0) }, 'endDate'],
      [{ startDate: '2024-13-01', endDate: day(0) }, 'startDate'],
      [{ startDate: day(0), endDate: day(1) }, 'endDate'],
      [{ startDate: '2023-01-01', endDate: '2024-01-02' }, 'endDate'],
    ];
    for (const [params, field] of bad) {
      await assert.rejects(
        client().faq.dailyCount(params as never),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(params),
      );
    }
    assert.equal(
      (await client().faq.dailyCount({ startDate: '2024-01-01', endDate: '2024-12-31' })).dailyTotalCount.length,
      366,
      'a leap year fits',
    );
  });

  it('reports the most shown Q&As with selections per day and selectedRatio = selected / shown', async () => {
    const res = await client().faq.dailyAnalytics({ topN: 5, startDate: day(3), endDate: day(0) });
    const rows = res.faqDailyAnalytics;
    assert.deepEqual(
      rows.map((r) => r.faq),
      [
        { id: ids.vpn, question: 'How do I set up the VPN?' },
        { id: ids.leave, question: '有給休暇の申請方法' },
      ],
    );
    const [vpn, leave] = rows;
    // VPN: shown by 2 searches three days ago and 3 today; selected once on each of those days.
    assert.equal(vpn.totalShownCount, 5);
    assert.equal(vpn.totalCount, 2);
    assert.equal(vpn.selectedRatio, 2 / 5);
    assert.deepEqual(vpn.stats, [
      { date: day(3), selectedCount: 1 },
      { date: day(2), selectedCount: 0 },
      { date: day(1), selectedCount: 0 },
      { date: day(0), selectedCount: 1 },
    ]);
    assert.deepEqual([leave.totalShownCount, leave.totalCount, leave.selectedRatio], [2, 1, 0.5]);
    const todayOnly = await client().faq.dailyAnalytics({ topN: 1, startDate: day(0), endDate: day(0) });
    assert.equal(todayOnly.faqDailyAnalytics.length, 1);
    assert.deepEqual(
      [todayOnly.faqDailyAnalytics[0].faq.id, todayOnly.faqDailyAnalytics[0].totalShownCount, todayOnly.faqDailyAnalytics[0].totalCount],
      [ids.vpn, 3, 1],
    );
    assert.deepEqual((await client().faq.dailyAnalytics({ topN: 20, startDate: day(2), endDate: day(2) })).faqDailyAnalytics, []);
  });

  it('rejects a topN other than 1, 5, 10 or 20', async () => {
    for (const topN of [0, 3, 21, 100, 'x', undefined]) {
      await assert.rejects(
        client().faq.dailyAnalytics({ topN, startDate: day(0), endDate: day(0) } as never),
        (e: unknown) => e instanceof BadRequestError && e.field === 'topN',
        String(topN),
      );
    }
    await assert.rejects(
      client().faq.dailyAnalytics({ topN: 10, startDate: day(0) } as never),
      (e: unknown) => e instanceof BadRequestError && e.field === 'endDate',
    );
  });
});
