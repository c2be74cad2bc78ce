import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ApiClient } from '../../src/api/client';
import type { FileNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ChatTestView } from '../../src/testApiFeatures';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { Turn, ChatSnapshot, DriveParams } from '../../src/features/answers/chat/protocol';
import {
  getApi,
  lastRendered,
  resetWorkbench,
  screenshot,
  useService,
  waitFor,
  waitForPage,
  openFreshChat,
  waitUntilAnswerable,
} from './support/host';

// 👍/👎 on chat answers (mrc/user_feedback) and a citation of the answer opened from the downloaded PDF.

const QUESTION = 'How many days of paid leave do new employees get?';
const snapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const drive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);

function nextTurn(p: ChatPanel): Promise<Turn> {
  return new Promise((resolve) => {
    const sub = p.onDidFinishTurn((t) => {
      sub.dispose();
      resolve(t);
    });
  });
}

describe('Chat answer feedback', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let feature: ChatTestView;
  let panel: ChatPanel;
  let handbookId: string;

  before(async function () {
    this.timeout(120_000);
    api = await getApi();
    client = await useService(api);
    feature = api.chat;
    const file = path.join(api.context.extensionPath, 'samples/knowledge-base/Handbook/employee-handbook.pdf');
    const [node] = await client.kbNodes.upload({ file: { path: file }, fileName: 'feedback-handbook.pdf', isOverwrite: true });
    handbookId = node.id;
    await waitFor(
      async () => ((await client.kbNodes.get(handbookId)) as FileNode).processState === 'completed',
      'the handbook to be processed',
      60_000,
    );
    await waitUntilAnswerable(client, QUESTION);
  });

  beforeEach(async () => {
    panel = await openFreshChat(api);
  });

  afterEach(async () => {
    feature.current?.dispose();
    await resetWorkbench(api);
  });

  // Other suites upload the same sample under their own names; nothing of ours is left for them.
  after(async () => {
    if (handbookId) await client.kbNodes.delete(handbookId).catch(() => undefined);
  });

  it('sends 👍/👎 with the answer hash, document, query and answer; the same button again cancels; counts shown', async () => {
    const finished = nextTurn(panel);
    await waitFor(async () => (await snapshot(panel)).ready, 'the chat page ready');
    await drive(panel, { type: QUESTION });
    await drive(panel, { send: true });
    const turn = await finished;
    assert.equal(turn.status, 'done');
    assert.ok(turn.answerHash, 'the final answer carries its hash');
    assert.equal(turn.documentId, handbookId);
    const row = async (): Promise<NonNullable<ChatSnapshot['turns'][number]['feedback']> | undefined> =>
      (await snapshot(panel)).turns.find((t) => t.id === turn.id)?.feedback ?? undefined;
    const shown = await waitFor(row, 'the feedback buttons under the answer');
    assert.deepEqual(shown, { text: '', pressed: 'none' });

    await drive(panel, { feedback: { turnId: turn.id, positive: true } });
    const up = await waitFor(async () => ((await row())?.pressed === 'up' ? row() : undefined), '👍 pressed');
    assert.match(up.text, /up 1/);
    assert.match(up.text, /down 0/);
    const history = await client.answers.feedbackHistory({ limit: 100 });
    const entry = history.find((h) => h.query === QUESTION)?.feedbacks.find((f) => f.answerHash === turn.answerHash);
    assert.deepEqual(entry && { documentId: entry.documentId, positive: entry.positive, answer: entry.answer }, {
      documentId: handbookId,
      positive: true,
      answer: turn.answer,
    });
    await screenshot('chat-feedback');

    await drive(panel, { feedback: { turnId: turn.id, positive: true } });
    const cancelled = await waitFor(async () => ((await row())?.pressed === 'none' ? row() : undefined), '👍 cancelled');
    assert.match(cancelled.text, /up 0/);

    await drive(panel, { feedback: { turnId: turn.id, positive: false } });
    const down = await waitFor(async () => ((await row())?.pressed === 'down' ? row() : undefined), '👎 pressed');
    assert.match(down.text, /up 0/);
    assert.match(down.text, /down 1/);
    assert.equal(feature.conversations.findTurn(turn.id)?.turn.feedback?.positive, false, 'kept with the conversation');
  });

  it('opens a citation of the answer from the PDF downloaded with the public operation', async () => {
    const finished = nextTurn(panel);
    await waitFor(async () => (await snapshot(panel)).ready, 'the chat page ready');
    await drive(panel, { type: QUESTION });
    await drive(panel, { send: true });
    const turn = await finished;
    const cited = turn.citations.find((c) => c.knowledgeBaseId === handbookId);
    assert.ok(cited, `a citation of the handbook: ${JSON.stringify(turn.citations)}`);
    await waitFor(async () => (await snapshot(panel)).turns.find((t) => t.id === turn.id)?.sources.length, 'the sources list');
    await drive(panel, { clickCitation: { turnId: turn.id, index: cited.index } });
    const viewer = await waitFor(() => api.citations.last, 'the citation viewer', 30_000);
    await waitForPage(viewer, 'the citation viewer');
    const drawn = await waitFor(
      () => (lastRendered(viewer)?.view === 'pdf' ? lastRendered(viewer) : undefined),
      'the cited page of the downloaded PDF',
      60_000,
      () => viewer.describe(),
    );
    const view = viewer.current.view;
    assert.equal(view.kind === 'pdf' && view.origin, 'document', 'the PDF came from the knowledge base (download)');
    assert.ok(drawn.rects.length > 0, 'the passage is highlighted');
    assert.equal(drawn.pageNo, cited.pageNo ?? drawn.pageNo);
    await screenshot('citation-downloaded-pdf');
  });
});
