import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { z } from 'zod';
import { ApiClient } from '../../../src/api/client';
import { ApiAbortError, ApiConnectionError, ApiTimeoutError } from '../../../src/api/errors';
import { createDispatcher, redactUrl } from '../../../src/api/proxy';
import { endpoint } from '../../../src/api/endpoint';
import { buildQuery, encodeSegment, joinUrl } from '../../../src/api/url';
import { waitFor } from '../support/waitFor';
import { startTestService, type TestService } from '../support/localService';

const echoSpec = (json: unknown) => ({ operation: 'test.echo', method: 'POST' as const, path: '/_local/echo', json, schema: z.unknown() });

describe('Transport: timeouts, aborts, multipart, raw streams, proxy', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t.stop());

  it('times out a slow answer with ApiTimeoutError (per-call timeout)', async () => {
    // The answer would take 60 s, three times the test's own timeout: only the 200 ms timeout can end this call in time.
    const error = await t
      .client()
      .request(echoSpec({ delayMs: 60_000, body: {} }), { timeoutMs: 200, maxRetries: 0 })
      .catch((e) => e);
    assert.ok(error instanceof ApiTimeoutError, inspect(error));
  });

  it('aborts an in-flight request with ApiAbortError', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await t
      .client()
      .request(echoSpec({ delayMs: 3000, body: {} }), { signal: controller.signal })
      .catch((e) => e);
    assert.ok(error instanceof ApiAbortError, inspect(error));
    const already = new AbortController();
    already.abort();
    assert.ok(
      (await t
        .client()
        .faq.embeddingStatus({ signal: already.signal })
        .catch((e) => e)) instanceof ApiAbortError,
    );
  });

  it('reports a refused connection as ApiConnectionError naming the cause', async () => {
    const closed = createHttpServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', retry: { maxRetries: 0 } });
    const error = await client.faq.embeddingStatus().catch((e) => e);
    assert.ok(error instanceof ApiConnectionError, inspect(error));
    assert.match(error.message, /ECONNREFUSED/);
  });

  it('sends multipart bodies: files streamed from disk, arrays and objects as JSON text, booleans as true/false', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-mp-'));
    const file = path.join(dir, 'big.bin');
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    await writeFile(file, data);
    const result = (await t.client().request({
      operation: 'test.multipart',
      method: 'POST',
      path: '/_local/echo',
      multipart: {
        file: { kind: 'file', path: file, fileName: '報告書 #1 100%.pdf', contentType: 'application/pdf' },
        fileName: '報告書 #1 100%.pdf',
        hashtags: ['経費', 'q3'],
        properties: [{ key: 'dept', value: 'finance' }],
        isOverwrite: true,
        useOcr: false,
        skipped: undefined,
      },
      schema: z.unknown(),
    })) as { fields: Record<string, string[]>; files: Array<Record<string, unknown>> };
    await rm(dir, { recursive: true, force: true });
    assert.deepEqual(result.fields, {
      fileName: ['報告書 #1 100%.pdf'],
      hashtags: ['["経費","q3"]'],
      properties: ['[{"key":"dept","value":"finance"}]'],
      isOverwrite: ['true'],
      useOcr: ['false'],
    });
    assert.equal(result.files.length, 1);
    assert.equal(result.files[0].fileName, '報告書 #1 100%.pdf');
    assert.equal(result.files[0].size, data.length);
    assert.equal(result.files[0].sha256, createHash('sha256').update(data).digest('hex'));
  });

  it('hands back a raw stream as it arrives, and cancel() closes the connection the server sees', async () => {
    const raw = await t
      .client()
      .requestRaw(echoSpec({ chunks: ['{"a":', '1}\n', '{"b":2}\n'], chunkDelayMs: 30, contentType: 'application/x-ndjson' }));
    assert.equal(raw.status, 200);
    let text = '';
    for await (const chunk of raw.body) text += Buffer.from(chunk).toString();
    assert.equal(text, '{"a":1}\n{"b":2}\n');

    const before = (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts['echo.closedEarly'];
    const slow = await t.client().requestRaw(echoSpec({ chunks: Array.from({ length: 50 }, (_, i) => `${i}\n`), chunkDelayMs: 40 }));
    for await (const _ of slow.body) break; // leaving the loop must close the request
    const closedEarly = async () => (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts['echo.closedEarly'];
    await waitFor(async () => (await closedEarly()) === before + 1, 'the server to see the connection close');
    assert.equal(await closedEarly(), before + 1, 'closed once, not more');
  });

  it('turns a stream cut by the server into ApiConnectionError for the reader', async () => {
    const raw = await t.client().requestRaw(echoSpec({ chunks: ['{"answer":"par'], cut: true }));
    const error = await (async () => {
      for await (const _ of raw.body);
    })().catch((e) => e);
    assert.ok(error instanceof ApiConnectionError, inspect(error));
  });

  describe('through an HTTP proxy (a real CONNECT proxy on loopback)', () => {
    let proxy: Server;
    let proxyUrl: string;
    const tunnels: string[] = [];
    before(async () => {
      proxy = createHttpServer();
      proxy.on('connect', (req, socket, head) => {
        tunnels.push(req.url ?? '');
        const port = Number((req.url ?? '').split(':').pop());
        // Whatever host was asked for, the tunnel leads to the local service on loopback.
        const upstream = connect(port, '127.0.0.1', () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(socket).pipe(upstream);
        });
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      proxyUrl = `http://user:secret@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    after(() => new Promise((r) => proxy.close(r)));
    beforeEach(() => (tunnels.length = 0));

    const clientVia = (baseUrl: string, settings: Parameters<typeof createDispatcher>[0]) =>
      new ApiClient({ baseUrl, apiKey: t.service.apiKey, dispatcher: createDispatcher(settings).dispatcher, retry: { maxRetries: 0 } });

    it('sends remote calls through http.proxy', async () => {
      const port = t.service.port;
      const client = clientVia(`http://kb.service.example:${port}`, { proxy: proxyUrl, env: {} });
      assert.deepEqual(await client.faq.embeddingStatus(), { total: 0, pending: 0, ready: 0 });
      assert.deepEqual(tunnels, [`kb.service.example:${port}`]);
    });

    it('uses HTTPS_PROXY from the environment when http.proxy is not set', async () => {
      const client = clientVia(`http://kb.service.example:${t.service.port}`, { env: { HTTPS_PROXY: proxyUrl } });
      await client.faq.embeddingStatus();
      assert.equal(tunnels.length, 1);
    });

    it('bypasses the proxy for NO_PROXY hosts and always for loopback', async () => {
      await clientVia(t.service.url, { proxy: proxyUrl, env: {} }).faq.embeddingStatus();
      assert.deepEqual(tunnels, [], 'the local service went through the proxy');
      const noProxy = clientVia(`http://kb.service.example:${t.service.port}`, { proxy: proxyUrl, env: { NO_PROXY: 'service.example' } });
      const error = await noProxy.faq.embeddingStatus().catch((e) => e);
      assert.ok(error instanceof ApiConnectionError, 'a NO_PROXY host must be resolved directly (and this one does not exist)');
      assert.deepEqual(tunnels, []);
    });

    it('never shows proxy credentials', () => {
      const { description } = createDispatcher({ proxy: proxyUrl, env: {} });
      assert.ok(!description.includes('secret'), description);
      assert.equal(redactUrl('http://u:p@proxy.corp:8080'), 'http://***:***@proxy.corp:8080');
    });
  });
});

describe('URL building', () => {
  it('encodes path parameters as single segments, including . and ..', () => {
    assert.deepEqual(endpoint('kbNodes.replace', { node_id: 'a/b?c#d' }), {
      operation: 'kbNodes.replace',
      method: 'POST',
      path: '/webapi/v2/knowledge_base_nodes/a%2Fb%3Fc%23d/replace',
    });
    assert.equal(endpoint('kbNodes.get', { node_id: '..' }).path, '/webapi/v2/knowledge_base_nodes/%2E%2E');
    assert.equal(encodeSegment('.'), '%2E');
    assert.equal(encodeSegment('資料 100%'), '%E8%B3%87%E6%96%99%20100%25');
    assert.throws(() => endpoint('kbNodes.get', { node_id: '' }), /must not be empty/);
    assert.throws(() => endpoint('kbNodes.get', {}), /Missing path parameter node_id/);
  });

  it('builds query strings, repeating array keys and leaving out null and undefined', () => {
    assert.equal(buildQuery({ a: 1, b: 'x y', c: undefined, d: null, e: ['p', 'q'], f: false }), '?a=1&b=x+y&e=p&e=q&f=false');
    assert.equal(buildQuery({}), '');
    assert.equal(joinUrl('https://kb.example.com/prefix/', '/webapi/faq'), 'https://kb.example.com/prefix/webapi/faq');
  });
});
