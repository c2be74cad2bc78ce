import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nluHandlers } from '../../../src/local/handlers/nluHandlers';
import type { RequestContext } from '../../../src/local/http/context';
import { NluError, nluErrorBody } from '../../../src/local/http/errors';
import { PhraseBook } from '../../../src/local/nlu/phraseBook';
import { Journal } from '../../../src/local/store/journal';

const entity = (text: string, token: string, tag: string) => ({
  startIndex: text.indexOf(token),
  endIndex: text.indexOf(token) + token.length,
  tag,
  token,
});

describe('Entity recognition: phrase book and handlers', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-nlu-book-'));
    journal = await Journal.open({ dir, fsync: false });
  });
  afterEach(async () => {
    await journal.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps train and test phrases apart and reloads them in teaching order (the latest tag wins)', async () => {
    const book = new PhraseBook(journal);
    const a = 'Orion is our product.';
    const b = 'Orion is a person here.';
    await book.add('train', a, [entity(a, 'Orion', 'PRODUCT')]);
    await book.add('train', b, [entity(b, 'Orion', 'PERSON')]);
    await book.add('test', 'Lyra visits Kyoto.', [entity('Lyra visits Kyoto.', 'Lyra', 'PERSON')]);
    assert.deepEqual([...book.phrases('train')].length, 2);
    assert.deepEqual([...book.phrases('test')].length, 1);
    assert.equal(
      book
        .infer('Orion and Lyra')
        .entities.map((e) => e.tag)
        .join(),
      'PERSON',
    );
    await journal.compact(); // the snapshot's map order must not matter
    await journal.close();
    journal = await Journal.open({ dir, fsync: false });
    const reloaded = new PhraseBook(journal);
    assert.deepEqual(
      reloaded.infer('Orion').entities.map((e) => e.tag),
      ['PERSON'],
    );
    assert.deepEqual(reloaded.tags(), ['PERSON', 'ORGANIZATION', 'LOCATION', 'DATE', 'EMAIL', 'PHONE', 'URL', 'MONEY']);
    assert.equal(reloaded.taughtEntries, 1);
    // Teaching order continues after the reload.
    await reloaded.add('train', a, [entity(a, 'Orion', 'PRODUCT')]);
    assert.deepEqual(reloaded.tags().at(-1), 'PRODUCT');
  });

  it('scores the recognizer on the test phrases (exact span and tag)', async () => {
    const book = new PhraseBook(journal);
    const t1 = 'Mail ops@example.com from Tokyo.';
    const t2 = 'Vega Systems meets Mr. Brown.';
    await book.add('test', t1, [entity(t1, 'ops@example.com', 'EMAIL'), entity(t1, 'Tokyo', 'LOCATION')]);
    await book.add('test', t2, [entity(t2, 'Vega Systems', 'ORGANIZATION'), entity(t2, 'Brown', 'PERSON')]);
    const before = book.evaluate();
    assert.deepEqual(
      { ...before, precision: +before.precision.toFixed(2), recall: +before.recall.toFixed(2), f1: +before.f1.toFixed(2) },
      { phrases: 2, expected: 4, found: 3, correct: 3, precision: 1, recall: 0.75, f1: 0.86 },
    );
    await book.add('train', 'Vega Systems', [{ startIndex: 0, endIndex: 12, tag: 'ORGANIZATION', token: 'Vega Systems' }]);
    assert.equal(book.evaluate().recall, 1);
  });

  it('answers an unexpected failure with 500/7000 in the entity-recognition shape, and logs it', async () => {
    const logged: string[] = [];
    const handlers = nluHandlers({
      book: new PhraseBook(journal),
      logger: { debug() {}, info() {}, warn() {}, error: (m) => logged.push(m) },
    });
    await journal.close(); // every commit now fails
    const ctx = {
      params: { data_type: 'train' },
      body: async () => ({ text: 'Sirius', entities: [{ startIndex: 0, endIndex: 6, tag: 'STAR' }] }),
    } as unknown as RequestContext;
    const error = await handlers['nlu.addPhrase']!(ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof NluError);
    assert.equal(error.status, 500);
    assert.deepEqual(nluErrorBody(error), { type: 'APIError', code: 7000, message: 'Something went wrong' });
    assert.match(logged.join('\n'), /nlu\.addPhrase: Error: Journal is closed/);
    // Invalid parameters stay 400/7003 (not hidden behind 7000).
    const empty = await handlers['nlu.infer']!({ body: async () => ({ text: ' ' }) } as unknown as RequestContext).catch((e: unknown) => e);
    assert.deepEqual(nluErrorBody(empty as NluError), {
      type: 'APIError',
      code: 7003,
      message: "Requested parameters are not valid. 'text' is empty.",
    });
  });
});
