// Knowledge tests as ONE bulk-processing job (`knowledge-desk test --bulk`): the generative-answer tests the bulk
// input can express go up as one CSV (bulk_type ga); the rest run one request each meanwhile. The job is polled
// until it ends, its result file read and each test's assertions checked on its row. A deployment without bulk
// processing (OperationNotOfferedError) gets every test one by one, with a note. No vscode here.
import type { ApiClient } from '../api/client';
import { OperationNotOfferedError } from '../api/errors';
import type { BulkResult } from '../api/schemas/jobs';
import { bulkEligible, bulkInputCsv, evaluateRow, matchRows, parseBulkResult } from '../core/knowledgeTests/bulkTests';
import { runKnowledgeTests, type RunOptions, type TestOutcome, type TestToRun } from './knowledgeTestRunner';

export interface BulkProgress {
  id: string;
  status: string;
  processed?: number | null;
  total?: number | null;
}

export interface BulkRunOptions extends RunOptions {
  /** Between two status reads; default 1000 ms. */
  pollMs?: number;
  onBulkProgress?: (progress: BulkProgress) => void;
  /** Notes for the person running (stderr in the CLI): the fallback, the job id. */
  log?: (line: string) => void;
}

const DONE = new Set(['completed', 'complete', 'succeeded', 'success', 'done', 'finished']);
const FAILED = new Set(['failed', 'error', 'cancelled', 'canceled', 'aborted']);
/** The list is newest first; a run just started is on the first pages. */
const MAX_PAGES = 20;

export async function runKnowledgeTestsInBulk(
  client: ApiClient,
  items: readonly TestToRun[],
  options: BulkRunOptions = {},
): Promise<TestOutcome[]> {
  const bulk = items.filter((i) => bulkEligible(i.test));
  const single = items.filter((i) => !bulkEligible(i.test));
  if (!bulk.length) return runKnowledgeTests(client, items, options);
  let runId: string;
  try {
    const csv = bulkInputCsv(bulk.map((i) => i.test));
    runId = (
      await client.bulk.run({ kind: 'buffer', data: csv, fileName: 'knowledge-tests.csv', contentType: 'text/csv' }, 'ga', {
        signal: options.signal,
      })
    ).id;
  } catch (error) {
    if (!(error instanceof OperationNotOfferedError)) throw error;
    options.log?.('this deployment does not offer bulk processing: running each test as its own request');
    return runKnowledgeTests(client, items, options);
  }
  options.log?.(
    `bulk job ${runId}: ${bulk.length} test${bulk.length === 1 ? '' : 's'}${single.length ? `, ${single.length} more one by one` : ''}`,
  );
  const [fromBulk, fromSingle] = await Promise.all([
    bulkOutcomes(client, runId, bulk, options),
    runKnowledgeTests(client, single, options),
  ]);
  const all = new Map<TestToRun, TestOutcome>();
  bulk.forEach((item, i) => all.set(item, fromBulk[i]));
  single.forEach((item, i) => all.set(item, fromSingle[i]));
  return items.map((item) => all.get(item) as TestOutcome);
}

async function bulkOutcomes(
  client: ApiClient,
  runId: string,
  items: readonly TestToRun[],
  options: BulkRunOptions,
): Promise<TestOutcome[]> {
  const started = Date.now();
  for (const item of items) options.onStart?.(item);
  const errored = (error: string): TestOutcome[] =>
    items.map((item) => ({ ...item, status: 'errored', durationMs: Date.now() - started, assertions: [], error }));
  let outcomes: TestOutcome[];
  try {
    const run = await waitFor(client, runId, options);
    if (!run.ok) outcomes = errored(run.error);
    else {
      const rows = matchRows(
        items.map((i) => i.test),
        parseBulkResult(await client.bulk.download(run.fileUrl, { signal: options.signal })),
      );
      const durationMs = Date.now() - started;
      outcomes = items.map((item, i): TestOutcome => {
        const row = rows[i];
        if (!row)
          return { ...item, status: 'errored', durationMs, assertions: [], error: 'The bulk result file has no row for this test.' };
        const { assertions, observed, unavailable } = evaluateRow(item.test, row);
        if (unavailable.length) return { ...item, status: 'errored', durationMs, assertions, observed, error: unavailable.join('\n') };
        return { ...item, status: assertions.every((a) => a.passed) ? 'passed' : 'failed', durationMs, assertions, observed };
      });
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    outcomes = errored(`The bulk job failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    // The run is ours and read (or abandoned): not left behind in the deployment's bulk results. Deleting a
    // running run stops it.
    await client.bulk.deleteResult(runId).catch((e: unknown) => options.log?.(`bulk job ${runId}: not deleted: ${(e as Error).message}`));
  }
  for (const o of outcomes) options.onOutcome?.(o);
  return outcomes;
}

type Finished = { ok: true; fileUrl: string } | { ok: false; error: string };

async function waitFor(client: ApiClient, runId: string, options: BulkRunOptions): Promise<Finished> {
  for (;;) {
    const run = await find(client, runId, options.signal);
    if (!run) return { ok: false, error: `The bulk job ${runId} is no longer listed by the service.` };
    const status = (run.status ?? '').toLowerCase();
    options.onBulkProgress?.({ id: runId, status: run.status ?? 'unknown', processed: run.processed, total: run.total });
    if (FAILED.has(status)) return { ok: false, error: `The bulk job ${status}${run.error_message ? `: ${run.error_message}` : '.'}` };
    if (DONE.has(status) || (!status && run.file_url)) {
      return run.file_url ? { ok: true, fileUrl: run.file_url } : { ok: false, error: 'The bulk job completed without a result file.' };
    }
    await sleep(options.pollMs ?? 1000, options.signal);
  }
}

async function find(client: ApiClient, runId: string, signal?: AbortSignal): Promise<BulkResult | undefined> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const listed = await client.bulk.results(page, { signal });
    const hit = listed.results.find((r) => r.id === runId);
    if (hit || !listed.results.length || page >= (listed.total_pages ?? 1)) return hit;
  }
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
