// One citation viewer per document, moved from citation to citation (issue 22, item 3): every click shows its
// own page with its own highlight — in the tab title, the header, the toolbar and on the canvas — whatever came
// before it, in the same or another document, with the viewer visible or hidden in between, or restored.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ApiClient } from '../../src/api/client';
import type { CitationPanel } from '../../src/features/answers/citations/citationPanel';
import type { CitationSnapshot } from '../../src/features/answers/citations/protocol';
import { makeBigPdf } from '../unit/local/extract/pdfWriter';
import { EXTENSION_ID, getApi, lastRendered, pageProblems, resetWorkbench, screenshot, useService, waitFor } from './support/host';

const PAGES = 140;
const line = (page: number, n: number): string =>
  `Page ${page} line ${n}: the quarterly report lists revenue, costs and staffing for each region.`;

describe('Citation viewer moves between citations', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let big = '';
  let handbook = '';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-cite-moves-'));

  const open = async (kbId: string, pageNo: number, index: number, title: string, text: string): Promise<CitationPanel> =>
    (await vscode.commands.executeCommand<CitationPanel>('knowledgeDesk.answers.openCitation', {
      citation: { index, knowledgeBaseId: kbId, pageNo, title, text },
      question: 'What does the quarterly report list?',
    }))!;
  const cite = (pageNo: number, index: number): Promise<CitationPanel> => open(big, pageNo, index, 'quarterly.pdf', line(pageNo, 3));

  /** Waits until `panel` shows `pageNo` of `pages` as the cited page, drawn and highlighted, and nothing else. */
  async function showsCited(panel: CitationPanel, pageNo: number, pages: number, text: RegExp): Promise<CitationSnapshot> {
    let snap: CitationSnapshot | undefined;
    await waitFor(
      async () => {
        snap = await panel.channel.request('snapshot', {});
        return snap.view === 'pdf' && snap.canvasPageNo === pageNo && snap.rendered?.pageNo === pageNo;
      },
      `the viewer to draw page ${pageNo}`,
      60_000,
      () =>
        `${panel.describe()}; snapshot ${JSON.stringify(snap && { ...snap, rendered: snap.rendered && { ...snap.rendered, rects: snap.rendered.rects.length } })}`,
    );
    // Whatever was still on its way (an earlier citation's drawing, a reload) has landed by now.
    const s = await panel.channel.request('drive', {});
    const r = s.rendered!;
    const where = JSON.stringify({
      header: s.header,
      toolbar: s.toolbar,
      canvas: s.canvasPageNo,
      notes: s.notes,
      title: panel.panel.title,
    });
    assert.equal(s.pageNo, pageNo, where);
    assert.equal(s.canvasPageNo, pageNo, `canvas: ${where}`);
    assert.equal(r.pageNo, pageNo, where);
    assert.match(r.textSample, text, `the text of the drawn page: ${where}`);
    assert.deepEqual(s.toolbar, { page: pageNo, backToCited: false }, `toolbar: ${where}`);
    assert.ok(s.header.includes(` ${pageNo} `) && s.header.includes(` ${pages} `), `header: ${where}`);
    assert.notEqual(r.highlightSource, 'none', `highlighted: ${where}`);
    assert.ok(r.rects.length >= 1, `a highlight drawn: ${where}`);
    assert.match(panel.panel.title, new RegExp(`· p\\. ${pageNo}$`), `tab title: ${where}`);
    assert.equal(panel.current.target.pageNo, pageNo);
    return s;
  }

  /** Hides `panel` behind an editor in its own group (its page is destroyed: no retained context). */
  async function hide(panel: CitationPanel): Promise<void> {
    const doc = await vscode.workspace.openTextDocument({ content: 'covering the viewer' });
    await vscode.window.showTextDocument(doc, { viewColumn: panel.panel.viewColumn, preview: false });
    await waitFor(
      () => !panel.panel.visible,
      'the viewer to be hidden',
      15_000,
      () => panel.describe(),
    );
  }

  before(async function () {
    this.timeout(180_000);
    api = await getApi();
    client = await useService(api);
    const file = path.join(tmp, 'quarterly.pdf');
    fs.writeFileSync(file, makeBigPdf(PAGES, 12));
    const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const uploaded = await Promise.all(
      [file, path.join(root, 'samples/knowledge-base/Handbook/employee-handbook.pdf')].map(async (p) => {
        const [node] = await client.kbNodes.upload({
          file: { path: p },
          fileName: path.basename(p),
          isOverwrite: true,
          hashtags: ['cite-moves'],
        });
        return node.id;
      }),
    );
    [big, handbook] = uploaded;
    let states = '';
    await waitFor(
      async () => {
        const { nodes } = await client.kbNodes.search({ hashtags: ['cite-moves'], limit: 10 });
        states = nodes.map((n) => `${n.name}: ${'processState' in n ? n.processState : 'folder'}`).join(', ');
        return uploaded.every((id) => nodes.some((n) => n.id === id && 'processState' in n && n.processState === 'completed'));
      },
      'the two documents to be processed',
      120_000,
      () => states,
    );
  });

  beforeEach(() => resetWorkbench(api));
  afterEach(() => resetWorkbench(api));
  after(async () => {
    for (const id of [big, handbook]) if (id) await client.kbNodes.delete(id).catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows each citation of the same PDF at its own page with its highlight, in any order', async () => {
    const viewer = await cite(96, 1);
    await showsCited(viewer, 96, PAGES, /^Page 96 line 1:/);
    // The second citation into the same PDF (the one that showed page 96 with "Back to cited page").
    assert.equal(await cite(138, 2), viewer, 'one viewer per document');
    await showsCited(viewer, 138, PAGES, /^Page 138 line 1:/);
    await screenshot('citation-second-in-same-pdf');
    assert.equal(await cite(96, 1), viewer);
    await showsCited(viewer, 96, PAGES, /^Page 96 line 1:/);
    // Clicks faster than the viewer draws: the last one wins, whole.
    void cite(12, 3);
    void cite(138, 2);
    await cite(40, 4);
    await showsCited(viewer, 40, PAGES, /^Page 40 line 1:/);
    await cite(41, 5);
    await cite(7, 6);
    await showsCited(viewer, 7, PAGES, /^Page 7 line 1:/);
    assert.deepEqual(pageProblems(viewer), []);
  });

  it('moves a hidden viewer, one in another document and a restored one to their own pages', async () => {
    const viewer = await cite(96, 1);
    await showsCited(viewer, 96, PAGES, /^Page 96 line 1:/);
    // Hidden: its page is gone, and comes back for the new citation.
    await hide(viewer);
    assert.equal(await cite(138, 2), viewer);
    await showsCited(viewer, 138, PAGES, /^Page 138 line 1:/);
    await hide(viewer);
    await cite(96, 1);
    await showsCited(viewer, 96, PAGES, /^Page 96 line 1:/);
    // Another document: its own viewer at its own page; then back to the first one.
    const other = await open(
      handbook,
      2,
      7,
      'employee-handbook.pdf',
      'The company pays a one-time home office allowance of 50,000 yen for a desk, a chair or a monitor.',
    );
    assert.notEqual(other, viewer);
    await showsCited(other, 2, 3, /Remote work/);
    assert.equal(await cite(138, 2), viewer);
    await showsCited(viewer, 138, PAGES, /^Page 138 line 1:/);
    // Shown again after being hidden, without a new citation: still the last one.
    await hide(viewer);
    viewer.reveal();
    await showsCited(viewer, 138, PAGES, /^Page 138 line 1:/);
    assert.ok(lastRendered(viewer));
    assert.deepEqual([...pageProblems(viewer), ...pageProblems(other)], []);
    // Restored after a restart (what the serializer does: a new panel for the saved citation), then clicked on.
    const viewers = api.citations;
    const saved = viewer.current.target;
    viewer.dispose();
    const panel = vscode.window.createWebviewPanel('knowledgeDesk.citation', 'Citation', vscode.ViewColumn.Active, { enableScripts: true });
    viewers.restore(panel, { target: saved });
    const restored = viewers.panels.find((p) => p.panel === panel)!;
    await showsCited(restored, 138, PAGES, /^Page 138 line 1:/);
    assert.equal(await cite(96, 1), restored, 'the restored viewer is the document’s viewer');
    await showsCited(restored, 96, PAGES, /^Page 96 line 1:/);
    assert.deepEqual(pageProblems(restored), []);
  });
});
