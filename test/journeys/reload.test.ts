// Journey 4: in the middle of a chat (an answer, and a next question typed but not sent) and of a Q&A edit (unsaved),
// the person reloads the window (Developer: Reload Window). After the reload the conversation, the typed question and
// the unsaved draft are back. The reload ends this extension host: the journey writes what it expects to a resume
// file first, and the new extension host runs test/journeys/index.ts again, which goes on with this journey only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { Turn, ChatSnapshot, DriveParams } from '../../src/features/answers/chat/protocol';
import type { QaDraft, EditorSnapshot } from '../../src/features/qna/editor/protocol';
import type { QaEditorPanel } from '../../src/features/qna/editor/qaEditorPanel';
import { getApi, openFreshChat, sleep, useService, waitFor, waitForPage } from '../integration/support/host';
import { journeyState, RESUME_FILE, shoot } from './support/journey';

const QUESTION = 'How many days of paid leave do new employees get in their first year?';
const TYPED = 'And how many unused days can I carry over?';
const SIMILAR = ['Reload journey: where do I find the VPN guide?', 'Reload journey: an unsaved similar question'];

interface Resume {
  file: 'reload';
  conversationId: string;
  turnId: string;
  faqId: string;
}

const chatSnapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const chatDrive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);
const editorSnapshot = (p: QaEditorPanel): Promise<EditorSnapshot> => p.channel.request('snapshot', {});
const editorDrive = (p: QaEditorPanel, params: { fill?: Partial<QaDraft> }): Promise<EditorSnapshot> => p.channel.request('drive', params);

async function editorShows(panel: QaEditorPanel): Promise<EditorSnapshot> {
  await waitForPage(panel, 'the Q&A editor');
  return waitFor(
    async () => {
      const s = await editorSnapshot(panel);
      return s.draft && !s.busy ? s : undefined;
    },
    'the Q&A editor to show its Q&A',
    20_000,
    () => panel.describe(),
  );
}

describe('Journey: reload the window in the middle of the work', () => {
  const resumeFile = path.join(journeyState(), RESUME_FILE);

  it('a chat and an unsaved Q&A edit → Reload Window → the conversation, the typed question and the draft are back', async function () {
    this.timeout(300_000);
    const api = await getApi();
    if (fs.existsSync(resumeFile)) {
      // After the reload (a new extension host).
      const resume = JSON.parse(fs.readFileSync(resumeFile, 'utf8')) as Resume;
      fs.rmSync(resumeFile);
      const client = await useService(api);
      try {
        const chat = await waitFor(() => api.chat.current, 'the chat panel to be restored', 90_000);
        await waitForPage(chat, 'the restored chat panel');
        const s = await waitFor(
          async () => {
            const snap = await chatSnapshot(chat);
            return snap.ready && snap.conversationId ? snap : undefined;
          },
          'the restored chat to show a conversation',
          20_000,
          () => chat.describe(),
        );
        const editor = await waitFor(() => api.qnaEditors.get(resume.faqId), 'the Q&A editor to be restored', 60_000);
        const e = await editorShows(editor);
        await shoot('reload-02-after-reload');
        assert.equal(s.conversationId, resume.conversationId, 'the same conversation');
        assert.deepEqual(
          s.turns.map((t) => [t.id, t.status]),
          [[resume.turnId, 'done']],
          'the answered question',
        );
        assert.equal(s.draft, TYPED, 'the question typed but not sent');
        assert.equal(e.dirty, true, 'the Q&A editor still has unsaved changes');
        assert.deepEqual(e.draft?.similarQuestions, SIMILAR, 'the unsaved similar questions');
      } finally {
        await client.faq.delete(resume.faqId).catch(() => undefined);
      }
      return;
    }

    // Before the reload.
    const client = await useService(api);
    const chat = await openFreshChat(api);
    const finished = new Promise<Turn>((resolve) => {
      const sub = chat.onDidFinishTurn((t) => (sub.dispose(), resolve(t)));
    });
    await chatDrive(chat, { type: QUESTION });
    await chatDrive(chat, { send: true });
    const turn = await finished;
    assert.equal(turn.status, 'done', turn.error?.message);
    // The person starts the next question, then turns to a Q&A.
    assert.equal((await chatDrive(chat, { type: TYPED.slice(0, 12) })).draft, TYPED.slice(0, 12));

    const { id } = await client.faq.register({
      question: 'Reload journey: where is the VPN guide?',
      answer: 'In the IT folder.',
      status: 'on',
      similarQuestions: [SIMILAR[0]],
    });
    const editor = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.open', { id }))!;
    await editorShows(editor);
    assert.equal((await editorDrive(editor, { fill: { similarQuestions: [SIMILAR[0], SIMILAR[1].slice(0, 20)] } })).dirty, true);
    // Both panels side by side, as a person works: the chat beside the editor.
    chat.panel.reveal(vscode.ViewColumn.Two, true);
    await waitFor(() => chat.panel.visible && editor.panel.visible, 'the chat and the editor side by side');
    // A moved panel loads its page again: both pages show their state again before the reload.
    await waitForPage(chat, 'the moved chat panel');
    await waitFor(
      async () => (await chatSnapshot(chat)).draft === TYPED.slice(0, 12),
      'the moved chat to show the question started',
      20_000,
      () => chat.describe(),
    );
    await waitFor(
      async () => (await editorSnapshot(editor)).dirty,
      'the editor to show its unsaved changes',
      20_000,
      () => editor.describe(),
    );
    await shoot('reload-01-before-reload');

    // The person finishes typing in both and reloads right away: nothing waits for the drafts to be saved, only for
    // the pages to show what was typed (the drive requests answer with what the page shows).
    assert.equal((await chatDrive(chat, { type: TYPED })).draft, TYPED);
    const edited = await editorDrive(editor, { fill: { similarQuestions: SIMILAR } });
    assert.deepEqual(edited.draft?.similarQuestions, SIMILAR);
    const resume: Resume = { file: 'reload', conversationId: chat.conversation.id, turnId: turn.id, faqId: id };
    fs.writeFileSync(resumeFile, JSON.stringify(resume));
    // Not awaited: the reload cancels the commands in flight, its own included, and that rejection ("Canceled") could
    // reach mocha before the extension host is gone, recording this half as failed (seen in CI, en and ja).
    void Promise.resolve(vscode.commands.executeCommand('workbench.action.reloadWindow')).catch(() => undefined);
    // The reload ends this extension host (and this test with it); the next one goes on above.
    await sleep(120_000);
    fs.rmSync(resumeFile, { force: true });
    await client.faq.delete(id).catch(() => undefined);
    assert.fail('the window did not reload within 2 minutes');
  });
});
