// The journal's ordering contract (docs/local-service-storage.md): a commit takes effect in memory when
// commit() is called, in call order, and resolves once durable; a failed write undoes its commit and every
// commit queued after it, and watchers see each change, undo included.
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../../../src/local/store/journal';

describe('Journal: read-modify-write order', () => {
  let dir: string;
  let journal: Journal | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-journal-order-'));
  });
  afterEach(async () => {
    await journal?.close().catch(() => undefined);
    journal = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no update when 300 writers read, change and commit at once', async () => {
    journal = await Journal.open({ dir });
    const j = journal;
    const increment = (): Promise<void> => j.commit([{ c: 'n', k: 'count', v: (j.get<number>('n', 'count') ?? 0) + 1 }]);
    await Promise.all(Array.from({ length: 300 }, increment));
    assert.equal(j.get('n', 'count'), 300);
    assert.ok(j.stats.flushes < 300, `group commit kept: ${j.stats.flushes} flushes`);
    await j.close();
    journal = await Journal.open({ dir });
    assert.equal(journal.get('n', 'count'), 300);
  });

  it('shows a commit to later readers at once and numbers commits in call order', async () => {
    const seen: number[] = [];
    journal = await Journal.open({ dir, onCommit: (seq) => seen.push(seq) });
    const first = journal.commit([{ c: 'c', k: 'a', v: 1 }]);
    assert.equal(journal.get('c', 'a'), 1, 'visible before it is durable');
    const second = journal.commit([
      { c: 'c', k: 'a', v: 2 },
      { c: 'c', k: 'b', v: 2 },
    ]);
    await Promise.all([first, second]);
    assert.deepEqual(seen, [1, 3]);
    assert.equal(journal.stats.seq, 3);
  });

  it('undoes a failed write and every commit queued behind it, telling the watchers', async () => {
    journal = await Journal.open({ dir });
    const j = journal;
    const events: string[] = [];
    j.watch('c', (key, value, previous) => events.push(`${key}:${String(previous)}->${String(value)}`));
    await j.commit([{ c: 'c', k: 'a', v: 1 }]);
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const original = proto.write;
    proto.write = function (this: unknown) {
      proto.write = original;
      return Promise.reject(Object.assign(new Error('EIO: simulated'), { code: 'EIO' }));
    };
    try {
      const failing = j.commit([{ c: 'c', k: 'a', v: 2 }]);
      // Decided on top of the failing commit (a = 2): it must not survive it.
      const dependent = j.commit([{ c: 'c', k: 'b', v: (j.get<number>('c', 'a') ?? 0) * 10 }]);
      assert.equal(j.get('c', 'b'), 20);
      const results = await Promise.allSettled([failing, dependent]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['rejected', 'rejected'],
      );
    } finally {
      proto.write = original;
    }
    assert.equal(j.get('c', 'a'), 1);
    assert.equal(j.get('c', 'b'), undefined);
    assert.deepEqual(events, ['a:undefined->1', 'a:1->2', 'b:undefined->20', 'b:20->undefined', 'a:2->1']);
    await j.commit([{ c: 'c', k: 'c', v: 3 }]);
    await j.close();
    journal = await Journal.open({ dir });
    assert.deepEqual(Object.fromEntries(journal.collection('c')), { a: 1, c: 3 });
  });

  it('tells what commits not yet durable replaced, until they are written (files named there must stay)', async () => {
    journal = await Journal.open({ dir });
    const j = journal;
    await j.commit([{ c: 'c', k: 'a', v: { blob: 'x' } }]);
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const original = proto.write;
    let unblock = (): void => undefined;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    proto.write = async function (this: unknown, ...args: unknown[]) {
      await blocked;
      return original.apply(this, args);
    };
    try {
      const first = j.commit([{ c: 'c', k: 'a' }]); // being written (in flight)
      await new Promise((resolve) => setImmediate(resolve));
      const second = j.commit([{ c: 'c', k: 'b', v: 1 }]); // queued behind it
      const third = j.commit([{ c: 'c', k: 'b', v: 2 }]);
      assert.equal(j.get('c', 'a'), undefined, 'the delete is visible at once');
      assert.deepEqual([...j.pendingReplaced('c')], [{ blob: 'x' }, 1], 'the disk may still hold these');
      assert.deepEqual([...j.pendingReplaced('other')], []);
      unblock();
      await Promise.all([first, second, third]);
    } finally {
      proto.write = original;
    }
    assert.deepEqual([...j.pendingReplaced('c')], [], 'durable: nothing pending');
  });

  it('leaves commits queued during a compaction out of its snapshot until they are written', async () => {
    journal = await Journal.open({ dir });
    const j = journal;
    for (let i = 0; i < 20; i++) await j.commit([{ c: 'c', k: `k${i}`, v: i }]);
    const compaction = j.compact();
    const queued = Array.from({ length: 20 }, (_, i) => j.commit([{ c: 'c', k: `k${i}`, v: i + 100 }]));
    await Promise.all([compaction, ...queued]);
    await j.close();
    journal = await Journal.open({ dir });
    for (let i = 0; i < 20; i++) assert.equal(journal.get('c', `k${i}`), i + 100);
  });
});
