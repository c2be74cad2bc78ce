// How a flush reaches the disk (journalLog.ts): a commit that fits in one write is one O_DSYNC write, without an
// fdatasync (one trip to the thread pool instead of two); a commit of several writes is synced once at its end.
import assert from 'node:assert/strict';
import { constants } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../../../src/local/store/journal';

describe('Journal: the log file', () => {
  let dir: string;
  let journal: Journal | undefined;
  let restore = (): void => undefined;

  /** Counts the writes and fdatasyncs of every file handle until the test ends. */
  async function countCalls(): Promise<{ writes: number; datasyncs: number }> {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as Record<'write' | 'datasync', (...args: unknown[]) => Promise<unknown>>;
    await probe.close();
    const calls = { writes: 0, datasyncs: 0 };
    const { write, datasync } = proto;
    proto.write = function (this: unknown, ...args: unknown[]) {
      calls.writes++;
      return write.apply(this, args);
    };
    proto.datasync = function (this: unknown, ...args: unknown[]) {
      calls.datasyncs++;
      return datasync.apply(this, args);
    };
    restore = () => Object.assign(proto, { write, datasync });
    return calls;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-journal-log-'));
  });
  afterEach(async () => {
    restore();
    await journal?.close();
    journal = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a small commit once, durable without an fdatasync where the platform has O_DSYNC', async function () {
    if (!constants.O_DSYNC) this.skip();
    journal = await Journal.open({ dir });
    const calls = await countCalls();
    for (let i = 0; i < 5; i++) await journal.commit([{ c: 'c', k: `k${i}`, v: { i } }]);
    assert.deepEqual(calls, { writes: 5, datasyncs: 0 });
    assert.equal(journal.stats.flushes, 5);
    await journal.close();
    journal = await Journal.open({ dir });
    assert.equal(journal.collection('c').size, 5);
  });

  it('syncs a commit of several writes once, at its end', async () => {
    journal = await Journal.open({ dir });
    const calls = await countCalls();
    const big = 'x'.repeat(1000);
    await journal.commit(Array.from({ length: 1000 }, (_, i) => ({ c: 'c', k: `k${i}`, v: big })));
    assert.ok(calls.writes > 1, `writes: ${calls.writes}`);
    assert.equal(calls.datasyncs, 1);
    await journal.close();
    journal = await Journal.open({ dir });
    assert.equal(journal.collection('c').size, 1000);
  });

  it('without fsync, writes and never syncs', async () => {
    journal = await Journal.open({ dir, fsync: false });
    const calls = await countCalls();
    await journal.commit([{ c: 'c', k: 'a', v: 1 }]);
    assert.deepEqual(calls, { writes: 1, datasyncs: 0 });
  });
});
