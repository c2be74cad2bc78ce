import assert from 'node:assert/strict';
import { POLL_ACTIVE_MAX_MS, POLL_MAX_MS, Poller, backoffDelay, type Timers } from '../../../src/features/jobs/jobPoller';

/** Timers run by hand: `advance()` fires the pending timer and lets the poll settle. */
class FakeTimers implements Timers {
  pending: { fn: () => void; ms: number; id: number } | undefined;
  private next = 1;
  readonly waits: number[] = [];
  set(fn: () => void, ms: number): unknown {
    assert.equal(this.pending, undefined, 'one timer at a time');
    this.pending = { fn, ms, id: this.next++ };
    this.waits.push(ms);
    return this.pending.id;
  }
  clear(handle: unknown): void {
    if (this.pending?.id === handle) this.pending = undefined;
  }
  async advance(): Promise<void> {
    const p = this.pending;
    assert.ok(p, 'a poll is scheduled');
    this.pending = undefined;
    p.fn();
    await settle();
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function setup(opts: { changes?: boolean[]; fail?: boolean; maxMs?: number | (() => number) } = {}) {
  const timers = new FakeTimers();
  const state = { visible: true, active: false, changes: [...(opts.changes ?? [])] };
  const poller = new Poller({
    timers,
    maxMs: opts.maxMs,
    shouldPoll: () => state.visible || state.active,
    tick: async () => {
      if (opts.fail) throw new Error('service down');
      return state.changes.shift() ?? false;
    },
  });
  return { timers, state, poller };
}

describe('jobPoller', () => {
  it('backs off 2 s → 4 s → 8 s → 16 s → 30 s while nothing changes', async () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n)),
      [2000, 4000, 8000, 16000, 30000, 30000],
    );
    const { timers, poller } = setup();
    await poller.pollNow();
    for (let i = 0; i < 6; i++) await timers.advance();
    assert.deepEqual(timers.waits, [2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    assert.equal(poller.polls, 7);
    assert.equal(poller.interval, 30000);
  });

  it('waits at most the active cap while a job runs, and backs off further once it ends', async () => {
    let active = true;
    const { timers, poller } = setup({ maxMs: () => (active ? POLL_ACTIVE_MAX_MS : POLL_MAX_MS) });
    await poller.pollNow();
    for (let i = 0; i < 3; i++) await timers.advance();
    assert.deepEqual(timers.waits, [2000, 3000, 3000, 3000]);
    active = false;
    await timers.advance();
    await timers.advance();
    assert.deepEqual(timers.waits.slice(4), [30000, 30000]);
  });

  it('goes back to 2 s after a change and after a user action', async () => {
    const { timers, poller } = setup({ changes: [false, false, false, true] });
    await poller.pollNow();
    await timers.advance();
    await timers.advance();
    await timers.advance(); // this poll saw a change
    assert.deepEqual(timers.waits, [2000, 4000, 8000, 2000]);
    await timers.advance();
    assert.equal(poller.interval, 4000);
    await poller.pollNow(); // user action
    assert.equal(poller.interval, 2000);
    poller.resetBackoff();
    assert.equal(poller.interval, 2000);
  });

  it('never polls when the view is hidden and nothing runs, and resumes when shown', async () => {
    const { timers, state, poller } = setup();
    await poller.pollNow();
    state.visible = false;
    poller.update();
    assert.equal(poller.scheduled, false);
    assert.equal(poller.interval, undefined);
    assert.equal(poller.polls, 1);
    state.active = true;
    poller.update();
    assert.equal(poller.scheduled, true);
    state.active = false;
    await timers.advance(); // the timer fires but nothing should poll any more
    assert.equal(poller.polls, 1);
    assert.equal(poller.scheduled, false);
  });

  it('stops after a poll that finds nothing running while hidden', async () => {
    const timers = new FakeTimers();
    let running = 2; // the job is seen running by two more polls, then finished
    const poller = new Poller({ timers, shouldPoll: () => running > 0, tick: async () => --running === 0 });
    await poller.pollNow();
    assert.equal(poller.scheduled, true);
    await timers.advance();
    assert.equal(poller.polls, 2);
    assert.equal(poller.scheduled, false);
    assert.equal(timers.pending, undefined);
  });

  it('keeps backing off through errors', async () => {
    const { timers, poller } = setup({ fail: true });
    await poller.pollNow();
    await timers.advance();
    await timers.advance();
    assert.deepEqual(timers.waits, [2000, 4000, 8000]);
  });

  it('runs one poll at a time; a poll asked for meanwhile runs right after', async () => {
    let release!: () => void;
    let calls = 0;
    const timers = new FakeTimers();
    const poller = new Poller({
      timers,
      shouldPoll: () => true,
      tick: () => {
        calls++;
        return calls === 1 ? new Promise<boolean>((r) => (release = () => r(false))) : Promise.resolve(false);
      },
    });
    const first = poller.pollNow();
    const second = poller.pollNow();
    await settle();
    assert.equal(calls, 1);
    release();
    await Promise.all([first, second]);
    assert.equal(calls, 2);
    assert.equal(poller.polls, 2);
    assert.deepEqual(timers.waits, [2000]);
  });

  it('stops on dispose', async () => {
    const { timers, poller } = setup();
    await poller.pollNow();
    poller.dispose();
    assert.equal(timers.pending, undefined);
    await poller.pollNow();
    assert.equal(poller.polls, 1);
  });
});
