// A data folder holding 130,000 Q&As starts again. A person got there with one 1.2 MB CSV through
// upload_faq_file (answered 200); starting again indexed the loaded Q&As with push(...ids), which overflowed
// the call stack, so the folder could never start. The journal is written here through the store directly
// (the records an upload commits, in one commit), which takes seconds instead of the upload's minute.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { newFaqRecord } from '../../../src/local/faq/faqWrites';
import { startLocalService, type LocalService } from '../../../src/local/service';
import { FAQS } from '../../../src/local/store/collections';
import { Journal, type JournalRecord } from '../../../src/local/store/journal';

const N = 130_000;
const question = (i: number) => `q${i} w${i % 997}`;

describe(`Local service: a data folder with ${N.toLocaleString('en-US')} Q&As starts again`, function () {
  this.timeout(120_000);
  let dir: string;
  let service: LocalService | undefined;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-faq-restart-'));
    const journal = await Journal.open({ dir: path.join(dir, 'db'), fsync: false });
    const now = Date.now();
    const records: JournalRecord[] = [];
    for (let i = 0; i < N; i++) {
      const record = newFaqRecord({ question: question(i), answer: `a${i}`, status: 'on' }, undefined, now, i + 1);
      records.push({ c: FAQS, k: record.id, v: record });
    }
    await journal.commit(records);
    await journal.close();
  });
  after(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the service starts on the folder and finds the first and the last Q&A through the client', async () => {
    service = await startLocalService({ dataDir: dir, fsync: false });
    const client = new ApiClient({ baseUrl: service.url, apiKey: service.apiKey });
    for (const i of [0, N - 1]) {
      const found = await client.faq.search({ query: question(i), autoRegisterCandidates: false });
      assert.deepEqual([found.result[0]?.question, found.result[0]?.confidence], [question(i), 1]);
    }
  });
});
