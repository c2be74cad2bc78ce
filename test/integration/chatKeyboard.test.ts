// A chat session from the keyboard alone, in the real host: focus the question box, type, Enter sends, Escape
// stops a streaming answer, Enter on a focused source opens the citation viewer. Keys go to the focused element
// of the page through the chat's `drive` request (keydown, then what the browser does for an unprevented Enter
// on a button). Language-neutral: it also runs with `--locale ja` (the screenshots of the Japanese UI).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ApiClient } from '../../src/api/client';
import type { FileNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ChatTestView } from '../../src/testApiFeatures';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { CitationOpened } from '../../src/features/answers/chat/citations';
import type { Turn } from '../../src/features/answers/chat/protocol';
import type { ChatSnapshot, DriveParams } from '../../src/features/answers/chat/protocol';
import type { CitationSnapshot } from '../../src/features/answers/citations/protocol';
import { ProbeKeys } from '../../src/testProbe';
import {
  getApi,
  lastRendered,
  pageProblems,
  probe,
  resetWorkbench,
  screenshot,
  useService,
  waitFor,
  withTheme,
  openFreshChat,
  waitUntilAnswerable,
  setStreamDelay,
} from './support/host';

const PAID_LEAVE = 'How many days of paid leave do new employees get?';

const snapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const drive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);
const press = (p: ChatPanel, key: string): Promise<ChatSnapshot> => drive(p, { press: { key } });

function nextTurn(p: ChatPanel): Promise<Turn> {
  return new Promise((resolve) => {
    const sub = p.onDidFinishTurn((t) => {
      sub.dispose();
      resolve(t);
    });
  });
}

/** Waits for the page's snapshot to satisfy `ok`. */
function pageUntil(p: ChatPanel, what: string, ok: (s: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
  return waitFor(
    async () => {
      const s = await snapshot(p);
      return ok(s) ? s : undefined;
    },
    what,
    20_000,
    () => p.describe(),
  );
}

describe('Chat from the keyboard', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let feature: ChatTestView;
  let panel: ChatPanel;
  let handbook: string | undefined;

  before(async function () {
    this.timeout(120_000);
    api = await getApi();
    client = await useService(api);
    feature = api.chat;
    const file = path.join(api.context.extensionPath, 'samples/knowledge-base/Handbook/employee-handbook.pdf');
    const [node] = await client.kbNodes.upload({ file: { path: file }, fileName: 'employee-handbook.pdf', isOverwrite: true });
    handbook = node.id;
    await waitFor(
      async () => {
        const { nodes } = await client.kbNodes.search({ limit: 100 });
        return nodes.some((n) => n.id === handbook && (n as FileNode).processState === 'completed');
      },
      'the handbook to be processed',
      60_000,
    );
    await waitUntilAnswerable(client, PAID_LEAVE);
  });

  beforeEach(async () => {
    panel = await openFreshChat(api);
    await pageUntil(panel, 'the chat page to show the conversation', (s) => s.ready && s.conversationId === panel.conversation.id);
  });

  afterEach(async () => {
    await setStreamDelay(0);
    feature.current?.dispose();
    await resetWorkbench(api);
  });

  after(async () => {
    if (handbook) await client.kbNodes.delete(handbook).catch(() => undefined);
  });

  it('type, Enter sends, Escape stops, Enter again, then Enter on a focused source opens the citation viewer', async () => {
    // The question box has the focus when the panel opens; focus it anyway, as Tab would.
    assert.equal((await drive(panel, { focus: 'question' })).focused, 'question');

    // 1. A slow answer, stopped with Escape while it streams.
    await setStreamDelay(2000);
    const stopped = nextTurn(panel);
    await drive(panel, { type: PAID_LEAVE });
    const sent = await press(panel, 'Enter');
    assert.equal(sent.draft, '', 'Enter sent the question (the box is empty)');
    const mid = await pageUntil(
      panel,
      'the first sentence to stream in',
      (s) => !!s.streaming && s.turns.at(-1)!.answerText.includes('15 days'),
    );
    assert.equal(mid.announcements, 0, 'nothing is announced while the answer streams');
    assert.equal(mid.focused, 'question', 'the focus stays in the question box');
    await press(panel, 'Escape');
    const first = await stopped;
    await setStreamDelay(0);
    assert.equal(first.status, 'stopped');
    assert.match(first.answer, /15 days/);
    const afterStop = await pageUntil(
      panel,
      'the stopped turn and its announcement',
      (s) => s.turns.at(-1)?.status === 'stopped' && !!s.announced,
    );
    assert.equal(afterStop.announcements, 1, 'the stop is said once');
    assert.equal(afterStop.streaming, null);

    // 2. The same question again, answered in full: said once, when it has finished.
    const done = nextTurn(panel);
    await drive(panel, { type: PAID_LEAVE });
    await press(panel, 'Enter');
    const second = await done;
    assert.equal(second.status, 'done');
    assert.ok(second.citations.length >= 1, 'the answer has a source');
    const shown = await pageUntil(
      panel,
      'the finished answer with its sources, announced',
      (s) =>
        s.turns.at(-1)?.status === 'done' && s.turns.at(-1)!.sources.length > 0 && s.announcements === 2 && s.announced.includes('15 days'),
    );
    assert.ok(shown.announced.includes('15 days of paid leave'), `the live region says the answer: ${shown.announced}`);
    if (shown.optionsOpen) await drive(panel, { toggleOptions: true });
    await screenshot('chat-keyboard-answer');
    await withTheme('Default High Contrast', () => screenshot('chat-keyboard-answer-hc'));

    // 3. Focus the first source (Tab reaches it: one stop for the list) and press Enter.
    const viewers = api.citations;
    const previous = viewers.last;
    const opened = probe().ring(panel, ProbeKeys.citationsOpened).total;
    const index = second.citations[0].index;
    const focused = await drive(panel, { focus: { turnId: second.id, source: index } });
    assert.equal(focused.focused, `source:${second.id}:${index}`);
    await press(panel, 'Enter');
    const citation = await waitFor(
      () => probe().ring<CitationOpened>(panel, ProbeKeys.citationsOpened).since(opened)[0],
      'Enter on the source to open it',
      15_000,
      () => panel.describe(),
    );
    assert.equal(citation.outcome, 'opened');
    assert.deepEqual(citation.citation, second.citations[0]);
    const rendered = await waitFor(
      () => (viewers.last !== previous ? viewers.last && lastRendered(viewers.last) : undefined),
      'the citation viewer to draw the cited page',
      30_000,
      () => viewers.last?.describe() ?? 'no citation viewer open',
    );
    assert.equal(rendered.pageNo, second.citations[0].pageNo);
    const viewer = viewers.last!;
    const described: CitationSnapshot = await viewer.channel.request('snapshot', {});
    assert.ok(described.status.includes(String(rendered.pageNo)), `the viewer describes the page for a screen reader: ${described.status}`);
    await screenshot('citation-viewer-keyboard');
    assert.deepEqual(pageProblems(panel), []);
    assert.deepEqual(pageProblems(viewer), []);
    viewer.dispose();
  });
});
