import assert from 'node:assert/strict';
import {
  addDays,
  datesBetween,
  defaultQuery,
  loadAnalytics,
  toIso,
  type AnalyticsClient,
} from '../../../src/features/qna/analytics/analyticsData';
import { analyticsStrings } from '../../../src/features/qna/analytics/analyticsStrings';
import { analyticsProtocol, analyticsStateSchema, type AnalyticsData } from '../../../src/features/qna/analytics/protocol';
import { answerPending, deliver, FakeVsCodeApi, loadPage, makeWindow, tick, type El, type Win } from './support/page';

const query = { startDate: '2025-01-01', endDate: '2025-01-05', topN: 5 as const };

function fakeClient(
  overrides: Partial<Record<keyof AnalyticsClient, (...a: any[]) => Promise<unknown>>> = {},
): AnalyticsClient & { calls: string[] } {
  const calls: string[] = [];
  const client = {
    calls,
    dailyCount: async (p: unknown) => (
      calls.push(`dailyCount ${JSON.stringify(p)}`),
      {
        dailyTotalCount: [
          { date: '2025-01-02', count: 4 },
          { date: '2025-01-04', count: 1 },
        ],
      }
    ),
    dailyAnalytics: async (p: unknown) => (
      calls.push(`dailyAnalytics ${JSON.stringify(p)}`),
      {
        faqDailyAnalytics: [
          { totalCount: 2, totalShownCount: 5, selectedRatio: 0.4, faq: { id: 'f1', question: '経費精算の締め日は？' }, stats: [] },
        ],
      }
    ),
    searchHistory: async (p: unknown) => (
      calls.push(`searchHistory ${JSON.stringify(p)}`),
      {
        histories: [
          { question: '締め日', answers: [{ faq: { id: 'f1' }, confidence: 0.91, effectiveConfidence: 0.93 }], createdAt: 1736000000 },
          { question: 'VPN', answers: [{ faq: { id: 'f2' }, confidence: 0.6, effectiveConfidence: null }] },
          { question: 'nothing', answers: [] },
        ],
      }
    ),
    feedbackHistory: async (p: unknown) => (
      calls.push(`feedbackHistory ${JSON.stringify(p)}`),
      {
        result: [
          {
            query: '締め日',
            feedbacks: [
              { isPositive: true, faq: { id: 'f1' }, createdAt: 1736000000000 },
              { isPositive: false, faqId: 'f1' },
            ],
          },
        ],
      }
    ),
    get: async (id: string) => (calls.push(`get ${id}`), { id, question: id === 'f2' ? 'VPN に接続できない' : '?' }),
    ...overrides,
  };
  return client as unknown as AnalyticsClient & { calls: string[] };
}

describe('Q&A analytics: data', () => {
  it('defaults to the last 14 local days', () => {
    const q = defaultQuery(new Date(2025, 0, 14, 23, 30));
    assert.deepEqual(q, { startDate: '2025-01-01', endDate: '2025-01-14', topN: 10 });
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
    assert.deepEqual(datesBetween('2024-12-31', '2025-01-02'), ['2024-12-31', '2025-01-01', '2025-01-02']);
  });

  it('loads the four parts, zero-fills days and names the top answers', async () => {
    const client = fakeClient();
    const { data, failures } = await loadAnalytics(client, query, String);
    assert.deepEqual(failures, []);
    assert.deepEqual(
      data.daily.map((d) => d.count),
      [0, 4, 0, 1, 0],
    );
    assert.deepEqual(data.top, [{ id: 'f1', question: '経費精算の締め日は？', shown: 5, selected: 2, selectedRatio: 0.4 }]);
    assert.deepEqual(
      data.searches.map((s) => [s.question, s.topAnswer?.question ?? null, s.confidence]),
      [
        ['締め日', '経費精算の締め日は？', 0.91],
        ['VPN', 'VPN に接続できない', 0.6],
        ['nothing', null, null],
      ],
    );
    assert.equal(data.searches[0].time, new Date(1736000000 * 1000).toISOString());
    assert.deepEqual(data.feedback, [
      { query: '締め日', positive: 1, negative: 1, total: 2, faqs: ['経費精算の締め日は？'], time: new Date(1736000000000).toISOString() },
    ]);
    assert.ok(
      client.calls.includes('searchHistory {"startDate":"2025-01-01","endDate":"2025-01-05","limit":50,"offset":0,"sortOrder":"DESC"}'),
    );
    assert.ok(client.calls.includes('feedbackHistory {"limit":50,"offset":0}'));
    assert.deepEqual(
      client.calls.filter((c) => c.startsWith('get')),
      ['get f2'],
      'only unknown answers are looked up',
    );
  });

  it('keeps the other parts when one fails', async () => {
    const client = fakeClient({ feedbackHistory: async () => Promise.reject(new Error('not available in the local service')) });
    const { data, failures } = await loadAnalytics(client, query, (e) => (e as Error).message);
    assert.deepEqual(
      failures.map((f) => f.section),
      ['feedback'],
    );
    assert.deepEqual(data.problems, { feedback: 'not available in the local service' });
    assert.equal(data.top.length, 1);
  });

  it('reads times in seconds, milliseconds or text', () => {
    assert.equal(toIso(1736000000), toIso(1736000000000));
    assert.equal(toIso('2025-01-04T10:00:00Z'), '2025-01-04T10:00:00.000Z');
    assert.equal(toIso('soon'), null);
    assert.equal(toIso(undefined), null);
  });
});

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => unknown }>('src/webview/shared/messenger');
const { AnalyticsView } = loadPage<{ AnalyticsView: new (doc: El, m: unknown) => { charts: unknown; start(app: El): void } }>(
  'src/webview/analytics/analyticsView',
);

describe('Q&A analytics page (jsdom, charts stubbed)', () => {
  let win: Win;
  let api: FakeVsCodeApi;
  const drawn: AnalyticsData[] = [];
  beforeEach(() => {
    win = makeWindow('<main id="app"></main>', undefined, analyticsStrings());
    api = new FakeVsCodeApi();
    drawn.length = 0;
    const view = new AnalyticsView(win.document, new Messenger(analyticsProtocol, api, win));
    view.charts = {
      draw: (d: AnalyticsData) => (drawn.push(d), { dailyPoints: d.daily.length, topBars: d.top.length }),
      retheme: () => undefined,
    };
    view.start(win.document.getElementById('app'));
  });
  afterEach(() => answerPending(win, api));

  it('loads the default range, draws, reports what it drew and shows service text as text', async () => {
    deliver(win, { kind: 'notify', type: 'init', payload: { defaultQuery: query, today: '2025-01-05' } });
    await tick();
    const [load] = api.sent('request', 'load');
    assert.deepEqual(load.params, { query });
    assert.equal(win.document.querySelector('.kd-progress').hidden, false, 'progress while loading');
    const { data } = await loadAnalytics(
      fakeClient({ searchHistory: async () => ({ histories: [{ question: '<img src=x onerror=alert(1)>', answers: [] }] }) }),
      query,
      String,
    );
    deliver(win, { kind: 'response', id: load.id, ok: true, result: data });
    await tick();
    assert.equal(drawn.length, 1);
    assert.equal(win.document.querySelector('.kd-progress').hidden, true, 'no progress once loaded');
    assert.equal(win.document.querySelector('.kd-controls button').disabled, false);
    assert.deepEqual(api.sent('notify', 'rendered')[0].payload, {
      dailyPoints: 5,
      topBars: 1,
      searchRows: 1,
      feedbackRows: 1,
      answerFeedbackRows: 0,
      charts: ['daily:line', 'top:bar'],
    });
    const cell = win.document.querySelector('section[aria-labelledby="an-search-title"] td');
    assert.equal(cell.textContent, '<img src=x onerror=alert(1)>');
    assert.equal(win.document.querySelector('.kd-table img'), null);
    assert.deepEqual(analyticsStateSchema.parse(api.state), { query });
    assert.match(win.document.querySelector('.kd-stat-cards').textContent, /Searches5/);
  });

  it('keeps the connection the host names in its state, so a restart reopens the panel there (issue 27)', async () => {
    const beta = { id: 'conn-beta', name: 'Beta' };
    deliver(win, { kind: 'notify', type: 'init', payload: { defaultQuery: query, today: '2025-01-05', connection: beta } });
    await tick();
    assert.deepEqual(analyticsStateSchema.parse(api.state), { query, connection: beta });
  });

  it('refuses a range that ends before it starts', async () => {
    deliver(win, { kind: 'notify', type: 'init', payload: { defaultQuery: query, today: '2025-01-05' } });
    await tick();
    const start = win.document.getElementById('an-start');
    start.value = '2025-02-01';
    start.dispatchEvent(new win.Event('change'));
    await tick();
    assert.equal(api.sent('request', 'load').length, 1, 'no second load');
    assert.match(win.document.querySelector('.kd-banner-error').textContent, /start date is after the end date/);
  });
});
