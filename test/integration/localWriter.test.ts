// knowledgeDesk.local.writer = "vscode" (docs/local-service.md#writer): the local service's answers are written by
// the VS Code language model the user chose. In the current lane that is the test-only echo model
// (test/host/echoModel, vendor kd-echo), so the chat panel's answer is the model's text, cited by number. In the
// floor lane (VS Code 1.100) no model is installed: the answer is the extractive one, with the note saying why.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { ChatSnapshot, DriveParams, Turn } from '../../src/features/answers/chat/protocol';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, openFreshChat, resetWorkbench, useService, waitFor, waitUntilAnswerable } from './support/host';
import { requiresLane } from './support/lane';

const QUESTION = 'What colour are the writer test badges?';
const DOCUMENT = 'Writer test badges\n\nThe writer test badges are teal with a white border. They are handed out at the front desk.';
const FELL_BACK = /^The language model could not write this answer \(.+\): the answer is extracted from the sources instead\.$/;

const drive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('knowledgeDesk');
const notesOf = (a: object): string[] => (a as { notes?: string[] }).notes ?? [];

async function ask(p: ChatPanel, question: string): Promise<Turn> {
  const finished = new Promise<Turn>((resolve) => {
    const sub = p.onDidFinishTurn((t) => {
      sub.dispose();
      resolve(t);
    });
  });
  await drive(p, { type: question });
  await drive(p, { send: true });
  return finished;
}

describe('Local answers written by a VS Code language model', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let nodeId: string;

  before(async function () {
    this.timeout(120_000);
    api = await getApi();
    client = await useService(api);
    const [node] = await client.kbNodes.upload({
      file: { data: DOCUMENT, contentType: 'text/plain' },
      fileName: 'writer-badges.txt',
      isOverwrite: true,
    });
    nodeId = node.id;
    await waitUntilAnswerable(client, QUESTION);
    await config().update('local.writer', 'vscode', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('local.writer', undefined, vscode.ConfigurationTarget.Global);
    await config().update('local.writerModel', undefined, vscode.ConfigurationTarget.Global);
    await client.kbNodes.delete(nodeId).catch(() => undefined);
    api.chat.current?.dispose();
    await resetWorkbench(api);
  });

  it('current lane: the chat panel’s answer comes from the chosen model, citing the passages by number', async function () {
    requiresLane(this, 'current', 'the echo model needs VS Code 1.104 (registerLanguageModelChatProvider)');
    await config().update('local.writerModel', { vendor: 'kd-echo', id: 'echo' }, vscode.ConfigurationTarget.Global);
    // The setting reaches the running service over IPC: wait until its answers are written.
    await waitFor(
      async () => (await client.answers.generate({ query: QUESTION })).model === 'vscode:kd-echo/echo',
      'the service to use the chosen model',
      30_000,
    );
    const panel = await openFreshChat(api);
    const turn = await ask(panel, QUESTION);
    assert.equal(turn.status, 'done');
    // The echo model repeats the prompt: the quoted sources and the question, so the answer is the model's text.
    assert.match(turn.answer, /^echo: Sources:/);
    assert.match(turn.answer, /\[1\] writer-badges\.txt/);
    assert.match(turn.answer, /teal with a white border/);
    assert.equal(turn.model, 'vscode:kd-echo/echo');
    assert.equal(turn.citations[0]?.index, 1);
    assert.equal(turn.citations[0]?.title, 'writer-badges.txt');
    assert.equal(turn.notes, undefined);
  });

  it('floor lane: without a language model the answer is extracted, with a note saying so', async function () {
    requiresLane(this, 'floor', 'the current lane has the echo model');
    const answer = await waitFor(
      async () => {
        const a = await client.answers.generate({ query: QUESTION });
        return notesOf(a).length ? a : undefined;
      },
      'the service to try the language model',
      30_000,
    );
    assert.match(notesOf(answer)[0], FELL_BACK);
    const panel = await openFreshChat(api);
    const turn = await ask(panel, QUESTION);
    assert.equal(turn.status, 'done');
    assert.match(turn.answer, /teal with a white border/);
    assert.equal(turn.model, 'local-extractive');
    assert.match(turn.notes?.[0] ?? '', FELL_BACK);
  });
});
