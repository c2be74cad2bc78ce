import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { FileNode, KbNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ChatTestView } from '../../src/testApiFeatures';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { CitationOpened } from '../../src/features/answers/chat/citations';
import type { GenerativeAnswerRequest } from '../../src/api/resources/answers';
import { ProbeKeys } from '../../src/testProbe';
import { CHAT_VIEW_TYPE, type Turn, type ChatSnapshot, type DriveParams } from '../../src/features/answers/chat/protocol';
import {
  getApi,
  localFaults,
  lastRendered,
  pageProblems,
  probe,
  resetWorkbench,
  screenshot,
  useService,
  waitFor,
  waitForPage,
  withTheme,
  openFreshChat,
  waitUntilAnswerable,
  setStreamDelay,
} from './support/host';

const PAID_LEAVE = 'How many days of paid leave do new employees get?';
const HOTEL_JA = '出張の宿泊費の上限はいくらですか？';
const OWN_USER_ID = 'identity.ownUserId';

const snapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const drive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);

/** Waits for the page to have said ready and to show the host's conversation. */
async function pageShows(p: ChatPanel): Promise<ChatSnapshot> {
  await waitForPage(p, 'the chat panel');
  return waitFor(
    async () => {
      const s = await snapshot(p);
      return s.ready && s.conversationId === p.conversation.id ? s : undefined;
    },
    'the chat page to show the conversation',
    15_000,
    () => p.describe(),
  );
}

/** The next turn this panel finishes. */
function nextTurn(p: ChatPanel): Promise<Turn> {
  return new Promise((resolve) => {
    const sub = p.onDidFinishTurn((t) => {
      sub.dispose();
      resolve(t);
    });
  });
}

/** The page shows turn `id` finished (rendered with its sources). */
async function pageFinished(p: ChatPanel, id: string): Promise<ChatSnapshot['turns'][number]> {
  return waitFor(
    async () => (await snapshot(p)).turns.find((t) => t.id === id && t.status !== 'streaming'),
    `the page to show turn ${id} finished`,
    15_000,
    () => p.describe(),
  );
}

/** Asks `question` in the page as a person would and returns the finished turn. */
async function ask(p: ChatPanel, question: string): Promise<Turn> {
  const finished = nextTurn(p);
  await drive(p, { type: question });
  await drive(p, { send: true });
  return finished;
}

/** Asks about paid leave on a slow stream and presses Stop after the first sentence: a turn marked stopped. */
async function askAndStop(p: ChatPanel): Promise<{ turn: Turn; requestId: string; stopMs: number }> {
  await setStreamDelay(2000);
  try {
    const finished = nextTurn(p);
    await drive(p, { type: PAID_LEAVE });
    await drive(p, { send: true });
    const requestId = await waitFor(
      async () => {
        const s = await snapshot(p);
        return s.streaming && s.turns.at(-1)!.answerText.includes('15 days') ? s.streaming : undefined;
      },
      'the first sentence',
      15_000,
      () => p.describe(),
    );
    const stopped = Date.now();
    await drive(p, { stop: true });
    const turn = await finished;
    return { turn, requestId, stopMs: Date.now() - stopped };
  } finally {
    await setStreamDelay(0);
  }
}

/** Closes an untitled document without the "save changes?" dialog. */
async function closeUntitled(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

async function localInfo(api: KnowledgeDeskTestApi): Promise<Record<string, number>> {
  const ep = api.localService.current!;
  const res = await fetch(`${ep.url}/_local/info`, { headers: { 'API-KEY': ep.apiKey } });
  return ((await res.json()) as { counts: Record<string, number> }).counts;
}

/** The last request the chat sent to the service. */
const lastRequest = (panel: ChatPanel): GenerativeAnswerRequest | undefined => probe().last(panel, ProbeKeys.requests);

describe('Chat panel', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let feature: ChatTestView;
  /** Each test's own panel, opened by beforeEach on a new empty conversation (the chat history cleared). */
  let panel: ChatPanel;
  let handbook: KbNode;
  const uploaded: string[] = [];
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('knowledgeDesk');

  before(async function () {
    this.timeout(120_000);
    api = await getApi();
    client = await useService(api);
    feature = api.chat;
    await settings().update(OWN_USER_ID, undefined, vscode.ConfigurationTarget.Global);
    const samples = path.join(api.context.extensionPath, 'samples/knowledge-base');
    for (const rel of ['Handbook/employee-handbook.pdf', '経費/経費精算ガイド.md']) {
      const [node] = await client.kbNodes.upload({
        file: { path: path.join(samples, rel) },
        fileName: path.basename(rel),
        isOverwrite: true,
      });
      uploaded.push(node.id);
      if (node.name === 'employee-handbook.pdf') handbook = node;
    }
    await waitFor(
      async () => {
        const { nodes } = await client.kbNodes.search({ limit: 100 });
        return uploaded.every((id) => nodes.some((n) => n.id === id && (n as FileNode).processState === 'completed'));
      },
      'the two documents to be processed',
      60_000,
    );
    // Processed documents reach the answer index right after processing; wait until they answer.
    await waitUntilAnswerable(client, PAID_LEAVE);
  });

  beforeEach(async () => {
    panel = await openFreshChat(api);
    const s = await pageShows(panel);
    assert.equal(s.turns.length, 0, 'each test starts on an empty conversation');
  });

  afterEach(async () => {
    await localFaults(api, {}).catch(() => undefined);
    await settings().update(OWN_USER_ID, undefined, vscode.ConfigurationTarget.Global);
    feature.current?.dispose();
    await resetWorkbench(api);
  });

  after(async () => {
    for (const id of uploaded) await client.kbNodes.delete(id).catch(() => undefined);
  });

  it('opens with a nonce CSP and streams an answer, delta by delta, with numbered citations', async () => {
    const html = panel.panel.webview.html.replace(/&#39;/g, "'");
    assert.match(html, /script-src 'nonce-[^']{16,}'/);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|\sstyle=|\son[a-z]+=/i);
    assert.match(html, /dist\/webview\/chat\.js/);
    assert.equal(panel.panel.options.retainContextWhenHidden ?? false, false);
    assert.equal(panel.panel.title, 'Ask Knowledge Desk');
    const first = await pageShows(panel);
    assert.equal(first.hintShown, true, 'no OWN-USER-ID: the thread hint shows');

    await setStreamDelay(2000); // slow enough to look at mid-stream
    const finished = nextTurn(panel);
    await drive(panel, { type: PAID_LEAVE });
    await drive(panel, { send: true });
    const mid = await waitFor(
      async () => {
        const s = await snapshot(panel);
        return s.streaming && s.turns.at(-1)!.answerText.includes('15 days') ? s : undefined;
      },
      'the first sentence to stream in',
      15_000,
      () => panel.describe(),
    );
    assert.equal(mid.turns.at(-1)!.sources.length, 0, 'sources come with the finished answer');
    await screenshot('chat-streaming');
    const turn = await finished;
    await setStreamDelay(0);
    assert.equal(turn.status, 'done');
    assert.ok(turn.seq >= 2, `deltas before done: ${turn.seq}`);
    assert.match(turn.answer, /15 days of paid leave/);
    assert.ok(turn.citations.length >= 1);
    assert.equal(turn.citations[0].title, 'employee-handbook.pdf');
    assert.equal(turn.model, 'local-extractive');
    assert.equal(turn.stateful, false);
    assert.deepEqual(lastRequest(panel), {
      query: PAID_LEAVE,
      includeCitations: true,
      clues: true,
      search_from: ['document', 'qna'],
      temperature: 0,
    });
    const shown = await pageFinished(panel, turn.id);
    assert.ok(shown.citationLinks >= 1, 'markers link to the sources');
    assert.deepEqual(
      shown.sources.map((s) => [s.index, s.title, s.kind]),
      [[1, 'employee-handbook.pdf', 'Document']],
    );
    assert.equal(shown.model, 'local-extractive');
    const stats = (await snapshot(panel)).stats;
    assert.ok(stats.deltas >= 2 && stats.fullRenders === 1, JSON.stringify(stats));
    assert.deepEqual(pageProblems(panel), []);
  });

  it('answers a Japanese question from the Japanese guide', async () => {
    const turn = await ask(panel, HOTEL_JA);
    assert.equal(turn.status, 'done');
    assert.match(turn.answer, /12,000円/);
    assert.equal(turn.citations[0]?.title, '経費精算ガイド.md');
    const shown = await pageFinished(panel, turn.id);
    assert.match(shown.answerText, /宿泊費の上限は1泊12,000円です。/);
  });

  it('a click on a source runs the citation command with the citation, the question and the answer', async () => {
    const turn = await ask(panel, PAID_LEAVE);
    assert.equal(turn.status, 'done');
    await pageFinished(panel, turn.id);
    const opened = probe().ring(panel, ProbeKeys.citationsOpened).total;
    // beforeEach closed every editor, so the viewer this click opens is a new one.
    const viewers = api.citations;
    const previous = viewers.last;
    await drive(panel, { clickCitation: { turnId: turn.id, index: 1 } });
    const citation = await waitFor(
      () => probe().ring<CitationOpened>(panel, ProbeKeys.citationsOpened).since(opened)[0],
      'the citation to be opened',
      15_000,
      () => panel.describe(),
    );
    assert.equal(citation.outcome, 'opened');
    assert.deepEqual(citation.citation, turn.citations[0]);
    assert.ok(citation.citation.clueId, 'the clue id goes with it');
    assert.equal(citation.question, PAID_LEAVE);
    assert.equal(citation.answer, turn.answer);
    // The citation viewer opens on the cited page of the cited document.
    const viewer = await waitFor(
      () => (viewers.last !== previous ? viewers.last && lastRendered(viewers.last) : undefined),
      'the citation viewer to render',
      20_000,
      () => viewers.last?.describe() ?? 'no citation viewer open',
    );
    assert.equal(viewer.pageNo, turn.citations[0].pageNo);
    viewers.last?.dispose();
  });

  it('Stop aborts a slow stream: the partial answer stays, marked stopped, and the service sees the request closed', async () => {
    const before = (await localInfo(api))['answers.closedEarly'] ?? 0;
    const { turn, requestId, stopMs } = await askAndStop(panel);
    assert.ok(stopMs < 1500, `Stop does not wait for the next chunk (took ${stopMs} ms)`);
    assert.equal(turn.id, requestId);
    assert.equal(turn.status, 'stopped');
    assert.match(turn.answer, /15 days/);
    assert.doesNotMatch(turn.answer, /Sick leave/, 'the rest never came');
    const shown = await pageFinished(panel, turn.id);
    assert.match(shown.answerText, /15 days/);
    await waitFor(async () => ((await localInfo(api))['answers.closedEarly'] ?? 0) > before, 'answers.closedEarly to go up');
  });

  it('shows a rate limit inline in the usual words; Retry asks again in place', async () => {
    await localFaults(api, { script: ['429', '429', '429', '429'], retryAfterSeconds: 0, pathPrefix: '/webapi/generative_answer' });
    const turn = await ask(panel, HOTEL_JA);
    await localFaults(api, {});
    assert.equal(turn.status, 'error');
    assert.match(turn.error!.message, /^The service is rate limiting requests\./);
    const shown = await pageFinished(panel, turn.id);
    assert.equal(shown.error, turn.error!.message);
    const retried = nextTurn(panel);
    await drive(panel, { retry: { turnId: turn.id } });
    const again = await retried;
    assert.equal(again.status, 'done');
    assert.equal(again.question, HOTEL_JA);
    assert.equal(
      panel.conversation.turns.some((t) => t.id === turn.id),
      false,
      'the retry replaced the failed turn',
    );
    await pageFinished(panel, again.id);
  });

  it('Ask About This… scopes the question to the chosen Knowledge Base node', async () => {
    const p = await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.askAboutFolderOrDocument', {
      kind: 'node',
      node: handbook,
      parentKey: '#root',
    });
    assert.equal(p, panel);
    const s = await waitFor(
      async () => {
        const snap = await snapshot(panel);
        return snap.options.scope.length ? snap : undefined;
      },
      'the scope in the page',
      15_000,
      () => panel.describe(),
    );
    assert.deepEqual(s.options.scope, [{ id: handbook.id, name: 'employee-handbook.pdf', kind: 'document' }]);
    const turn = await ask(panel, 'How many days of sick leave are there?');
    assert.deepEqual(lastRequest(panel)?.source, { sharedKnowledgeBaseNodeIds: [handbook.id] });
    assert.ok(turn.citations.every((c) => c.knowledgeBaseId === handbook.id));
    await drive(panel, { options: { scope: [] } });
    await waitFor(() => panel.conversation.options.scope.length === 0, 'the scope cleared on the host');
  });

  it('follows up in a thread when OWN-USER-ID is set (screenshot chat-answer)', async () => {
    // A conversation with a turn from before OWN-USER-ID was set, so New Chat starts a second one.
    const earlier = await ask(panel, HOTEL_JA);
    assert.equal(earlier.stateful, false);
    const firstConversation = panel.conversation.id;
    await settings().update(OWN_USER_ID, 'chat-test-user', vscode.ConfigurationTarget.Global);
    await waitFor(
      async () => !(await snapshot(panel)).hintShown,
      'the thread hint to go',
      15_000,
      () => panel.describe(),
    );
    await drive(panel, { newChat: true });
    await waitFor(
      async () => {
        const s = await snapshot(panel);
        return s.conversationId !== firstConversation && s.turns.length === 0;
      },
      'a new empty chat',
      15_000,
      () => panel.describe(),
    );
    const first = await ask(panel, PAID_LEAVE);
    assert.equal(first.stateful, true);
    assert.equal(lastRequest(panel)?.isStateful, true);
    assert.equal(lastRequest(panel)?.threadId, undefined, 'the first turn starts the thread');
    assert.ok(first.threadId && first.fuQuestion, JSON.stringify(first));
    assert.equal(panel.conversation.threadId, first.threadId);
    const chip = await pageFinished(panel, first.id);
    assert.equal(chip.followUp, first.fuQuestion);
    if ((await snapshot(panel)).optionsOpen) await drive(panel, { toggleOptions: true });
    await screenshot('chat-answer');
    await withTheme('Default Dark Modern', () => screenshot('chat-answer-dark'));
    const secondDone = nextTurn(panel);
    await drive(panel, { clickFollowUp: { turnId: first.id } });
    const second = await secondDone;
    assert.equal(second.question, first.fuQuestion);
    assert.equal(lastRequest(panel)?.threadId, first.threadId, 'the follow-up goes to the same thread');
    assert.equal(second.threadId, first.threadId);
    const third = await ask(panel, 'And how many of those days can I carry over?');
    assert.equal(third.status, 'done');
    assert.match(third.answer, /carried over/i, 'the thread supplies the context of "those days"');
    await pageFinished(panel, third.id);
    const s = await snapshot(panel);
    assert.equal(s.conversations, 2);
  });

  it('restores the conversation after the panel is closed and reopened, and through the serializer', async () => {
    // An earlier conversation with a finished and a stopped answer, then a current one with a finished answer.
    const earlier = panel.conversation.id;
    assert.equal((await ask(panel, PAID_LEAVE)).status, 'done');
    assert.equal((await askAndStop(panel)).turn.status, 'stopped');
    await drive(panel, { newChat: true });
    await waitFor(
      () => panel.conversation.id !== earlier,
      'a new chat on the host',
      15_000,
      () => panel.describe(),
    );
    await pageShows(panel);
    assert.equal((await ask(panel, HOTEL_JA)).status, 'done');

    const shownId = panel.conversation.id;
    const turns = panel.conversation.turns.length;
    panel.dispose();
    panel = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
    const s = await pageShows(panel);
    assert.equal(s.conversationId, shownId);
    assert.equal(s.turns.length, turns);
    assert.ok(s.turns.every((t) => t.status === 'done'));
    assert.ok(s.turns[0].sources.length >= 1);
    panel.dispose();
    // What VS Code does after a restart: a panel of this view type and the page's saved state.
    const raw = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'Ask Knowledge Desk', vscode.ViewColumn.Active, { enableScripts: true });
    panel = feature.restore(raw, { conversationId: earlier });
    const restored = await pageShows(panel);
    assert.equal(restored.conversationId, earlier);
    assert.equal(restored.turns[0].question, PAID_LEAVE);
    assert.equal(restored.turns.find((t) => t.status === 'stopped')?.question, PAID_LEAVE, 'the stopped answer is still marked stopped');
  });

  it('exports the conversation as Markdown with numbered sources', async () => {
    assert.equal((await ask(panel, PAID_LEAVE)).status, 'done');
    assert.equal((await ask(panel, HOTEL_JA)).status, 'done');
    assert.equal((await askAndStop(panel)).turn.status, 'stopped');
    const doc = (await vscode.commands.executeCommand<vscode.TextDocument>('knowledgeDesk.answers.exportChat'))!;
    assert.equal(doc.languageId, 'markdown');
    assert.equal(doc.isUntitled, true);
    const text = doc.getText();
    assert.match(text, /^# How many days of paid leave do new employees get\?\n/);
    assert.match(
      text,
      /## 1\. How many days of paid leave do new employees get\?\n\nNew employees get 15 days of paid leave in their first year of employment\. \[1\]/,
    );
    assert.match(text, /\*\*Sources\*\*\n\n1\. employee-handbook\.pdf \(Document, page 1\)\n {3}> …?New employees get 15 days/);
    assert.match(text, /## 2\. 出張の宿泊費の上限はいくらですか？\n\n宿泊費の上限は1泊12,000円です。 \[1\]/);
    assert.match(text, /1\. 経費精算ガイド\.md \(Document, page 1\)/);
    assert.match(text, /\*\(stopped before the answer was complete\)\*/);
    await closeUntitled(doc);
  });

  it('asks about the editor selection', async () => {
    const question = 'What is the daily allowance for domestic business trips?';
    // A file rather than an untitled document: VS Code may reuse the name of an untitled export just closed.
    const file = vscode.Uri.file(path.join(os.tmpdir(), `kd-chat-selection-${Date.now()}.txt`));
    await vscode.workspace.fs.writeFile(file, Buffer.from(`Intro line\n${question}\n`));
    try {
      const doc = await vscode.workspace.openTextDocument(file);
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(1, 0, 1, question.length);
      const finished = nextTurn(panel);
      const p = await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.askSelection');
      assert.equal(p, panel);
      const turn = await finished;
      assert.equal(turn.question, question);
      assert.equal(turn.status, 'done');
    } finally {
      await resetWorkbench(api);
      await vscode.workspace.fs.delete(file);
    }
  });
});
