// Synonyms and spelling variants in document retrieval (docs/local-service.md#synonyms-and-spelling-variants),
// through the client against the real local service: a page that says what the question asks in other words
// ranks above a page that merely repeats the question's other words. Each case needs its dictionary.
import assert from 'node:assert/strict';
import { synonyms } from '../../../src/local/search/wordnet';
import { japaneseRelated } from '../../../src/local/search/japaneseSynonyms';
import { startTestService, type TestService } from '../support/localService';

/** Pages of a plain-text document, split by form feeds; each case's answer page comes second. */
const ENGLISH = ['Releases are named after an animated release banner.', 'Releases are named after characters of an animated movie.'].join(
  '\n\f',
);
const JAPANESE = [
  '会議を別の日にするときは、議事録に書きます。',
  '長いあいだ不在にするときは、前もってメーリングリストで仲間に知らせ、戻る日も書いておきます。',
  '鍵の保管について。鍵は鍵の保管庫に入れ、鍵の保管の記録を残します。',
  '鍵の取扱いについて。貸し出した鍵は返却を確かめます。',
].join('\n\f');

describe('Synonyms and spelling variants in retrieval (client against the local service)', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
    await t.client().kbNodes.upload({ file: { data: ENGLISH, contentType: 'text/plain' }, fileName: 'releases.txt' });
    await t.client().kbNodes.upload({ file: { data: JAPANESE, contentType: 'text/plain' }, fileName: 'handbook.ja.txt' });
    await t.service.processingIdle();
  });
  after(() => t.stop());

  const firstPage = async (question: string): Promise<string> => {
    const [hit] = await t.client().answers.retrieve({ question, maxDocumentClues: 3 });
    return `${hit?.title} p${hit?.pageNo}`;
  };

  it('finds the page that says "movie" for a question about a "film" (WordNet synonyms)', async () => {
    assert.ok(synonyms('film').includes('movie'));
    assert.equal(await firstPage('Why are releases named after an animated film?'), 'releases.txt p2');
  });

  it('finds 不在 for 留守 (Sudachi synonyms) and 取扱い for 取り扱い (a spelling variant)', async () => {
    assert.deepEqual(japaneseRelated('取り扱い').variants, ['取扱い']);
    assert.equal(await firstPage('留守にするときは?'), 'handbook.ja.txt p2');
    assert.equal(await firstPage('鍵の取り扱い'), 'handbook.ja.txt p4');
  });
});
