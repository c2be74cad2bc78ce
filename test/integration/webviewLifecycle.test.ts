// Webview panels opened and closed in quick succession, as a person clicking fast does: the panel left
// open must load its page, say ready and show its content, however the page loads overlapped.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { CitationPanel } from '../../src/features/answers/citations/citationPanel';
import type { EditorSnapshot } from '../../src/features/qna/editor/protocol';
import type { QaEditorPanel } from '../../src/features/qna/editor/qaEditorPanel';
import { defineProtocol, withPageNotifications } from '../../src/platform/webview/protocol';
import { WebviewPanelHost } from '../../src/platform/webview/webviewPanel';
import { getApi, lastRendered, resetWorkbench, useService, waitFor, waitForPage } from './support/host';

const emptyProtocol = defineProtocol({
  name: 'lifecycle-probe',
  toHost: { notifications: withPageNotifications({}), requests: {} },
  toPage: { notifications: {}, requests: {} },
});

/** A host whose page script does not exist, so its page never says ready: the stuck page, on purpose. */
class NeverReadyHost extends WebviewPanelHost<typeof emptyProtocol> {
  readonly warnings: string[] = [];
  constructor(api: KnowledgeDeskTestApi, readyTimeoutMs: number) {
    const log = api.log('lifecycle-test');
    super(vscode.window.createWebviewPanel('knowledgeDesk.lifecycleProbe', 'Never ready', vscode.ViewColumn.Active, {}), {
      extensionUri: api.context.extensionUri,
      page: { name: 'doesNotExist', title: 'Never ready' },
      protocol: emptyProtocol,
      log: { ...log, warn: (m: string) => (this.warnings.push(m), log.warn(m)) },
      readyTimeoutMs,
    });
  }
  protected onPageReady(): void {}
}

const newEditor = async (): Promise<QaEditorPanel> => (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
const openEditor = async (id: string): Promise<QaEditorPanel> =>
  (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.open', { id }))!;

/** Waits until the editor's page shows the Q&A `id` (loaded, not busy); the timeout says what the panel saw. */
async function showsQa(panel: QaEditorPanel, id: string): Promise<EditorSnapshot> {
  await waitForPage(panel, `the editor of ${id}`);
  return waitFor(
    async () => {
      const s = await panel.channel.request('snapshot', {}, { timeoutMs: 5_000 });
      return s.target?.kind === 'existing' && s.target.id === id && s.draft && !s.busy ? s : undefined;
    },
    `the editor page to show the Q&A ${id}`,
    20_000,
    () => panel.describe(),
  );
}

describe('Webview panels opened and closed in quick succession', function () {
  this.timeout(120_000);
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;

  before(async () => {
    api = await getApi();
    client = await useService(api);
  });

  beforeEach(() => resetWorkbench(api));
  afterEach(() => resetWorkbench(api));

  it('a visible page that never says ready is opened again in a new panel in the same place, at most twice', async () => {
    const host = new NeverReadyHost(api, 1_500);
    try {
      const first = host.panel;
      const replaced: vscode.WebviewPanel[] = [];
      host.onDidReplacePanel((p) => replaced.push(p));
      let hostDisposed = false;
      host.onDidDispose(() => (hostDisposed = true));
      await waitFor(
        () => replaced.length === 2,
        'two replacements of the stuck panel',
        20_000,
        () => host.describe(),
      );
      await waitFor(
        () => host.warnings.some((w) => /giving up/.test(w)),
        'the host to give up after two',
        10_000,
        () => host.warnings.join(' | '),
      );
      assert.equal(host.panel, replaced[1], 'the host shows the newest panel');
      assert.notEqual(host.panel, first);
      assert.equal(host.panel.viewColumn, vscode.ViewColumn.One, 'in the same (only) editor group');
      assert.equal(host.panel.visible, true);
      assert.equal(hostDisposed, false, 'replacing a panel does not close the host');
      assert.equal(
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === 'Never ready').length,
        1,
        'the stuck panels are closed',
      );
      assert.match(host.warnings[0], /did not say ready within 1\.5 s \(visible=true.*ready=false/);
    } finally {
      host.dispose();
    }
  });

  // Whether the page loads at all is the web workbench's business: right after a stuck frame (the test
  // above) a new page can get stuck too, and being replaced then is the watchdog doing its job. What this
  // test holds is the rule: once the page has said ready, the watchdog is off, so nothing replaces it.
  it('a page that says ready is never replaced: its watchdog is off from then on', async () => {
    const editor = await newEditor();
    await waitForPage(editor, 'a new Q&A editor');
    assert.match(editor.describe(), /watchdog=off/, 'ready page, watchdog disarmed');
    const panel = editor.panel;
    let replaced = 0;
    editor.onDidReplacePanel(() => replaced++);
    // Hidden: no watchdog either (a hidden page is not expected to load); shown again, the page loads again.
    const cover = await newEditor();
    await waitFor(
      () => !editor.panel.visible,
      'the editor to be covered',
      20_000,
      () => editor.describe(),
    );
    assert.match(editor.describe(), /watchdog=off/, 'hidden page, watchdog disarmed');
    cover.dispose();
    editor.reveal();
    await waitForPage(editor, 'the Q&A editor shown again');
    assert.match(editor.describe(), /watchdog=off/, 'ready again, watchdog disarmed again');
    if (replaced === 0) assert.equal(editor.panel, panel, 'no replacement, so the same panel');
  });

  for (const order of ['newest first', 'oldest first'] as const) {
    it(`three Q&A editors opened at once, two closed (${order}): the one left becomes ready and shows its Q&A`, async () => {
      const { id } = await client.faq.register({
        question: `Which editor is left open (${order})?`,
        answer: '<p>The first one.</p>',
        status: 'on',
      });
      // No await between them but the command's own: the pages load while the next panel already covers them.
      const first = await openEditor(id);
      const second = await newEditor();
      const third = await newEditor();
      for (const p of order === 'newest first' ? [third, second] : [second, third]) p.dispose();
      const s = await showsQa(first, id);
      assert.equal(s.draft!.question, `Which editor is left open (${order})?`);
      assert.equal(first.panel.visible, true);
    });
  }

  it('an editor covered and uncovered five times in a row still shows its Q&A', async () => {
    const { id } = await client.faq.register({ question: 'Covered and uncovered?', answer: '<p>Yes.</p>', status: 'on' });
    const first = await openEditor(id);
    for (let i = 0; i < 5; i++) (await newEditor()).dispose();
    first.reveal();
    const s = await showsQa(first, id);
    assert.equal(s.draft!.question, 'Covered and uncovered?');
  });

  it('the chat panel covered by two editors that close at once becomes ready and shows its conversation', async () => {
    const chat = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
    const covers = [await newEditor(), await newEditor()];
    for (const p of covers) p.dispose();
    chat.reveal();
    await waitForPage(chat, 'the chat panel');
    const s = await waitFor(
      async () => {
        const snap = await chat.channel.request('snapshot', {}, { timeoutMs: 5_000 });
        return snap.conversationId === chat.conversation.id ? snap : undefined;
      },
      'the chat page to show its conversation',
      20_000,
      () => chat.describe(),
    );
    assert.equal(s.conversationId, chat.conversation.id);
  });

  it('the citation viewer covered by two editors that close at once becomes ready and draws its document', async () => {
    const [node] = await client.kbNodes.upload({
      file: { data: '# Lifecycle\n\nThe viewer must draw this passage after being covered.\n' },
      fileName: 'lifecycle-viewer.md',
      isOverwrite: true,
    });
    await waitFor(() => processed(client, node.id), 'the document to be processed', 60_000);
    const viewer = (await vscode.commands.executeCommand<CitationPanel>('knowledgeDesk.answers.openDocument', {
      kbId: node.id,
      pageNo: 1,
      passageText: 'The viewer must draw this passage after being covered.',
      title: 'lifecycle-viewer.md',
    }))!;
    const covers = [await newEditor(), await newEditor()];
    for (const p of covers) p.dispose();
    viewer.reveal();
    await waitForPage(viewer, 'the citation viewer');
    const drawn = await waitFor(
      () => lastRendered(viewer),
      'the viewer to draw the document',
      30_000,
      () => viewer.describe(),
    );
    assert.equal(drawn.view, 'text');
  });
});

async function processed(client: ApiClient, id: string): Promise<boolean> {
  const { nodes } = await client.kbNodes.search({ searchTerm: 'lifecycle-viewer', limit: 10 });
  return nodes.some((n) => n.id === id && 'processState' in n && n.processState === 'completed');
}
