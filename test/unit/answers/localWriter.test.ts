// The optional writer of local answers (docs/local-service.md#writer), end to end: the real client's
// answers.stream / answers.generate against the real local service, configured with a protocol-exact fake of an
// OpenAI-compatible chat endpoint (test/unit/support/fakeChatEndpoint.ts). The answer comes from the model and
// cites the passages by number; every way the endpoint fails falls back to the extractive answer with a note.
import assert from 'node:assert/strict';
import type { GenerativeAnswer } from '../../../src/api/schemas/answers';
import { startSeeded } from '../../fixtures/retrieval/seededService';
import { startFakeChatEndpoint, type FakeChatEndpoint, type FakeMode } from '../support/fakeChatEndpoint';
import type { TestService } from '../support/localService';

const QUESTION = 'How many days of paid leave do employees get per year?';
const FELL_BACK = /^The language model could not write this answer \(.+\): the answer is extracted from the sources instead\.$/;

/** The local service's `notes` (passed through by the client's schema). */
const notesOf = (a: GenerativeAnswer): string[] => (a as { notes?: string[] }).notes ?? [];

describe('Local answers written by a language model (an OpenAI-compatible endpoint)', () => {
  let t: TestService;
  let fake: FakeChatEndpoint;
  let extractive: GenerativeAnswer;
  const useWriter = (extra: { apiKey?: string; timeoutMs?: number } = {}) =>
    t.service.setWriter({ url: fake.url, model: 'fake-model', timeoutMs: 400, ...extra });
  const ask = { query: QUESTION, includeCitations: true, clues: true, search_from: ['document' as const] };

  async function streamed(): Promise<{ deltas: number; result: GenerativeAnswer }> {
    let deltas = 0;
    for await (const chunk of t.client().answers.stream(ask)) {
      if (chunk.type === 'done') return { deltas, result: chunk.result };
      deltas++;
    }
    throw new Error('the stream ended without its result');
  }

  before(async () => {
    [t, fake] = await Promise.all([startSeeded(), startFakeChatEndpoint()]);
    extractive = await t.client().answers.generate(ask);
    assert.equal(extractive.model, 'local-extractive');
    assert.ok(extractive.citations.length > 0, 'the question has an extractive answer to fall back to');
  });
  beforeEach(() => {
    fake.mode = 'ok';
    useWriter();
  });
  after(() => Promise.all([t.stop(), fake.close()]));

  it('streams the model’s answer through answers.stream, citing the passages it was given by number', async () => {
    const { deltas, result } = await streamed();
    assert.ok(deltas > 2, `the answer arrived in pieces (${deltas})`);
    assert.match(result.answer, new RegExp(`^${fake.opening} ".+" \\[1\\]\\.\\n\\nOther sources add more \\[2\\]\\.$`));
    assert.equal(result.model, 'fake-model');
    assert.deepEqual(
      result.citations.map((c) => c.index),
      [1, 2],
    );
    // [1] is the first passage the model was sent: the text it quoted is that citation's text, and its first clue.
    const quoted = /"(.+)"/.exec(result.answer)?.[1] ?? '';
    assert.ok(quoted.length > 10 && result.citations[0].text?.replace(/\s+/g, ' ').includes(quoted), quoted);
    assert.equal(result.citations[0].clueId, result.clues[0].clueId);
    assert.equal(result.citations[1].clueId, result.clues[1].clueId);
    const sent = fake.requests.at(-1);
    assert.equal(sent?.body.stream, true);
    assert.equal(sent?.body.model, 'fake-model');
    assert.match(sent?.body.messages?.[1]?.content ?? '', /^Sources:\n\n\[1\] .+\n"""\n/);
    assert.ok(sent?.body.messages?.[1]?.content.endsWith(`Question: ${QUESTION}`));
  });

  it('answers.generate (sync) returns the whole written answer', async () => {
    const a = await t.client().answers.generate(ask);
    assert.match(a.answer, new RegExp(`^${fake.opening}`));
    assert.deepEqual(notesOf(a), []);
    assert.equal(a.model, 'fake-model');
  });

  for (const mode of ['status500', 'hang', 'malformed'] as FakeMode[]) {
    it(`an endpoint that fails (${mode}) falls back to the extractive answer, with a note`, async () => {
      fake.mode = mode;
      const { result } = await streamed();
      assert.equal(result.answer, extractive.answer);
      assert.equal(result.model, 'local-extractive');
      assert.deepEqual(result.citations, extractive.citations);
      assert.equal(notesOf(result).length, 1);
      assert.match(notesOf(result)[0] ?? '', FELL_BACK);
      const sync = await t.client().answers.generate(ask);
      assert.equal(sync.answer, extractive.answer);
      assert.match(notesOf(sync)[0] ?? '', FELL_BACK);
    });
  }

  it('a connection dropped mid-answer keeps what was streamed, then the note and the extractive answer', async () => {
    fake.mode = 'drop';
    const { result } = await streamed();
    assert.ok(result.answer.startsWith(fake.opening.slice(0, 10)), result.answer);
    const note = notesOf(result)[0] ?? '';
    assert.match(note, FELL_BACK);
    assert.ok(result.answer.includes(`*${note}*`), 'the note follows the part that arrived');
    const sentence = extractive.answer.split(' [')[0];
    assert.ok(result.answer.includes(sentence), 'then the extractive answer');
    assert.ok(result.citations.length >= 1);
    // Sync: nothing was shown, so the answer is the extractive one.
    const sync = await t.client().answers.generate(ask);
    assert.equal(sync.answer, extractive.answer);
  });

  it('sends the key to the configured endpoint only, never along a redirect', async () => {
    const other = await startFakeChatEndpoint();
    try {
      useWriter({ apiKey: 'sk-test-writer' });
      await t.client().answers.generate(ask);
      assert.equal(fake.requests.at(-1)?.authorization, 'Bearer sk-test-writer');
      fake.mode = 'redirect';
      fake.redirectTo = `${other.url}/chat/completions`;
      const a = await t.client().answers.generate(ask);
      assert.match(notesOf(a)[0] ?? '', /HTTP 307/);
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });

  it('a client that stops the answer stops the request to the endpoint', async () => {
    fake.mode = 'hang';
    useWriter({ timeoutMs: 120_000 });
    const before = fake.requests.length;
    const controller = new AbortController();
    const reading = (async () => {
      for await (const _ of t.client().answers.stream(ask, { signal: controller.signal }));
    })();
    const stopped = fake.closedEarly();
    await fake.received(before + 1);
    controller.abort();
    await assert.rejects(reading);
    await stopped;
  });

  it('off (the default): the answer stays extractive and nothing is sent', async () => {
    t.service.setWriter(undefined);
    const before = fake.requests.length;
    const a = await t.client().answers.generate(ask);
    assert.equal(a.answer, extractive.answer);
    assert.equal(fake.requests.length, before);
  });
});
