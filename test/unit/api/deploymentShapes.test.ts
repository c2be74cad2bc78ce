// What other deployments do that the local service does not: missing routes (404/405, remembered per
// deployment so the UI can hide the command), the blob-storage path fallback, the key check's fallback,
// a stream sent as application/json, highlight types TABLE and IMAGE. Served by a canned loopback server.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { OfferMemory } from '../../../src/api/offers';
import {
  AuthenticationError,
  DeleteNotSupportedError,
  KnowledgeDeskError,
  NotFoundError,
  OperationNotOfferedError,
} from '../../../src/api/errors';
import { closeCannedServers, startCannedServer, type CannedResponse, type CannedServer } from '../support/cannedServer';
import { startTestService } from '../support/localService';

describe('Deployments that differ: operations not offered, path fallbacks, content types', () => {
  let server: CannedServer | undefined;
  afterEach(async () => {
    // A test may start several servers (one per shape): close every one, not only the last.
    await closeCannedServers();
    server = undefined;
  });
  const serve = async (answer: (method: string, url: string) => CannedResponse, memory = new OfferMemory()) => {
    server = await startCannedServer((req) => answer(req.method, req.url));
    return { memory, client: () => new ApiClient({ baseUrl: server!.url, apiKey: 'k', retry: { maxRetries: 0 }, offerMemory: memory }) };
  };

  it('remembers a 404 (missing route) or 405 per deployment; later calls fail at once; other deployments are unaffected', async () => {
    const { memory, client } = await serve((_method, url) =>
      url === '/webapi/v2/folders'
        ? { status: 404, body: { errors: 'Not Found' } }
        : url.startsWith('/webapi/toggle_documents')
          ? { status: 405, body: '{“errors”: “Method Not Allowed POST: /webapi/toggle_documents”}' }
          : { status: 500 },
    );
    const changes: string[] = [];
    const sub = client().offers.onDidChange((op) => changes.push(op));
    await assert.rejects(
      client().folders.create({ name: 'x' }),
      // One hierarchy: callers that handle the client's errors (KnowledgeDeskError) handle this one too.
      (e: unknown) => e instanceof OperationNotOfferedError && e instanceof KnowledgeDeskError && e.operation === 'folders.create',
    );
    await assert.rejects(
      client().kbNodes.toggle(['a'], 'off'),
      (e: unknown) => e instanceof OperationNotOfferedError && e.operation === 'kbNodes.toggle',
    );
    assert.equal(server!.requests.length, 2);
    // A new client for the same deployment (e.g. after a key change) knows it too, without a request.
    await assert.rejects(client().folders.create({ name: 'y' }), OperationNotOfferedError);
    assert.equal(server!.requests.length, 2, 'no request for an operation known not to be offered');
    assert.deepEqual(client().offers.notOffered(), ['folders.create', 'kbNodes.toggle']);
    assert.equal(client().offers.isOffered('folders.rename'), true);
    assert.deepEqual(changes, ['folders.create', 'kbNodes.toggle']);
    sub.dispose();
    // Another deployment (another base URL) in the same memory is not affected.
    const other = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', offerMemory: memory });
    assert.equal(other.offers.isOffered('folders.create'), true);
    memory.forget(server!.url);
    assert.equal(client().offers.isOffered('folders.create'), true, 'forgotten on request');
  });

  it('tells a missing route from an unknown id: a 404 naming the id is NotFoundError and is not remembered', async () => {
    const { client } = await serve((_method, url) =>
      url.includes('known-gone')
        ? { status: 404, body: { errors: 'Node not found: known-gone' } }
        : { status: 404, body: { errors: 'Not Found' } },
    );
    await assert.rejects(client().kbNodes.update('known-gone', { name: 'x' }), (e: unknown) => e instanceof NotFoundError);
    assert.equal(client().offers.isOffered('kbNodes.update'), true);
    await assert.rejects(client().kbNodes.update('other', { name: 'x' }), OperationNotOfferedError);
    assert.equal(client().offers.isOffered('kbNodes.update'), false);
    // Delete keeps its own error class (the existing command checks for it), through the same memory.
    await assert.rejects(client().kbNodes.delete('n1'), DeleteNotSupportedError);
    await assert.rejects(client().kbNodes.delete('n2'), DeleteNotSupportedError);
    assert.equal(client().offers.isOffered('kbNodes.delete'), false);
    for (const call of [
      () => client().kbNodes.get('node-1'),
      () => client().kbNodes.text('node-1'),
      () => client().kbNodes.ingestionStatus('node-1'),
      () => client().kbNodes.download('node-1'),
      () => client().folders.rename('node-1', 'b'),
      () => client().folders.delete('node-1'),
      () => client().hashtags.inUse(),
      () => client().answers.feedback({ answerHash: 'h', answer: 'a', documentId: 'a', query: 'q', positive: true }),
      () => client().answers.feedbackHistory(),
      () => client().projects.current(),
    ]) {
      await assert.rejects(call(), OperationNotOfferedError);
    }
    assert.equal(client().offers.notOffered().length, 12);
  });

  it('checks a key with the project call, else the Q&A embedding status; a bad key is reported as such', async () => {
    const { client } = await serve((_method, url) =>
      url === '/webapi/v2/projects'
        ? { status: 404, body: { errors: 'Not Found' } }
        : { body: { result: { total: 0, pending: 0, ready: 0 } } },
    );
    assert.equal(await client().projects.checkKey(), 'faq.embeddingStatus');
    assert.deepEqual(
      server!.requests.map((r) => r.url),
      ['/webapi/v2/projects', '/webapi/faq/embedding_status'],
    );
    const bad = await serve(() => ({ status: 401, body: { errors: 'invalid API key' } }));
    await assert.rejects(bad.client().projects.checkKey(), AuthenticationError);
    assert.equal(server!.requests.length, 1, 'a 401 is not "not offered": no fallback call');
  });

  it('uploads from blob storage to upload_from_azure_blob, the older path on 404, or the setting', async () => {
    const node = { result: { id: 'b1', name: 'x.pdf', nodeType: 'file' } };
    const body = { containerBlobPath: 'c/x.pdf', cloudBlobConnectionString: 'cs', fileName: 'x.pdf' };
    let azure = true;
    const { client } = await serve((_method, url) =>
      url.endsWith('/upload_from_azure_blob') && !azure ? { status: 404, body: { errors: 'Not Found' } } : { body: node },
    );
    assert.equal((await client().kbNodes.uploadFromBlobStorage(body)).id, 'b1');
    azure = false;
    assert.equal((await client().kbNodes.uploadFromBlobStorage(body)).id, 'b1');
    await client().kbNodes.uploadFromBlobStorage(body, { path: '/custom/blob' });
    assert.deepEqual(
      server!.requests.map((r) => r.url),
      [
        '/webapi/v2/knowledge_base_nodes/upload_from_azure_blob',
        '/webapi/v2/knowledge_base_nodes/upload_from_azure_blob',
        '/webapi/v2/knowledge_base_nodes/upload_from_blob_storage',
        '/custom/blob',
      ],
    );
    const [node0] = await client()
      .kbNodes.uploadFromBlobStorage(body)
      .then((n) => [n]);
    assert.deepEqual(node0.unknownFields, [
      'createdAt',
      'updatedAt',
      'breadcrumbs',
      'agentPermission',
      'userPermission',
      'hashtags',
      'status',
      'size',
      'processState',
    ]);
  });

  it('the local service serves all three cloud paths', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-blob-'));
    const t = await startTestService({ allowedRoots: [dir] });
    try {
      const file = path.join(dir, 'cloud.txt');
      await writeFile(file, 'From the cloud.');
      const url = pathToFileURL(file).toString();
      const viaAzure = await t
        .client()
        .kbNodes.uploadFromBlobStorage({ containerBlobPath: url, cloudBlobConnectionString: 'x', fileName: 'azure.txt' });
      assert.equal(viaAzure.name, 'azure.txt');
      const old = await t
        .client()
        .kbNodes.uploadFromBlobStorage(
          { containerBlobPath: url, cloudBlobConnectionString: 'x', fileName: 'old.txt' },
          { path: '/webapi/v2/knowledge_base_nodes/upload_from_blob_storage' },
        );
      assert.equal(old.name, 'old.txt');
      const s3 = await t.client().request({
        operation: 'test.s3',
        method: 'POST',
        path: '/webapi/v2/knowledge_base_nodes/upload_from_aws_s3',
        json: { bucketObjectPath: url, fileName: 's3.txt' },
        schema: (await import('../../../src/api/schemas/kbNodes')).nodeWrapperSchema,
      });
      assert.equal(s3.result.name, 's3.txt');
    } finally {
      await t.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads a generative-answer stream sent as application/json, and highlight types TABLE and IMAGE', async () => {
    const objects = [
      { answer: 'Expense', clues: [] },
      { answer: 'Expense reports are due', clues: [] },
      { answer: 'Expense reports are due on the 5th.', clues: [{ clueId: 'c1', title: 't', pageNo: 1 }], threadId: 'th' },
    ];
    const { client } = await serve((_method, url) =>
      url.startsWith('/webapi/v2/highlights/table')
        ? { body: { result: { bboxes: [{ left: 0.1, top: 0.1, right: 0.5, bottom: 0.3 }], type: 'TABLE', pageNo: 2 } } }
        : url.startsWith('/webapi/v2/highlights/')
          ? { body: { bboxes: [], type: 'IMAGE', pageNo: 1 } }
          : { body: objects.map((o) => JSON.stringify(o)).join(''), headers: { 'content-type': 'application/json' } },
    );
    let final;
    for await (const chunk of client().answers.stream({ query: 'due?' })) if (chunk.type === 'done') final = chunk.result;
    assert.equal(final!.answer, 'Expense reports are due on the 5th.');
    assert.equal(final!.threadId, 'th');
    assert.equal((await client().answers.highlightsForClue('table')).type, 'TABLE');
    assert.equal((await client().answers.highlightsForClue('image')).type, 'IMAGE');
  });
});
