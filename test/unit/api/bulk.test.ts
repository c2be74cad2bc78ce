import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { ApiClient } from '../../../src/api/client';
import { BadRequestError, NotFoundError } from '../../../src/api/errors';
import type { BulkType } from '../../../src/api/resources/jobs';
import type { BulkResult } from '../../../src/api/schemas/jobs';
import { startLocalService } from '../../../src/local/service';
import { SAMPLES, startSeeded } from '../../fixtures/retrieval/seededService';
import { startTestService, type TestService } from '../support/localService';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const csvFile = (data: string, fileName = 'questions.csv') => ({ kind: 'buffer' as const, data, fileName, contentType: 'text/csv' });

const QUESTIONS = [
  'question,model,search_type',
  'How many days of paid leave do new employees get in their first year?,,',
  '出張の宿泊費の上限はいくらですか,gpt-4o,document',
  '"Which network do guests use for Wi-Fi, and when does its password change?",,',
].join('\n');

async function waitForRun(client: ApiClient, id: string, timeoutMs = 15_000): Promise<BulkResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await client.bulk.results(1)).results.find((r) => r.id === id);
    assert.ok(run, `run ${id} is listed`);
    if (run.status === 'completed' || run.status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(run)}`);
    await sleep(10);
  }
}

async function runAndRead(
  client: ApiClient,
  data: string,
  type: BulkType,
): Promise<{ run: BulkResult; text: string; rows: Array<Record<string, string>> }> {
  const started = await client.bulk.run(csvFile(data), type);
  assert.equal(started.status, 'queued');
  const run = await waitForRun(client, started.id);
  assert.equal(run.status, 'completed', JSON.stringify(run));
  const text = await client.bulk.download(run.file_url!);
  return { run, text, rows: parse(text, { columns: true }) as Array<Record<string, string>> };
}

describe('Bulk processing (local service)', function () {
  this.timeout(60_000);
  let t: TestService;
  let client: ApiClient;

  before(async () => {
    t = await startSeeded();
    client = t.client();
  });
  after(() => t.stop());

  it('answers a CSV with generative answers (ga): input columns + answer, confidence, sources', async () => {
    const { run, text, rows } = await runAndRead(client, QUESTIONS, 'ga');
    assert.deepEqual(
      { bulk_type: run.bulk_type, total: run.total, processed: run.processed, error: run.error_message },
      { bulk_type: 'ga', total: 3, processed: 3, error: undefined },
    );
    assert.match(run.file_url!, /^bulk\/results\/.+\.csv$/);
    assert.equal(text.split('\r\n')[0], 'question,model,search_type,answer,confidence,sources');
    assert.equal(rows.length, 3);
    assert.match(rows[0].answer, /New employees get 15 days of paid leave in their first year of employment\. \[1\]/);
    assert.match(rows[0].sources, /^employee-handbook\.pdf p\.1/);
    assert.match(rows[1].answer, /宿泊費の上限は1泊12,000円です。/);
    assert.equal(rows[1].model, 'gpt-4o', 'input cells are kept');
    assert.equal(rows[1].search_type, 'document');
    assert.match(rows[2].question, /Wi-Fi, and when/, 'quoted cells survive');
    for (const row of rows) {
      const c = Number(row.confidence);
      assert.ok(c >= 0 && c <= 1, row.confidence);
    }
    assert.ok(Number(rows[0].confidence) > 0);
  });

  it('answers with retrieval passages (rag and rag_agent_v2), only `question` required', async () => {
    for (const type of ['rag', 'rag_agent_v2'] as const) {
      const { run, text, rows } = await runAndRead(
        client,
        'question\nHow many days of paid leave do new employees get?\nWhat is the cafeteria menu on Fridays?\n',
        type,
      );
      assert.equal(run.bulk_type, type);
      assert.equal(text.split('\r\n')[0], 'question,answer,confidence,sources');
      assert.match(rows[0].answer, /New employees get 15 days of paid leave/);
      assert.match(rows[0].sources, /employee-handbook\.pdf p\.1/);
      assert.ok(Number(rows[0].confidence) > 0 && Number(rows[0].confidence) <= 1);
      assert.equal(rows.length, 2);
    }
  });

  it('rejects bad files and parameters with a 400 naming the problem', async () => {
    const bad = async (data: string, pattern: RegExp, type: BulkType = 'ga') =>
      assert.rejects(
        client.bulk.run(csvFile(data), type),
        (e: unknown) => e instanceof BadRequestError && pattern.test(e.message),
        `${JSON.stringify(data)} → ${pattern}`,
      );
    await bad('', /empty/);
    await bad('   \n\n', /empty/);
    await bad('model,search_type\ngpt,document\n', /"question" column/);
    await bad('How many days of leave?\nWhere is the office?\n', /"question" column/);
    await bad('question,model\n', /no rows of questions/);
    await bad('question\n"an unclosed quote\n', /cannot be read/);
    await assert.rejects(
      client.bulk.run(csvFile('question\nx\n'), 'chat' as BulkType),
      (e: unknown) => e instanceof BadRequestError && e.field === 'bulk_type',
    );
    await assert.rejects(client.bulk.results(0), (e: unknown) => e instanceof BadRequestError && e.field === 'page');
    const raw = await request(`${t.service.url}/webapi/v2/bulk_processing/results?page=abc`, { headers: { 'API-KEY': t.service.apiKey } });
    assert.equal(raw.statusCode, 400);
    assert.deepEqual(await raw.body.json(), { errors: 'page: must be a whole number from 1', code: 400, field: 'page' });
    await assert.rejects(client.bulk.download('bulk/results/nothing.csv'), NotFoundError);
    await assert.rejects(client.bulk.deleteResult('nothing'), NotFoundError);
  });

  it('pages results 20 at a time, newest first, and deletes a result (then 404)', async () => {
    const before = (await client.bulk.results()).results.length;
    const ids: string[] = [];
    for (let i = 0; i < 21 - before; i++) ids.push((await client.bulk.run(csvFile(`question\nQuestion number ${i}?\n`), 'rag')).id);
    await waitForRun(client, ids.at(-1)!);
    const first = await client.bulk.results(1);
    const second = await client.bulk.results(2);
    assert.equal(first.page, 1);
    assert.equal(first.total_pages, 2);
    assert.equal(first.results.length, 20);
    assert.equal(second.results.length, 1);
    assert.equal(first.results[0].id, ids.at(-1), 'newest first');
    const times = [...first.results, ...second.results].map((r) => Date.parse(r.created_at!));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    assert.deepEqual((await client.bulk.results(3)).results, []);

    const victim = first.results[0];
    await client.bulk.deleteResult(victim.id);
    assert.ok(!(await client.bulk.results(1)).results.some((r) => r.id === victim.id));
    assert.equal((await client.bulk.results(1)).total_pages, 1);
    await assert.rejects(client.bulk.deleteResult(victim.id), NotFoundError);
    await assert.rejects(client.bulk.download(victim.file_url!), NotFoundError);
  });
});

describe('Bulk processing across a restart', function () {
  this.timeout(60_000);

  it('reports a run interrupted by a restart as failed, and deletes a queued run', async () => {
    const t = await startTestService({ seedDir: SAMPLES, fsync: false, jobStepDelayMs: 300 });
    let second: Awaited<ReturnType<typeof startLocalService>> | undefined;
    try {
      await t.service.processingIdle();
      const client = t.client();
      const running = await client.bulk.run(
        csvFile('question\nWhat is paid leave?\nWhat is remote work?\nWho answers payroll questions?\n'),
        'ga',
      );
      const queued = await client.bulk.run(csvFile('question\nWhat is paid leave?\n'), 'rag');
      await client.bulk.deleteResult(queued.id);
      for (;;) {
        const run = (await client.bulk.results()).results.find((r) => r.id === running.id)!;
        if (run.status === 'running') break;
        await sleep(10);
      }
      await t.service.close();
      second = await startLocalService({ dataDir: t.dir, fsync: false });
      const after = await new ApiClient({ baseUrl: second.url, apiKey: second.apiKey }).bulk.results();
      assert.deepEqual(
        after.results.map((r) => r.id),
        [running.id],
      );
      assert.equal(after.results[0].status, 'failed');
      assert.match(after.results[0].error_message!, /^interrupted: the local service restarted/);
      assert.equal(after.results[0].file_url, undefined);
    } finally {
      await second?.close();
      await t.service.close();
      await rm(t.dir, { recursive: true, force: true });
    }
  });
});
