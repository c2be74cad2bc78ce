import assert from 'node:assert/strict';
import { existingLookup, existingQuestionIds, exportQaRows, importItems, runQaImport } from '../../../src/api/qaImport';
import type { ApiClient } from '../../../src/api/client';
import { faqStatus } from '../../../src/api/values';
import { dryRunQaFile } from '../../../src/core/qaFile/dryRun';
import { qaCsv } from '../../../src/core/qaFile/exportCsv';
import { useTempDir } from '../core/qaFile/helpers';
import { startTestService, type TestService } from '../support/localService';

/** What the import command does before asking anything: the existing questions, then the dry run with their details. */
async function dryRun(client: ApiClient, file: string) {
  const ids = await existingQuestionIds(client);
  return dryRunQaFile(file, 'qa.csv', { existingQuestions: new Set(ids.keys()), lookup: existingLookup(client, ids) });
}

describe('Q&A import through the API (local service): a re-import changes only what the file says', () => {
  let t: TestService;
  let client: ApiClient;
  const tmp = useTempDir();
  before(async () => {
    t = await startTestService({ fsync: false });
    client = t.client();
  });
  after(() => t.stop());

  const QUESTION = 'How do I configure the network on Debian?';
  /** The Q&A of issue 22. */
  async function registerDebian(): Promise<string> {
    const { id } = await client.faq.register({
      question: QUESTION,
      answer: 'Edit /etc/network/interfaces.',
      status: 'on',
      similarQuestions: ['Debian network setup', 'Configure eth0 on Debian'],
      hashtags: ['debian', 'network'],
      folder: 'Linux',
    });
    return id;
  }

  it('issue 22: a changed answer with an empty similar-questions cell and "debian;network" keeps the similar questions and both hashtags', async () => {
    const id = await registerDebian();
    const file = await tmp.file(
      'issue22.csv',
      `question,answer,similar_questions,hashtags\n"${QUESTION}",Use NetworkManager.,,debian;network\n`,
    );
    const dry = await dryRun(client, file);
    assert.deepEqual([dry.summary.willCreate, dry.summary.willUpdate, dry.summary.unchanged, dry.summary.removals], [0, 1, 0, 1]);
    const problem = dry.problems.find((p) => p.code === 'removes')!;
    assert.equal(
      problem.message,
      'Removes from the existing Q&A (asked before importing): similar questions 2 → 0. Also updates: answer changed.',
      'the hashtags are the same two tags, the similar questions would go',
    );
    const outcome = await runQaImport(client, importItems(dry.plan!, 'keep'), { concurrency: 4 });
    assert.deepEqual([outcome.updated, outcome.created, outcome.failed.length], [1, 0, 0]);
    const after = await client.faq.get(id, { format: 'html' });
    assert.equal(after.answer, 'Use NetworkManager.');
    assert.deepEqual(after.similar_questions, ['Debian network setup', 'Configure eth0 on Debian']);
    assert.deepEqual(after.hashtags, ['debian', 'network']);
    assert.equal(after.folder, 'Linux', 'the file has no folder column');
    await client.faq.delete(id);
  });

  it('"Remove them" applies the file as it is; the dry run shows hashtags #debian #network → #debian #apt', async () => {
    const id = await registerDebian();
    const file = await tmp.file(
      'remove.csv',
      `question,answer,similar_questions,hashtags\n"${QUESTION}",Use NetworkManager.,,debian;apt\n`,
    );
    const dry = await dryRun(client, file);
    assert.match(
      dry.problems.find((p) => p.code === 'removes')!.message,
      /similar questions 2 → 0; hashtags #debian #network → #debian #apt\./,
    );
    const keep = importItems(dry.plan!, 'keep');
    assert.deepEqual(keep[0], {
      op: 'update',
      row: dry.plan!.update[0].row,
      id,
      fields: { answer: 'Use NetworkManager.', hashtags: ['debian', 'network', 'apt'] },
    });
    await runQaImport(client, importItems(dry.plan!, 'remove'), { concurrency: 4 });
    const after = await client.faq.get(id, { format: 'html' });
    assert.deepEqual(after.similar_questions, []);
    assert.deepEqual(after.hashtags, ['debian', 'apt']);
    await client.faq.delete(id);
  });

  it('a file with only question and answer columns changes answers only: status off, folder, similar questions and hashtags stay', async () => {
    const id = await registerDebian();
    await client.faq.update({ id, status: 'off' });
    const file = await tmp.file('two-columns.csv', `question,answer\n"${QUESTION}",New answer\n`);
    const dry = await dryRun(client, file);
    assert.equal(dry.summary.removals, 0);
    await runQaImport(client, importItems(dry.plan!, 'remove'), { concurrency: 4 });
    const after = await client.faq.get(id, { format: 'html' });
    assert.equal(after.answer, 'New answer');
    assert.deepEqual(
      [faqStatus(after), after.folder, after.similar_questions.length, after.hashtags],
      ['off', 'Linux', 2, ['debian', 'network']],
    );
    await client.faq.delete(id);
  });

  it('round trip: 1,000 Q&As written by Export Q&As and imported unchanged change nothing (Japanese, HTML answers, | in similar questions)', async function () {
    this.timeout(120_000);
    const bodies = Array.from({ length: 1000 }, (_, i) => ({
      question: i % 2 ? `経費精算の締め日はいつですか？ (${i})` : `How do I book room ${i}, "the big one"?`,
      answer:
        i % 3
          ? `<p>申請は<b>月末</b>までに、<a href="https://example.com/${i}">ポータル</a>から。</p>\n<ul><li>A, B</li><li>"C"</li></ul>`
          : `Plain answer ${i}\nsecond line, with a comma`,
      status: (i % 4 === 0 ? 'off' : 'on') as 'on' | 'off',
      similarQuestions:
        i % 5 === 0 ? [`A | B の違いは？ ${i}`] : i % 5 === 1 ? [`yes|no ${i}`, `left | right ${i}`, `普通の質問 ${i}`] : [],
      hashtags: i % 3 === 0 ? [] : ['経費', `tag${i % 7}`],
      ...(i % 2 ? { folder: i % 4 === 1 ? '経理/請求' : 'General, misc' } : {}),
    }));
    const ids: string[] = [];
    for (let k = 0; k < bodies.length; k += 50)
      ids.push(...(await Promise.all(bodies.slice(k, k + 50).map((b) => client.faq.register(b)))).map((r) => r.id));
    try {
      const rows = await exportQaRows(client);
      assert.equal(rows.length, 1000);
      const file = await tmp.file('export.csv', Buffer.from(qaCsv(rows), 'utf8'));
      const dry = await dryRun(client, file);
      assert.deepEqual(dry.problems, []);
      assert.deepEqual(
        [dry.summary.valid, dry.summary.willCreate, dry.summary.willUpdate, dry.summary.unchanged, dry.summary.removals],
        [1000, 0, 0, 1000, 0],
      );
      assert.deepEqual(importItems(dry.plan!, 'remove'), [], 'nothing to send, whatever the choice');
      const outcome = await runQaImport(client, importItems(dry.plan!, 'remove'), { concurrency: 4 });
      assert.deepEqual([outcome.total, outcome.updated, outcome.created], [0, 0, 0]);
    } finally {
      for (let k = 0; k < ids.length; k += 50) await Promise.all(ids.slice(k, k + 50).map((id) => client.faq.delete(id)));
    }
  });
});
