import assert from 'node:assert/strict';
import { request } from 'undici';
import type { AnswerChunk, GenerativeAnswerRequest } from '../../../src/api/resources/answers';
import { startSeeded, withHeaders } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

const QUESTION = 'How many days of paid leave do new employees get in their first year?';

interface Line {
  at: number;
  body: Record<string, unknown>;
}

describe('Generative answers, mode stream (NDJSON)', () => {
  let t: TestService;
  const closedEarly = async () =>
    (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts['answers.closedEarly'] ?? 0;

  /** Raw NDJSON lines with their arrival times (ms after the request was sent). */
  async function lines(body: Record<string, unknown>, delayMs?: number): Promise<{ contentType: string; lines: Line[] }> {
    const started = performance.now();
    const headers: Record<string, string> = { 'API-KEY': t.service.apiKey, 'content-type': 'application/json' };
    if (delayMs !== undefined) headers['X-Local-Stream-Delay-Ms'] = String(delayMs);
    const res = await request(`${t.service.url}/webapi/generative_answer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ answerFormat: 'MARKDOWN', ...body, mode: 'stream' }),
    });
    const out: Line[] = [];
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        out.push({ at: performance.now() - started, body: JSON.parse(buffer.slice(0, nl)) as Record<string, unknown> });
        buffer = buffer.slice(nl + 1);
      }
    }
    assert.equal(buffer, '', 'every line ends with a newline');
    return { contentType: String(res.headers['content-type']), lines: out };
  }

  before(async () => {
    t = await startSeeded();
  });
  after(() => t.stop());

  it('streams the same final answer as sync', async () => {
    const body: GenerativeAnswerRequest = {
      query: QUESTION,
      includeCitations: true,
      clues: true,
      isStateful: true,
      threadId: '6c1f2f4e-8a53-4d1c-9a4e-2a7d1f0b3c5d',
    };
    const sync = await t.client().answers.generate(body);
    const chunks: AnswerChunk[] = [];
    for await (const chunk of t.client().answers.stream(body)) chunks.push(chunk);
    const done = chunks.at(-1);
    assert.equal(done?.type, 'done');
    const streamed = done.type === 'done' ? done.result : undefined!;
    for (const key of [
      'answer',
      'answerHash',
      'confidence',
      'citations',
      'clues',
      'documentId',
      'pageNo',
      'intent',
      'model',
      'threadId',
      'fuQuestion',
    ] as const) {
      assert.deepEqual(streamed[key], sync[key], key);
    }
    const deltas = chunks.filter((c) => c.type === 'delta');
    assert.ok(deltas.length >= 2, 'one delta per sentence');
  });

  it('writes one growing line per sentence, then the complete answer', async () => {
    const { contentType, lines: got } = await lines(
      { query: QUESTION, includeCitations: true, clues: true, isStateful: true, threadId: '' },
      0,
    );
    assert.match(contentType, /^application\/x-ndjson/);
    const answers = got.map((l) => l.body.answer as string);
    assert.ok(got.length >= 3, `${got.length} lines`);
    assert.match(answers[0], /^New employees get 15 days of paid leave in their first year of employment\. \[1\]$/);
    for (let i = 1; i < answers.length; i++) assert.ok(answers[i].startsWith(answers[i - 1]), 'cumulative');
    const last = got.at(-1)!.body;
    assert.ok(Array.isArray(last.citations) && (last.citations as unknown[]).length > 0);
    assert.ok(Array.isArray(last.clues) && (last.clues as unknown[]).length > 0);
    assert.equal(typeof last.fuQuestion, 'string');
    assert.equal(got[0].body.threadId, last.threadId, 'the same thread on every line');
    for (const l of got)
      for (const key of ['answerHash', 'confidence', 'model', 'intent']) assert.ok(key in l.body, `${key} on every line`);
  });

  it('sends the first line before the last one (X-Local-Stream-Delay-Ms)', async () => {
    const { lines: got } = await lines({ query: QUESTION }, 300);
    assert.ok(got.length >= 3);
    assert.ok(got.at(-1)!.at - got[0].at >= 2 * 300 - 50, `first at ${got[0].at.toFixed(0)} ms, last at ${got.at(-1)!.at.toFixed(0)} ms`);
    const { lines: ignored } = await lines({ query: QUESTION }, 5000);
    assert.ok(ignored.at(-1)!.at < 1500, 'a delay out of range (0–2000) is ignored');
  });

  it('pauses as POST /_local/stream-delay says for requests without the header (the header still wins)', async () => {
    // A long pause, so that a busy machine cannot make the unpaused stream look paused: only a floor is timed.
    await t.admin('POST', '/_local/stream-delay', { ms: 1000 });
    try {
      const { lines: slowed } = await lines({ query: QUESTION });
      assert.ok(slowed.length >= 3);
      assert.ok(
        slowed.at(-1)!.at - slowed[0].at >= 2 * 1000 - 50,
        `first at ${slowed[0].at.toFixed(0)} ms, last at ${slowed.at(-1)!.at.toFixed(0)} ms`,
      );
      const { lines: header } = await lines({ query: QUESTION }, 0);
      assert.ok(header.at(-1)!.at - header[0].at < (header.length - 1) * 1000, 'X-Local-Stream-Delay-Ms: 0 overrides the default');
    } finally {
      await t.admin('POST', '/_local/stream-delay', { ms: 0 });
    }
  });

  it('stops writing when the client leaves the loop early, and counts it', async () => {
    const before = await closedEarly();
    const client = t.client({ dispatcher: withHeaders({ 'X-Local-Stream-Delay-Ms': '500' }) });
    let first: AnswerChunk | undefined;
    for await (const chunk of client.answers.stream({ query: QUESTION })) {
      first = chunk;
      break;
    }
    assert.equal(first?.type, 'delta');
    let after = before;
    for (let i = 0; i < 40 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await closedEarly();
    }
    assert.equal(after, before + 1, 'the service saw the connection close and stopped');
    const complete = await lines({ query: QUESTION }, 0);
    assert.ok(complete.lines.length >= 3);
    assert.equal(await closedEarly(), before + 1, 'a stream read to the end is not counted');
  });

  it('streams the honest answer as one complete line when nothing matches', async () => {
    const { lines: got } = await lines({ query: 'What is the cafeteria menu on Fridays?', includeCitations: true, clues: true });
    assert.equal(got.length, 1);
    assert.match(
      String(got[0].body.answer),
      /^No answer was found in the knowledge base for this question\.(\n\nThe closest pages: .+\.)?$/,
    );
    assert.deepEqual(got[0].body.citations, []);
    assert.equal(got[0].body.confidence, 0);
  });
});
