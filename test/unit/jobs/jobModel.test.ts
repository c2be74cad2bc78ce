import assert from 'node:assert/strict';
import { rareStatusSchema, type BulkResult, type RareStatus } from '../../../src/api/schemas/jobs';
import {
  anyActive,
  bulkStatusBarPart,
  compactStats,
  formatDate,
  generatedCountText,
  newestFirst,
  printableEntries,
  progressText,
  rareJobDescription,
  rareJobError,
  rareJobState,
  statusBarText,
  summarizeProgress,
} from '../../../src/features/jobs/jobModel';

const status = (body: Record<string, unknown>): RareStatus => rareStatusSchema.parse(body);
const bulk = (b: Partial<BulkResult> & { id: string }): BulkResult =>
  ({ created_at: null, bulk_type: 'ga', status: 'queued', total: null, processed: null, file_url: null, ...b }) as BulkResult;

describe('jobModel: RARE rows', () => {
  it('reads the build row from build_status and the generate row from job_status of a generate', () => {
    const s = status({ build_status: 'completed', job_status: 'running', job_type: 'generate' });
    assert.equal(rareJobState(s, 'build'), 'completed');
    assert.equal(rareJobState(s, 'generate'), 'running');
    const b = status({ build_status: 'running', job_status: 'running', job_type: 'build' });
    assert.equal(rareJobState(b, 'generate'), 'idle');
    assert.equal(rareJobState(status({}), 'build'), 'idle');
    assert.equal(rareJobState(status({ job_status: 'queued', job_type: 'build' }), 'build'), 'queued');
    assert.equal(rareJobState(undefined, 'build'), 'unknown');
  });

  it('shows the error of the failed row only', () => {
    const s = status({ build_status: 'completed', job_status: 'failed', job_type: 'generate', error_message: 'LLM unavailable' });
    assert.equal(rareJobError(s, 'generate'), 'LLM unavailable');
    assert.equal(rareJobError(s, 'build'), undefined);
    assert.equal(rareJobDescription(s, 'generate'), 'failed: LLM unavailable');
    const b = status({ build_status: 'failed', job_status: 'failed', job_type: 'build', error_message: 'no documents' });
    assert.equal(rareJobDescription(b, 'build'), 'failed: no documents');
  });

  it('describes each state with progress and stats', () => {
    assert.equal(
      rareJobDescription(
        status({
          build_status: 'running',
          job_type: 'build',
          job_status: 'running',
          build_progress: { processed: 21, total: 50, current_step: 'embedding' },
        }),
        'build',
      ),
      'running 42% · 21/50 · embedding',
    );
    assert.equal(rareJobDescription(status({ build_status: 'queued' }), 'build'), 'queued');
    assert.equal(
      rareJobDescription(status({ build_status: 'completed', build_stats: { documents: 2, chunks: 40, seconds: 3.5 } }), 'build'),
      'completed · 2 documents · 40 chunks',
    );
    assert.equal(rareJobDescription(status({ build_status: 'cancelled' }), 'build'), 'cancelled');
    assert.equal(rareJobDescription(status({ build_status: 'idle' }), 'generate'), 'idle · needs a completed build');
    assert.equal(rareJobDescription(status({ build_status: 'completed' }), 'generate'), 'idle');
  });
});

describe('jobModel: free-form progress', () => {
  it('takes a percent, a fraction, or a done/total pair', () => {
    assert.equal(summarizeProgress({ percent: 42 }).percent, 42);
    assert.equal(summarizeProgress({ progress: 0.5 }).percent, 50);
    assert.equal(summarizeProgress({ progress: 75 }).percent, 75);
    assert.equal(summarizeProgress({ percentage: '12.5' }).percent, 12.5);
    const pair = summarizeProgress({ processed_chunks: 3, total_chunks: 12, total_documents: 2 });
    assert.deepEqual([pair.done, pair.total, pair.percent], [3, 12, 25]);
    const plural = summarizeProgress({ total_docs: 4, processed_doc: 1 });
    assert.deepEqual([plural.done, plural.total], [1, 4]);
    assert.deepEqual([summarizeProgress({ done: 2, total: 8 }).done, summarizeProgress({ current: 2, total: 8 }).percent], [2, 25]);
  });

  it('finds the current step and clamps the percent', () => {
    assert.equal(summarizeProgress({ stage: 'linking passages' }).step, 'linking passages');
    assert.equal(summarizeProgress({ Current_Step: 'x' }).step, 'x');
    assert.equal(summarizeProgress({ percent: 140 }).percent, 100);
    assert.equal(summarizeProgress(undefined).percent, undefined);
    assert.equal(progressText(summarizeProgress({})), '');
    assert.equal(progressText(summarizeProgress({ percent: 3.75 })), '3%');
    assert.equal(progressText(summarizeProgress({ percent: 0.25 })), '0.3%');
  });

  it('lists every printable key for tooltips', () => {
    assert.deepEqual(printableEntries({ total_docs: 1200, ok: true, none: null, empty: '', nested: { a: 1 }, ratio: 0.12345 }), [
      ['total docs', '1,200'],
      ['ok', 'yes'],
      ['nested', '{"a":1}'],
      ['ratio', '0.123'],
    ]);
    assert.equal(compactStats({ a: 'text', b: 2, c: 3 }, 1), '2 b');
  });
});

describe('jobModel: status bar, dates, counts', () => {
  it('shows running jobs only, build percent and bulk processed/total', () => {
    const running = status({ build_status: 'running', job_status: 'running', job_type: 'build', build_progress: { percent: 42 } });
    assert.equal(statusBarText(running, []), '$(sync~spin) Knowledge Desk: build 42%');
    assert.equal(
      statusBarText(status({ build_status: 'queued', job_type: 'build', job_status: 'queued' }), []),
      '$(sync~spin) Knowledge Desk: build queued',
    );
    const gen = status({
      build_status: 'completed',
      job_status: 'running',
      job_type: 'generate',
      generate_progress: { generated: 3, total: 10 },
    });
    assert.equal(statusBarText(gen, []), '$(sync~spin) Knowledge Desk: generate 30%');
    assert.equal(
      statusBarText(status({ build_status: 'completed' }), [bulk({ id: '1', status: 'running', processed: 3, total: 10 })]),
      '$(sync~spin) Knowledge Desk: bulk 3/10',
    );
    assert.equal(
      bulkStatusBarPart([bulk({ id: '1', status: 'queued' }), bulk({ id: '2', status: 'running', total: 5, processed: 1 })]),
      'bulk queued +1',
    );
    assert.equal(statusBarText(status({ build_status: 'completed' }), [bulk({ id: '1', status: 'completed' })]), undefined);
    assert.equal(anyActive(undefined, []), false);
    assert.equal(anyActive(undefined, [bulk({ id: '1', status: 'processing' })]), true);
  });

  it('formats dates in local time and sorts newest first', () => {
    assert.match(formatDate('2025-03-01T14:05:00Z'), /^2025-03-0[12] \d\d:05$/);
    assert.equal(formatDate('yesterday'), 'yesterday');
    assert.equal(formatDate(null), '(no date)');
    assert.deepEqual(
      newestFirst([
        { id: 'a', created_at: '2025-01-01T00:00:00Z' },
        { id: 'b', created_at: null },
        { id: 'c', created_at: '2025-02-01T00:00:00Z' },
      ]).map((x) => x.id),
      ['c', 'a', 'b'],
    );
  });

  it('counts generated questions from the stats, else samples', () => {
    assert.equal(generatedCountText({ total_questions: 30 }, undefined), '30 questions');
    assert.equal(generatedCountText({ samples: 10 }, undefined), '10 samples');
    assert.equal(generatedCountText({}, { id: 'r', n_samples: 1 } as never), '1 sample');
    assert.equal(generatedCountText({}, undefined), undefined);
  });
});
