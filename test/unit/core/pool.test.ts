// The bounded fan-out shared by the Q&A import, export and the Q&A tree's folder mode.
import assert from 'node:assert/strict';
import { pool } from '../../../src/core/pool';

describe('pool', () => {
  it('runs every item once, never more than `concurrency` at a time', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await pool([1, 2, 3, 4, 5, 6, 7], 3, undefined, async (n) => {
      most = Math.max(most, ++running);
      await new Promise<void>((r) => setImmediate(r));
      seen.push(n);
      running--;
    });
    assert.deepEqual([...seen].sort(), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(most, 3);
  });

  it('starts nothing after an abort, and rejects with the reason', async () => {
    const ac = new AbortController();
    const started: number[] = [];
    const run = pool([1, 2, 3, 4], 1, ac.signal, async (n) => {
      started.push(n);
      if (n === 2) ac.abort(new Error('stop'));
    });
    await assert.rejects(run, /stop/);
    assert.deepEqual(started, [1, 2]);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await pool([], 4, undefined, async () => void calls++);
    assert.equal(calls, 0);
  });
});
