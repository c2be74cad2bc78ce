import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { ApiClient } from '../../../src/api/client';
import { BadRequestError, NotFoundError } from '../../../src/api/errors';
import type { RareStatus } from '../../../src/api/schemas/jobs';
import { startLocalService } from '../../../src/local/service';
import { idsByName, SAMPLES } from '../../fixtures/retrieval/seededService';
import { startTestService, type TestService } from '../support/localService';

const COLUMNS = 'sample_id,question,answer,information,source_document,page_no';
const STATES = ['idle', 'queued', 'running', 'completed', 'failed', 'cancelled'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Polls the status until `done` holds; returns every status seen (the last one satisfies `done`). */
async function waitFor(client: ApiClient, done: (s: RareStatus) => boolean, timeoutMs = 15_000): Promise<RareStatus[]> {
  const seen: RareStatus[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await client.rare.status();
    seen.push(s);
    if (done(s)) return seen;
    if (Date.now() > deadline) throw new Error(`timed out; last status ${JSON.stringify(s)}`);
    await sleep(10);
  }
}

const settled = (s: RareStatus) => !['queued', 'running'].includes(s.job_status ?? '');

// Each job step waits 60 ms (jobStepDelayMs), so a build of the samples takes a few steps and can be
// watched and cancelled.
describe('RARE answer-generation jobs (local service)', function () {
  this.timeout(60_000);
  let t: TestService;
  let client: ApiClient;

  before(async () => {
    t = await startTestService({ seedDir: SAMPLES, fsync: false, jobStepDelayMs: 60 });
    await t.service.processingIdle();
    client = t.client();
  });
  after(() => t.stop());

  it('starts idle, refuses generate before a build and cancel with nothing running', async () => {
    const s = await client.rare.status();
    assert.equal(s.build_status, 'idle');
    assert.equal(s.job_status, 'idle');
    assert.deepEqual(s.folder_ids, []);
    await assert.rejects(
      client.rare.generate({ num_samples: 2 }),
      (e: unknown) => e instanceof BadRequestError && /run a build first/i.test(e.message),
    );
    await assert.rejects(client.rare.cancel(), (e: unknown) => e instanceof BadRequestError && /no job is running/i.test(e.message));
  });

  it('validates the parameters with a 400 naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{ similarity_threshold: 2 }, 'similarity_threshold'],
      [{ top_k_per_chunk: 0 }, 'top_k_per_chunk'],
      [{ max_workers: 1.5 }, 'max_workers'],
      [{ folder_ids: 'abc' }, 'folder_ids'],
      [{ folder_ids: ['no-such-folder'] }, 'folder_ids'],
    ];
    for (const [body, field] of cases) {
      await assert.rejects(
        client.rare.build(body as never),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(body),
      );
    }
    await assert.rejects(
      client.rare.generate({ num_samples: 0 }),
      (e: unknown) => e instanceof BadRequestError && e.field === 'num_samples',
    );
  });

  it('builds: queued → running with live progress → completed with stats', async () => {
    const ack = await client.rare.build({ max_workers: 1, similarity_threshold: 0.2 });
    assert.match(ack.task_id!, /^[0-9a-f-]{36}$/);
    assert.match(ack.message, /build/);
    await assert.rejects(
      client.rare.build(),
      (e: unknown) => e instanceof BadRequestError && /already/.test(e.message),
      'one job at a time',
    );
    const seen = await waitFor(client, settled);
    const last = seen.at(-1)!;
    assert.ok(seen.every((s) => STATES.includes(s.build_status!) && STATES.includes(s.job_status!)));
    assert.ok(
      seen.some(
        (s) =>
          s.build_status === 'running' &&
          typeof s.build_progress.total === 'number' &&
          (s.build_progress.done as number) < (s.build_progress.total as number),
      ),
      'progress seen while running',
    );
    assert.equal(last.build_status, 'completed', JSON.stringify(last));
    assert.equal(last.job_status, 'completed');
    assert.equal(last.job_type, 'build');
    assert.equal(last.build_run_id, ack.task_id);
    assert.equal(last.error_message, undefined);
    const stats = last.build_stats as Record<string, number>;
    assert.ok(stats.chunks >= 7 && stats.documents === 7, JSON.stringify(stats));
    assert.ok(stats.pairs > 0 && stats.duration_ms >= 0);
    assert.deepEqual(last.build_progress, { done: stats.chunks, total: stats.chunks, percent: 100, step: 'completed' });
  });

  it('generates: a result whose CSV quotes its answers from the source documents', async () => {
    const ack = await client.rare.generate({ num_samples: 4, num_questions: 2, num_information: 2, rare_user_prompt: 'ignored locally' });
    const last = (await waitFor(client, settled)).at(-1)!;
    assert.equal(last.job_status, 'completed', JSON.stringify(last));
    assert.equal(last.job_type, 'generate');
    assert.equal(last.build_status, 'completed', 'the build stays completed');
    assert.equal(last.generate_stats.generator, 'local-template');
    assert.equal(last.generate_stats.samples, 4);

    const [result] = await client.rare.results();
    assert.equal(result.id, ack.task_id, 'the task id is the result id');
    assert.equal(result.n_samples, 4);
    assert.ok(!Number.isNaN(Date.parse(result.created_at!)));
    const config = JSON.parse(result.rare_config!);
    assert.equal(config.generator, 'local-template');
    assert.equal(config.num_samples, 4);
    assert.equal(config.rare_user_prompt, 'ignored locally');

    const text = await client.rare.csv(result.result_file_url!);
    assert.equal(text.split('\r\n')[0], COLUMNS);
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 8, '4 samples × 2 questions');
    assert.deepEqual([...new Set(rows.map((r) => r.sample_id))], ['1', '2', '3', '4']);
    const ids = await idsByName(client);
    for (const row of rows) {
      assert.ok(row.question.length > 10 && /[?？]$/.test(row.question), row.question);
      assert.ok(ids[row.source_document], `source ${row.source_document} is a document`);
      const pages = (await client.localDocs.pages(ids[row.source_document])).pages;
      const page = pages.find((p) => p.pageNo === Number(row.page_no));
      assert.ok(page, `page ${row.page_no} of ${row.source_document}`);
      assert.ok(flat(page.text).includes(flat(row.answer)), `"${row.answer}" is quoted from ${row.source_document} p.${row.page_no}`);
      assert.ok(flat(row.information).includes(flat(row.answer)), 'the answer comes from the sample information');
    }
    assert.equal(await client.rare.csv(), text, 'without a path: the newest result');
  });

  it('lists results newest first, deletes one (then 404), and answers 404 for an unknown CSV path', async () => {
    await client.rare.generate({ num_samples: 1, num_questions: 1 });
    assert.equal((await waitFor(client, settled)).at(-1)!.job_status, 'completed');
    const results = await client.rare.results();
    assert.equal(results.length, 2);
    assert.ok(Date.parse(results[0].created_at!) >= Date.parse(results[1].created_at!));
    assert.equal(results[0].n_samples, 1);
    await client.rare.deleteResult(results[0].id);
    assert.deepEqual(
      (await client.rare.results()).map((r) => r.id),
      [results[1].id],
    );
    await assert.rejects(client.rare.deleteResult(results[0].id), NotFoundError);
    await assert.rejects(client.rare.csv(results[0].result_file_url!), NotFoundError);
    await assert.rejects(client.rare.csv('rare/results/nothing.csv'), NotFoundError);
    assert.match(await client.rare.csv(results[1].result_file_url!), /^sample_id,/);
  });

  it('cancels a running build between steps; generate then needs a new build', async () => {
    await client.rare.build({ max_workers: 1 });
    await waitFor(client, (s) => s.build_status === 'running');
    const ack = await client.rare.cancel();
    assert.match(ack.message, /cancel/i);
    const last = (await waitFor(client, settled)).at(-1)!;
    assert.equal(last.build_status, 'cancelled');
    assert.equal(last.job_status, 'cancelled');
    assert.equal(last.build_progress.step, 'cancelled');
    await assert.rejects(client.rare.cancel(), (e: unknown) => e instanceof BadRequestError && /no job is running/i.test(e.message));
    await assert.rejects(client.rare.generate(), (e: unknown) => e instanceof BadRequestError && /run a build first/i.test(e.message));
  });

  it('builds only the chosen folders (with their subfolders)', async () => {
    const ids = await idsByName(client);
    await client.rare.build({ folder_ids: [ids.Handbook] });
    const last = (await waitFor(client, settled)).at(-1)!;
    assert.equal(last.build_status, 'completed');
    assert.deepEqual(last.folder_ids, [ids.Handbook]);
    assert.equal((last.build_stats as Record<string, number>).documents, 2);
  });
});

describe('RARE jobs across a restart', function () {
  this.timeout(60_000);

  it('reports a job interrupted by a restart as failed, with the reason', async () => {
    const t = await startTestService({ seedDir: SAMPLES, fsync: false, jobStepDelayMs: 400 });
    let second: Awaited<ReturnType<typeof startLocalService>> | undefined;
    try {
      await t.service.processingIdle();
      await t.client().rare.build({ max_workers: 1 });
      await waitFor(t.client(), (s) => s.build_status === 'running');
      await t.service.close();
      second = await startLocalService({ dataDir: t.dir, fsync: false });
      const client = new ApiClient({ baseUrl: second.url, apiKey: second.apiKey });
      const s = await client.rare.status();
      assert.equal(s.build_status, 'failed');
      assert.equal(s.job_status, 'failed');
      assert.equal(s.job_type, 'build');
      assert.match(s.error_message!, /^interrupted: the local service restarted/);
      await assert.rejects(client.rare.generate(), BadRequestError);
      await assert.rejects(client.rare.cancel(), BadRequestError);
    } finally {
      await second?.close();
      await t.service.close();
      await rm(t.dir, { recursive: true, force: true });
    }
  });
});
