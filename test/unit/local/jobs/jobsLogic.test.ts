import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { HttpError } from '../../../../src/local/http/errors';
import { parseBulkCsv } from '../../../../src/local/jobs/bulkInput';
import { csvText } from '../../../../src/local/jobs/csvText';
import { envStepDelayMs } from '../../../../src/platform/localServiceTestOptions';
import { countPairs, PairLinker, type LinkParams } from '../../../../src/local/jobs/rareBuild';
import { rankPool, seededRandom, seedOf } from '../../../../src/local/jobs/rareGenerate';
import type { BuildData } from '../../../../src/local/jobs/rareBuild';
import { askableSentences, keyPhrase, questionFor } from '../../../../src/local/jobs/questionTemplates';
import { cosine, lexicalVector, sparse } from '../../../../src/local/search/lexicalHash';

const TEXTS = [
  'Paid leave for new employees is 15 days in the first year.',
  'New employees receive 15 days of paid leave during their first year.',
  'The VPN client must be installed before connecting from home.',
  'Connect from home through the VPN client installed on the laptop.',
  '宿泊費の上限は1泊12,000円です。',
];
const vectors = TEXTS.map(lexicalVector);
/** Every chunk's links, in one go (the build runs the rows a turn at a time). */
function linkAll(vectors: readonly Float32Array[], params: LinkParams): Array<Array<[number, number]>> {
  const linker = new PairLinker(vectors, params.top_k_per_chunk);
  for (let i = 0; i < vectors.length; i++) linker.row(i);
  return vectors.map((_, i) => linker.links(i, params));
}
const similarTo = (
  i: number,
  vs: Float32Array[],
  params: { similarity_threshold: number; top_k_per_chunk: number; max_similar_items: number },
) => linkAll(vs, params)[i];

describe('RARE build: linking similar chunks', () => {
  it('keeps the top k by cosine, then the threshold, then the cap', () => {
    const all = similarTo(0, vectors, { similarity_threshold: 0, top_k_per_chunk: 10, max_similar_items: 10 });
    const brute = vectors
      .map((v, j) => [j, cosine(sparse(vectors[0]), v)] as const)
      .filter(([j, s]) => j !== 0 && s > 0)
      .sort((a, b) => b[1] - a[1]);
    assert.deepEqual(
      all.map(([j]) => j),
      brute.map(([j]) => j),
      'same order as brute force',
    );
    assert.deepEqual(
      all.map(([, s]) => s),
      brute.map(([, s]) => Math.round(s * 10000) / 10000),
      'same scores as lexicalHash.cosine',
    );
    assert.equal(all[0][0], 1, 'the reworded sentence is the most similar');
    assert.equal(similarTo(0, vectors, { similarity_threshold: 0, top_k_per_chunk: 1, max_similar_items: 10 }).length, 1, 'top k');
    assert.equal(similarTo(0, vectors, { similarity_threshold: 0, top_k_per_chunk: 10, max_similar_items: 2 }).length, 2, 'cap');
    assert.deepEqual(similarTo(0, vectors, { similarity_threshold: 0.99, top_k_per_chunk: 10, max_similar_items: 10 }), [], 'threshold');
    assert.equal(
      similarTo(4, vectors, { similarity_threshold: 0.1, top_k_per_chunk: 5, max_similar_items: 5 }).length,
      0,
      'no shared words, no link',
    );
  });

  it('equals a brute-force top k over many chunks', () => {
    const words =
      'leave paid days year employees vpn client laptop home office expense travel hotel limit night report manager approval'.split(' ');
    const random = seededRandom(1);
    const texts = Array.from({ length: 150 }, () => Array.from({ length: 12 }, () => words[Math.floor(random() * words.length)]).join(' '));
    const vs = texts.map(lexicalVector);
    const params = { similarity_threshold: 0.2, top_k_per_chunk: 5, max_similar_items: 4 };
    const all = linkAll(vs, params);
    for (let i = 0; i < vs.length; i++) {
      const q = sparse(vs[i]);
      const brute = vs
        .map((v, j) => [j, cosine(q, v)] as [number, number])
        .filter(([j, s]) => j !== i && s > 0)
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, 5)
        .filter(([, s]) => s >= 0.2)
        .slice(0, 4)
        .map(([j, s]) => [j, Math.round(s * 10000) / 10000]);
      assert.deepEqual(all[i], brute, `chunk ${i}`);
    }
  });

  it('counts each linked pair once', () => {
    assert.equal(
      countPairs([
        [[1, 0.9]],
        [
          [0, 0.9],
          [2, 0.5],
        ],
        [],
        [],
      ]),
      2,
    );
  });
});

describe('RARE generate: pool, sampling and templates', () => {
  const data = (links: BuildData['links'], texts: string[]): BuildData => ({
    version: 1,
    runId: 'r',
    model: 'lexical-hash-v1',
    params: {} as BuildData['params'],
    links,
    chunks: texts.map((text, i) => ({ nodeId: `n${i}`, document: `doc${i}.md`, pageNo: 1, subTextIndex: i, text })),
  });

  it('ranks the pool by links and leaves out chunks with nothing to ask', () => {
    const d = data(
      [
        [[1, 0.5]],
        [
          [0, 0.5],
          [2, 0.4],
        ],
        [[1, 0.4]],
        [],
      ],
      [TEXTS[0], TEXTS[1], TEXTS[2], '# Heading only'],
    );
    const askable = (i: number) => askableSentences(d.chunks[i].text);
    assert.deepEqual(rankPool(d, askable, 10), [1, 0, 2]);
    assert.deepEqual(rankPool(d, askable, 1), [1]);
  });

  it('draws the same numbers for the same seed', () => {
    const a = seededRandom(seedOf('build\n{}'));
    const b = seededRandom(seedOf('build\n{}'));
    const xs = Array.from({ length: 5 }, a);
    assert.deepEqual(xs, Array.from({ length: 5 }, b));
    assert.ok(xs.every((x) => x >= 0 && x < 1));
  });

  it('asks about a key phrase and keeps the sentence verbatim', () => {
    const idf = (t: string) => ({ vpn: 5, client: 3, laptop: 4 })[t] ?? 1;
    const phrase = keyPhrase('Connect from home through the VPN client installed on the laptop.', idf);
    assert.equal(phrase, 'VPN client');
    assert.equal(questionFor(phrase!, 'en', 'vpn-setup.docx', 0), 'What does the document say about VPN client?');
    assert.equal(questionFor(phrase!, 'en', 'vpn-setup.docx', 1), 'According to "vpn-setup", what is stated about VPN client?');
    assert.equal(
      keyPhrase('Write to payroll@aozora-systems.example today.', (t) => (t === 'write' || t === 'today' ? 1 : 5)),
      'payroll',
      'no phrase across @ and .',
    );
    assert.equal(
      keyPhrase('宿泊費の上限は1泊12,000円です。', () => 1),
      '宿泊費',
      'compounds joined, counters after numbers skipped',
    );
    assert.equal(
      keyPhrase('タクシーは22時以降の移動、または荷物が多い場合のみ利用できます。', (t) => (t === '荷物' ? 3 : 1)),
      '荷物',
    );
    assert.match(questionFor('宿泊費', 'ja', '経費精算ガイド.md', 0), /「宿泊費」/);
    assert.deepEqual(askableSentences('# Title\nShort.\nThis sentence is long enough to ask about. 2.4.0\t2025\tRelease row here'), [
      'This sentence is long enough to ask about.',
    ]);
  });
});

describe('Job CSV files', () => {
  it('writes RFC 4180 that csv-parse reads back', () => {
    const rows = [
      ['a,b', 'say "hi"', 'line1\nline2', 3],
      ['=1+1', '', 'x', 0.5],
    ];
    const text = csvText(['c1', 'c2', 'c3', 'c4'], rows);
    assert.ok(text.startsWith('c1,c2,c3,c4\r\n'));
    assert.deepEqual(
      parse(text, { from_line: 2 }),
      rows.map((r) => r.map(String)),
    );
  });

  it('reads bulk input: header names, TSV, BOM, Shift_JIS, result columns replaced, blank rows skipped', () => {
    const input = parseBulkCsv(Buffer.from('\uFEFFQuestion,Model,answer\nq1,m1,old\n,,\nq2,,\n'));
    assert.deepEqual(input.columns, ['Question', 'Model']);
    assert.deepEqual(
      input.rows.map((r) => [r.question, r.model, r.cells]),
      [
        ['q1', 'm1', ['q1', 'm1']],
        ['q2', '', ['q2', '']],
      ],
    );
    assert.equal(parseBulkCsv(Buffer.from('question\tsearch_type\nq\tdocument\n')).rows[0].searchType, 'document');
    const sjis = Buffer.from([0x8e, 0xbf, 0x96, 0xe2, 0x0a, 0x82, 0xa0, 0x0a]); // 質問\nあ\n in Shift_JIS
    assert.equal(parseBulkCsv(sjis).rows[0].question, 'あ');
    const fails = (text: string, pattern: RegExp) =>
      assert.throws(
        () => parseBulkCsv(Buffer.from(text)),
        (e: unknown) => e instanceof HttpError && e.status === 400 && e.options.field === 'file' && pattern.test(e.message),
      );
    fails('', /empty/);
    fails('a,b\n1,2\n', /"question" column/);
    fails('question\n\n', /no rows/);
    fails('question\n"x\n', /cannot be read/);
  });
});

describe('Job step delay knob', () => {
  it('reads KD_LOCAL_JOB_STEP_DELAY_MS, ignoring anything but a positive number', () => {
    assert.equal(envStepDelayMs({}), 0);
    assert.equal(envStepDelayMs({ KD_LOCAL_JOB_STEP_DELAY_MS: '250' }), 250);
    assert.equal(envStepDelayMs({ KD_LOCAL_JOB_STEP_DELAY_MS: 'abc' }), 0);
    assert.equal(envStepDelayMs({ KD_LOCAL_JOB_STEP_DELAY_MS: '-5' }), 0);
  });
});
