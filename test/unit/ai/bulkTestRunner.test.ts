import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runKnowledgeTestsInBulk, type BulkProgress } from '../../../src/ai/bulkTestRunner';
import { runKnowledgeTests, type TestToRun } from '../../../src/ai/knowledgeTestRunner';
import { evaluateRow, matchRows, parseBulkResult } from '../../../src/core/knowledgeTests/bulkTests';
import { parseTestYaml } from '../../../src/core/knowledgeTests/yamlTests';
import { SAMPLES } from '../../fixtures/retrieval/seededService';
import { startTestService, type TestService } from '../support/localService';

const SUITE = `tests:
  - question: 国内出張の日当はいくらですか
    assert:
      - cites: 経費精算ガイド.md
      - contains: ２，０００円
      - minConfidence: 0.1
  - question: What are the opening hours of the Tokyo office?
    assert:
      - cites: faq-overview.md
      - contains: 24 hours
  - question: What are the opening hours of the Tokyo office?
    mode: retrieval
    assert:
      - retrieves: faq-overview.md
`;

const items = (yaml: string): TestToRun[] => parseTestYaml(yaml).tests.map((test) => ({ file: 'suite.kdtest.yaml', test }));

/**
 * Forwards to the service, except: with `noBulk`, the bulk routes answer 404 as a deployment without them does;
 * with `dropLastRow`, the downloaded result file loses its last row.
 */
async function proxy(
  target: string,
  how: { noBulk?: boolean; dropLastRow?: boolean },
): Promise<{ url: string; runs: () => number; close: () => Promise<void> }> {
  let runs = 0;
  const server: Server = createServer((req, res) => {
    if (how.noBulk && req.url?.startsWith('/webapi/v2/bulk_processing/')) {
      runs++;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    const up = new URL(target);
    const fwd = httpRequest({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      if (!(how.dropLastRow && req.url?.startsWith('/webapi/v2/bulk_processing/download'))) {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\r\n');
        res.writeHead(200, { 'content-type': 'text/csv' }).end(`${lines.slice(0, -1).join('\r\n')}\r\n`);
      });
    });
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    runs: () => runs,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('knowledge tests in bulk (one bulk-processing job) against the local service', function () {
  let t: TestService;
  let seed: string;

  before(async () => {
    seed = await mkdtemp(path.join(tmpdir(), 'kd-bulk-seed-'));
    await mkdir(path.join(seed, '経費'), { recursive: true });
    await cp(path.join(SAMPLES, 'faq-overview.md'), path.join(seed, 'faq-overview.md'));
    await cp(path.join(SAMPLES, '経費', '経費精算ガイド.md'), path.join(seed, '経費', '経費精算ガイド.md'));
    t = await startTestService({ seedDir: seed, fsync: false });
    await t.service.processingIdle();
  });
  after(async () => {
    await t?.stop();
    await rm(seed, { recursive: true, force: true });
  });

  it('gives the verdicts of one request per test, the answer tests through one job that is then deleted', async () => {
    const client = t.client();
    const seen: BulkProgress[] = [];
    const logs: string[] = [];
    const bulk = await runKnowledgeTestsInBulk(client, items(SUITE), {
      pollMs: 20,
      onBulkProgress: (p) => seen.push(p),
      log: (l) => logs.push(l),
    });
    const single = await runKnowledgeTests(client, items(SUITE));
    assert.deepEqual(
      bulk.map((o) => o.status),
      ['passed', 'failed', 'passed'],
    );
    assert.deepEqual(
      bulk.map((o) => o.status),
      single.map((o) => o.status),
    );
    assert.equal(bulk[1].assertions[1].message, 'The answer does not contain "24 hours".');
    assert.match(logs[0], /^bulk job [\w-]+: 2 tests, 1 more one by one$/);
    assert.deepEqual(seen.at(-1), { id: logs[0].split(' ')[2].slice(0, -1), status: 'completed', processed: 2, total: 2 });
    assert.equal((await client.bulk.results()).results.length, 0, 'the run is deleted once read');
  });

  it('falls back to one request per test when the deployment does not offer bulk processing (404)', async () => {
    const proxy404 = await proxy(t.service.url, { noBulk: true });
    try {
      const logs: string[] = [];
      const outcomes = await runKnowledgeTestsInBulk(t.client({ baseUrl: proxy404.url }), items(SUITE), {
        pollMs: 20,
        log: (l) => logs.push(l),
      });
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['passed', 'failed', 'passed'],
      );
      assert.deepEqual(logs, ['this deployment does not offer bulk processing: running each test as its own request']);
      assert.equal(proxy404.runs(), 1);
    } finally {
      await proxy404.close();
    }
  });

  it('a test whose row is missing from the result file is an error; the others are checked', async () => {
    const dropping = await proxy(t.service.url, { dropLastRow: true });
    try {
      const outcomes = await runKnowledgeTestsInBulk(t.client({ baseUrl: dropping.url }), items(SUITE), { pollMs: 20 });
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['passed', 'errored', 'passed'],
      );
      assert.equal(outcomes[1].error, 'The bulk result file has no row for this test.');
    } finally {
      await dropping.close();
    }
  });
});

describe('bulk result files', function () {
  const tests = parseTestYaml(SUITE).tests.slice(0, 2);

  it('a test whose row is missing has no row; rows match by question when the id column was dropped', () => {
    const rows = parseBulkResult(
      '\uFEFFQuestion,Answer,Confidence\r\n国内出張の日当は いくらですか,x,0.5\r\n"国内出張の日当はいくらですか","日当は２，０００円",0.9\r\n',
    );
    const matched = matchRows(tests, rows);
    assert.equal(matched[0]?.answer, '日当は２，０００円');
    assert.equal(matched[1], undefined);
  });

  it('an assertion needing sources the file lacks is reported as not available in bulk mode, not passed', () => {
    const [row] = parseBulkResult('question,answer,confidence,kd_test\n国内出張の日当はいくらですか,日当は２，０００円,0.9,t1\n');
    const { assertions, unavailable } = evaluateRow(tests[0], row);
    assert.deepEqual(
      assertions.map((a) => a.passed),
      [false, true, true],
    );
    assert.match(assertions[0].message, /^cites: not available in bulk mode \(the result file has no sources for this test\)/);
    assert.equal(unavailable.length, 1);
  });
});
