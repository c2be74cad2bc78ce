// Every valid-JSON example of the service's public documentation (test/fixtures/public-examples) against the
// client: each response example is accepted by the tolerant schema of its operation (a cut excerpt may instead
// fail with a clear ApiValidationError), each request example is the shape the client sends.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ApiClient } from '../../../src/api/client';
import { readErrorBody } from '../../../src/api/errorBody';
import { ApiValidationError, InternalServerError } from '../../../src/api/errors';
import { selectAnswerResponseSchema, singleFaqResponseSchema } from '../../../src/api/schemas/faq';
import { moveResultSchema, uploadResponseSchema } from '../../../src/api/schemas/kbNodes';
import { answerFeedbackHistorySchema, answerFeedbackResponseSchema, hashtagCountsSchema } from '../../../src/api/schemas/kbOps';
import { addPhraseResponseSchema, inferResponseSchema } from '../../../src/api/schemas/nlu';
import { parseResponse } from '../../../src/api/validate';
import { OfferMemory } from '../../../src/api/offers';
import { startCannedServer } from '../support/cannedServer';

interface Example {
  operation: string;
  kind: 'request' | 'response';
  status: number | null;
  source: string;
  body: unknown;
  note: string;
}

const DIR = path.join(__dirname, '../../fixtures/public-examples');
const examples = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Example) }));

/** The client's schema for each operation's success answer. */
const RESPONSE_SCHEMAS: Record<string, z.ZodTypeAny> = {
  'POST /webapi/v2/knowledge_base_nodes/move/bulk': moveResultSchema,
  'POST /webapi/v2/knowledge_base_nodes/upload': uploadResponseSchema,
  'POST /webapi/faq/select_answer': selectAnswerResponseSchema,
  'GET /webapi/hashtags': hashtagCountsSchema,
  'POST /webapi/mrc/user_feedback': answerFeedbackResponseSchema,
  'GET /webapi/mrc_feedbacks': answerFeedbackHistorySchema,
  'POST /api/inference': inferResponseSchema,
  'POST /api/add_phrase/<data_type>': addPhraseResponseSchema,
  'GET /webapi/single_faq': singleFaqResponseSchema,
};
/** Operations the client does not call (nothing to accept); listed so a new example cannot be skipped silently. */
const NOT_CALLED = new Set(['GET /webapi/single_document']);

/** A client of a canned deployment: both keys set, no retries, its own memory of missing operations. */
const cannedClient = (baseUrl: string): ApiClient =>
  new ApiClient({ baseUrl, apiKey: 'k', nluApiKey: 'n', retry: { maxRetries: 0 }, offerMemory: new OfferMemory() });

describe('Public documentation examples as fixtures', () => {
  it('holds every valid-JSON example of the public documentation', () => {
    assert.equal(examples.length, 23);
    assert.ok(examples.every((e) => e.operation && (e.kind === 'request' || e.kind === 'response')));
    assert.ok(examples.every((e) => typeof e.body !== 'string'));
  });

  for (const example of examples.filter((e) => e.kind === 'response')) {
    const title = NOT_CALLED.has(example.operation) ? 'has no client operation for' : 'accepts';
    it(`${title} ${example.operation} (${example.file})`, () => {
      if (example.status !== null && example.status >= 400) {
        // An error example: the client reads its message and code.
        const info = readErrorBody(example.body);
        assert.equal(info.message, (example.body as { message: string }).message);
        assert.equal(info.code, (example.body as { code: number }).code);
        return;
      }
      if (NOT_CALLED.has(example.operation)) return;
      const schema = RESPONSE_SCHEMAS[example.operation];
      assert.ok(schema, `no schema mapped for ${example.operation}`);
      const cut = /\bCUT\b/.test(example.note);
      try {
        const parsed = parseResponse(example.operation, schema, example.body);
        assert.ok(parsed !== undefined);
      } catch (error) {
        assert.ok(cut && error instanceof ApiValidationError, `${example.file}: ${error}`);
      }
    });
  }

  it('reads the upload example (only id, name, times, nodeType, parentFolder, breadcrumbs) with unknowns named', () => {
    const upload = examples.find((e) => e.kind === 'response' && e.operation.endsWith('/upload'))!;
    const [node] = parseResponse('kbNodes.upload', uploadResponseSchema, upload.body);
    assert.equal(node.id, 'text');
    assert.equal(node.createdAt, 1000, '1 is read as seconds');
    assert.deepEqual(node.breadcrumbs, [{ id: 'text', name: 'text' }]);
    assert.deepEqual(node.unknownFields, ['agentPermission', 'userPermission']);
    assert.equal(node.agentPermission.viewAccessToAgent, false);
  });

  it('reads the entity-recognition answer of a classification project (intent, no entities)', () => {
    const intentOnly = examples.filter(
      (e) => e.kind === 'response' && e.operation === 'POST /api/inference' && 'intent' in (e.body as object),
    );
    assert.equal(intentOnly.length, 2);
    for (const e of intentOnly) assert.deepEqual(parseResponse('nlu.infer', inferResponseSchema, e.body).entities, []);
  });

  it('reads the hashtags and answer-feedback examples into the client shapes', () => {
    const body = (op: string, kind = 'response') => examples.find((e) => e.operation === op && e.kind === kind)!.body;
    assert.deepEqual(parseResponse('hashtags.inUse', hashtagCountsSchema, body('GET /webapi/hashtags')), [
      { tag: 'ANY_ADDITIONAL_PROPERTY', count: 1 },
    ]);
    assert.deepEqual(parseResponse('answers.feedback', answerFeedbackResponseSchema, body('POST /webapi/mrc/user_feedback')), {
      positiveCount: 1,
      negativeCount: 1,
    });
    assert.deepEqual(parseResponse('answers.feedbackHistory', answerFeedbackHistorySchema, body('GET /webapi/mrc_feedbacks')), [
      { query: 'text', feedbacks: [{ documentId: 'text', answer: 'text', answerHash: 'text', positive: true, createdAt: null }] },
    ]);
  });

  it('sends the request examples’ shapes (move, select answer, answer feedback, inference, add phrase)', async () => {
    const server = await startCannedServer((req) => ({
      body: req.url.includes('move/bulk')
        ? { moved_kb_node_ids: [], failed_kb_node_ids: [] }
        : req.url.includes('user_feedback')
          ? { result: { userFeedback: { positiveCount: 1, negativeCount: 0 } } }
          : req.url.includes('inference')
            ? { inputText: '', entities: [] }
            : { success: true, result: 'text' },
    }));
    try {
      const client = cannedClient(server.url);
      const request = (op: string) => examples.find((e) => e.operation === op && e.kind === 'request')!.body as never;
      const move = request('POST /webapi/v2/knowledge_base_nodes/move/bulk');
      await client.kbNodes.moveBulk(move);
      const select = request('POST /webapi/faq/select_answer');
      await client.faq.selectAnswer(select);
      const fb = request('POST /webapi/mrc/user_feedback') as Record<string, string & boolean>;
      await client.answers.feedback({
        answerHash: fb.answerHash,
        answer: fb.answer,
        documentId: fb.id,
        query: fb.query,
        positive: fb.positive,
      });
      const infer = request('POST /api/inference') as { text: string };
      await client.nlu.infer(infer.text);
      const phrase = (
        examples.find((e) => e.operation === 'POST /api/add_phrase/<data_type>' && e.kind === 'request')!.body as Array<{
          text: string;
          entities: Array<{ start: number; end: number; tag: { name: string }; token: string }>;
        }>
      )[0];
      await client.nlu.addPhrase(
        phrase.text,
        phrase.entities.map((e) => ({ startIndex: e.start, endIndex: e.end, tag: e.tag.name, token: e.token })),
      );
      const sent = server.requests.map((r) => r.json);
      assert.deepEqual(sent, [move, select, fb, infer, [phrase]]);
    } finally {
      await server.close();
    }
  });

  it('reports the entity-recognition error example (500/7000) with its message and code', async () => {
    const example = examples.find((e) => e.status === 500)!;
    const server = await startCannedServer(() => ({ status: 500, body: example.body }));
    try {
      const client = cannedClient(server.url);
      await assert.rejects(
        client.nlu.infer('x'),
        (e: unknown) => e instanceof InternalServerError && e.code === 7000 && /Something went wrong/.test(e.message),
      );
    } finally {
      await server.close();
    }
  });
});
