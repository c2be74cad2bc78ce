import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { z } from 'zod';
import {
  ApiValidationError,
  AuthenticationError,
  BadRequestError,
  MethodNotAllowedError,
  NotFoundError,
  NotImplementedError,
  PermissionDeniedError,
  ServiceReportedError,
  InternalServerError,
  ApiError,
} from '../../../src/api/errors';
import { startTestService, type TestService } from '../support/localService';

const echo = (t: TestService, body: unknown, schema: z.ZodTypeAny = z.unknown()) =>
  t.client().request({ operation: 'test.echo', method: 'POST', path: '/_local/echo', json: body, schema });

describe('ApiClient against the local service', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t.stop());

  it('reads Q&A embedding status with the API-KEY header', async () => {
    assert.deepEqual(await t.client().faq.embeddingStatus(), { total: 0, pending: 0, ready: 0 });
  });

  it('lists the empty top level of the knowledge base', async () => {
    assert.deepEqual(await t.client().kbNodes.search(), { nodes: [], total: 0 });
  });

  it('maps a wrong key to AuthenticationError without the key anywhere in the error', async () => {
    const wrong = 'kd_local_WRONG-key-do-not-leak-123456';
    const error = await t
      .client({ apiKey: wrong })
      .faq.embeddingStatus()
      .catch((e) => e);
    assert.ok(error instanceof AuthenticationError, inspect(error));
    assert.equal(error.status, 401);
    assert.equal(error.operation, 'faq.embeddingStatus');
    assert.match(error.message, /API-KEY header is missing or invalid/);
    for (const text of [error.message, inspect(error, { depth: 10 }), JSON.stringify(error), String(error.stack)]) {
      assert.ok(!text.includes(wrong), 'the key leaked into the error');
      assert.ok(!text.includes(t.service.apiKey), 'the real key leaked into the error');
    }
  });

  it('maps 400 with the blamed field, 404, 405 and 501 to their classes', async () => {
    const bad = await t
      .client()
      .kbNodes.search({ limit: 101 })
      .catch((e) => e);
    assert.ok(bad instanceof BadRequestError, inspect(bad));
    assert.equal(bad.field, 'limit');
    const missing = await t
      .client()
      .request({ operation: 'x.missing', method: 'GET', path: '/webapi/nothing_here', schema: z.unknown() })
      .catch((e) => e);
    assert.ok(missing instanceof NotFoundError, inspect(missing));
    const method = await t
      .client()
      .request({ operation: 'x.method', method: 'DELETE', path: '/webapi/faq/embedding_status', schema: z.unknown() })
      .catch((e) => e);
    assert.ok(method instanceof MethodNotAllowedError, inspect(method));
    // Every route of the API (docs/api.md) has a local handler now; the echo route produces the 501 a partial deployment sends.
    const later = await echo(t, { status: 501, body: { errors: 'retrieval is not implemented by the local service yet.' } }).catch(
      (e) => e,
    );
    assert.ok(later instanceof NotImplementedError, inspect(later));
    assert.match(later.message, /not implemented by the local service/);
  });

  it('reads all three error body shapes of the real service', async () => {
    const apiError = await echo(t, { status: 403, body: { type: 'APIError', code: 7001, message: 'API-KEY is not valid.' } }).catch(
      (e) => e,
    );
    assert.ok(apiError instanceof PermissionDeniedError);
    assert.equal(apiError.code, 7001);
    assert.match(apiError.message, /API-KEY is not valid\./);
    const errors = await echo(t, { status: 400, body: { errors: 'question is required' } }).catch((e) => e);
    assert.ok(errors instanceof BadRequestError);
    assert.match(errors.message, /question is required/);
    const error = await echo(t, { status: 500, body: { error: 'database unavailable' } }).catch((e) => e);
    assert.ok(error instanceof InternalServerError);
    assert.match(error.message, /database unavailable/);
    const html = await echo(t, { status: 502, raw: '<html>Bad Gateway</html>', contentType: 'text/html' }).catch((e) => e);
    assert.ok(html instanceof InternalServerError);
    assert.equal(html.status, 502);
    const teapot = await echo(t, { status: 418, body: { detail: [{ loc: ['body', 'query'], msg: 'field required' }] } }).catch((e) => e);
    assert.ok(teapot instanceof ApiError && !(teapot instanceof BadRequestError));
    assert.equal(teapot.field, 'query');
    assert.match(teapot.message, /field required/);
  });

  it('treats a 2xx whose errors field is not empty as a failure, and an empty one as success', async () => {
    const failed = await echo(t, { body: { result: { status: 'FAIL' }, errors: 'duplicate question' } }).catch((e) => e);
    assert.ok(failed instanceof ServiceReportedError, inspect(failed));
    assert.match(failed.message, /duplicate question/);
    const failedObject = await echo(t, { body: { result: null, errors: { question: ['is too long'] } } }).catch((e) => e);
    assert.ok(failedObject instanceof ServiceReportedError);
    assert.match(failedObject.message, /question: is too long/);
    for (const empty of ['', null, {}, []]) {
      assert.deepEqual(await echo(t, { body: { result: { ok: 1 }, errors: empty } }), { result: { ok: 1 }, errors: empty });
    }
  });

  it('raises ApiValidationError naming the operation and field when a response does not fit', async () => {
    const schema = z.object({ result: z.object({ nodes: z.array(z.object({ id: z.string() })) }) });
    const error = await echo(t, { body: { result: { nodes: [{ id: 'a' }, { id: 7 }] } } }, schema).catch((e) => e);
    assert.ok(error instanceof ApiValidationError, inspect(error));
    assert.equal(error.operation, 'test.echo');
    assert.equal(error.field, 'result.nodes.1.id');
    assert.match(error.message, /should be string \(got number\)/);
    const notJson = await echo(t, { raw: 'Service Unavailable', contentType: 'text/plain' }, schema).catch((e) => e);
    assert.ok(notJson instanceof ApiValidationError);
    assert.match(notJson.message, /is not JSON/);
  });

  it('keeps unknown fields (passthrough) and accepts the list shapes seen in third-party code', async () => {
    const node = {
      id: 'n1',
      name: 'a.pdf',
      createdAt: 1_700_000_000,
      updatedAt: 1_700_000_000_000,
      nodeType: 'file',
      breadcrumbs: [],
      agentPermission: { viewAccessToAgent: true },
      userPermission: { viewAccessToUser: false, ownUserIds: null },
      hashtags: ['x'],
      status: 'on',
      size: 10,
      processState: 'completed',
      futureField: 42,
    };
    const { nodeSearchResponseSchema } = await import('../../../src/api/schemas/kbNodes');
    for (const body of [
      { result: { nodes: [node], total: 1 } },
      { result: [node] },
      { result: { items: [node] } },
      { result: { knowledgeBaseNodes: [node], total: 1 } },
    ]) {
      const parsed = await echo(t, { body }, nodeSearchResponseSchema);
      assert.equal(parsed.nodes[0].id, 'n1');
      assert.equal(parsed.nodes[0].createdAt, 1_700_000_000_000, 'seconds are read as seconds');
      assert.equal((parsed.nodes[0] as Record<string, unknown>).futureField, 42);
    }
    // A file node without size is still a file (not a folder): the size is defaulted and named as unknown.
    const sizeless = { ...node, nodeType: 'file', size: undefined };
    const page = await echo(t, { body: { result: { nodes: [sizeless] } } }, nodeSearchResponseSchema);
    assert.equal(page.nodes[0].nodeType, 'file');
    assert.deepEqual(page.nodes[0].unknownFields, ['size']);
    const badSize = { ...node, size: 'ten' };
    const error = await echo(t, { body: { result: { nodes: [badSize] } } }, nodeSearchResponseSchema).catch((e) => e);
    assert.ok(error instanceof ApiValidationError, 'a file node with a size that is not a number fails, naming it');
    assert.equal(error.field, 'nodes.0.size');
  });

  it('sends identity headers, OWN-USER-ID as base64 when not ASCII', async () => {
    const client = t.client({ identity: { agentEmail: 'agent@example.com', userEmail: 'user@example.com', ownUserId: '山田太郎' } });
    const who = await client.request({ operation: 'test.whoami', method: 'GET', path: '/_local/whoami', schema: z.unknown() });
    assert.deepEqual(who, { identity: { agentEmail: 'agent@example.com', userEmail: 'user@example.com', ownUserId: '山田太郎' } });
    const { encodeOwnUserId } = await import('../../../src/core/ownUserId');
    assert.equal(encodeOwnUserId('山田太郎'), `base64:${Buffer.from('山田太郎').toString('base64')}`);
    assert.equal(encodeOwnUserId('user-42'), 'user-42');
  });
});
