import assert from 'node:assert/strict';
import { envStepDelayMs, localServiceTestOptions } from '../../../src/platform/localServiceTestOptions';
import { PROBE_KEEP, ProbeKeys, Ring, TestProbe } from '../../../src/testProbe';

describe('Test probe', () => {
  it('a ring keeps the last values, counts every push, and answers "since a mark" with what it still has', () => {
    const ring = new Ring<number>(3);
    assert.equal(ring.last, undefined);
    assert.deepEqual(ring.since(0), []);
    const mark = ring.total;
    for (const n of [1, 2]) ring.push(n);
    assert.deepEqual(ring.since(mark), [1, 2]);
    for (const n of [3, 4, 5]) ring.push(n);
    assert.equal(ring.total, 5);
    assert.deepEqual(ring.all(), [3, 4, 5], 'bounded: only the last three');
    assert.equal(ring.last, 5);
    assert.deepEqual(ring.since(3), [4, 5]);
    assert.deepEqual(ring.since(0), [3, 4, 5], 'what was dropped is not invented');
    assert.deepEqual(ring.since(5), []);
    assert.deepEqual(ring.since(-1), [3, 4, 5]);
    ring.clear();
    assert.equal(ring.last, undefined);
    ring.push(6);
    assert.deepEqual(ring.since(5), [6], 'marks taken before clear() stay valid');
  });

  it(`keeps at most ${PROBE_KEEP} of anything: errors, what an owner recorded`, () => {
    const probe = new TestProbe();
    const panel = {};
    for (let i = 0; i < PROBE_KEEP * 4; i++) {
      probe.errorsShown.push({ command: 'c', message: String(i) });
      probe.record(panel, ProbeKeys.pageProblems, `csp: ${i}`);
    }
    assert.equal(probe.errorsShown.all().length, PROBE_KEEP);
    assert.equal(probe.errorsShown.total, PROBE_KEEP * 4);
    assert.equal(probe.all(panel, ProbeKeys.pageProblems).length, PROBE_KEEP);
    assert.equal(probe.last(panel, ProbeKeys.pageProblems), `csp: ${PROBE_KEEP * 4 - 1}`);
  });

  it('keeps each owner apart, and an owner with no records reads as empty', () => {
    const probe = new TestProbe();
    const a = {};
    const b = {};
    probe.record(a, ProbeKeys.rendered, { page: 1 });
    assert.deepEqual(probe.last(a, ProbeKeys.rendered), { page: 1 });
    assert.equal(probe.last(b, ProbeKeys.rendered), undefined);
    assert.deepEqual(probe.all(b, ProbeKeys.pageProblems), []);
    probe.ring(a, ProbeKeys.rendered).clear();
    assert.equal(probe.last(a, ProbeKeys.rendered), undefined);
  });

  it('reads KD_LOCAL_JOB_STEP_DELAY_MS for the local service only in the test options, bounded', () => {
    assert.deepEqual(localServiceTestOptions({}), { testHooks: true, jobStepDelayMs: 0 });
    assert.deepEqual(localServiceTestOptions({ KD_LOCAL_JOB_STEP_DELAY_MS: '3000' }), { testHooks: true, jobStepDelayMs: 3000 });
    assert.equal(envStepDelayMs({ KD_LOCAL_JOB_STEP_DELAY_MS: '999999' }), 60_000);
    assert.equal(envStepDelayMs({ KD_LOCAL_JOB_STEP_DELAY_MS: 'NaN' }), 0);
  });
});
