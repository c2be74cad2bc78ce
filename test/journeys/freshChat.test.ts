// Journey 6: a fresh window, before anything else, the person asks @knowledge in VS Code's chat. VS Code 1.100 has no
// chat view that works without a language model, so the journey calls the participant's handler (what the chat view
// calls) with a recording response stream. runIntegration.mjs runs this journey first in its window: nothing has
// used Knowledge Desk yet, so the local service has not started.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { getApi, useService, waitFor } from '../integration/support/host';
import { Findings, RecordingStream, shoot } from './support/journey';

const LEAVE = 'How many days of paid leave do new employees get in their first year?';

async function askKnowledge(prompt: string): Promise<RecordingStream> {
  const api = await getApi();
  const stream = new RecordingStream();
  await api.ai.chatHandler(
    { prompt, command: undefined } as unknown as vscode.ChatRequest,
    { history: [] } as unknown as vscode.ChatContext,
    stream as unknown as vscode.ChatResponseStream,
    new vscode.CancellationTokenSource().token,
  );
  return stream;
}

describe('Journey: @knowledge in a fresh window', () => {
  it('a fresh window, before anything else: an @knowledge question gets an answer, not a key error', async function () {
    this.timeout(240_000);
    const api = await getApi();
    const findings = new Findings();
    assert.equal(api.connection.isUsed, false, 'nothing used Knowledge Desk in this window before the question');
    assert.equal(api.localService.isStarted, false, 'the local service has not started yet');

    // 1. The very first thing: a question to @knowledge.
    const first = await askKnowledge(LEAVE);
    await shoot('fresh-chat-01-first-question');
    const buttons = first.parts.filter((p) => p.kind === 'button').map((p) => `${p.title} (${String(p.value)})`);
    findings.check(!/No API key|API キー|APIキー/.test(first.text), `the first question was answered with a key error: ${first.text}`);
    findings.check(buttons.length === 0, `the first answer offers setup steps: ${buttons.join(', ')}`);
    findings.check(first.text.trim().length > 0, 'the first answer says nothing');

    // 2. Once the samples are processed, the same question is answered from the handbook, with its source.
    // (After a key error the person runs Check Connection; otherwise the question itself started the service.)
    await useService(api, 60_000);
    let last = first;
    await waitFor(
      async () => {
        last = await askKnowledge(LEAVE);
        return /15 days/.test(last.text) && last.parts.some((p) => p.kind === 'anchor' && /employee-handbook\.pdf/.test(p.title ?? ''));
      },
      'an answer from employee-handbook.pdf with its source',
      90_000,
      () => last.text,
    );
    await shoot('fresh-chat-02-answered');
    findings.assertNone();
  });
});
