// A question's function words (queryExpansion.ts): particles and okurigana pieces of a Japanese question, and
// the stopwords, weigh little and are not counted as matched words, so a passage sharing only them does not
// outrank the one sharing the question's content word.
import assert from 'node:assert/strict';
import type { Extraction } from '../../../../src/local/extract/types';
import { expandQuery, isFunctionWord } from '../../../../src/local/search/queryExpansion';
import { RetrievalIndex } from '../../../../src/local/search/retrievalIndex';

const W = { bm25: 9, text: 0, title: 0 };
const doc = (text: string): Extraction => ({ kind: 'text', pages: [{ pageNo: 1, text }] });

describe("A question's function words", () => {
  it('are the stopwords and hiragana tokens of one or two characters', () => {
    for (const t of ['に', 'は', 'ば', 'とき', 'どう', 'the']) assert.ok(isFunctionWord(t), t);
    for (const t of ['留守', 'しばらく', 'パッケージ', '不在', 'vacation']) assert.ok(!isFunctionWord(t), t);
  });

  it('weigh less than content words and do not count as matched; the content words and their synonyms do', () => {
    const q = expandQuery('留守にするときは');
    const at = (t: string) => q.terms.indexOf(t);
    for (const t of ['に', 'は', 'とき']) {
      assert.ok(at(t) >= 0, t);
      assert.ok(q.weights[at(t)] < 0.5, `${t} weighs little`);
      assert.equal(q.counted[at(t)], false, `${t} is not counted`);
    }
    assert.equal(q.weights[at('留守')], 1);
    assert.equal(q.counted[at('留守')], true);
    assert.ok(at('不在') >= 0, 'the Sudachi synonym is added');
    assert.equal(q.counted[at('不在')], true, 'and counts for 留守');
  });

  it('a question of function words only keeps them all, at full weight', () => {
    const q = expandQuery('それは何?');
    assert.ok(q.terms.length > 0);
    assert.ok(q.weights.every((w) => w === 1));
    assert.ok(q.counted.every((c) => c));
  });

  it('a passage with the content word (or its synonym) outranks one sharing only the particles', () => {
    const index = new RetrievalIndex();
    const docs: Record<string, string> = {
      absent: '休暇で不在の開発者。',
      particles: 'ここにはそのときにすることを書いておけばよい。',
    };
    // Every Japanese passage holds particles: common, as in any real document.
    for (let i = 0; i < 8; i++) docs[`chapter${i}`] = `第${i}章は手順${i}について、するときに読まれればよい。`;
    for (const [id, text] of Object.entries(docs)) index.add(id, `hash-${id}`, id, doc(text));
    const top = index.search('しばらく留守にするときは誰にどう知らせればいい?', W, () => true, 1)[0]?.passage.nodeId;
    assert.equal(top, 'absent');
  });
});
