// upload_faq_file in bounded memory (issue 23): rows are applied in batches that let other requests through,
// a file over the row limit is refused whole, and a process killed mid-upload keeps whole batches only.
// On the old code an upload was applied in one synchronous loop and one commit: nothing between 0 and all of
// its rows was ever visible, and there was no limit.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { PayloadTooLargeError } from '../../../src/api/errors';
import { startTestService, type TestService } from '../support/localService';
import { zipOf } from '../support/zip';

const ROOT = path.resolve(__dirname, '../../..');
/** Rows per commit in these tests (the service's option; 500 by default). */
const BATCH = 50;
const part = (data: Uint8Array | string, fileName: string) => ({ kind: 'buffer' as const, data, fileName });
const question = (i: number) => `Question number ${i}?`;

function csvOf(rows: number, from = 0): string {
  const lines = ['question,answer'];
  for (let i = from; i < from + rows; i++) lines.push(`${question(i)},Answer ${i}`);
  return lines.join('\n') + '\n';
}

const total = async (client: ApiClient): Promise<number> => (await client.faq.embeddingStatus()).total;

describe('Q&A file upload in batches (local service)', function () {
  this.timeout(60_000);

  describe('in the same process', () => {
    let t: TestService;
    before(async () => (t = await startTestService({ fsync: false, maxFaqFileRows: 50 * BATCH, faqUploadBatchRows: BATCH })));
    after(() => t.stop());

    it('answers other requests while an upload is applied: one sees some batches and not all, before the upload ends', async () => {
      const rows = 40 * BATCH;
      let uploadDone = false;
      const upload = t
        .client()
        .faq.uploadFile(part(csvOf(rows), 'many.csv'), { timeoutMs: 60_000 })
        .finally(() => (uploadDone = true));
      let seen = 0;
      let doneWhenSeen = true;
      // Polls until a request is answered with part of the upload applied (or the upload is over).
      while (!uploadDone) {
        const n = await total(t.client());
        if (n > 0 && n < rows) {
          seen = n;
          doneWhenSeen = uploadDone;
          break;
        }
      }
      assert.deepEqual(await upload, { result: 'success', notUploaded: [] });
      assert.ok(seen > 0 && seen < rows, `a request answered mid-upload saw ${seen} of ${rows} Q&As`);
      assert.equal(seen % BATCH, 0, 'whole batches');
      assert.equal(doneWhenSeen, false, 'that answer came before the upload finished');
      assert.equal(await total(t.client()), rows);
    });

    it('refuses a file over the row limit with a 413 that says the limit, and changes nothing', async () => {
      const before = await total(t.client());
      const limit = 50 * BATCH;
      const error = await t
        .client()
        .faq.uploadFile(part(csvOf(limit + 1, 100_000), 'too-many.csv'))
        .catch((e: unknown) => e);
      assert.ok(error instanceof PayloadTooLargeError, String(error));
      assert.match(error.message, new RegExp(`${limit + 1} rows; at most ${limit} rows are accepted per file`));
      // In a ZIP, a file under the limit before one over it is not applied either.
      const zip = await zipOf({ 'a.csv': csvOf(10, 200_000), 'b.csv': csvOf(limit + 1, 300_000) });
      const zipError = await t
        .client()
        .faq.uploadFile(part(zip, 'both.zip'))
        .catch((e: unknown) => e);
      assert.ok(zipError instanceof PayloadTooLargeError, String(zipError));
      assert.match(zipError.message, /"b\.csv" has/);
      assert.equal(await total(t.client()), before);
      // At the limit it is accepted.
      const atLimit = await t.client().faq.uploadFile(part(csvOf(limit, 400_000), 'at-limit.csv'), { timeoutMs: 60_000 });
      assert.equal(atLimit.result, 'success');
      assert.equal(await total(t.client()), before + limit);
    });
  });

  describe('a service process killed mid-upload', () => {
    let dir: string;
    let child: ChildProcess | undefined;
    const start = async (): Promise<ApiClient> => {
      child = spawn(
        process.execPath,
        ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'src/local/entry.ts'), '--data', dir, '--test-faq-batch', String(BATCH)],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', () => /API key:\s+\S+/.test(out) && resolve());
        child!.once('exit', (code) => reject(new Error(`the service exited (${code}): ${out}`)));
      });
      return new ApiClient({ baseUrl: /URL:\s+(\S+)/.exec(out)![1], apiKey: /API key:\s+(\S+)/.exec(out)![1] });
    };
    const kill = async (): Promise<void> => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    };

    before(async () => (dir = await mkdtemp(path.join(tmpdir(), 'kd-faq-kill-'))));
    after(async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    });

    it('starts again with whole batches in file order and nothing torn', async () => {
      const rows = 60 * BATCH;
      const client = await start();
      const upload = client.faq.uploadFile(part(csvOf(rows), 'many.csv'), { timeoutMs: 60_000 }).catch((e: unknown) => e);
      // Each batch is durable before the next is applied: with two visible, at least one is on disk.
      while ((await total(client)) < 2 * BATCH);
      await kill();
      assert.ok((await upload) instanceof Error, 'the upload did not finish');

      const again = await start();
      const kept = await total(again);
      assert.ok(kept >= BATCH && kept < rows, `kept ${kept} of ${rows}`);
      assert.equal(kept % BATCH, 0, `kept ${kept}: whole batches only`);
      const find = async (i: number) =>
        (await again.faq.filter({ searchTerm: `"${question(i)}"` })).results.find((r) => r.question === question(i));
      assert.equal((await find(0))?.answer, 'Answer 0');
      assert.equal((await find(kept - 1))?.answer, `Answer ${kept - 1}`);
      assert.equal(await find(kept), undefined, 'the next row was not kept');
      await kill();
    });
  });
});
