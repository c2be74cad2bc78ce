import assert from 'node:assert/strict';
import { rareStatusSchema, type BulkResult, type RareStatus } from '../../../src/api/schemas/jobs';
import { EXPECT_TIMEOUT_MS, JobTracker } from '../../../src/features/jobs/jobTracker';

const status = (body: Record<string, unknown>): RareStatus => rareStatusSchema.parse(body);
const build = (state: string, extra: Record<string, unknown> = {}) =>
  status({ build_status: state, job_status: state, job_type: 'build', ...extra });
const gen = (state: string, extra: Record<string, unknown> = {}) =>
  status({ build_status: 'completed', job_status: state, job_type: 'generate', ...extra });
const bulk = (id: string, st: string, extra: Partial<BulkResult> = {}): BulkResult =>
  ({
    id,
    status: st,
    bulk_type: 'ga',
    total: 3,
    processed: st === 'completed' ? 3 : 1,
    file_url: null,
    created_at: null,
    ...extra,
  }) as BulkResult;

function clock() {
  let t = 1_000;
  return { now: () => t, add: (ms: number) => (t += ms) };
}

describe('jobTracker', () => {
  it('reports a build seen running once it completes, once', () => {
    const t = new JobTracker();
    assert.deepEqual(t.update({ rare: build('idle') }), []);
    assert.deepEqual(t.update({ rare: build('running') }), []);
    const done = t.update({ rare: build('completed', { build_stats: { documents: 2 } }) });
    assert.deepEqual(done, [{ kind: 'rare', job: 'build', outcome: 'completed', error: undefined, stats: { documents: 2 } }]);
    assert.deepEqual(t.update({ rare: build('completed', { build_stats: { documents: 2 } }) }), []);
  });

  it('does not report jobs nobody saw running or started', () => {
    const t = new JobTracker();
    assert.deepEqual(t.update({ rare: build('completed') }), []);
    assert.deepEqual(t.update({ rare: gen('failed', { error_message: 'x' }) }), []);
  });

  it('catches a job the user started that finished between two polls (its record changed)', () => {
    const t = new JobTracker();
    const before = build('completed', { build_run_id: 'run-1' });
    t.update({ rare: before });
    t.expectRare('build', before);
    assert.equal(t.expecting, true);
    assert.deepEqual(t.update({ rare: before }), [], 'the old run is not the new one');
    const after = t.update({ rare: build('completed', { build_run_id: 'run-2' }) });
    assert.equal(after.length, 1);
    assert.equal(t.expecting, false);
  });

  it('reports failures with the error and cancellations', () => {
    const t = new JobTracker();
    t.update({ rare: gen('running') });
    assert.deepEqual(
      t.update({ rare: gen('failed', { error_message: 'LLM quota' }) }).map((f) => f.kind === 'rare' && [f.job, f.outcome, f.error]),
      [['generate', 'failed', 'LLM quota']],
    );
    t.update({ rare: build('running') });
    assert.deepEqual(
      t.update({ rare: build('cancelled') }).map((f) => f.kind === 'rare' && [f.job, f.outcome]),
      [['build', 'cancelled']],
    );
  });

  it('forgets an expected job that never shows up', () => {
    const c = clock();
    const t = new JobTracker(c.now);
    const s = build('completed');
    t.update({ rare: s });
    t.expectRare('build', s);
    c.add(EXPECT_TIMEOUT_MS + 1);
    assert.deepEqual(t.update({ rare: s }), []);
    assert.equal(t.expecting, false);
  });

  it('without a known record before the start, only a job seen running counts', () => {
    const t = new JobTracker();
    t.expectRare('build', undefined);
    assert.deepEqual(t.update({ rare: build('completed') }), []);
    t.update({ rare: build('queued') });
    assert.equal(t.update({ rare: build('completed') }).length, 1);
  });

  it('ignores parts that could not be fetched', () => {
    const t = new JobTracker();
    t.update({ rare: build('running') });
    assert.deepEqual(t.update({}), []);
    assert.equal(t.update({ rare: build('completed') }).length, 1);
  });

  it('follows bulk runs: started ones (even if already finished) and ones seen running', () => {
    const t = new JobTracker();
    t.expectBulk('b1');
    assert.deepEqual(t.update({ bulk: [] }), []);
    const done = t.update({ bulk: [bulk('b1', 'completed', { file_url: 'f' })] });
    assert.equal(done.length, 1);
    assert.equal(done[0].kind === 'bulk' && done[0].result.id, 'b1');
    t.update({ bulk: [bulk('b2', 'running'), bulk('old', 'completed')] });
    const next = t.update({ bulk: [bulk('b2', 'failed', { error_message: 'bad CSV' }), bulk('old', 'completed')] });
    assert.deepEqual(
      next.map((f) => f.kind === 'bulk' && [f.result.id, f.outcome, f.error]),
      [['b2', 'failed', 'bad CSV']],
    );
  });

  it('drops a followed bulk run that disappeared (deleted) after a while', () => {
    const c = clock();
    const t = new JobTracker(c.now);
    t.update({ bulk: [bulk('b1', 'running')] });
    assert.deepEqual(t.watchedKeys, ['bulk:b1']);
    t.update({ bulk: [] });
    assert.deepEqual(t.watchedKeys, ['bulk:b1']);
    c.add(EXPECT_TIMEOUT_MS + 1);
    t.update({ bulk: [] });
    assert.deepEqual(t.watchedKeys, []);
  });
});
