import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chooseSentences, citeSentences, cleanSentence, lightStem, type AnswerSource } from '../../../../src/local/answers/extractive';
import { classifyIntent, followUpQuestion } from '../../../../src/local/answers/intent';
import { leansOnContext, rewriteFollowUp } from '../../../../src/local/answers/threads';
import type { Extraction } from '../../../../src/local/extract/types';
import { decodeClueId, passageClueId } from '../../../../src/local/search/clueId';
import { fuseScores } from '../../../../src/local/search/fusion';
import { cosine, DIMS, LEXICAL_MODEL, lexicalVector, sparse } from '../../../../src/local/search/lexicalHash';
import { queryTerms } from '../../../../src/local/search/queryTerms';
import { proximity, rerank } from '../../../../src/local/search/reranker';
import { RetrievalIndex } from '../../../../src/local/search/retrievalIndex';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/retrieval');
const doc = (...pages: string[]): Extraction => ({ kind: 'text', pages: pages.map((text, i) => ({ pageNo: i + 1, text })) });
const cos = (a: string, b: string) => cosine(sparse(lexicalVector(a)), lexicalVector(b));
const ALL = () => true;

describe('Retrieval scoring: lexical vectors, fusion, index, reranker, extractive answers', () => {
  it('lexical-hash-v1: unit vectors of 512 dimensions that match words, word pieces and CJK characters — not meanings', () => {
    assert.equal(LEXICAL_MODEL, 'lexical-hash-v1');
    const v = lexicalVector('Approved expenses are reimbursed');
    assert.equal(v.length, DIMS);
    assert.ok(Math.abs(v.reduce((s, x) => s + x * x, 0) - 1) < 1e-5);
    assert.ok(Math.abs(cos('paid leave', 'Paid Leave') - 1) < 1e-5, 'after NFKC and lower case');
    assert.ok(cos('reimbursing', 'are reimbursed monthly') > 0.2, 'shared 3-character pieces');
    assert.ok(cos('宿泊', '宿泊費の上限') > 0.4, 'shared CJK characters and pairs');
    assert.ok(cos('car', 'automobile') < 0.1, 'lexical, not semantic');
    assert.equal(
      lexicalVector('!!! ...').every((x) => x === 0),
      true,
    );
  });

  it('fuses per-query max-normalised scores with the weights; 0 disables a signal', () => {
    const f = fuseScores({ bm25: 9, text: 1, title: 0 }, [10, 5, 0], [0.2, 0.4, 0.1], [1, 1, 1]);
    assert.deepEqual(
      [...f].map((x) => Math.round(x * 1000) / 1000),
      [0.95, 0.55, 0.025],
    );
    assert.deepEqual([...fuseScores({ bm25: 0, text: 1, title: 0 }, [10, 5, 0], [0.2, 0.4, 0.1], [0, 0, 0])], [0.5, 1, 0.25]);
    assert.deepEqual([...fuseScores({ bm25: 1, text: 0, title: 0 }, [0, 0], [1, 1], [1, 1])], [0, 0], 'no BM25 match, no score');
  });

  it('indexes, replaces and removes documents; searches only allowed documents', () => {
    const index = new RetrievalIndex();
    index.add('a', 'hash-a', 'Travel guide', doc('Hotel costs are limited to 12,000 yen per night.', 'Taxis are allowed after 22:00.'));
    index.add('b', 'hash-b', 'Handbook', doc('New employees get 15 days of paid leave.'));
    const w = { bm25: 9, text: 1, title: 0 };
    assert.equal(index.search('hotel per night', w, ALL)[0].passage.nodeId, 'a');
    assert.equal(index.search('taxis after 22:00', w, ALL)[0].passage.pageNo, 2);
    assert.ok(index.search('hotel per night', w, (d) => d.nodeId === 'b').every((h) => h.passage.nodeId === 'b'));
    assert.ok(
      index.search('hotel', { bm25: 1, text: 0, title: 0 }, (d) => d.nodeId === 'b').length === 0,
      'a filtered document is never scored',
    );
    const idfHotel = index.idf('hotel');
    index.add('a', 'hash-a2', 'Travel guide', doc('Flights must be economy class.'));
    assert.equal(index.search('hotel', { bm25: 1, text: 0, title: 0 }, ALL).length, 0, 're-adding replaces the old passages');
    assert.ok(index.idf('hotel') > idfHotel, 'document frequencies follow');
    assert.equal(index.doc('a')?.textBlob, 'hash-a2');
    assert.equal(index.remove('a'), true);
    assert.equal(index.search('economy flights', w, ALL).filter((h) => h.passage.nodeId === 'a').length, 0);
    assert.equal(index.passageCount, 1);
    assert.deepEqual(index.search('!!!', w, ALL), [], 'a query without words finds nothing');
  });

  it('scores titles with the title vector only when its weight is above 0', () => {
    const index = new RetrievalIndex();
    index.add('x', 'hx', 'VPN Setup Guide', doc('Install the client from the software center.'));
    index.add('y', 'hy', 'Expense rules', doc('Install the client from the software center.'));
    assert.equal(index.search('vpn setup', { bm25: 0, text: 0, title: 9 }, ALL)[0].passage.nodeId, 'x');
    const noTitle = index.search('install client vpn', { bm25: 9, text: 1, title: 0 }, ALL);
    assert.equal(noTitle[0].score, noTitle[1].score, 'identical text, titles ignored');
  });

  it('reranks by IDF-weighted coverage plus proximity, on the first reranker_max_tokens tokens', () => {
    assert.equal(proximity(['a', 'b', 'x', 'c'], new Set(['a', 'b', 'c'])), 2 / 3);
    assert.equal(proximity(['a', 'x', 'x', 'x', 'b'], new Set(['a', 'b'])), 1 / 4);
    assert.equal(proximity(['a'], new Set(['a'])), 0);
    const index = new RetrievalIndex();
    for (const f of readdirSync(FIXTURES).filter((n) => n.endsWith('.md')))
      index.add(f, f, f, doc(readFileSync(path.join(FIXTURES, f), 'utf8')));
    const q = 'blue whale migration route';
    const first = index.search(q, { bm25: 9, text: 1, title: 0 }, ALL);
    assert.equal(first[0].passage.nodeId, 'whale-notes.md');
    const terms = queryTerms(q, (t) => index.idf(t));
    const candidates = first.map((h) => ({ ...h, text: h.passage.text }));
    assert.equal(rerank(terms, candidates, 1024)[0].passage.nodeId, 'ocean-survey.md');
    assert.equal(rerank(terms, candidates, 16).at(-1)!.passage.nodeId, 'ocean-survey.md', 'its phrase is past the first 16 tokens');
  });

  it('answers with 2–4 contiguous sentences of one section around the best one, in order, or nothing below the floor', () => {
    const source = (text: string, rank = 0): AnswerSource => ({ kind: 'document', rank, text, clueId: `c${rank}`, title: `t${rank}` });
    const idf = (t: string) => (['the', 'a'].includes(t) ? 0.1 : 1);
    const terms = queryTerms('How many days of paid leave do new employees get?', idf);
    assert.deepEqual(
      terms.map((t) => t.term),
      ['days', 'paid', 'leave', 'new', 'employees'],
    );
    const text =
      '1. Leave policy\n\nEvery employee has a leave account. New employees get 15 days of paid leave in their first year. Unused days carry over once.\n2. Cafeteria\nThe cafeteria opens at noon.';
    const chosen = chooseSentences(terms, [source(text), source('Employees can take paid leave in half days.', 1)]);
    assert.deepEqual(
      chosen.map((c) => c.text),
      [
        'Every employee has a leave account.',
        'New employees get 15 days of paid leave in their first year.',
        'Unused days carry over once.',
      ],
      'the best sentence with its neighbours that share query words, in document order; the next heading ends the section',
    );
    assert.ok(
      chosen.every((c) => c.source.rank === 0),
      'one place: never a sentence from another passage',
    );
    assert.equal(chosen[0].coverage, 1);
    for (const c of chosen) assert.equal(text.slice(c.span!.start, c.span!.end), c.text, 'each sentence knows where it lies');
    assert.deepEqual(
      chooseSentences(terms, [source('The cafeteria opens at noon and closes at three. New badges are blue.')]),
      [],
      'below the floor (half the weighted query terms): no answer',
    );
    const lone = chooseSentences(terms, [
      source('## Leave\n\nNew employees get 15 days of paid leave.\n\n## Badges\n\nEmployees must wear badges.'),
    ]);
    assert.deepEqual(
      lone.map((c) => c.text),
      ['New employees get 15 days of paid leave.'],
      'a heading on either side ends the section: no sentence is taken across it, and no heading is quoted',
    );
    const heading = chooseSentences(
      queryTerms('hotel limit per night', () => 1),
      [source('## Hotel\n\nThe limit is 12,000 yen per night.')],
    );
    assert.equal(heading[0]?.text, 'The limit is 12,000 yen per night.', 'the heading counts, at a discount');
    assert.equal(cleanSentence('- Taxi\tonly after 22:00\t\n  ok'), 'Taxi | only after 22:00 ok');
  });

  it('cites the sentences used: the citation clue names their characters, the clues keep the passage', () => {
    const clueId = passageClueId('n1', 3, 2, 'abcdef0123456789');
    const src: AnswerSource = { kind: 'document', rank: 0, text: 'First one here. Second one here. Third.', clueId, title: 't' };
    const chosen = citeSentences([
      { text: 'Second one here.', source: src, coverage: 1, score: 1, span: { start: 16, end: 32 } },
      { text: 'Third.', source: src, coverage: 1, score: 1, span: { start: 33, end: 39 } },
    ]);
    assert.equal(chosen[0].source, chosen[1].source, 'one citation for both');
    assert.deepEqual(decodeClueId(chosen[0].source.clueId), {
      kind: 'passage',
      nodeId: 'n1',
      pageNo: 3,
      subTextIndex: 2,
      hash: 'abcdef012345',
      range: { start: 16, end: 39 },
    });
    assert.equal(src.clueId, clueId, 'the source itself (a clue) still names the passage');
  });

  it('matches English inflections of the query words at a discount, and nothing else', () => {
    const pairs: Array<[string, string]> = [
      ['expenses', 'expense'],
      ['submitted', 'submit'],
      ['submitting', 'submit'],
      ['policies', 'policy'],
      ['approved', 'approv'],
      ['approve', 'approve'],
      ['boxes', 'box'],
      ['planning', 'plan'],
    ];
    for (const [word, stem] of pairs) assert.equal(lightStem(word), stem, word);
    for (const kept of ['pass', 'bus', 'analysis', 'fill', 'days', '経費', 'ok', 'v2s'])
      assert.equal(lightStem(kept), kept === 'days' ? 'day' : kept, kept);
    const source: AnswerSource = {
      kind: 'document',
      rank: 0,
      text: 'Everyday business expenses must be submitted in the finance portal within 30 days. The cafeteria opens at noon.',
      clueId: 'c0',
      title: 't0',
    };
    const chosen = chooseSentences(
      queryTerms('How do I submit an expense?', () => 1),
      [source],
    );
    assert.match(chosen[0].text, /^Everyday business expenses must be submitted/);
    assert.ok(chosen[0].coverage < 1 && chosen[0].coverage >= 0.85, `inflections count at a discount (${chosen[0].coverage})`);
    assert.deepEqual(
      chooseSentences(
        queryTerms('submission deadline', () => 1),
        [source],
      ),
      [],
      'a different word is not an inflection',
    );
  });

  it('rewrites follow-ups that lean on the previous question, and only those', () => {
    const previous = 'How many days of paid leave do new employees get?';
    assert.equal(leansOnContext('Can I carry it over to the next year?'), true);
    assert.equal(leansOnContext('And sick leave?'), true);
    assert.equal(leansOnContext('それは翌年に繰り越せますか'), true);
    assert.equal(leansOnContext('What is the VPN server address for laptops?'), false);
    assert.equal(rewriteFollowUp('Can I carry it over?', previous), 'Can I carry it over? days paid leave new employees');
    assert.equal(rewriteFollowUp('What is the VPN server address for laptops?', previous), 'What is the VPN server address for laptops?');
    assert.equal(rewriteFollowUp('Can I carry it over?', undefined), 'Can I carry it over?');
    assert.match(rewriteFollowUp('では大阪は？', '東京の宿泊費の上限はいくらですか'), /^では大阪は？ .*宿泊/);
  });

  it('classifies intents and builds follow-up questions in the query language', () => {
    // Only the service's two values: END_OF_CONVERSATION for a query that only closes, SEARCH for anything else.
    for (const closing of [
      'Thanks!',
      'thank you very much',
      'OK, bye',
      "That's all",
      'ありがとうございました',
      'お疲れ様です。',
      '以上です',
    ])
      assert.equal(classifyIntent(closing), 'END_OF_CONVERSATION', closing);
    for (const search of [
      'Good morning',
      'Where is the VPN guide',
      '宿泊費の上限は？',
      'List the laptops in use',
      '経費の締め日を教えてください',
      'VPN',
      'Thanks, and where is the VPN guide?',
    ])
      assert.equal(classifyIntent(search), 'SEARCH', search);
    assert.equal(followUpQuestion('2. Remote work\n\nEmployees may work remotely.', 'employee-handbook', 'en'), 'What about remote work?');
    assert.equal(followUpQuestion('## Who answers payroll questions?\n\nThe payroll team.', 'faq', 'en'), 'Who answers payroll questions?');
    assert.equal(followUpQuestion('## 日当\n\n国内出張の日当は1日2,000円です。', '経費精算ガイド', 'ja'), '日当について教えてください。');
    assert.equal(followUpQuestion('Everything is one long sentence that ends here.', 'Guide', 'en'), 'What else does "Guide" cover?');
  });
});
