import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { ExtractorPool, defaultAssetsDir, defaultWorkerFile } from '../../../../src/local/extract/extractorPool';
import { extractPdf } from '../../../../src/local/extract/pdf';
import { ExtractionError, type Extraction } from '../../../../src/local/extract/types';
import { waitFor } from '../../support/waitFor';
import { makeBigPdf } from './pdfWriter';

const docs = path.resolve(__dirname, '../../../fixtures/docs');
const stubWorker = path.join(__dirname, 'stubWorker.cjs');
const assetsDir = defaultAssetsDir();
const execFileAsync = promisify(execFile);
const threadOf = (e: Extraction): string => e.pages[0]?.text.split(' by ')[1] ?? '';

describe('ExtractorPool', () => {
  const pools: ExtractorPool[] = [];
  const pool = (options: Partial<ConstructorParameters<typeof ExtractorPool>[0]> = {}): ExtractorPool => {
    const p = new ExtractorPool({ assetsDir, workerFile: stubWorker, ...options });
    pools.push(p);
    return p;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  describe('with the real worker', () => {
    let tmp: string;
    let bigPdf: string;
    before(() => {
      tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-pool-'));
      bigPdf = path.join(tmp, 'big.pdf');
      writeFileSync(bigPdf, makeBigPdf(250, 50));
    });
    after(() => rmSync(tmp, { recursive: true, force: true }));

    it('runs from source with tsx, and from the bundle next to dist/local.js', () => {
      const { file, execArgv } = defaultWorkerFile();
      assert.equal(file, path.resolve(__dirname, '../../../../src/local/extract/worker.ts'));
      assert.deepEqual(execArgv, ['--require', require.resolve('tsx/cjs')]);
      assert.match(execArgv[1] ?? '', /node_modules\/tsx\//);
      assert.equal(assetsDir, path.resolve(__dirname, '../../../../node_modules/pdfjs-dist'));
    });

    it('extracts in a worker thread and returns plain data with boxes', async () => {
      const p = pool({ workerFile: undefined });
      const result = await p.extract(path.join(docs, 'two-pages-en.pdf'), 'two-pages-en.pdf');
      assert.equal(p.workerCount, 1);
      assert.equal(result.pages.length, 2);
      assert.ok(result.pages[0]?.text.includes('The first line mentions the alpha project.'));
      assert.ok((result.pages[0]?.items?.length ?? 0) >= 3);
    });

    it('passes extraction failures through as ExtractionError with reason and message', async () => {
      const p = pool({ workerFile: undefined });
      const error = await p.extract(path.join(docs, 'encrypted.pdf'), 'encrypted.pdf').catch((e: unknown) => e);
      assert.ok(error instanceof ExtractionError);
      assert.equal(error.reason, 'encrypted');
      assert.equal(error.message, 'The PDF is password-protected; remove the password and upload it again.');
      const unsupported = await p.extract(path.join(docs, 'binary.bin'), 'binary.bin').catch((e: unknown) => e);
      assert.equal((unsupported as ExtractionError).reason, 'unsupported');
    });

    it('keeps the main event loop free while a big PDF is extracted (unlike extracting inline)', async function () {
      this.timeout(60_000);
      const p = pool({ workerFile: undefined });
      await p.extract(path.join(docs, 'two-pages-en.pdf'), 'warm-up.pdf'); // worker started, pdfjs loaded

      // The event loop's utilisation, compared with the same work done inline: a ratio of its own time, which a
      // slow or busy machine does not change (the longest gap between timer ticks would, so it is only reported).
      let last = performance.now();
      let maxGap = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
      }, 5);
      try {
        const elu = performance.eventLoopUtilization();
        const started = performance.now();
        const result = await p.extract(bigPdf, 'big.pdf');
        const took = performance.now() - started;
        const utilization = performance.eventLoopUtilization(elu).utilization;
        assert.equal(result.pages.length, 250);
        assert.ok(result.pages[249]?.text.startsWith('Page 250 line 1:'));
        assert.ok(took > 300, `the work took ${took} ms`);
        assert.ok(
          utilization < 0.3,
          `main event loop busy ${(utilization * 100).toFixed(0)}% of the time (longest gap between ticks ${maxGap.toFixed(0)} ms)`,
        );

        // The same work inline keeps the main event loop busy nearly all the time.
        await extractPdf(path.join(docs, 'two-pages-en.pdf'), { assetsDir }); // pdfjs loaded here too
        const inlineElu = performance.eventLoopUtilization();
        await extractPdf(bigPdf, { assetsDir });
        const inline = performance.eventLoopUtilization(inlineElu).utilization;
        assert.ok(inline > 0.8, `inline: main event loop busy ${(inline * 100).toFixed(0)}% of the time`);
      } finally {
        clearInterval(ticker);
      }
    });
  });

  describe('with a stub worker', () => {
    it('replaces a worker that exceeds the timeout, and the next job still works', async () => {
      const p = pool({ timeoutMs: 1500 });
      const first = threadOf(await p.extract('x', 'ok.txt'));
      await assert.rejects(p.extract('x', 'hang.txt'), {
        reason: 'timeout',
        message:
          'Text extraction of "hang.txt" took longer than 1.5 seconds and was stopped; the document may be too large or complex. Split it into smaller files and upload them again.',
      });
      const next = await p.extract('x', 'ok.txt');
      assert.equal(next.pages[0]?.text.split(' by ')[0], 'ok.txt');
      assert.notEqual(threadOf(next), first);
      assert.equal(p.workerCount, 1);
    });

    it('fails only the current file when a worker crashes or throws', async () => {
      const p = pool();
      await assert.rejects(
        p.extract('x', 'crash.txt'),
        (e: ExtractionError) =>
          e.reason === 'broken' && /crashed on "crash\.txt" \(the extraction worker exited with code 3\)/.test(e.message),
      );
      await assert.rejects(
        p.extract('x', 'throw.txt'),
        (e: ExtractionError) => e.reason === 'broken' && e.message.includes('boom in worker'),
      );
      assert.equal(threadOf(await p.extract('x', 'ok.txt')) !== '', true);
    });

    it('reports a document that exhausts the worker heap as tooLarge', async function () {
      this.timeout(30_000);
      const p = pool({ maxMemoryMb: 32 });
      await assert.rejects(p.extract('x', 'oom.txt'), (e: ExtractionError) => e.reason === 'tooLarge' && e.message.includes('(32 MB)'));
      assert.ok((await p.extract('x', 'ok.txt')).pages.length === 1);
    });

    it('stops a worker over its memory budget outside the heap; with two running, each is retried alone and only the hog fails', async function () {
      // In a process of its own (see memoryBudgetScenario.ts); a hang guard, not a speed limit.
      this.timeout(120_000);
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'memoryBudgetScenario.ts')], {
        timeout: 110_000,
      });
      const { hog, slow, next } = JSON.parse(stdout.trim().split('\n').at(-1)!);
      assert.equal(hog.reason, 'tooLarge', JSON.stringify(hog));
      assert.match(hog.message, /"hog\.txt" needs more memory than text extraction may use \(128 MB\)/);
      assert.match(slow.text ?? JSON.stringify(slow), /^slow2000\.txt by /, 'the other document completes');
      assert.match(next.text ?? JSON.stringify(next), /^ok\.txt by /, 'a new worker takes the next one');
    });

    it('passes failure replies through', async () => {
      await assert.rejects(pool().extract('x', 'fail.txt'), { reason: 'empty', message: 'nothing here' });
    });

    it('queues jobs while every worker is busy, and runs them in parallel up to size', async () => {
      const one = pool({ size: 1 });
      const started = performance.now();
      const serial = await Promise.all(['slow150-a', 'slow150-b', 'slow150-c'].map((n) => one.extract('x', n)));
      const serialMs = performance.now() - started;
      assert.equal(one.workerCount, 1);
      assert.equal(new Set(serial.map(threadOf)).size, 1);
      assert.ok(serialMs >= 440, `serial ${serialMs}`);
      assert.deepEqual(
        serial.map((e) => e.pages[0]?.text.split(' by ')[0]),
        ['slow150-a', 'slow150-b', 'slow150-c'],
      );

      // Side by side, proven by the jobs themselves: each replies only after seeing the other's mark, so with
      // one worker the second would wait in the queue behind the first (which fails after 10 s).
      const two = pool({ size: 2 });
      const meeting = mkdtempSync(path.join(os.tmpdir(), 'kd-pool-meet-'));
      try {
        const parallel = await Promise.all(['meet-a-b', 'meet-b-a'].map((n) => two.extract(meeting, n)));
        assert.equal(new Set(parallel.map(threadOf)).size, 2, 'two workers');
        assert.equal(two.workerCount, 2);
      } finally {
        rmSync(meeting, { recursive: true, force: true });
      }
    });

    it('drops an aborted job from the queue, and replaces the worker of an aborted running job', async () => {
      // No time budget to race: hang.txt must end by the abort, however long the workers take to start (CI once
      // saw the 15 s budget stop it first).
      const p = pool({ timeoutMs: 10 * 60_000 });
      const running = new AbortController();
      const queued = new AbortController();
      const a = p.extract('x', 'hang.txt', { signal: running.signal });
      const b = p.extract('x', 'ok-b.txt', { signal: queued.signal });
      const c = p.extract('x', 'ok-c.txt');
      queued.abort();
      await assert.rejects(b, { name: 'AbortError' });
      // A hang guard, not a speed limit: a worker's start takes seconds on a busy machine. At least one: the two
      // workers (hang.txt's and ok-c.txt's) may become ready between two looks, and `=== 1` then never held.
      await waitFor(() => p.readyCount >= 1, 'the worker running hang.txt to be ready', 45_000);
      running.abort(new Error('user cancelled'));
      await assert.rejects(a, /user cancelled/);
      assert.equal((await c).pages[0]?.text.split(' by ')[0], 'ok-c.txt');
      const already = new AbortController();
      already.abort();
      await assert.rejects(p.extract('x', 'ok.txt', { signal: already.signal }), { name: 'AbortError' });
    });

    it('close() rejects running and queued jobs, terminates the workers and refuses new jobs', async () => {
      const p = pool({ size: 1, timeoutMs: 10 * 60_000 });
      const running = p.extract('x', 'hang.txt').catch((e: Error) => e);
      const queued = p.extract('x', 'ok.txt').catch((e: Error) => e);
      // A hang guard, not a speed limit: a worker's start takes seconds on a busy machine.
      await waitFor(() => p.readyCount === 1, 'the worker running hang.txt to be ready', 60_000);
      assert.equal(p.workerCount, 1);
      await p.close();
      assert.equal(p.workerCount, 0);
      assert.match(String(await running), /The extractor pool was closed/);
      assert.match(String(await queued), /The extractor pool was closed/);
      await assert.rejects(p.extract('x', 'ok.txt'), /closed/);
    });

    it('fails jobs clearly when the worker file cannot be started', async () => {
      const p = pool({ workerFile: 'relative/worker.js' });
      await assert.rejects(p.extract('x', 'ok.txt'), { code: 'ERR_WORKER_PATH' });
      const missing = pool({ workerFile: path.join(__dirname, 'no-such-worker.cjs') });
      await assert.rejects(
        missing.extract('x', 'ok.txt'),
        (e: ExtractionError) => e.reason === 'broken' && /^The text extraction worker could not start \(Cannot find module/.test(e.message),
      );
    });

    it('starts no worker before the first job', () => {
      assert.equal(pool().workerCount, 0);
    });
  });
});
