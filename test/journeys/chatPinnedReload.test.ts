// Journey: a chat on project B (a second local project), then a switch to A (Local), then Reload Window (the pattern
// of reload.test.ts: a resume file, and the new extension host goes on with this journey only). After the reload A is
// still active, and B's chat comes back pinned to B: its title names B, it shows B's conversation, and a question
// asked in it again is answered from B's document, which A does not have.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { ChatSnapshot, DriveParams, Turn } from '../../src/features/answers/chat/protocol';
import { getApi, runCommand, sleep, useService, waitFor, waitForPage } from '../integration/support/host';
import { journeyState, RESUME_FILE, shoot } from './support/journey';

const BETA = 'Beta journey';
const FACT = 'The release train of the Beta journey project is code-named Vermilion Heron.';
const FIRST = 'What is the release train of the Beta journey project code-named?';
const AGAIN = 'Remind me: what code name does the Beta journey project give its release train?';

/** The chat's title naming B, in the display language (the journeys run in English and in Japanese). */
const title = (): string => `${vscode.l10n.t('Ask Knowledge Desk')} — ${BETA}`;

interface Resume {
  file: 'chatPinnedReload';
  betaId: string;
  conversationId: string;
  turnId: string;
  kbId: string;
}

const chatSnapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const chatDrive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);

/** Types and sends `question` in the chat's page as a person does; resolves with the finished turn. */
async function askInPage(chat: ChatPanel, question: string): Promise<Turn> {
  const finished = new Promise<Turn>((resolve) => {
    const sub = chat.onDidFinishTurn((t) => (sub.dispose(), resolve(t)));
  });
  await chatDrive(chat, { type: question });
  await chatDrive(chat, { send: true });
  return finished;
}

describe('Journey: a chat pinned to project B survives a switch to A and a reload of the window', () => {
  const resumeFile = path.join(journeyState(), RESUME_FILE);

  it('chat on B, switch to A, Reload Window → B’s restored chat still asks B, and answers from B', async function () {
    this.timeout(300_000);
    const api = await getApi();
    if (fs.existsSync(resumeFile)) {
      // After the reload (a new extension host).
      const resume = JSON.parse(fs.readFileSync(resumeFile, 'utf8')) as Resume;
      fs.rmSync(resumeFile);
      const local = await useService(api, 90_000);
      assert.equal(api.connection.active.id, 'local', 'A (Local) is still the active connection');
      const chat = await waitFor(() => api.chat.panelOf(resume.betaId), 'B’s chat panel to be restored', 90_000);
      await waitForPage(chat, 'B’s restored chat panel');
      assert.equal(chat.panel.title, title(), 'the restored chat names B');
      const restored = await waitFor(
        async () => {
          const s = await chatSnapshot(chat);
          return s.ready && s.conversationId ? s : undefined;
        },
        'the restored chat to show its conversation',
        20_000,
        () => chat.describe(),
      );
      assert.equal(restored.conversationId, resume.conversationId, 'B’s conversation');
      assert.ok(
        restored.turns.some((t) => t.id === resume.turnId),
        'the answer from before the reload',
      );
      assert.equal(api.chat.current, undefined, 'A has no chat of its own: B’s did not become A’s');

      const again = await askInPage(chat, AGAIN);
      assert.equal(again.status, 'done', again.error?.message);
      assert.match(again.answer, /Vermilion Heron/, 'answered from B’s document');
      assert.ok(
        again.citations.some((c) => c.knowledgeBaseId === resume.kbId),
        `cites B’s document: ${JSON.stringify(again.citations)}`,
      );
      assert.equal(chat.conversation.id, resume.conversationId, 'asked in the same conversation');
      // A does not know it: the answer cannot have come from the active connection.
      const fromA = await local.answers.generate({ query: AGAIN, includeCitations: true });
      assert.ok(!fromA.citations.some((c) => c.knowledgeBaseId === resume.kbId), 'A has no such document');
      await shoot('chat-pinned-reload-02-after', { waitForSelector: `.tab.active:has-text("${title()}")` });
      chat.dispose();
      await api.connection.store.remove(resume.betaId);
      return;
    }

    // Before the reload: B, a second local project, with a document only B has.
    await useService(api);
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await runCommand(api, 'knowledgeDesk.addConnection', [BETA, 'local']);
    const beta = api.connection.store.byName(BETA)!;
    await waitFor(() => api.connection.status.state === 'connected' && api.connection.active.id === beta.id, 'connected to B');
    const client = await api.connection.getClient();
    const [node] = await client.kbNodes.upload({
      file: { data: `# Beta journey releases\n\n${FACT}\n` },
      fileName: 'beta-journey-releases.md',
      isOverwrite: true,
    });
    await waitFor(
      async () =>
        (await client.answers.generate({ query: FIRST, includeCitations: true })).citations.some((c) => c.knowledgeBaseId === node.id),
      'B’s document to be answerable',
      90_000,
    );

    const chat = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
    await waitForPage(chat, 'B’s chat panel');
    const turn = await askInPage(chat, FIRST);
    assert.equal(turn.status, 'done', turn.error?.message);
    assert.match(turn.answer, /Vermilion Heron/);

    // The switch to A: B's chat stays on B and says so.
    await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local');
    await waitFor(() => api.connection.status.state === 'connected' && api.connection.active.id === 'local', 'connected to A (Local)');
    await waitFor(
      () => chat.panel.title === title(),
      'the chat to name B',
      10_000,
      () => chat.panel.title,
    );
    chat.reveal();
    await shoot('chat-pinned-reload-01-before', { waitForSelector: `.tab.active:has-text("${title()}")` });

    const resume: Resume = {
      file: 'chatPinnedReload',
      betaId: beta.id,
      conversationId: chat.conversation.id,
      turnId: turn.id,
      kbId: node.id,
    };
    fs.writeFileSync(resumeFile, JSON.stringify(resume));
    // Not awaited: the reload cancels the commands in flight, its own included (reload.test.ts).
    void Promise.resolve(vscode.commands.executeCommand('workbench.action.reloadWindow')).catch(() => undefined);
    await sleep(120_000);
    fs.rmSync(resumeFile, { force: true });
    assert.fail('the window was not reloaded');
  });
});
