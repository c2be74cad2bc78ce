// The fast retrieval index against what it replaced: BM25 scores equal to MiniSearch's to the last bit, vector
// scores equal to `cosine`, the radix ranking equal to a comparison sort, and whole searches equal to the
// former MiniSearch-based implementation (kept below as the reference, reading the same analysed text: index
// terms, section heading), also after removals and slot reuse.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import type { Extraction } from '../../../../src/local/extract/types';
import { Bm25Index } from '../../../../src/local/search/bm25Index';
import { fuseScores, rankByScore, type Weights } from '../../../../src/local/search/fusion';
import { cosine, DIMS, lexicalVector, sparse, VectorColumns } from '../../../../src/local/search/lexicalHash';
import { pagePassages } from '../../../../src/local/search/passages';
import { RetrievalIndex, type IndexedDoc } from '../../../../src/local/search/retrievalIndex';
import { tokenize, tokenSet } from '../../../../src/local/search/tokenizer';
import { indexTerms, indexTermSet } from '../../../../src/local/search/analysis';
import { HeadingTrail } from '../../../../src/local/search/headings';
import { bm25Text } from '../../../../src/local/search/retrievalIndex';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/retrieval');
const WORDS =
  'the of and to in employees policy request approval expense travel hotel night taxi laptop password reset budget invoice audit report vendor 経費 申請 承認 休暇 会議室 予約 研修 出張 精算 宿泊費 上限 휴가 신청'.split(
    ' ',
  );
const JOIN = [' ', ' ', ' ', 'の', 'を', '。', ', '];

function rng(seed: number): () => number {
  return () => (seed = (seed * 48271) % 2147483647) / 2147483647;
}
function text(r: () => number, words: number): string {
  let s = '';
  for (let i = 0; i < words; i++) s += WORDS[Math.floor(WORDS.length * r() ** 2)] + JOIN[Math.floor(r() * JOIN.length)];
  return s;
}
// No function words ("the", の): a question's function words weigh less and are not counted as matched, on
// purpose (queryExpansion.ts, test functionWords.test.ts), which the former implementation did not do.
const QUERIES = [
  'hotel per night',
  'expense approval',
  '経費 申請 上限',
  'reset laptop laptop',
  '휴가 신청',
  'audit report vendor audit',
  'zzz unknown',
  '!!!',
];

/** The former implementation: MiniSearch BM25, per-passage cosine, fusion, comparison sort. */
class Reference {
  readonly mini = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: (t) => indexTerms(t),
    processTerm: (t) => t,
    searchOptions: { tokenize: (t) => indexTermSet(t), processTerm: (t) => t, combineWith: 'OR' },
  });
  readonly passages = new Map<number, { id: number; nodeId: string; text: string; vector: Float32Array }>();
  readonly docs = new Map<string, { nodeId: string; titleVector: Float32Array; passageIds: number[] }>();
  private nextId = 1;

  add(nodeId: string, title: string, extraction: Extraction): void {
    this.remove(nodeId);
    const doc = { nodeId, titleVector: lexicalVector(title), passageIds: [] as number[] };
    const trail = new HeadingTrail();
    for (const page of extraction.pages) {
      for (const p of pagePassages(page)) {
        const passage = { id: this.nextId++, nodeId, text: p.text, vector: lexicalVector(p.text) };
        this.passages.set(passage.id, passage);
        doc.passageIds.push(passage.id);
        trail.read(p.text, 1);
        const headingPath = trail.path;
        trail.read(p.text);
        this.mini.add({ id: passage.id, text: bm25Text({ text: p.text, headingPath }) });
      }
    }
    this.docs.set(nodeId, doc);
  }

  remove(nodeId: string): void {
    for (const id of this.docs.get(nodeId)?.passageIds ?? []) {
      this.mini.discard(id);
      this.passages.delete(id);
    }
    this.docs.delete(nodeId);
  }

  search(query: string, weights: Weights, allowed: (nodeId: string) => boolean): Array<[number, number]> {
    const docs = [...this.docs.values()].filter((d) => allowed(d.nodeId));
    if (!docs.length || !indexTermSet(query).length) return [];
    const bm25 = new Map<number, number>();
    if (weights.bm25 > 0) {
      const boostDocument = (id: number): number => (allowed(this.passages.get(id)?.nodeId ?? '') ? 1 : 0);
      for (const r of this.mini.search(query, { boostDocument })) bm25.set(r.id as number, r.score);
    }
    const ids: number[] = [];
    const b: number[] = [];
    const t: number[] = [];
    const ti: number[] = [];
    if (weights.text > 0 || weights.title > 0) {
      const q = sparse(lexicalVector(query));
      for (const doc of docs) {
        const title = weights.title > 0 ? Math.max(0, cosine(q, doc.titleVector)) : 0;
        for (const id of doc.passageIds) {
          ids.push(id);
          b.push(bm25.get(id) ?? 0);
          t.push(weights.text > 0 ? Math.max(0, cosine(q, this.passages.get(id)!.vector)) : 0);
          ti.push(title);
        }
      }
    } else {
      for (const [id, score] of bm25) {
        ids.push(id);
        b.push(score);
        t.push(0);
        ti.push(0);
      }
    }
    const fused = fuseScores(weights, b, t, ti);
    const order = ids.map((_, i) => i).filter((i) => fused[i] > 0);
    order.sort((x, y) => fused[y] - fused[x] || ids[x] - ids[y]);
    return order.map((i) => [ids[i], fused[i]]);
  }
}

function corpus(seed: number, docs: number): Array<[string, string, Extraction]> {
  const r = rng(seed);
  const out: Array<[string, string, Extraction]> = [];
  for (let d = 0; d < docs; d++) {
    const pages = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, i) => ({ pageNo: i + 1, text: text(r, 5 + Math.floor(r() * 120)) }));
    out.push([`doc-${seed}-${d}`, text(r, 3), { kind: 'text', pages }]);
  }
  for (const f of readdirSync(FIXTURES).filter((n) => n.endsWith('.md')))
    out.push([f, f, { kind: 'text', pages: [{ pageNo: 1, text: readFileSync(path.join(FIXTURES, f), 'utf8') }] }]);
  return out;
}

function assertSameSearches(index: RetrievalIndex, ref: Reference, label: string): void {
  const filters: Array<(id: string) => boolean> = [() => true, (id) => id.length % 3 !== 0, (id) => id.endsWith('7')];
  for (const weights of [
    { bm25: 9, text: 1, title: 0 },
    { bm25: 9, text: 0, title: 0 },
    { bm25: 9, text: 1, title: 1 },
    { bm25: 0, text: 1, title: 0 },
    { bm25: 0, text: 0, title: 2 },
  ]) {
    for (const [f, allowed] of filters.entries()) {
      for (const q of QUERIES) {
        const got = index.search(q, weights, (d: IndexedDoc) => allowed(d.nodeId)).map((h) => [h.passage.id, h.score]);
        assert.deepEqual(got, ref.search(q, weights, allowed), `${label}: "${q}" ${JSON.stringify(weights)} filter ${f}`);
      }
    }
  }
}

describe('Retrieval index internals: BM25 postings, vector columns, radix ranking', () => {
  it('scores BM25 exactly as MiniSearch does (BM25+, quality factor, distinct query terms)', () => {
    const r = rng(3);
    const texts = Array.from({ length: 300 }, () => text(r, 1 + Math.floor(r() * 80)));
    const bm25 = new Bm25Index();
    const mini = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], tokenize: (t) => tokenize(t), processTerm: (t) => t });
    texts.forEach((t, slot) => {
      bm25.add(slot, tokenize(t));
      mini.add({ id: slot, text: t });
    });
    for (const q of QUERIES) {
      const scores = new Float64Array(texts.length);
      const touched = bm25.score(tokenSet(q), new Uint8Array(texts.length).fill(1), scores, new Uint16Array(texts.length));
      const expected = new Map(mini.search(q, { tokenize: (t) => tokenSet(t) }).map((m) => [m.id as number, m.score]));
      assert.equal(touched.length, expected.size, q);
      for (const slot of touched) assert.equal(scores[slot], expected.get(slot), `"${q}" slot ${slot}`);
    }
    assert.equal(bm25.df('hotel'), texts.filter((t) => tokenSet(t).includes('hotel')).length);
  });

  it('removes lazily: dead slots are never scored, purge frees them for reuse, document frequencies follow', () => {
    const bm25 = new Bm25Index();
    bm25.add(0, tokenize('hotel night hotel'));
    bm25.add(1, tokenize('hotel taxi'));
    bm25.remove(0, tokenize('hotel night hotel'));
    assert.equal(bm25.size, 1);
    assert.equal(bm25.df('hotel'), 1);
    assert.equal(bm25.df('night'), 0);
    const scores = new Float64Array(2);
    assert.deepEqual(
      bm25.score(['hotel', 'night'], new Uint8Array([0, 1]), scores, new Uint16Array(2)),
      [1],
      'callers allow live slots only',
    );
    assert.deepEqual(bm25.purge(), [0]);
    assert.equal(bm25.deadCount, 0);
    bm25.add(0, tokenize('economy flights'));
    const after = new Float64Array(2);
    assert.deepEqual(
      bm25.score(['hotel', 'flights'], new Uint8Array([1, 1]), after, new Uint16Array(2)),
      [1, 0],
      'the reused slot has only its new terms',
    );
  });

  it('stores vectors by dimension: scores equal cosine to the last bit, across blocks', () => {
    const r = rng(5);
    const columns = new VectorColumns();
    const vectors = Array.from({ length: 2100 }, () => lexicalVector(text(r, 1 + Math.floor(r() * 40))));
    vectors.forEach((v, slot) => columns.set(slot, v));
    assert.deepEqual(columns.get(1500), vectors[1500]);
    assert.equal(columns.get(99_999).length, DIMS);
    for (const q of QUERIES.map((x) => sparse(lexicalVector(x)))) {
      const out = new Float64Array(vectors.length);
      columns.scoreAll(q, out);
      vectors.forEach((v, slot) => assert.equal(out[slot], cosine(q, v), `slot ${slot}`));
    }
  });

  it('ranks by score (highest first, ties by key) exactly like a comparison sort, small and large', () => {
    const r = rng(11);
    for (const n of [0, 1, 5, 255, 256, 3000, 20_000]) {
      const scores = Float64Array.from({ length: n }, () => (r() < 0.2 ? Math.floor(r() * 5) / 4 : r() * 10 ** -Math.floor(r() * 6)));
      const key = Float64Array.from({ length: n }, () => Math.floor(r() * 1e6));
      const items = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 !== 3);
      const expected = [...items].sort((a, b) => scores[b] - scores[a] || key[a] - key[b]);
      assert.deepEqual([...rankByScore(items, scores, (i) => key[i])], expected, `n = ${n}`);
    }
  });

  it('searches exactly as the MiniSearch-based index did: all weights, filters, limits', () => {
    const index = new RetrievalIndex();
    const ref = new Reference();
    for (const [id, title, extraction] of corpus(1, 120)) {
      index.add(id, `hash-${id}`, title, extraction);
      ref.add(id, title, extraction);
    }
    assertSameSearches(index, ref, 'fresh');
    const all = index.search('the expense approval', { bm25: 9, text: 1, title: 0 }, () => true);
    assert.deepEqual(
      index.search('the expense approval', { bm25: 9, text: 1, title: 0 }, () => true, 5),
      all.slice(0, 5),
      'limit',
    );
    const ranking = index.rank('the expense approval', { bm25: 9, text: 1, title: 0 }, () => true);
    assert.deepEqual(
      ranking.passages,
      all.map((h) => h.passage),
    );
    assert.deepEqual(
      [...ranking.scores],
      all.map((h) => h.score),
    );
  });

  it('stays exact after removals, re-indexing and slot reuse; a removed passage keeps its vector', async () => {
    const index = new RetrievalIndex();
    const ref = new Reference();
    const docs = corpus(2, 400);
    for (const [id, title, extraction] of docs) {
      index.add(id, `hash-${id}`, title, extraction);
      ref.add(id, title, extraction);
    }
    const victim = index.doc(docs[0][0])!;
    const old = index.passage(victim.passageIds[0])!;
    const oldVector = old.vector;
    assert.deepEqual(oldVector, lexicalVector(old.text));
    // Enough removals to purge (slots freed) and re-adds to reuse those slots.
    for (const [id] of docs.slice(0, 250)) {
      index.remove(id);
      ref.remove(id);
    }
    for (const [id, title, extraction] of corpus(3, 150)) {
      index.add(id, `hash-${id}`, title, extraction);
      ref.add(id, title, extraction);
    }
    for (const [id, title, extraction] of docs.slice(300, 320)) {
      index.add(id, `hash2-${id}`, title, extraction); // a re-index replaces the document
      ref.add(id, title, extraction);
    }
    // MiniSearch counts discarded passages in document frequencies until it vacuums; the index never does.
    await ref.mini.vacuum();
    assert.equal(index.passageCount, ref.passages.size);
    assertSameSearches(index, ref, 'after removals');
    assert.deepEqual(old.vector, oldVector, 'a removed passage keeps its vector although its slot was reused');
    for (const [id, p] of ref.passages) assert.deepEqual(index.passage(id)!.vector, p.vector);
  });
});
