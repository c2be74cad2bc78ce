import assert from 'node:assert/strict';
import { FaqIndex, type IndexedFaq } from '../../../../src/local/faq/faqIndex';
import { tokenSet } from '../../../../src/local/search/tokenizer';

/** The scoring of docs/api.md#search-qa computed the slow way: every text, no pruning. */
function bruteForce(faqs: Iterable<IndexedFaq>, query: string, min: number): Map<string, number> {
  const texts: Array<{ faqId: string; tokens: Set<string> }> = [];
  for (const f of faqs) {
    for (const text of [f.question, ...f.similarQuestions]) {
      const tokens = new Set(tokenSet(text));
      if (tokens.size) texts.push({ faqId: f.id, tokens });
    }
  }
  const df = new Map<string, number>();
  for (const t of texts) for (const token of t.tokens) df.set(token, (df.get(token) ?? 0) + 1);
  const w2 = (token: string) => Math.log(1 + (texts.length + 1) / ((df.get(token) ?? 0) + 1)) ** 2;
  const q = new Set(tokenSet(query));
  let qNorm2 = 0;
  for (const token of q) qNorm2 += w2(token);
  const best = new Map<string, number>();
  for (const t of texts) {
    let dot = 0;
    let dNorm2 = 0;
    for (const token of t.tokens) {
      dNorm2 += w2(token);
      if (q.has(token)) dot += w2(token);
    }
    const cos = dot / Math.sqrt(qNorm2 * dNorm2);
    if (cos >= min && cos > (best.get(t.faqId) ?? -1)) best.set(t.faqId, cos);
  }
  return best;
}

describe('Q&A search index', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  // Zipf-like vocabulary: a few words in most texts ("how", "the"), many rare ones.
  const vocab = Array.from({ length: 400 }, (_, i) => `w${i}`);
  const word = () => vocab[Math.floor(vocab.length * rnd() ** 3)];
  const sentence = (n = 1 + Math.floor(rnd() * 10)) => Array.from({ length: n }, word).join(' ');

  it('finds exactly what brute-force cosine finds, through puts, updates, removals and compaction', () => {
    const faqs = new Map<string, IndexedFaq>();
    const index = new FaqIndex((id) => faqs.get(id));
    const check = (label: string) => {
      for (let q = 0; q < 60; q++) {
        const query =
          q % 10 === 0 ? ([...faqs.values()][Math.floor(rnd() * faqs.size)]?.question ?? sentence()) : sentence(1 + Math.floor(rnd() * 6));
        const expected = bruteForce(faqs.values(), query, 0.1);
        const actual = new Map(index.search(query, 0.1).map((m) => [m.faqId, m.confidence]));
        assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${label}: ${query}`);
        for (const [id, cos] of expected)
          assert.ok(Math.abs(actual.get(id)! - cos) <= 1e-6, `${label}: ${query} ${id} ${actual.get(id)} vs ${cos}`);
      }
    };
    for (let i = 0; i < 1500; i++) {
      const faq = { id: `f${i}`, question: sentence(), similarQuestions: rnd() < 0.3 ? [sentence(), sentence()] : [] };
      faqs.set(faq.id, faq);
      index.put(faq);
    }
    check('after puts');
    // Enough updates to make most text slots empty, which renumbers the index.
    let puts = faqs.size;
    for (let round = 0; round < 8; round++) {
      for (const id of [...faqs.keys()]) {
        if (rnd() < 0.1) {
          faqs.delete(id);
          index.remove(id);
        } else if (rnd() < 0.8) {
          const faq = { id, question: sentence(), similarQuestions: rnd() < 0.3 ? [sentence()] : [] };
          faqs.set(id, faq);
          index.put(faq);
          puts++;
        }
      }
    }
    assert.ok((index as unknown as { textCount: number }).textCount < puts, 'compacted');
    assert.ok(faqs.size > 500);
    assert.equal(index.size, faqs.size);
    check('after updates and removals');
  });

  it('scores the same text 1.0 and a text without shared words not at all', () => {
    const faqs = new Map<string, IndexedFaq>([
      ['a', { id: 'a', question: 'How do I reset my password?', similarQuestions: ['forgot password'] }],
      ['b', { id: 'b', question: '経費精算の締め日', similarQuestions: [] }],
    ]);
    const index = new FaqIndex((id) => faqs.get(id));
    index.indexInBackground(['a', 'b']);
    assert.deepEqual(
      index.search('how do i reset my password', 0.1),
      [{ faqId: 'a', confidence: 1 }],
      'the backlog is indexed before searching',
    );
    assert.deepEqual(index.search('FORGOT password!', 0.1), [{ faqId: 'a', confidence: 1 }]);
    assert.deepEqual(index.search('経費精算の締め日', 0.1), [{ faqId: 'b', confidence: 1 }]);
    assert.deepEqual(index.search('quantum physics', 0.1), []);
    assert.deepEqual(index.search('???', 0.1), []);
    const partial = index.search('reset password', 0.1);
    assert.equal(partial.length, 1);
    assert.ok(partial[0].confidence > 0.5 && partial[0].confidence < 1);
  });

  it('indexes the start-up backlog in the background and skips Q&As turned off meanwhile', async () => {
    const faqs = new Map<string, IndexedFaq>(
      Array.from({ length: 5000 }, (_, i) => [`f${i}`, { id: `f${i}`, question: `question number ${i}`, similarQuestions: [] }]),
    );
    const index = new FaqIndex((id) => faqs.get(id));
    index.indexInBackground([...faqs.keys()]);
    assert.equal(index.size, 0, 'nothing indexed synchronously');
    faqs.delete('f4999'); // turned off before the backlog reached it
    for (let waited = 0; index.size < 4999 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(index.size, 4999, 'indexed without any search asking for it');
    assert.deepEqual(index.search('question number 4999', 0.9), []);
    assert.equal(index.search('question number 17', 0.9)[0]?.faqId, 'f17');
  });

  it('with a limit, leaves out only Q&As 0.1 or more below the limit-th best: a broad query makes a handful of matches, the same best ones', () => {
    // Common words alone reach 0.1 in every text (the case that cost 390 ms per search at 100,000 Q&As).
    const faqs = new Map<string, IndexedFaq>(
      Array.from({ length: 3000 }, (_, i) => [
        `f${i}`,
        { id: `f${i}`, question: `How do I w${i % 50} the thing ${i % 7} for x${i}?`, similarQuestions: i % 3 ? [`thing w${i % 50}`] : [] },
      ]),
    );
    const index = new FaqIndex((id) => faqs.get(id));
    for (const f of faqs.values()) index.put(f);
    for (const [query, limit] of [
      ['How do I w7 the thing', 10],
      ['how do i', 5],
      ['thing 3 x12', 1],
      ['w7', 200],
    ] as const) {
      const all = index.search(query, 0.1);
      const limited = index.search(query, 0.1, limit);
      const best = (matches: typeof all) => [...matches].sort((a, b) => b.confidence - a.confidence || (a.faqId < b.faqId ? -1 : 1));
      const floor = best(all)[Math.min(limit, all.length) - 1].confidence - 0.1;
      const kept = best(all).filter((m) => m.confidence >= floor);
      assert.deepEqual(
        best(limited).filter((m) => m.confidence >= floor),
        kept,
        `${query}: every match the caller keeps`,
      );
      if (query === 'How do I w7 the thing')
        assert.ok(
          all.length > 1000 && limited.length < all.length / 5,
          `${query}: ${all.length} matches, ${limited.length} with the limit`,
        );
    }
  });
});
