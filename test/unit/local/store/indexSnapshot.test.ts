// The search indexes persist across restarts (issue 26, docs/local-service.md#search-index-snapshot): a restart
// loads the snapshot instead of rebuilding (seen in /_local/info's counts, not in timings); changes made after
// the snapshot are found; a snapshot that is corrupt, cut short, of another version, or ahead of a journal a
// crash cut short is ignored, and the rebuilt indexes give the same results. A real local service on 127.0.0.1.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { ApiClient } from '../../../../src/api/client';
import { INDEX_SNAPSHOT_FILE } from '../../../../src/local/search/indexPersistence';
import { startLocalService, type LocalService } from '../../../../src/local/service';

const QUERIES = ['How do I reset my VPN password?', 'paid leave request', '経費精算の締め日', 'printer toner', 'zephyr form', 'kestrel'];

describe('Local service: the search indexes persist across restarts', function () {
  this.timeout(30_000);
  let dir: string;
  let service: LocalService | undefined;
  const snapshotFile = () => path.join(dir, 'db', INDEX_SNAPSHOT_FILE);
  const client = () => new ApiClient({ baseUrl: service!.url, apiKey: service!.apiKey });

  const start = async (): Promise<void> => {
    service = await startLocalService({ dataDir: dir, fsync: false, indexSnapshotSettleMs: 20 });
  };
  const restart = async (before?: () => Promise<void>): Promise<Record<string, number>> => {
    await service?.close();
    await before?.();
    await start();
    for (let ready = 0; ready !== 1;) ready = (await counts())['retrieval.ready'];
    return counts();
  };
  const counts = async (): Promise<Record<string, number>> => {
    const res = await request(`${service!.url}/_local/info`, { headers: { 'API-KEY': service!.apiKey } });
    return ((await res.body.json()) as { counts: Record<string, number> }).counts;
  };
  /** What searches find: Q&As with their confidence, and document passages in rank order. */
  const results = async (): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const query of QUERIES) {
      const qas = await client().faq.search({ query, autoRegisterCandidates: false });
      out.push(qas.result.map((r) => [r.question, r.confidence]));
      const docs = await client().answers.retrieve({ question: query, maxDocumentClues: 5 });
      out.push(docs.map((d) => [d.kb_id, d.pageNo, d.ranking, d.text]));
    }
    return out;
  };
  const register = (question: string, similarQuestions: string[] = []) =>
    client().faq.register({ question, answer: `About: ${question}`, similarQuestions, status: 'on' });
  const upload = async (fileName: string, data: string) =>
    (await client().kbNodes.upload({ file: { data, contentType: 'text/plain' }, fileName }))[0];

  let reference: unknown[];

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-index-snapshot-'));
    await start();
    await upload(
      'zephyr.txt',
      'The Zephyr expense form is due on the fifth business day of each month.\n\nPrinter toner is ordered online.',
    );
    await upload('kestrel.txt', 'Kestrel travel requests need approval two weeks ahead. 経費精算の締め日は毎月二十五日です。');
    await register('How do I reset my VPN password?', ['VPN password forgotten']);
    await register('How do I request paid leave?');
    await register('経費精算の締め日はいつですか');
    await register('Where do I order printer toner?', ['toner for the printer']);
    await service!.processingIdle();
    reference = await results();
    assert.ok(JSON.stringify(reference).includes('VPN'), 'the searches find something to compare');
  });
  after(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a snapshot once changes settle, and a restart loads it instead of rebuilding, with the same results', async () => {
    while ((await counts())['index.snapshotWrites'] < 1);
    const c = await restart();
    assert.deepEqual(
      [c['index.snapshotLoaded'], c['index.reindexedQas'], c['index.reindexedDocuments'], c['retrieval.documents']],
      [1, 0, 0, 2],
    );
    assert.deepEqual(await results(), reference);
  });

  it('answers /_local/info before the snapshot is read; searches wait for it and find the same', async () => {
    await service!.close();
    let read!: () => void;
    const readAfter = new Promise<void>((resolve) => (read = resolve));
    service = await startLocalService({ dataDir: dir, fsync: false, indexSnapshotSettleMs: 20, indexSnapshotReadAfter: readAfter });
    const early = await counts();
    assert.deepEqual([early['index.snapshotSettled'], early['retrieval.ready']], [0, 0]);
    const searched = results(); // waits for the snapshot, as for a rebuild
    read();
    assert.deepEqual(await searched, reference);
    const c = await counts();
    assert.deepEqual([c['index.snapshotSettled'], c['index.snapshotLoaded'], c['index.reindexedQas']], [1, 1, 0]);
  });

  it('finds what changed after the snapshot (written, updated, deleted), indexing only that', async () => {
    await service!.close();
    const older = `${snapshotFile()}.older`;
    await copyFile(snapshotFile(), older);
    await start();
    const added = await register('How do I book a meeting room?');
    const leave = (await client().faq.search({ query: 'How do I request paid leave?', autoRegisterCandidates: false })).result[0];
    await client().faq.update({ id: leave.id, question: 'How do I request parental leave?' });
    const toner = (await client().faq.search({ query: 'Where do I order printer toner?', autoRegisterCandidates: false })).result[0];
    await client().faq.delete(toner.id);
    const osprey = await upload('osprey.txt', 'Osprey badges are printed at the front desk.');
    await service!.processingIdle();
    const expected = await results();
    // The process "crashed" before writing a newer snapshot: the older one is all there is.
    const c = await restart(() => copyFile(older, snapshotFile()));
    assert.deepEqual([c['index.snapshotLoaded'], c['index.reindexedQas'], c['index.reindexedDocuments']], [1, 2, 1]);
    assert.deepEqual(await results(), expected);
    const find = async (query: string) => (await client().faq.search({ query, autoRegisterCandidates: false })).result[0];
    assert.deepEqual([(await find('How do I book a meeting room?'))?.id, (await find('parental leave'))?.id], [added.id, leave.id]);
    assert.notEqual((await find('Where do I order printer toner?'))?.id, toner.id, 'the deleted Q&A is not found');
    const osprey2 = await client().answers.retrieve({ question: 'osprey badges', maxDocumentClues: 1 });
    assert.equal(osprey2[0]?.kb_id, osprey.id);
    reference = expected;
  });

  for (const [name, damage] of [
    [
      'corrupt (one byte changed)',
      async (file: string) => {
        const buf = await readFile(file);
        buf[Math.floor(buf.length * 0.7)] ^= 0x55;
        await writeFile(file, buf);
      },
    ],
    ['cut short', async (file: string) => truncate(file, Math.floor((await stat(file)).size / 2))],
    [
      'of another version',
      async (file: string) => {
        const buf = await readFile(file);
        buf.writeUInt32LE(buf.readUInt32LE(4) + 1, 4);
        await writeFile(file, buf);
      },
    ],
    ['not a snapshot at all', (file: string) => writeFile(file, 'hello')],
  ] as const) {
    it(`ignores a snapshot that is ${name}: the indexes are rebuilt and give the same results`, async () => {
      const c = await restart(() => damage(snapshotFile()));
      assert.deepEqual([c['index.snapshotLoaded'], c['index.reindexedQas'], c['index.reindexedDocuments']], [0, 4, 3]);
      assert.deepEqual(await results(), reference);
    });
  }

  it('stays consistent when a crash cut the journal short after the snapshot was written', async () => {
    const log = path.join(dir, 'db', 'log.00000001.jsonl');
    const size = (await stat(log)).size;
    await register('How do I renew my badge?');
    // Closing writes the snapshot, which holds the new Q&A; then the last commit is lost, as a crash before its
    // fdatasync would lose it (here the journal acknowledged it: only a disk failing that promise gets there).
    const c = await restart(() => truncate(log, size));
    assert.deepEqual([c['index.snapshotLoaded'], c['index.reindexedQas']], [0, 4]);
    const found = (await client().faq.search({ query: 'How do I renew my badge?', autoRegisterCandidates: false })).result;
    assert.ok(!found.some((r) => r.question === 'How do I renew my badge?'), 'the lost Q&A is not found');
    assert.deepEqual(await results(), reference);
  });

  it('keeps using the snapshot when a Q&A has no word at all (only symbols), and still finds it by its question', async () => {
    const symbols = await register('？！？');
    const c = await restart(); // closing wrote the snapshot, holding that Q&A
    assert.deepEqual([c['index.snapshotLoaded'], c['index.reindexedQas']], [1, 1]);
    const found = (await client().faq.search({ query: '？！？', autoRegisterCandidates: false })).result;
    assert.equal(found[0]?.id, symbols.id);
  });
});
