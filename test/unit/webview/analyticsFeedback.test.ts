// The analytics panel's answer feedback history (mrc_feedbacks) loaded by the real client from the real local
// service (and from canned deployments that do not offer it, fail, or add times), and the page built with
// Japanese texts: headings, the charts' table alternatives, the feedback states.
import assert from 'node:assert/strict';
import { ANSWER_EXCERPT, answerFeedbackClient, loadAnalytics } from '../../../src/features/qna/analytics/analyticsData';
import { analyticsStrings, type AnalyticsStrings } from '../../../src/features/qna/analytics/analyticsStrings';
import { analyticsProtocol, type AnalyticsData } from '../../../src/features/qna/analytics/protocol';
import { ApiClient } from '../../../src/api/client';
import { OfferMemory } from '../../../src/api/offers';
import { isFileNode } from '../../../src/api/values';
import { startCannedServer, type CannedResponse, type CannedServer } from '../support/cannedServer';
import { startTestService, type TestService } from '../support/localService';
import { inJapanese, visibleTexts } from './support/japanese';
import { answerPending, deliver, FakeVsCodeApi, loadPage, makeWindow, tick, type El, type Win } from './support/page';

const query = { startDate: '2025-01-01', endDate: '2025-01-05', topN: 5 as const };
const LONG_ANSWER = `New employees get ten days of paid leave in their first year. ${'The days grow by one each year of service. '.repeat(8)}`;

describe('Q&A analytics: answer feedback history (client against the local service)', () => {
  let t: TestService;
  let canned: CannedServer | undefined;
  let documentId = '';
  let goneId = '';
  before(async () => {
    t = await startTestService();
    const upload = async (fileName: string): Promise<string> => {
      const [node] = await t
        .client()
        .kbNodes.upload({ file: { data: `${fileName}: ten days of paid leave.`, contentType: 'text/plain' }, fileName });
      assert.ok(isFileNode(node));
      return node.id;
    };
    documentId = await upload('leave.txt');
    goneId = await upload('old-policy.txt');
  });
  after(() => t.stop());
  afterEach(async () => {
    await canned?.close();
    canned = undefined;
  });
  const describeError = (e: unknown): string => (e as Error).message;
  /** The answers client of a canned deployment (each test its own offer memory). */
  const cannedAnswers = async (answer: (url: string) => CannedResponse) => {
    canned = await startCannedServer((req) => answer(req.url));
    return new ApiClient({ baseUrl: canned.url, apiKey: 'k', retry: { maxRetries: 0 }, offerMemory: new OfferMemory() }).answers;
  };

  it('is empty, and offered, before anybody rated an answer', async () => {
    const fresh = await startTestService();
    try {
      const { data, failures } = await loadAnalytics(fresh.client().faq, query, describeError, new Date(), fresh.client().answers);
      assert.deepEqual(failures, []);
      assert.deepEqual(data.answerFeedback, { offered: true, rows: [], positive: 0, negative: 0 });
      assert.equal(data.problems.answerFeedback, undefined);
    } finally {
      await fresh.stop();
    }
  });

  it('lists each rated answer (question, excerpt, 👍/👎, document name, or the id of one deleted since) with the counts', async () => {
    const answers = t.client({ identity: { ownUserId: 'analyst' } }).answers;
    await answers.feedback({ answerHash: 'h-leave', answer: LONG_ANSWER, documentId, query: 'How much paid leave?', positive: true });
    await answers.feedback({ answerHash: 'h-wfh', answer: 'Two days a week.', documentId, query: 'Remote work?', positive: false });
    await answers.feedback({ answerHash: 'h-gone', answer: 'Cancelled.', documentId, query: 'Cancelled one', positive: true });
    await answers.feedback({ answerHash: 'h-gone', answer: 'Cancelled.', documentId, query: 'Cancelled one', positive: null });
    await answers.feedback({ answerHash: 'h-old', answer: 'Old.', documentId: goneId, query: 'About a deleted document', positive: true });
    await t.client().kbNodes.delete(goneId);
    const { data, failures } = await loadAnalytics(t.client().faq, query, describeError, new Date(), answerFeedbackClient(t.client()));
    assert.deepEqual(failures, []);
    const f = data.answerFeedback;
    assert.equal(f.offered, true);
    assert.deepEqual(
      f.rows.map((r) => [r.question, r.positive, r.documentId, r.documentName, r.time]).sort(),
      [
        ['About a deleted document', true, goneId, null, null],
        ['How much paid leave?', true, documentId, 'leave.txt', null],
        ['Remote work?', false, documentId, 'leave.txt', null],
      ],
      'the cancelled vote is gone; the public shape has no time',
    );
    assert.deepEqual([f.positive, f.negative], [2, 1]);
    const leave = f.rows.find((r) => r.question === 'How much paid leave?')!;
    assert.equal([...leave.answer].length, ANSWER_EXCERPT, 'the answer is cut to an excerpt');
    assert.ok(leave.answer.endsWith('…') && LONG_ANSWER.startsWith(leave.answer.slice(0, -1)));
  });

  it('says "not offered" (no failure, the rest still loads) when the deployment answers 404 or 405', async () => {
    for (const status of [404, 405]) {
      const answers = await cannedAnswers(() => ({ status, body: { errors: status === 404 ? 'Not Found' : 'Method Not Allowed GET' } }));
      const { data, failures } = await loadAnalytics(t.client().faq, query, describeError, new Date(), answers);
      assert.deepEqual(failures, [], `HTTP ${status} is not a failure`);
      assert.deepEqual(data.answerFeedback, { offered: false, rows: [], positive: 0, negative: 0 });
      assert.equal(data.problems.answerFeedback, undefined);
      assert.equal(data.daily.length, 5, 'the other sections load');
      await canned!.close();
      canned = undefined;
    }
  });

  it('reports a failing history in its own section only (500, or an answer that is not the documented shape)', async () => {
    for (const response of [{ status: 500, body: { errors: 'boom' } }, { body: { result: 'not a list' } }] as CannedResponse[]) {
      const answers = await cannedAnswers(() => response);
      const { data, failures } = await loadAnalytics(t.client().faq, query, describeError, new Date(), answers);
      assert.deepEqual(
        failures.map((x) => x.section),
        ['answerFeedback'],
      );
      assert.ok(data.problems.answerFeedback, 'the section says why');
      assert.equal(data.answerFeedback.offered, true);
      assert.equal(data.top.length >= 0 && data.daily.length, 5);
      await canned!.close();
      canned = undefined;
    }
  });

  it('reads a time when a deployment adds one, and tolerates missing fields', async () => {
    const answers = await cannedAnswers(() => ({
      body: {
        result: [
          { query: 'q1', feedbacks: [{ document_id: 'd1', answer: 'a1', answer_hash: 'h1', positive: true, created_at: 1736000000 }] },
          { query: null, feedbacks: [{ positive: false }] },
          { query: 'q3' },
        ],
      },
    }));
    const { data } = await loadAnalytics(t.client().faq, query, describeError, new Date(), answers);
    assert.deepEqual(data.answerFeedback.rows, [
      {
        question: 'q1',
        answer: 'a1',
        documentId: 'd1',
        documentName: null,
        positive: true,
        time: new Date(1736000000 * 1000).toISOString(),
      },
      { question: '', answer: '', documentId: '', documentName: null, positive: false, time: null },
    ]);
  });
});

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => unknown }>('src/webview/shared/messenger');
const { AnalyticsView } = loadPage<{ AnalyticsView: new (doc: El, m: unknown) => { charts: unknown; start(app: El): void } }>(
  'src/webview/analytics/analyticsView',
);

const DATA: AnalyticsData = {
  query,
  daily: [
    { date: '2025-01-01', count: 0 },
    { date: '2025-01-02', count: 1234 },
    { date: '2025-01-03', count: 7 },
    { date: '2025-01-04', count: 0 },
    { date: '2025-01-05', count: 2 },
  ],
  top: [
    { id: 'f1', question: '経費精算の締め日は？', shown: 10, selected: 4, selectedRatio: 0.4 },
    { id: 'f2', question: 'VPN に接続できない', shown: 3, selected: 0, selectedRatio: 0 },
  ],
  searches: [
    {
      question: '締め日',
      topAnswer: { id: 'f1', question: '経費精算の締め日は？' },
      confidence: 0.91,
      effectiveConfidence: 0.93,
      time: null,
    },
  ],
  feedback: [],
  answerFeedback: {
    offered: true,
    rows: [
      {
        question: '有給休暇は何日？',
        answer: '入社 1 年目は 10 日です。',
        documentId: 'doc-1',
        documentName: '就業規則.pdf',
        positive: true,
        time: null,
      },
      { question: '在宅勤務は？', answer: '週 2 日までです。', documentId: 'doc-2', documentName: null, positive: false, time: null },
    ],
    positive: 1,
    negative: 1,
  },
  problems: {},
  loadedAt: '2025-01-05T09:00:00.000Z',
};

const opened: Array<{ win: Win; api: FakeVsCodeApi }> = [];
afterEach(() => opened.splice(0).forEach(({ win, api }) => answerPending(win, api)));

/** The page, built and loaded with `data` as the host would, in `lang` with `strings`. */
async function showPage(
  strings: AnalyticsStrings,
  lang: string,
  data: AnalyticsData,
): Promise<{ win: Win; api: FakeVsCodeApi; drawn: AnalyticsData[] }> {
  const win = makeWindow('<main id="app"></main>', undefined, strings, lang);
  const api = new FakeVsCodeApi();
  opened.push({ win, api });
  const drawn: AnalyticsData[] = [];
  const view = new AnalyticsView(win.document, new Messenger(analyticsProtocol, api, win));
  view.charts = {
    draw: (d: AnalyticsData) => (drawn.push(d), { dailyPoints: d.daily.length, topBars: d.top.length }),
    retheme: () => undefined,
  };
  view.start(win.document.getElementById('app'));
  deliver(win, { kind: 'notify', type: 'init', payload: { defaultQuery: query, today: '2025-01-05' } });
  await tick();
  const [load] = api.sent('request', 'load');
  deliver(win, { kind: 'response', id: load.id, ok: true, result: data });
  await tick();
  return { win, api, drawn };
}

const section = (win: Win, id: string): El => win.document.querySelector(`section[aria-labelledby="${id}"]`);
const rows = (table: El): string[][] =>
  (Array.from(table.querySelectorAll('tbody tr')) as El[]).map((tr) =>
    (Array.from(tr.querySelectorAll('td')) as El[]).map((td) => td.textContent),
  );

describe('Q&A analytics page in Japanese (jsdom, charts stubbed)', () => {
  const ja = inJapanese(analyticsStrings);
  const en = analyticsStrings();

  it('shows the Japanese texts from the host and no English of its own', async () => {
    assert.notEqual(ja.title, en.title, 'the bundle was applied');
    const { win } = await showPage(ja, 'ja', DATA);
    const doc = win.document;
    assert.equal(doc.querySelector('h1').textContent, 'Q&A の分析');
    assert.deepEqual(
      (Array.from(doc.querySelectorAll('h2')) as El[]).map((h) => h.textContent),
      [ja.dailyTitle, ja.topTitle, ja.searchesTitle, ja.qaFeedbackTitle, ja.answerFeedbackTitle],
    );
    assert.equal(doc.querySelector('.kd-controls button').textContent, '更新');
    assert.deepEqual(
      (Array.from(doc.querySelectorAll('#an-top option')) as El[]).map((o) => o.textContent),
      ['上位 1 件', '上位 5 件', '上位 10 件', '上位 20 件'],
    );
    assert.equal(doc.querySelector('canvas').getAttribute('aria-label'), ja.dailyChart);
    assert.equal(section(win, 'an-feedback-title').querySelector('.kd-empty').textContent, ja.noQaFeedback);
    const shown = visibleTexts(doc.body);
    const english = Object.entries(en).filter(
      ([k, v]) => v !== ja[k as keyof AnalyticsStrings] && /[a-z]{3}/.test(v.replace(/\{\w+\}/g, '')),
    );
    assert.ok(english.length > 40);
    for (const [key, text] of english) assert.ok(!shown.includes(text), `English "${text}" (${key}) on the Japanese page`);
    assert.match(doc.querySelector('.kd-meta').textContent, /2025\/01\/01～2025\/01\/05/, 'dates in the display language');
  });

  it('has a table alternative with the same data as each chart, numbers in the display language', async () => {
    const { win, drawn } = await showPage(ja, 'ja', DATA);
    assert.equal(drawn.length, 1);
    const daily = win.document.querySelector('table[data-chart="daily"]');
    assert.equal(daily.closest('details').querySelector('summary').textContent, '表で表示');
    assert.equal(daily.querySelector('caption').textContent, ja.dailyTitle);
    assert.deepEqual(
      rows(daily),
      DATA.daily.map((d) => [
        new Intl.DateTimeFormat('ja', { dateStyle: 'medium' }).format(new Date(`${d.date}T00:00`)),
        d.count.toLocaleString('ja'),
      ]),
    );
    assert.equal(rows(daily)[1][1], '1,234');
    const top = win.document.querySelector('table[data-chart="top"]');
    assert.deepEqual(rows(top), [
      ['1', '経費精算の締め日は？', '10', '4', '40.0%'],
      ['2', 'VPN に接続できない', '3', '0', '0.0%'],
    ]);
    assert.deepEqual(
      (Array.from(top.querySelectorAll('th')) as El[]).map((th) => th.textContent),
      ['#', 'Q&A', '表示回数', '選択回数', '選択率'],
    );
    assert.match(win.document.querySelector('.kd-stat-cards').textContent, /検索数1,243/);
  });

  it('shows the answer feedback: counts, one row per rated answer with its rating', async () => {
    const { win, api } = await showPage(ja, 'ja', DATA);
    const part = section(win, 'an-answer-feedback-title');
    assert.equal(part.querySelector('[data-state]').getAttribute('data-state'), 'rows');
    assert.equal(part.querySelector('.an-answer-counts').textContent, '評価された回答 2 件: 役に立った 1 件、役に立たなかった 1 件');
    assert.deepEqual(rows(part.querySelector('table')), [
      ['有給休暇は何日？', '入社 1 年目は 10 日です。', '役に立った', '就業規則.pdf'],
      ['在宅勤務は？', '週 2 日までです。', '役に立たなかった', 'doc-2'],
    ]);
    assert.equal(part.querySelectorAll('.an-rating-up svg[aria-hidden="true"]').length, 1, 'a drawn icon beside the word');
    assert.equal(part.querySelector('tbody tr td:nth-child(4) span').getAttribute('title'), 'ドキュメント doc-1');
    assert.equal(api.sent('notify', 'rendered')[0].payload.answerFeedbackRows, 2);
  });

  it('adds a time column only when the deployment gives times', async () => {
    const time = '2025-01-04T10:00:00.000Z';
    const timed = { ...DATA, answerFeedback: { ...DATA.answerFeedback, rows: [{ ...DATA.answerFeedback.rows[0], time }] } };
    const { win } = await showPage(en, 'en', timed);
    const table = section(win, 'an-answer-feedback-title').querySelector('table');
    assert.deepEqual(
      (Array.from(table.querySelectorAll('th')) as El[]).map((th) => th.textContent),
      ['Question', 'Answer', 'Rating', 'Document', 'Time'],
    );
    assert.equal(rows(table)[0][4], new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(time)));
  });

  it('says so when nobody rated an answer, when the deployment does not offer the history, and when it failed', async () => {
    const cases: Array<[AnalyticsData, string, string]> = [
      [{ ...DATA, answerFeedback: { offered: true, rows: [], positive: 0, negative: 0 } }, 'empty', ja.noAnswerFeedback],
      [{ ...DATA, answerFeedback: { offered: false, rows: [], positive: 0, negative: 0 } }, 'not-offered', ja.answerFeedbackNotOffered],
    ];
    for (const [data, state, text] of cases) {
      const { win } = await showPage(ja, 'ja', data);
      const part = section(win, 'an-answer-feedback-title');
      assert.equal(part.querySelector('[data-state]').getAttribute('data-state'), state);
      assert.equal(part.textContent, `${ja.answerFeedbackTitle}${text}`);
      assert.equal(part.querySelector('table'), null);
      assert.equal(win.document.querySelector('.kd-banner-error').hidden, true, 'the panel does not fail');
    }
    const failed = {
      ...DATA,
      answerFeedback: { offered: true, rows: [], positive: 0, negative: 0 },
      problems: { answerFeedback: 'HTTP 500' },
    };
    const { win } = await showPage(ja, 'ja', failed);
    const banner = section(win, 'an-answer-feedback-title').querySelector('.kd-banner-warning');
    assert.equal(banner.textContent, 'この部分を読み込めませんでした: HTTP 500');
    assert.equal(section(win, 'an-search-title').querySelectorAll('tbody tr').length, 1, 'the other sections still show');
  });
});
