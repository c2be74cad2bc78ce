import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  citationProtocol,
  citationStateSchema,
  type CitationTarget,
  type DocumentView,
} from '../../../src/features/answers/citations/protocol';
import { citationStrings, type CitationStrings } from '../../../src/features/answers/citations/citationStrings';
import { deliver, FakeVsCodeApi, loadPage, makeWindow, tick, type El, type Win } from './support/page';

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => { dropped: string[] } }>(
  'src/webview/shared/messenger',
);
const { CitationController } = loadPage<{ CitationController: new (win: Win, m: unknown, engine: unknown) => { start(app: El): void } }>(
  'src/webview/citation/controller',
);

type Run = { str: string; box: [number, number, number, number] };

/** pdfjs stand-in: an A4 document whose pages have the given text runs. */
class FakeEngine {
  readonly opened: Uint8Array[] = [];
  readonly rendered: Array<{ pageNo: number; scale: number }> = [];
  warnings: string[] = [];
  constructor(
    private readonly runs: Record<number, Run[]> = {},
    private readonly numPages = 3,
  ) {}
  async open(data: Uint8Array) {
    this.opened.push(data);
    const size = { width: 595, height: 842 };
    return {
      numPages: this.numPages,
      getPage: async (pageNo: number) => ({
        pageNo,
        size,
        render: (_canvas: unknown, scale: number) => {
          this.rendered.push({ pageNo, scale });
          return { promise: Promise.resolve(), cancel: () => undefined };
        },
        textRuns: async () => this.runs[pageNo] ?? [],
        renderTextLayer: async (container: El) => {
          container.textContent = (this.runs[pageNo] ?? []).map((r) => r.str).join(' ');
        },
      }),
      destroy: () => undefined,
    };
  }
  takeWarnings(): string[] {
    return this.warnings.splice(0);
  }
}

const PAGE2: Run[] = [
  { str: '2. Remote work', box: [0.1, 0.08, 0.4, 0.1] },
  { str: 'The company pays a one-time home office allowance of 50,000 yen.', box: [0.1, 0.2, 0.9, 0.22] },
];
const target: CitationTarget = {
  kbId: 'kb-1',
  title: 'employee-handbook.pdf',
  pageNo: 2,
  passageText: 'The company pays a one-time home office allowance of 50,000 yen.',
};
const pdf = (over: Partial<Extract<DocumentView, { kind: 'pdf' }>> = {}): DocumentView => ({
  kind: 'pdf',
  title: 'employee-handbook.pdf',
  pageNo: 2,
  passageText: target.passageText!,
  notes: [],
  data: new Uint8Array([37, 80, 68, 70, 45]),
  origin: 'document',
  bboxes: [{ left: 0.1, top: 0.2, right: 0.9, bottom: 0.22 }],
  highlightPageNo: null,
  ...over,
});

/** `testBuild`: the page runs as the test build does (src/testBuild.d.ts); false, as every other build. */
function mount(
  engine = new FakeEngine({ 2: PAGE2, 3: [{ str: '3. Expenses', box: [0.1, 0.08, 0.3, 0.1] }] }),
  state?: unknown,
  testBuild = true,
  strings: CitationStrings = citationStrings(),
  lang = 'en',
) {
  const win = makeWindow('<main id="app"></main>', undefined, strings, lang);
  const api = new FakeVsCodeApi(state);
  const messenger = new Messenger(citationProtocol, api, win);
  const was = globalThis.__KD_TEST__;
  globalThis.__KD_TEST__ = testBuild;
  try {
    new CitationController(win, messenger, engine).start(win.document.getElementById('app'));
  } finally {
    globalThis.__KD_TEST__ = was;
  }
  const $ = (sel: string): El => win.document.querySelector(sel);
  const show = (view: DocumentView, t: CitationTarget = target): void =>
    deliver(win, { kind: 'notify', type: 'show', payload: { target: t, view } });
  const reports = (): any[] => api.sent('notify', 'rendered').map((m) => m.payload);
  /** Waits for the nth rendered report (1-based). */
  const rendered = async (n: number): Promise<any> => {
    for (let i = 0; i < 200 && reports().length < n; i++) await tick(2);
    assert.ok(reports().length >= n, `no rendered report #${n} (have ${reports().length})`);
    return reports()[n - 1];
  };
  const request = async (type: string, params: unknown, id = Math.floor(Math.random() * 1e6)): Promise<any> => {
    deliver(win, { kind: 'request', id, type, params });
    for (let i = 0; i < 200 && !api.sent('response').some((r) => r.id === id); i++) await tick(2);
    return api.sent('response').find((r) => r.id === id);
  };
  return { win, api, engine, messenger, $, show, reports, rendered, request };
}

const SCALE = Math.round(((800 - 32) / 595) * 1000) / 1000;

describe('Citation viewer page (jsdom)', () => {
  it('answers the drive and snapshot requests of tests only in the test build', async () => {
    const p = mount(undefined, undefined, false);
    p.show(pdf());
    await p.rendered(1);
    const refused = await p.request('drive', { pageNo: 3 });
    assert.equal(refused?.ok, false, 'a page of another build does not answer drive');
    assert.equal(p.reports().length, 1, 'nothing was drawn again');
    assert.equal((await p.request('snapshot', {}))?.ok, false, 'nor snapshot');
    const t = mount();
    t.show(pdf());
    await t.rendered(1);
    assert.equal((await t.request('snapshot', {}))?.ok, true, 'the test build answers snapshot');
  });

  it('says ready, shows loading, then the cited PDF page with the service’s boxes scaled to the canvas', async () => {
    const p = mount();
    assert.deepEqual(p.api.posted[0], { kind: 'ready' });
    p.show({ kind: 'loading', title: 'employee-handbook.pdf' });
    await tick();
    assert.ok(p.$('.kd-progress'));
    p.show(pdf());
    const r = await p.rendered(1);
    const width = Math.floor(595 * SCALE);
    const height = Math.floor(842 * SCALE);
    assert.deepEqual(r.canvas, { width, height });
    assert.equal(r.scale, SCALE);
    assert.equal(r.pageNo, 2);
    assert.equal(r.pageCount, 3);
    assert.equal(r.highlightSource, 'service');
    const round = (n: number): number => Math.round(n * 100) / 100;
    assert.deepEqual(r.rects, [
      { left: round(0.1 * width), top: round(0.2 * height), width: round(0.8 * width), height: round(0.02 * height) },
    ]);
    assert.deepEqual(r.fontProblems, []);
    assert.match(r.textSample, /^2\. Remote work The company/);
    const boxes = Array.from(p.win.document.querySelectorAll('.cd-highlight')) as El[];
    assert.equal(boxes.length, 1);
    assert.equal(boxes[0].style.left, `${round(0.1 * width)}px`);
    assert.equal(p.$('.cd-page-input').value, '2');
    assert.equal(p.$('.cd-page-count').textContent, 'of 3');
    assert.equal(p.$('#cd-title').textContent, 'employee-handbook.pdf');
    assert.match(p.$('#cd-meta').textContent, /page 2 of 3 · highlighted by the service/);
    assert.equal(p.$('.textLayer').textContent.includes('home office allowance'), true, 'selectable text layer');
    assert.deepEqual(citationStateSchema.parse(p.api.state), { target, pageNo: 2, zoom: 'fit' });
    assert.equal(p.engine.opened.length, 1);
  });

  it('moves between pages and zooms from the toolbar and by request; boxes stay on their page', async () => {
    const p = mount();
    p.show(pdf());
    await p.rendered(1);
    p.$('button[aria-label="Next page"]').click();
    const r3 = await p.rendered(2);
    assert.equal(r3.pageNo, 3);
    assert.equal(r3.highlightSource, 'none');
    assert.deepEqual(r3.rects, []);
    assert.equal(p.$('button[aria-label="Next page"]').disabled, true);
    assert.equal(p.$('.cd-toolbar .kd-button:not(.kd-secondary)').hidden, false, 'Back to cited page');
    const snap = await p.request('drive', { pageNo: 2, zoom: 1.5 });
    assert.equal(snap.ok, true);
    assert.equal(snap.result.pageNo, 2);
    assert.equal(snap.result.zoom, 1.5);
    const zoomed = p.reports().at(-1);
    assert.deepEqual(zoomed.canvas, { width: Math.floor(595 * 1.5), height: Math.floor(842 * 1.5) });
    assert.deepEqual(zoomed.rects[0], {
      left: Math.round(0.1 * 892 * 100) / 100,
      top: Math.round(0.2 * 1263 * 100) / 100,
      width: Math.round(0.8 * 892 * 100) / 100,
      height: Math.round(0.02 * 1263 * 100) / 100,
    });
    p.$('button[aria-label="Zoom in"]').click();
    await tick(20);
    assert.equal(p.reports().at(-1).scale, 2);
    const select = p.$('.cd-zoom');
    select.value = 'fit';
    select.dispatchEvent(new p.win.Event('change'));
    await tick(20);
    assert.equal(p.reports().at(-1).scale, SCALE);
    const input = p.$('.cd-page-input');
    input.value = '99';
    input.dispatchEvent(new p.win.Event('change'));
    await tick(20);
    assert.equal(p.reports().at(-1).pageNo, 3, 'clamped to the last page');
  });

  it('without boxes from the service, highlights the passage found in the page text, or says it is not there', async () => {
    const p = mount();
    p.show(pdf({ bboxes: [] }));
    const r = await p.rendered(1);
    assert.equal(r.highlightSource, 'text');
    assert.equal(r.highlightedText, 'The company pays a one-time home office allowance of 50,000 yen.');
    assert.deepEqual(r.rects.length, 1);
    assert.match(p.$('#cd-notes').textContent, /found on the page by its text/);
    assert.equal(p.$('#cd-passage').open, false);
    p.show(pdf({ bboxes: [], passageText: 'Quarterly bonuses are paid in April and October.' }), {
      ...target,
      passageText: 'Quarterly bonuses are paid in April and October.',
    });
    const miss = await p.rendered(2);
    assert.equal(miss.highlightSource, 'none');
    assert.match(p.$('#cd-notes').textContent, /could not be found/);
    assert.equal(p.$('#cd-passage').hidden, false);
    assert.equal(p.$('#cd-passage').open, true, 'the passage is shown when the page cannot mark it');
    assert.equal(p.$('.cd-passage-text').textContent, 'Quarterly bonuses are paid in April and October.');
  });

  it('draws boxes given in PDF points, and reports pdfjs font and character map warnings', async () => {
    const engine = new FakeEngine({ 2: PAGE2 });
    engine.warnings = ['Indexing all PDF objects'];
    const p = mount(engine);
    const realTake = engine.takeWarnings.bind(engine);
    let calls = 0;
    engine.takeWarnings = () =>
      ++calls === 2
        ? ['Unable to load CMap at: x/UniJIS-UCS2-H.bcmap', 'Cannot load system font: HeiseiKakuGo-W5, installing it could help']
        : realTake();
    p.show(pdf({ bboxes: [{ left: 59.5, top: 168.4, right: 535.5, bottom: 185.24 }] }));
    const r = await p.rendered(1);
    const width = Math.floor(595 * SCALE);
    assert.equal(r.rects[0].left, Math.round(0.1 * width * 100) / 100);
    assert.deepEqual(r.fontProblems, ['Unable to load CMap at: x/UniJIS-UCS2-H.bcmap']);
  });

  it('reopens at the page and zoom saved for the same citation, at the cited page for another', async () => {
    const p = mount(undefined, { target, pageNo: 3, zoom: 1.25 });
    p.show(pdf());
    const r = await p.rendered(1);
    assert.equal(r.pageNo, 3);
    assert.equal(r.scale, 1.25);
    const q = mount(undefined, { target: { ...target, pageNo: 1 }, pageNo: 3, zoom: 1.25 });
    q.show(pdf());
    const s = await q.rendered(1);
    assert.equal(s.pageNo, 2);
    assert.equal(s.scale, SCALE);
  });

  it('keeps the connection the host names in its state, so a restart reopens the viewer there (issue 27)', async () => {
    const beta = { id: 'conn-beta', name: 'Beta' };
    const p = mount();
    deliver(p.win, { kind: 'notify', type: 'show', payload: { target, view: pdf(), connection: beta } });
    await p.rendered(1);
    assert.deepEqual(citationStateSchema.parse(p.api.state), { target, pageNo: 2, zoom: 'fit', connection: beta });
    await p.request('drive', { pageNo: 3 });
    await p.rendered(2);
    assert.deepEqual(citationStateSchema.parse(p.api.state).connection, beta, 'kept as the reader moves');
    // A host from before connections names none: nothing is kept, and the serializer uses the active connection.
    const q = mount();
    q.show(pdf());
    await q.rendered(1);
    assert.equal('connection' in (q.api.state as object), false);
  });

  it('moves to another citation of the same PDF whole: a drawing of the previous one still on its way lands nowhere', async () => {
    // Page 2's first drawing finishes only when the test says (a big page, a redraw after the view resized).
    let finish: (() => void) | undefined;
    class SlowEngine extends FakeEngine {
      override async open(data: Uint8Array) {
        const doc = await super.open(data);
        return {
          ...doc,
          getPage: async (pageNo: number) => {
            const page = await doc.getPage(pageNo);
            if (pageNo !== 2 || finish) return page;
            return { ...page, render: () => ({ promise: new Promise<void>((r) => (finish = r)), cancel: () => undefined }) };
          },
        };
      }
    }
    const p = mount(new SlowEngine({ 2: PAGE2, 3: [{ str: '3. Expenses', box: [0.1, 0.08, 0.3, 0.1] }] }));
    p.show(pdf());
    for (let i = 0; i < 100 && !finish; i++) await tick(2);
    assert.ok(finish, 'page 2 is being drawn');
    const next: CitationTarget = { ...target, pageNo: 3, passageText: '3. Expenses' };
    p.show({ kind: 'loading', title: 'employee-handbook.pdf' }, next);
    finish!();
    await tick(5);
    p.show(pdf({ pageNo: 3, passageText: '3. Expenses', bboxes: [] }), next);
    const r = await p.rendered(1);
    assert.equal(r.pageNo, 3, 'the first page drawn is the new citation’s');
    assert.equal(r.highlightSource, 'text');
    assert.deepEqual(citationStateSchema.parse(p.api.state), { target: next, pageNo: 3, zoom: 'fit' });
    const snap = (await p.request('snapshot', {})).result;
    assert.equal(snap.canvasPageNo, 3);
    assert.deepEqual(snap.toolbar, { page: 3, backToCited: false });
    assert.equal(snap.header, 'PDF · page 3 of 3 · passage found by its text');
    assert.deepEqual(
      p.reports().map((x) => x.pageNo),
      [3],
    );
  });

  it('goes back to the cited page when the same citation is clicked again (reset), not to the page saved for it', async () => {
    const p = mount(undefined, { target, pageNo: 3, zoom: 1.25 });
    deliver(p.win, { kind: 'notify', type: 'show', payload: { target, view: pdf(), reset: true } });
    const r = await p.rendered(1);
    assert.equal(r.pageNo, 2);
    assert.equal(r.highlightSource, 'service');
  });

  it('shows a text document with the passage marked, Japanese included, and its HTML as text', async () => {
    const p = mount();
    const passage = '宿泊費の上限は1泊12,000円です。東京23区と大阪市内は1泊15,000円まで認められます。';
    const text = `# 経費精算ガイド\n\n## 宿泊費\n\n宿泊費の上限は1泊12,000円です。\n東京23区と大阪市内は1泊15,000円まで認められます。\n\n<script>window.pwned = 1</script>`;
    p.show(
      {
        kind: 'text',
        title: '経費精算ガイド.md',
        pageNo: 1,
        passageText: passage,
        notes: [],
        format: 'markdown',
        pages: [{ pageNo: 1, text }],
        estimatedPages: false,
      },
      { kbId: 'kb-2', title: '経費精算ガイド.md', pageNo: 1, passageText: passage },
    );
    const r = await p.rendered(1);
    assert.equal(r.view, 'text');
    assert.equal(r.highlightSource, 'text');
    assert.equal(r.highlightedText, '宿泊費の上限は1泊12,000円です。\n東京23区と大阪市内は1泊15,000円まで認められます。');
    assert.equal(p.$('mark.cd-mark').textContent, r.highlightedText);
    assert.equal(p.$('.cd-text-page.cd-cited .kd-badge').textContent, 'cited');
    assert.equal(p.win.document.querySelectorAll('script').length, 0, 'document text never becomes elements');
    assert.match(p.$('.cd-text').textContent, /<script>window\.pwned = 1<\/script>/);
    assert.equal(p.win.pwned, undefined);
    assert.equal(p.$('#cd-passage').hidden, true, 'the mark is the passage');
    assert.match(p.$('#cd-meta').textContent, /Cited page 1 of 1 · markdown/);
  });

  it('says where the passage is when it is on another page than cited, and when it is nowhere', async () => {
    const p = mount();
    const pages = [
      { pageNo: 1, text: 'Intro page.' },
      { pageNo: 2, text: 'Approved expenses are reimbursed with the next monthly salary payment.' },
    ];
    p.show({
      kind: 'text',
      title: 'notes.docx',
      pageNo: 1,
      passageText: 'reimbursed with the next monthly salary',
      notes: ['Page numbers of this document are estimated: it has no real page breaks.'],
      format: 'docx',
      pages,
      estimatedPages: true,
    });
    const r = await p.rendered(1);
    assert.equal(r.pageNo, 2);
    assert.match(p.$('#cd-notes').textContent, /estimated.*found on page 2, not on the cited page 1/s);
    p.show({
      kind: 'text',
      title: 'notes.docx',
      pageNo: 1,
      passageText: 'nothing like this',
      notes: [],
      format: 'docx',
      pages,
      estimatedPages: true,
    });
    const miss = await p.rendered(2);
    assert.equal(miss.highlightSource, 'none');
    assert.equal(miss.highlightedText, '');
    assert.match(p.$('#cd-notes').textContent, /could not be found/);
  });

  it('falls back to the title, page number, passage and the reason; links only http(s)', async () => {
    const p = mount();
    const view: DocumentView = {
      kind: 'fallback',
      title: 'Travel policy',
      pageNo: 4,
      passageText: 'Book trains at least 7 days ahead.',
      notes: [],
      reason: 'The service offers no document download for this region.',
      url: 'https://intranet.example.com/travel',
    };
    p.show(view, { title: 'Travel policy', pageNo: 4, passageText: view.passageText, url: 'https://intranet.example.com/travel' });
    const r = await p.rendered(1);
    assert.deepEqual(
      { view: r.view, pageNo: r.pageNo, textSample: r.textSample },
      { view: 'fallback', pageNo: 4, textSample: 'Book trains at least 7 days ahead.' },
    );
    assert.equal(p.$('.cd-fact-title').textContent, 'Travel policy');
    assert.equal(p.$('.cd-fact-page').textContent, '4');
    assert.equal(p.$('.cd-fallback .cd-passage-text').textContent, 'Book trains at least 7 days ahead.');
    assert.match(p.$('.cd-reason').textContent, /no document download/);
    assert.equal(p.$('.cd-fallback a').getAttribute('href'), 'https://intranet.example.com/travel');
    p.show({ ...view, url: 'javascript:alert(1)', pageNo: null }, { title: 'x' });
    await p.rendered(2);
    assert.equal(p.$('.cd-fallback a'), null);
    assert.equal(p.$('.cd-fact-page').textContent, 'not given');
  });

  it('shows an error with Retry, which asks the host to load again', async () => {
    const p = mount();
    p.show({ kind: 'error', title: 'Citation', message: 'Cannot reach the service.' });
    await p.rendered(1);
    assert.match(p.$('[role="alert"]').textContent, /Cannot reach the service\./);
    p.$('[role="alert"] button').click();
    assert.equal(p.api.sent('request', 'reload').length, 1);
  });

  it('drops messages that do not match the protocol', async () => {
    const p = mount();
    p.show({ ...pdf(), bboxes: [{ left: '0.1', top: 0, right: 1, bottom: 1 }] } as unknown as DocumentView);
    p.show({ ...pdf(), data: [37, 80, 68, 70] } as unknown as DocumentView);
    p.show(pdf(), { ...target, pageNo: 0 });
    await tick(20);
    assert.equal(p.reports().length, 0);
    assert.equal(p.engine.opened.length, 0);
    assert.equal(citationProtocol.toPage.requests.drive.params.safeParse({ zoom: 9 }).success, false);
    assert.equal(citationProtocol.toPage.requests.drive.params.safeParse({ zoom: 'in', pageNo: 2 }).success, true);
    assert.equal(citationProtocol.toHost.notifications.rendered.safeParse({ view: 'pdf' }).success, false);
  });
  it('describes the page and its highlight for a screen reader: a polite status and the page image’s name', async () => {
    const p = mount();
    const status = p.$('#cd-status');
    assert.equal(status.getAttribute('role'), 'status');
    assert.equal(status.getAttribute('aria-live'), 'polite');
    assert.match(status.className, /kd-visually-hidden/);
    p.show(pdf());
    await p.rendered(1);
    const said = 'Page 2 of 3, passage highlighted: The company pays a one-time home office allowance of 50,000 yen.';
    assert.equal(status.textContent, said);
    assert.equal(p.$('.cd-pagebox').getAttribute('aria-label'), said);
    const snap = await p.request('snapshot', {});
    assert.equal(snap.result.status, said);
    p.$('button[aria-label="Next page"]').click();
    await p.rendered(2);
    assert.equal(status.textContent, 'Page 3 of 3, no passage highlighted.');
    // Keyboard: the arrow keys and Page Up/Down turn pages unless a field has the focus.
    p.win.document.body.dispatchEvent(new p.win.KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
    await p.rendered(3);
    assert.equal(status.textContent, said);
    // A text document: the page and the marked passage.
    p.show({
      kind: 'text',
      title: 'guide.md',
      pageNo: 1,
      passageText: 'Hotel up to 12,000 yen.',
      notes: [],
      format: 'markdown',
      pages: [{ pageNo: 1, text: '# Guide\n\nHotel up to 12,000 yen.' }],
      estimatedPages: false,
    });
    await p.rendered(4);
    assert.equal(status.textContent, 'Page 1 of 1, passage highlighted: Hotel up to 12,000 yen.');
  });

  it('shows the Japanese texts the host gives it, numbers and percentages in the display language', async () => {
    const ja = JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) as Record<string, string>;
    const english = citationStrings();
    const strings = Object.fromEntries(Object.entries(english).map(([k, v]) => [k, ja[v] ?? `MISSING ${v}`])) as CitationStrings;
    assert.deepEqual(
      Object.values(strings).filter((v) => v.startsWith('MISSING')),
      [],
    );
    const p = mount(undefined, undefined, true, strings, 'ja');
    p.show(pdf());
    await p.rendered(1);
    assert.equal(p.$('.cd-page-count').textContent, '/ 3 ページ');
    assert.equal(p.$('button[aria-label="次のページ"]').textContent, '次へ ›');
    assert.equal(p.$('.cd-zoom option[value="fit"]').textContent, '幅に合わせる');
    assert.equal(p.$('.cd-zoom option[value="1.5"]').textContent, '150%');
    assert.equal(p.$('.cd-toolbar').getAttribute('aria-label'), 'ページ移動とズーム');
    assert.equal(p.$('#cd-meta').textContent, 'PDF · 2 / 3 ページ · サービスによるハイライト');
    assert.equal(p.$('#cd-kind').textContent, 'PDF');
    assert.equal(p.$('#cd-passage summary').textContent, '引用箇所');
    assert.equal(
      p.$('#cd-status').textContent,
      '2 / 3 ページ、ハイライトされた引用箇所: The company pays a one-time home office allowance of 50,000 yen.',
    );
    p.show({ kind: 'fallback', title: 'x.pdf', pageNo: 12345, passageText: '', notes: [], reason: 'なし', url: null });
    await p.rendered(2);
    assert.equal(p.$('.cd-fact-page').textContent, '12,345');
    assert.equal(p.$('.cd-fallback p.kd-muted').textContent, 'この引用には引用箇所のテキストがありません。');
  });
});
