// The Retrieval page (jsdom): built with the host's Japanese texts it shows them and no English of its own;
// run results, rank marks and statuses in the display language; the arrow keys move between result cards
// (one tab stop per list) and Enter opens one.
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, retrievalProtocol, type ResultItem } from '../../../src/features/answers/retrieval/protocol';
import { retrievalStrings, type RetrievalStrings } from '../../../src/features/answers/retrieval/retrievalStrings';
import { regionLabel } from '../../../src/platform/regionLabels';
import { inJapanese, visibleTexts } from './support/japanese';
import { answerPending, deliver, FakeVsCodeApi, loadPage, makeWindow, tick, type El, type Win } from './support/page';

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => unknown }>('src/webview/shared/messenger');
const { RetrievalController } = loadPage<{ RetrievalController: new (doc: El, m: unknown) => { start(app: El): void } }>(
  'src/webview/retrieval/controller',
);

const item = (kbId: string, pageNo: number, title: string): ResultItem => ({ ranking: 1, title, pageNo, kbId, text: `${title} の本文` });
const A_ITEMS = [item('d1', 1, '就業規則'), item('d2', 4, '経費精算の手引き'), item('d3', 2, '')];
const B_ITEMS = [item('d2', 4, '経費精算の手引き'), item('d1', 1, '就業規則'), item('d9', 1, 'VPN 接続')];

const opened: Array<{ win: Win; api: FakeVsCodeApi }> = [];
afterEach(() => opened.splice(0).forEach(({ win, api }) => answerPending(win, api)));

async function showPage(strings: RetrievalStrings, lang: string, region: string): Promise<{ win: Win; api: FakeVsCodeApi }> {
  const win = makeWindow('<main id="app"></main>', undefined, strings, lang);
  const api = new FakeVsCodeApi();
  opened.push({ win, api });
  new RetrievalController(win.document, new Messenger(retrievalProtocol, api, win)).start(win.document.getElementById('app'));
  deliver(win, { kind: 'notify', type: 'init', payload: { defaults: DEFAULT_SETTINGS, region, question: null } });
  await tick();
  return { win, api };
}

/** Runs both columns from the page's button and answers them as the host would. */
async function runBoth(win: Win, api: FakeVsCodeApi, question: string): Promise<void> {
  const input = win.document.getElementById('rt-question');
  input.value = question;
  win.document.getElementById('rt-run-both').click();
  await tick();
  const runs = api.sent('request', 'run');
  assert.deepEqual(
    runs.map((r) => r.params.column),
    ['A', 'B'],
  );
  for (const r of runs)
    deliver(win, {
      kind: 'response',
      id: r.id,
      ok: true,
      result: { items: r.params.column === 'A' ? A_ITEMS : B_ITEMS, elapsedMs: 1234.4, request: { question } },
    });
  await tick();
}

const cards = (win: Win, column: 'A' | 'B'): El[] => Array.from(win.document.querySelectorAll(`.rt-column-${column} .rt-open`));

describe('Retrieval page (jsdom)', () => {
  const ja = inJapanese(retrievalStrings);
  const en = retrievalStrings();

  it('shows the Japanese texts from the host, marks and statuses included, and no English of its own', async () => {
    assert.notEqual(ja.title, en.title, 'the bundle was applied');
    const { win, api } = await showPage(
      ja,
      'ja',
      inJapanese(() => regionLabel('local')),
    );
    const doc = win.document;
    assert.equal(doc.querySelector('h1').textContent, '検索');
    assert.equal(doc.getElementById('rt-region').textContent, 'ローカル');
    assert.equal(doc.getElementById('rt-run-both').textContent, 'A と B を実行');
    assert.equal(doc.querySelector('.rt-column-A .rt-preset').textContent, 'サービスの既定の重み 9/1/0');
    assert.equal(doc.querySelector('.rt-column-B .rt-preset').textContent, 'キーワードのみ 9/0/0');
    await runBoth(win, api, '締め日');
    assert.equal(doc.querySelector('.rt-column-A .rt-status').textContent, '3 件の結果 (1,234 ms)');
    assert.deepEqual(
      cards(win, 'B').map((b) => b.querySelector('.rt-mark')?.textContent ?? ''),
      ['↑1', '↓1', '新規'],
    );
    assert.deepEqual(
      cards(win, 'B').map((b) => b.querySelector('.rt-mark')?.getAttribute('data-mark') ?? ''),
      ['↑1', '↓1', 'new'],
      'the machine label stays for tests and the log',
    );
    assert.equal(cards(win, 'A')[2].querySelector('.rt-mark').textContent, 'A のみ');
    assert.equal(cards(win, 'A')[2].querySelector('.rt-title').textContent, '(無題)');
    assert.equal(cards(win, 'B')[0].getAttribute('aria-label'), '1. 経費精算の手引き、4 ページ、A より 1 つ上位。引用ビューアーで開きます');
    assert.equal(cards(win, 'B')[0].querySelector('.rt-page').textContent, '4 ページ');
    const shown = visibleTexts(doc.body);
    const english = Object.entries(en).filter(
      ([k, v]) => v !== ja[k as keyof RetrievalStrings] && /[a-z]{3}/.test(v.replace(/\{\w+\}/g, '')),
    );
    assert.ok(english.length > 30);
    for (const [key, text] of english) assert.ok(!shown.includes(text), `English "${text}" (${key}) on the Japanese page`);
    assert.deepEqual(api.sent('notify', 'rendered').at(-1).payload.B.marks, ['↑1', '↓1', 'new']);
  });

  it('asks for a question, in the display language, instead of running without one', async () => {
    const { win, api } = await showPage(ja, 'ja', 'US');
    win.document.getElementById('rt-run-both').click();
    await tick();
    assert.equal(api.sent('request', 'run').length, 0);
    assert.equal(win.document.querySelector('.rt-column-A .kd-banner-error').textContent, '先に質問を入力してください。');
    assert.equal(win.document.getElementById('rt-question').getAttribute('aria-invalid'), 'true');
  });

  it('moves between result cards with the arrow keys, Home and End; one card per list is in the tab order', async () => {
    const { win, api } = await showPage(en, 'en', 'Local');
    await runBoth(win, api, 'deadline');
    const list = cards(win, 'A');
    assert.deepEqual(
      list.map((b) => b.tabIndex),
      [0, -1, -1],
      'one tab stop: Tab leaves the list instead of walking every card',
    );
    const press = (el: El, key: string): boolean =>
      el.dispatchEvent(new win.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    list[0].focus();
    assert.equal(press(list[0], 'ArrowDown'), false, 'the key is handled');
    assert.equal(win.document.activeElement, list[1]);
    press(list[1], 'End');
    assert.equal(win.document.activeElement, list[2]);
    press(list[2], 'ArrowDown');
    assert.equal(win.document.activeElement, list[2], 'stays at the end (no wrap into another list)');
    press(list[2], 'Home');
    assert.equal(win.document.activeElement, list[0]);
    press(list[0], 'ArrowUp');
    assert.equal(win.document.activeElement, list[0]);
    assert.equal(press(list[0], 'Tab'), true, 'Tab is left to the browser: no keyboard trap');
    press(list[0], 'ArrowRight');
    assert.deepEqual(
      list.map((b) => b.tabIndex),
      [-1, 0, -1],
      'the tab stop follows the focus',
    );
    list[1].click();
    await tick();
    const [open] = api.sent('request', 'open');
    assert.deepEqual([open.params.item.kbId, open.params.item.pageNo, open.params.question], ['d2', 4, 'deadline']);
    assert.equal(list[1].getAttribute('aria-label'), '2. 経費精算の手引き, page 4. Open in the citation viewer');
    assert.equal(
      cards(win, 'B')[2].getAttribute('aria-label'),
      '3. VPN 接続, page 1, not in the results of A. Open in the citation viewer',
    );
    assert.equal(win.document.querySelector('.rt-column-A .rt-status').textContent, '3 results in 1,234 ms');
  });
});
