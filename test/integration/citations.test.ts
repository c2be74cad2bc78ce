import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ApiClient } from '../../src/api/client';
import type { RetrievalItem } from '../../src/api/schemas/answers';
import type { CitationPanel } from '../../src/features/answers/citations/citationPanel';
import type { RenderedReport } from '../../src/features/answers/citations/protocol';
import type { QaEditorPanel } from '../../src/features/qna/editor/qaEditorPanel';
import { compareRankings, markLabel } from '../../src/features/answers/retrieval/rankChanges';
import { DEFAULT_SETTINGS, toRetrievalRequest } from '../../src/features/answers/retrieval/protocol';
import type { RetrievalPanel } from '../../src/features/answers/retrieval/retrievalPanel';
import {
  EXTENSION_ID,
  getApi,
  lastRendered,
  pageProblems,
  resetWorkbench,
  screenshot,
  useService,
  waitFor,
  waitForPage,
} from './support/host';

const FILES = {
  handbook: 'samples/knowledge-base/Handbook/employee-handbook.pdf',
  rules: 'samples/knowledge-base/Handbook/就業規則.pdf',
  expenses: 'samples/knowledge-base/経費/経費精算ガイド.md',
  // No embedded font: its text only decodes with pdfjs' character maps (dist/pdfjs/cmaps).
  cmap: 'test/fixtures/docs/japanese-cmap.pdf',
} as const;
type FileKey = keyof typeof FILES;

const squash = (s: string): string => s.normalize('NFKC').replace(/\s+/g, '');

/** Waits until the viewer drew `view` (and, when given, page `pageNo`) after `since`. */
async function drawn(panel: CitationPanel, view: RenderedReport['view'], pageNo?: number, since?: RenderedReport): Promise<RenderedReport> {
  return waitFor(
    () => {
      const r = lastRendered(panel);
      return r && r !== since && r.view === view && (pageNo === undefined || r.pageNo === pageNo) ? r : undefined;
    },
    `the citation viewer to draw ${view}${pageNo ? ` page ${pageNo}` : ''}`,
    45_000,
    () => {
      const r = lastRendered(panel);
      return `${panel.describe()}; last drawn: ${JSON.stringify(r && { view: r.view, pageNo: r.pageNo, new: r !== since })}`;
    },
  );
}

function assertInside(r: RenderedReport): void {
  assert.ok(r.canvas && r.canvas.width > 100 && r.canvas.height > 100, `canvas ${JSON.stringify(r.canvas)}`);
  for (const rect of r.rects) {
    assert.ok(rect.width > 0 && rect.height > 0, `empty rectangle ${JSON.stringify(rect)}`);
    assert.ok(
      rect.left >= 0 && rect.top >= 0 && rect.left + rect.width <= r.canvas.width + 0.5 && rect.top + rect.height <= r.canvas.height + 0.5,
      `rectangle outside the page: ${JSON.stringify(rect)} on ${JSON.stringify(r.canvas)}`,
    );
  }
}

describe('Citations and retrieval', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  const ids = {} as Record<FileKey, string>;

  const openDocument = (arg: unknown): Thenable<CitationPanel | undefined> =>
    vscode.commands.executeCommand<CitationPanel>('knowledgeDesk.answers.openDocument', arg);
  const openCitation = (arg: unknown): Thenable<unknown> => vscode.commands.executeCommand('knowledgeDesk.answers.openCitation', arg);

  async function top(question: string, expected: FileKey): Promise<RetrievalItem> {
    let ranked: string[] = [];
    return waitFor(
      async () => {
        const items = await client.answers.retrieve({ question, maxDocumentClues: 3 });
        ranked = items.map((i) => `${i.title ?? i.kb_id} p.${i.pageNo}`);
        return items[0]?.kb_id === ids[expected] ? items[0] : undefined;
      },
      `retrieval to rank ${FILES[expected]} first for "${question}"`,
      30_000,
      () => `ranked: ${ranked.join(', ') || 'nothing'}`,
    );
  }

  before(async function () {
    this.timeout(180_000);
    api = await getApi();
    client = await useService(api);
    // Until extension.ts constructs it, the test constructs the registrar over the extension's container.
    const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    for (const [key, rel] of Object.entries(FILES) as Array<[FileKey, string]>) {
      const [node] = await client.kbNodes.upload({
        file: { path: path.join(root, rel) },
        fileName: path.basename(rel),
        isOverwrite: true,
        hashtags: ['citations-suite'],
      });
      ids[key] = node.id;
    }
    let states = '';
    await waitFor(
      async () => {
        const { nodes } = await client.kbNodes.search({ hashtags: ['citations-suite'], limit: 100 });
        states = nodes.map((n) => `${n.name}: ${'processState' in n ? n.processState : 'folder'}`).join(', ');
        return Object.values(ids).every((id) => nodes.some((n) => n.id === id && 'processState' in n && n.processState === 'completed'));
      },
      'the four documents to be processed',
      90_000,
      () => states,
    );
  });

  // The four documents above are read-only fixtures of every test here; each test opens its own viewers.
  beforeEach(() => resetWorkbench(api));
  afterEach(() => resetWorkbench(api));

  after(async () => {
    for (const id of Object.values(ids)) await client.kbNodes.delete(id).catch(() => undefined);
  });

  it('opens the top retrieval result of a PDF at its page with the service’s highlight drawn on the canvas', async () => {
    const question = 'How much is the home office allowance for a desk or a chair?';
    const item = await top(question, 'handbook');
    assert.equal(item.pageNo, 2);
    const panel = (await openDocument({
      kbId: item.kb_id,
      pageNo: item.pageNo,
      passageText: item.text,
      subTextIndex: (item as { subTextIndex?: number }).subTextIndex,
      question,
      title: item.title,
    }))!;
    const html = panel.panel.webview.html.replace(/&#39;/g, "'");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    // The shared policy plus fetch() of the extension's own resources (pdfjs' character maps and fonts), nothing else.
    const styleSrc = /style-src ([^;]+)/.exec(csp)?.[1];
    assert.equal(/; connect-src ([^;]+)$/.exec(csp)?.[1], styleSrc, csp);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|worker-src|blob:|img-src/);
    const roots = panel.panel.webview.options.localResourceRoots?.map((u) => u.path) ?? [];
    assert.equal(roots.length, 3);
    ['/dist/webview', '/dist/pdfjs', '/media'].forEach((end, i) => assert.ok(roots[i].endsWith(end), `${roots[i]} is not …${end}`));
    const r = await drawn(panel, 'pdf', 2);
    assert.equal(r.pageCount, 3);
    assert.equal(r.highlightSource, 'service');
    assert.ok(r.rects.length >= 1, 'a highlight was drawn');
    assertInside(r);
    // The rectangles are the service's boxes (page fractions) scaled to the drawn page.
    const highlight = await client.answers.highlightForRetrieval({
      kbId: item.kb_id,
      pageNo: 2,
      passageText: item.text,
      subTextIndex: (item as { subTextIndex?: number }).subTextIndex,
    });
    const expected = highlight.bboxes.map((b) => ({ left: b.left * r.canvas!.width, top: b.top * r.canvas!.height }));
    assert.equal(r.rects.length, expected.length);
    r.rects.forEach((rect, i) =>
      assert.ok(
        Math.abs(rect.left - expected[i].left) < 1 && Math.abs(rect.top - expected[i].top) < 1,
        `rect ${i}: ${JSON.stringify(rect)} vs ${JSON.stringify(expected[i])}`,
      ),
    );
    assert.match(r.textSample, /Remote work/);
    assert.deepEqual(r.fontProblems, []);
    assert.deepEqual(pageProblems(panel), [], 'no CSP violation or page error');
    assert.match(panel.panel.title, /employee-handbook\.pdf · p\. 2/);

    // A generative answer's citation of one sentence: the same viewer moves to it, and only that sentence is highlighted.
    const sentence = 'The company pays a one-time home office allowance of 50,000 yen for a desk, a chair or a monitor.';
    const again = (await openCitation({
      citation: { index: 1, knowledgeBaseId: item.kb_id, pageNo: 2, title: 'employee-handbook.pdf', text: sentence },
      question,
    }))!;
    assert.equal(again, panel, 'one viewer per document');
    const s = await drawn(panel, 'pdf', 2, r);
    assert.equal(s.highlightSource, 'service');
    assert.ok(
      s.rects.length >= 1 && s.rects.length < r.rects.length,
      `${s.rects.length} rectangle(s) for one sentence, ${r.rects.length} for the page`,
    );
    assertInside(s);
    await screenshot('citation-pdf');

    // Page navigation and zoom, as the toolbar does them.
    const next = await panel.channel.request('drive', { pageNo: 3 });
    assert.equal(next.pageNo, 3);
    const p3 = await drawn(panel, 'pdf', 3, s);
    assert.equal(p3.highlightSource, 'none', 'the highlight belongs to page 2');
    assert.match(p3.textSample, /Expenses/);
    await panel.channel.request('drive', { pageNo: 2, zoom: 1.5 });
    const zoomed = await waitFor(
      () => {
        const r = lastRendered(panel);
        return r?.scale === 1.5 && r.pageNo === 2 ? r : undefined;
      },
      'page 2 at 150%',
      15_000,
      () => `${panel.describe()}; last drawn page ${lastRendered(panel)?.pageNo} at ${lastRendered(panel)?.scale}`,
    );
    assert.ok(Math.abs(zoomed.canvas!.width - 595 * 1.5) < 2, `width at 150%: ${zoomed.canvas!.width}`);
    assert.equal(zoomed.rects.length, s.rects.length);
    assertInside(zoomed);
    await panel.channel.request('drive', { zoom: 'fit' });
  });

  it('shows a Markdown document as text with the passage marked', async () => {
    const question = '出張の宿泊費の上限はいくらですか';
    const item = await top(question, 'expenses');
    const panel = (await openDocument({ kbId: item.kb_id, pageNo: item.pageNo, passageText: item.text, question, title: item.title }))!;
    const r = await drawn(panel, 'text');
    assert.equal(r.highlightSource, 'text');
    assert.ok(r.highlightedText.length > 0);
    assert.ok(
      squash(item.text).includes(squash(r.highlightedText)) || squash(r.highlightedText).includes(squash(item.text)),
      `marked "${r.highlightedText}" for "${item.text}"`,
    );
    assert.match(r.highlightedText, /12,000円/);
    // A citation of one paragraph marks exactly that paragraph.
    const paragraph = '宿泊費の上限は1泊12,000円です。東京23区と大阪市内は1泊15,000円まで認められます。';
    await openCitation({ citation: { index: 1, knowledgeBaseId: item.kb_id, pageNo: 1, title: item.title, text: paragraph }, question });
    const p = await drawn(panel, 'text', undefined, r);
    assert.equal(p.highlightedText, paragraph);
    assert.deepEqual(pageProblems(panel), []);
    await screenshot('citation-text');
  });

  it('renders Japanese PDFs: embedded fonts, and a font without embedding through the character maps', async () => {
    const rules = (await openCitation({
      citation: {
        index: 1,
        knowledgeBaseId: ids.rules,
        pageNo: 1,
        title: '就業規則.pdf',
        text: '時間外労働は1か月45時間、1年360時間を上限とする。',
      },
      question: '残業の上限は？',
    })) as CitationPanel;
    const r = await drawn(rules, 'pdf', 1);
    assert.ok(squash(r.textSample).includes('就業規則'), r.textSample);
    assert.ok(r.rects.length >= 1, `highlighted (${r.highlightSource})`);
    assertInside(r);
    assert.deepEqual(r.fontProblems, []);
    const cmap = (await openDocument({ kbId: ids.cmap, pageNo: 1 }))!;
    const c = await drawn(cmap, 'pdf', 1);
    assert.ok(squash(c.textSample).includes('東京都千代田区'), `decoded text: ${JSON.stringify(c.textSample)}`);
    assert.deepEqual(c.fontProblems, [], 'no font or character map warnings');
    assert.deepEqual([...pageProblems(rules), ...pageProblems(cmap)], []);
  });

  it('falls back to the page number and passage when there is no document or no highlight', async () => {
    const web = (await openCitation({
      citation: {
        index: 2,
        source: 'web',
        title: 'Travel policy (intranet)',
        pageNo: 4,
        url: 'https://intranet.example.com/travel',
        text: 'Book trains at least 7 days ahead.',
      },
    })) as CitationPanel;
    const f = await drawn(web, 'fallback');
    assert.equal(f.pageNo, 4);
    assert.equal(f.textSample, 'Book trains at least 7 days ahead.');
    assert.equal(web.current.view.kind === 'fallback' && /web page/.test(web.current.view.reason), true);
    // A PDF citation whose passage is not on its page, without a highlight: the page and the passage text.
    const missing = (await openCitation({
      citation: {
        index: 3,
        knowledgeBaseId: ids.handbook,
        pageNo: 1,
        title: 'employee-handbook.pdf',
        text: 'Quarterly bonuses are paid in April and October.',
      },
    })) as CitationPanel;
    const m = await waitFor(
      () => {
        const r = lastRendered(missing);
        return r?.view === 'pdf' && r.pageNo === 1 && missing.current.target.passageText?.startsWith('Quarterly') ? r : undefined;
      },
      'page 1 without highlight',
      15_000,
      () => {
        const r = lastRendered(missing);
        return `${missing.describe()}; last drawn ${JSON.stringify(r && { view: r.view, pageNo: r.pageNo })}`;
      },
    );
    assert.equal(m.highlightSource, 'none');
    assert.deepEqual(m.rects, []);
    const snap = await missing.channel.request('snapshot', {});
    assert.ok(
      snap.notes.some((n) => /could not be found/.test(n)),
      JSON.stringify(snap.notes),
    );
    // A Q&A citation opens the Q&A editor.
    const { id } = await client.faq.register({
      question: 'Where do I request paid leave?',
      answer: '<p>In the HR portal.</p>',
      status: 'on',
    });
    try {
      const editor = (await openCitation({
        citation: { index: 4, source: 'qna', faqId: id, title: 'Where do I request paid leave?' },
      })) as QaEditorPanel;
      assert.equal(editor.id, id);
      await waitForPage(editor, 'the Q&A editor of a citation');
      await waitFor(
        () => editor.current?.values.question,
        'the Q&A loaded in the editor',
        15_000,
        () => editor.describe(),
      );
      assert.equal(editor.current?.values.question, 'Where do I request paid leave?');
      editor.dispose();
    } finally {
      await client.faq.delete(id);
    }
  });

  it('runs retrieval with A and B side by side, marks rank changes, and opens a result', async () => {
    const panel = (await vscode.commands.executeCommand<RetrievalPanel>('knowledgeDesk.answers.showRetrieval'))!;
    await waitForPage(panel, 'the retrieval page');
    // A: the service's defaults; B: keyword search plus title vectors (documents whose names match move up).
    const question = 'travel expenses';
    const settings = {
      A: { ...DEFAULT_SETTINGS.A, maxDocumentClues: 5 },
      B: { ...DEFAULT_SETTINGS.B, maxDocumentClues: 5, title_vector_score_weight: 9 },
    };
    const before = lastRendered(panel);
    const snap = await panel.channel.request('drive', { question, A: settings.A, B: settings.B, run: 'both' });
    const r = await waitFor(
      () => (lastRendered(panel) !== before ? lastRendered(panel) : undefined),
      'both columns drawn',
      15_000,
      () => panel.describe(),
    );
    // The page shows exactly what the service returns for each column's request.
    const [a, b] = await Promise.all([
      client.answers.retrieve(toRetrievalRequest(question, settings.A)),
      client.answers.retrieve(toRetrievalRequest(question, settings.B)),
    ]);
    assert.deepEqual(
      snap.A.results.map((x) => `${x.kbId}#${x.pageNo}`),
      a.map((x) => `${x.kb_id}#${x.pageNo}`),
    );
    assert.deepEqual(
      snap.B.results.map((x) => `${x.kbId}#${x.pageNo}`),
      b.map((x) => `${x.kb_id}#${x.pageNo}`),
    );
    const marks = compareRankings(
      a.map((x) => ({ kbId: x.kb_id, pageNo: x.pageNo })),
      b.map((x) => ({ kbId: x.kb_id, pageNo: x.pageNo })),
    );
    assert.deepEqual(r.B.marks, marks.B.map(markLabel));
    assert.deepEqual(r.A.marks, marks.A.map(markLabel));
    assert.ok(
      r.B.marks.some((m) => m !== ''),
      `B differs from A somewhere: ${JSON.stringify(r)}`,
    );
    assert.deepEqual(snap.B.request, { ...toRetrievalRequest(question, settings.B) });
    assert.deepEqual(pageProblems(panel), []);
    await screenshot('retrieval-compare');
    // Clicking a result opens it in the citation viewer, at its page.
    const first = snap.B.results[0];
    await panel.channel.request('drive', { open: { column: 'B', index: 0 } });
    const viewer = (await openDocument({
      kbId: first.kbId,
      pageNo: first.pageNo,
      passageText: first.text,
      subTextIndex: first.subTextIndex,
      question,
      title: first.title,
    }))!;
    assert.equal(viewer.current.target.kbId, first.kbId);
    const shown = await waitFor(
      () => {
        const r = lastRendered(viewer);
        return r && r.pageNo === first.pageNo ? r : undefined;
      },
      'the opened result',
      15_000,
      () => `${viewer.describe()}; last drawn page ${lastRendered(viewer)?.pageNo}`,
    );
    assert.notEqual(shown.view, 'error');
  });
});
