// The chat page's frame and question box in the real workbench (issue 22, items 10 and 11): the page itself never
// scrolls (a click on a citation marker once scrolled it by about 113 px, the header gone and a blank band under
// the composer), and a question over the service's limit is refused in words before it is sent. Language-neutral:
// with `--locale ja` the texts are looked up in the Japanese bundle.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ChatTestView } from '../../src/testApiFeatures';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { Turn, ChatSnapshot, DriveParams } from '../../src/features/answers/chat/protocol';
import { ProbeKeys } from '../../src/testProbe';
import {
  getApi,
  openFreshChat,
  pageProblems,
  probe,
  resetWorkbench,
  screenshot,
  useService,
  waitFor,
  waitUntilAnswerable,
} from './support/host';

const PAID_LEAVE = 'How many days of paid leave do new employees get?';

const snapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const drive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);

/** A text in VS Code's display language: English, or its entry in l10n/bundle.l10n.ja.json. */
function tr(api: KnowledgeDeskTestApi, english: string, ...args: string[]): string {
  let text = english;
  if (vscode.env.language.startsWith('ja')) {
    const bundle = JSON.parse(fs.readFileSync(path.join(api.context.extensionPath, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<
      string,
      string
    >;
    text = bundle[english] ?? `MISSING ${english}`;
  }
  return text.replace(/\{(\d+)\}/g, (_, i: string) => args[Number(i)]);
}

/** The page is laid out as a fixed frame: not scrolled, the header at the top, the composer at the bottom. */
function assertFrame(s: ChatSnapshot, when: string): void {
  const f = s.frame;
  const where = `${when}: ${JSON.stringify(f)}`;
  assert.equal(f.pageScrollTop, 0, `the page itself scrolled ${where}`);
  assert.ok(Math.abs(f.headerTop) < 1, `the header left the top ${where}`);
  assert.ok(Math.abs(f.composerBottom - f.viewportHeight) < 1, `a band under the composer ${where}`);
}

describe('Chat frame and question box', () => {
  let api: KnowledgeDeskTestApi;
  let feature: ChatTestView;
  let panel: ChatPanel;
  const uploaded: string[] = [];

  async function ask(question: string): Promise<Turn> {
    const finished = new Promise<Turn>((resolve) => {
      const sub = panel.onDidFinishTurn((t) => {
        sub.dispose();
        resolve(t);
      });
    });
    await drive(panel, { type: question });
    await drive(panel, { send: true });
    const turn = await finished;
    await waitFor(
      async () => (await snapshot(panel)).turns.some((t) => t.id === turn.id && t.status !== 'streaming'),
      'the page to show the answer',
    );
    return turn;
  }

  before(async function () {
    this.timeout(120_000);
    api = await getApi();
    const client = await useService(api);
    feature = api.chat;
    const file = path.join(api.context.extensionPath, 'samples/knowledge-base/Handbook/employee-handbook.pdf');
    const [node] = await client.kbNodes.upload({ file: { path: file }, fileName: path.basename(file), isOverwrite: true });
    uploaded.push(node.id);
    await waitFor(
      async () =>
        ((await client.kbNodes.search({ limit: 100 })).nodes.find((n) => n.id === node.id) as FileNode | undefined)?.processState ===
        'completed',
      'the handbook to be processed',
      60_000,
    );
    await waitUntilAnswerable(client, PAID_LEAVE);
  });

  beforeEach(async () => {
    panel = await openFreshChat(api);
    await waitFor(async () => (await snapshot(panel)).ready, 'the chat page to show the conversation');
  });

  afterEach(async () => {
    feature.current?.dispose();
    await resetWorkbench(api);
  });

  after(async () => {
    const client = await useService(api);
    for (const id of uploaded) await client.kbNodes.delete(id).catch(() => undefined);
  });

  it('never scrolls the page: clicking inline citation numbers moves only the transcript to the source', async () => {
    assertFrame(await snapshot(panel), 'when opened');
    const turns: Turn[] = [];
    for (let i = 0; i < 3; i++) {
      turns.push(await ask(PAID_LEAVE));
      assertFrame(await snapshot(panel), `after answer ${i + 1}`);
    }
    assert.ok(turns.every((t) => t.status === 'done' && t.citations.length >= 1));
    // The first answer's marker: its source is far above, out of the transcript's view.
    for (const turn of [turns[0], turns[2], turns[1]]) {
      const s = await drive(panel, { clickMarker: { turnId: turn.id, index: 1 } });
      assert.equal(s.focused, `source:${turn.id}:1`, 'the marker focuses its source');
      assertFrame(s, `right after clicking [1] of ${turn.id}`);
      // The transcript scrolls smoothly: look again until the focused source has come into view.
      for (let look = 0; look < 5; look++) assertFrame(await snapshot(panel), `after clicking [1] of ${turn.id}`);
    }
    // The keyboard between sources, and back to the question box.
    assertFrame(await drive(panel, { press: { key: 'End' } }), 'after End in the sources');
    assertFrame(await drive(panel, { focus: 'question' }), 'back in the question box');
    assert.deepEqual(pageProblems(panel), []);
  });

  it('refuses a question over 2,000 characters before sending it, in plain words, with the count shown', async () => {
    const requests = probe().ring(panel, ProbeKeys.requests).total;
    const near = 'a'.repeat(1_950);
    assert.equal((await drive(panel, { type: near })).questionCount, tr(api, '{0} / {1} characters', '1,950', '2,000'));
    // Pasted: 20,000 characters (the box takes that many): the count under it; Send says why it does not send.
    const long = `${'What does the handbook say about paid leave, remote work and expenses? '.repeat(300)}`.slice(0, 20_000);
    const typed = await drive(panel, { type: long });
    const tooLong = tr(api, 'The question is {0} characters long; at most {1} can be sent. Shorten it, then send it.', '20,000', '2,000');
    assert.equal(typed.questionCount, tr(api, '{0} / {1} characters', '20,000', '2,000'));
    assertFrame(typed, 'with 20,000 characters in the box');
    const refused = await drive(panel, { send: true });
    assert.equal(refused.notice, tooLong, 'said in words');
    assert.equal(refused.turns.length, 0, 'nothing sent');
    assert.equal(refused.draft, long, 'the question stays to be shortened');
    assert.doesNotMatch(refused.notice ?? '', /String must contain|character\(s\)/);
    await screenshot('chat-question-too-long');
    // The host refuses it too, whichever way it comes.
    assert.equal(await panel.ask(long), undefined);
    await waitFor(async () => (await snapshot(panel)).notice === tooLong, 'the host to say why');
    assert.equal(probe().ring(panel, ProbeKeys.requests).total, requests, 'no request reached the service');
    // Shortened to the limit: the count goes back to numbers, and it is sent.
    const shortened = await drive(panel, { type: `${PAID_LEAVE} `.padEnd(2_000, '.') });
    assert.equal(shortened.questionCount, tr(api, '{0} / {1} characters', '2,000', '2,000'));
    const turn = await ask(`${PAID_LEAVE} `.padEnd(2_000, '.'));
    assert.equal(turn.status, 'done', JSON.stringify(turn.error));
    assert.equal((await snapshot(panel)).questionCount, null, 'the box is empty again');
  });
});
