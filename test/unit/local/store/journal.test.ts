import assert from 'node:assert/strict';
import { appendFile, copyFile, mkdtemp, open, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, JournalCorruptionError } from '../../../../src/local/store/journal';

const LOG1 = 'log.00000001.jsonl';

async function logFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
}

describe('Journal', () => {
  let dir: string;
  const open_: Journal[] = [];
  const openJournal = async (options: Partial<Parameters<typeof Journal.open>[0]> = {}): Promise<Journal> => {
    const j = await Journal.open({ dir, ...options });
    open_.push(j);
    return j;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-journal-'));
  });
  afterEach(async () => {
    for (const j of open_.splice(0)) await j.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips values and deletes across reopen', async () => {
    const j = await openJournal();
    await j.commit([{ c: 'docs', k: 'a', v: { title: 'A', n: 1 } }]);
    await j.commit([
      { c: 'docs', k: 'b', v: 'bee' },
      { c: 'faq', k: 'q', v: [1, 2] },
    ]);
    await j.commit([{ c: 'docs', k: 'b' }]);
    await j.commit([{ c: 'docs', k: 'z', v: null }]);
    assert.deepEqual(j.get('docs', 'a'), { title: 'A', n: 1 });
    assert.equal(j.get('docs', 'b'), undefined);
    await j.close();

    const again = await openJournal();
    assert.deepEqual(again.get('docs', 'a'), { title: 'A', n: 1 });
    assert.equal(again.get('docs', 'b'), undefined);
    assert.equal(again.collection('docs').has('z'), true);
    assert.deepEqual([...again.collection('faq')], [['q', [1, 2]]]);
    assert.equal(again.stats.seq, 5);
    assert.deepEqual(again.stats.loaded, { snapshotSeq: 0, replayed: 5, truncatedBytes: 0 });
  });

  it('gives a live, initially empty view of an unknown collection', async () => {
    const j = await openJournal();
    const view = j.collection<number>('later');
    assert.equal(view.size, 0);
    await j.commit([{ c: 'later', k: 'x', v: 1 }]);
    assert.equal(view.get('x'), 1);
  });

  it("stores what a reload would return, not the caller's object", async () => {
    const j = await openJournal();
    const value = { list: [1], when: new Date(0) };
    await j.commit([{ c: 'c', k: 'k', v: value }]);
    value.list.push(2);
    assert.deepEqual(j.get('c', 'k'), { list: [1], when: '1970-01-01T00:00:00.000Z' });
  });

  it('rejects records that are not JSON without affecting other commits', async () => {
    const j = await openJournal();
    await assert.rejects(j.commit([{ c: 'c', k: 'f', v: () => 1 }]), TypeError);
    await assert.rejects(j.commit([{ c: 'c', k: 'b', v: 10n }]), TypeError);
    await assert.rejects(j.commit([{ c: 'c', k: 1 as unknown as string, v: 1 }]), TypeError);
    await j.commit([{ c: 'c', k: 'ok', v: 1 }]);
    assert.equal(j.stats.seq, 1);
  });

  it('drops a torn last line, truncates it, and keeps the next append across another reopen', async () => {
    const j = await openJournal();
    await j.commit([{ c: 'c', k: 'a', v: 1 }]);
    await j.commit([{ c: 'c', k: 'b', v: 2 }]);
    await j.close();
    const torn = '{"s":3,"c":"c","k":"torn","v":"half';
    await appendFile(join(dir, LOG1), torn);

    const j2 = await openJournal();
    assert.equal(j2.stats.loaded.truncatedBytes, Buffer.byteLength(torn));
    assert.equal(j2.get('c', 'torn'), undefined);
    await j2.commit([{ c: 'c', k: 'after', v: 'survives' }]);
    await j2.close();
    assert.ok(!(await readFile(join(dir, LOG1), 'utf8')).includes('half'));

    const j3 = await openJournal();
    assert.equal(j3.stats.loaded.truncatedBytes, 0);
    assert.deepEqual([...j3.collection('c').keys()], ['a', 'b', 'after']);
    assert.equal(j3.get('c', 'after'), 'survives');
  });

  it('drops a multi-record commit as a whole when its line is torn', async () => {
    const j = await openJournal();
    await j.commit([{ c: 'c', k: 'base', v: 0 }]);
    await j.commit([
      { c: 'c', k: 'x', v: 'x'.repeat(100) },
      { c: 'c', k: 'y', v: 'y' },
    ]);
    await j.close();
    const log = join(dir, LOG1);
    await truncate(log, (await readFile(log)).length - 5);
    const j2 = await openJournal();
    assert.deepEqual([...j2.collection('c').keys()], ['base']);
    assert.equal(j2.stats.seq, 1);
  });

  it('reports an invalid line in the middle as corruption with file and line number', async () => {
    const j = await openJournal();
    for (const k of ['a', 'b', 'c']) await j.commit([{ c: 'c', k, v: k }]);
    await j.close();
    const log = join(dir, LOG1);
    const lines = (await readFile(log, 'utf8')).split('\n');
    lines[1] = '{"s":2,"c":"c","k":"b","v":"b"'; // damaged, but not the last line
    await writeFile(log, lines.join('\n'));
    await assert.rejects(Journal.open({ dir }), (err: unknown) => {
      assert.ok(err instanceof JournalCorruptionError);
      assert.equal(err.line, 2);
      assert.equal(err.file, log);
      assert.match(err.message, /log\.00000001\.jsonl line 2/);
      return true;
    });
  });

  it('reports a gap in sequence numbers (a lost log) as corruption', async () => {
    await writeFile(join(dir, LOG1), '{"s":1,"c":"c","k":"a","v":1}\n{"s":3,"c":"c","k":"b","v":1}\n{"s":4,"c":"c","k":"d","v":1}\n');
    await assert.rejects(Journal.open({ dir }), /line 2: expected seq 2, found 3/);
  });

  it('compacts into snapshot.json, starts a fresh log, and reloads from the snapshot', async () => {
    const j = await openJournal();
    for (let i = 0; i < 50; i++) await j.commit([{ c: 'n', k: `k${i}`, v: { i } }]);
    await j.commit([{ c: 'n', k: 'k7' }]);
    await j.compact();
    assert.deepEqual(await logFiles(dir), ['log.00000002.jsonl']);
    assert.equal(j.stats.logRecords, 0);
    await j.commit([{ c: 'n', k: 'post', v: true }]);
    await j.close();
    const snapshot = (await readFile(join(dir, 'snapshot.json'), 'utf8')).split('\n');
    // One entry per line between a header and an end line: never one string for the whole state.
    assert.deepEqual(JSON.parse(snapshot[0]), { seq: 51, format: 2 });
    assert.deepEqual(JSON.parse(snapshot[1]), ['n', 'k0', { i: 0 }]);
    assert.deepEqual(JSON.parse(snapshot.at(-2)!), { end: 49 });

    const j2 = await openJournal();
    assert.deepEqual(j2.stats.loaded, { snapshotSeq: 51, replayed: 1, truncatedBytes: 0 });
    assert.equal(j2.collection('n').size, 50);
    assert.equal(j2.get('n', 'k7'), undefined);
    assert.deepEqual(j2.get('n', 'k49'), { i: 49 });
  });

  it('refuses a snapshot cut short or with a broken entry line, naming the line, instead of starting with less', async () => {
    const j = await openJournal();
    for (let i = 0; i < 3; i++) await j.commit([{ c: 'n', k: `k${i}`, v: i }]);
    await j.compact();
    await j.close();
    const lines = (await readFile(join(dir, 'snapshot.json'), 'utf8')).split('\n');
    await writeFile(join(dir, 'snapshot.json'), lines.slice(0, 3).join('\n') + '\n');
    await assert.rejects(openJournal(), /snapshot\.json line 3: snapshot is cut short/);
    await writeFile(join(dir, 'snapshot.json'), [lines[0], lines[1], '{"n"', ...lines.slice(3)].join('\n'));
    await assert.rejects(openJournal(), /snapshot\.json line 3: snapshot is not valid JSON/);
    await writeFile(join(dir, 'snapshot.json'), [lines[0], lines[1], '["n"]', ...lines.slice(3)].join('\n'));
    await assert.rejects(openJournal(), /snapshot\.json line 3: snapshot line is not an entry/);
  });

  it('replays idempotently when a crash left the old log next to the new snapshot', async () => {
    const j = await openJournal();
    await j.commit([{ c: 'c', k: 'a', v: 1 }]);
    await j.commit([{ c: 'c', k: 'gone', v: 1 }]);
    await j.commit([{ c: 'c', k: 'gone' }]);
    await j.commit([{ c: 'c', k: 'a', v: 2 }]);
    await copyFile(join(dir, LOG1), join(dir, 'old-log'));
    await j.compact();
    await j.commit([{ c: 'c', k: 'b', v: 3 }]);
    await j.close();
    // "Crash" after the snapshot rename but before the old log was removed.
    await copyFile(join(dir, 'old-log'), join(dir, LOG1));

    const j2 = await openJournal();
    assert.deepEqual(j2.stats.loaded, { snapshotSeq: 4, replayed: 1, truncatedBytes: 0 });
    assert.deepEqual(Object.fromEntries(j2.collection('c')), { a: 2, b: 3 });
    assert.deepEqual(await logFiles(dir), ['log.00000003.jsonl'], 'leftover logs are folded into a snapshot on open');
    await j2.close();
    const j3 = await openJournal();
    assert.deepEqual(Object.fromEntries(j3.collection('c')), { a: 2, b: 3 });
  });

  it('skips records already in the snapshot when one log holds both (crash before the log reset)', async () => {
    await writeFile(join(dir, 'snapshot.json'), JSON.stringify({ seq: 3, collections: { c: { a: 'snap' } } }));
    const lines = [
      { s: 1, c: 'c', k: 'a', v: 'old' },
      { s: 2, c: 'c', k: 'x', v: 'deleted later' },
      { s: 3, c: 'c', k: 'x' },
      { s: 4, c: 'c', k: 'b', v: 'new' },
      { s: 5, c: 'c', k: 'a' },
    ];
    await writeFile(join(dir, LOG1), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const j = await openJournal();
    assert.deepEqual(Object.fromEntries(j.collection('c')), { b: 'new' });
    assert.deepEqual(j.stats.loaded, { snapshotSeq: 3, replayed: 2, truncatedBytes: 0 });
  });

  it('compacts automatically past the thresholds and loses nothing', async () => {
    const j = await openJournal({ compactAfterRecords: 40, compactAfterBytes: 1 << 30 });
    for (let wave = 0; wave < 10; wave++) {
      // Waves of concurrent commits, so compactions overlap with later commits.
      await Promise.all(Array.from({ length: 30 }, (_, n) => wave * 30 + n).map((i) => j.commit([{ c: 'c', k: `k${i % 70}`, v: i }])));
    }
    await j.close();
    assert.ok(j.stats.compactions >= 1, `compactions: ${j.stats.compactions}`);
    const j2 = await openJournal();
    assert.equal(j2.collection('c').size, 70);
    assert.equal(j2.get('c', 'k19'), 299);
    assert.equal(j2.get('c', 'k69'), 279);
    assert.equal(j2.stats.seq, 300);
  });

  it('group-commits concurrent commits into few write+fdatasync rounds', async () => {
    const j = await openJournal();
    const n = 500;
    let t = performance.now();
    for (let i = 0; i < n; i++) await j.commit([{ c: 's', k: `k${i}`, v: i }]);
    const sequentialMs = performance.now() - t;
    assert.equal(j.stats.flushes, n);

    t = performance.now();
    await Promise.all(Array.from({ length: n }, (_, i) => j.commit([{ c: 'g', k: `k${i}`, v: i }])));
    const groupedMs = performance.now() - t;
    const groupedFlushes = j.stats.flushes - n;
    assert.ok(groupedFlushes <= 3, `grouped flushes: ${groupedFlushes}`);
    assert.equal(j.collection('g').size, n);
    console.log(
      `      ${n} sequential commits: ${sequentialMs.toFixed(0)} ms (${n} fdatasyncs); ` +
        `${n} concurrent: ${groupedMs.toFixed(0)} ms (${groupedFlushes} fdatasyncs)`,
    );
  });

  it('rejects a commit whose durable write fails, leaves memory unchanged, and carries on', async () => {
    const j = await openJournal();
    await j.commit([{ c: 'c', k: 'a', v: 1 }]);
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const original = proto.write;
    // Fail once (the append: an O_DSYNC write, or a write then fdatasync); the repair (truncate + fdatasync) then succeeds.
    proto.write = function (this: unknown) {
      proto.write = original;
      return Promise.reject(Object.assign(new Error('EIO: simulated'), { code: 'EIO' }));
    };
    try {
      await assert.rejects(
        j.commit([
          { c: 'c', k: 'a', v: 2 },
          { c: 'c', k: 'b', v: 2 },
        ]),
        /simulated/,
      );
    } finally {
      proto.write = original;
    }
    assert.equal(j.get('c', 'a'), 1);
    assert.equal(j.get('c', 'b'), undefined);
    assert.equal(j.stats.seq, 1);
    await j.commit([{ c: 'c', k: 'c', v: 3 }]);
    await j.close();
    const j2 = await openJournal();
    assert.deepEqual(Object.fromEntries(j2.collection('c')), { a: 1, c: 3 });
  });

  it('rejects commits once its log cannot be written or repaired, memory unchanged', async () => {
    const j = await openJournal();
    await j.commit([{ c: 'c', k: 'a', v: 1 }]);
    await (j as unknown as { log: { close(): Promise<void> } }).log.close();
    await assert.rejects(j.commit([{ c: 'c', k: 'a', v: 2 }]), /closed|EBADF/);
    assert.equal(j.get('c', 'a'), 1);
    await assert.rejects(j.commit([{ c: 'c', k: 'b', v: 2 }]), /unusable/);
    assert.equal(j.collection('c').size, 1);
    await j.close();
    const j2 = await openJournal();
    assert.deepEqual(Object.fromEntries(j2.collection('c')), { a: 1 });
  });

  it('flushes pending commits on close and refuses later ones', async () => {
    const j = await openJournal();
    const pending = [j.commit([{ c: 'c', k: 'a', v: 1 }]), j.commit([{ c: 'c', k: 'b', v: 2 }])];
    await j.close();
    await Promise.all(pending);
    await assert.rejects(j.commit([{ c: 'c', k: 'x', v: 1 }]), /closed/);
    await assert.rejects(j.compact(), /closed/);
    const j2 = await openJournal();
    assert.equal(j2.collection('c').size, 2);
  });
});
