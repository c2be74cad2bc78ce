// The retrieval index: every passage of every processed document in a MiniSearch BM25 index (the project
// tokenizer for indexing and querying), a lexical-hash-v1 content vector per passage and a title vector per
// document. Documents are added when processing completes and removed on delete or before a re-index; which
// documents a search may see (status, folders, hashtags, owners) is decided at query time by the caller, so
// moves and status changes need no re-indexing.
import MiniSearch from 'minisearch';
import type { Extraction } from '../extract/types';
import { fuseScores, type Weights } from './fusion';
import { cosine, lexicalVector, sparse } from './lexicalHash';
import { pagePassages, type Passage } from './passages';
import { tokenize, tokenSet } from './tokenizer';

export interface IndexedPassage extends Passage {
  id: number;
  nodeId: string;
  vector: Float32Array;
}

export interface IndexedDoc {
  nodeId: string;
  /** The extraction the passages came from (NodeRecord.textBlob). */
  textBlob: string;
  titleVector: Float32Array;
  passageIds: number[];
}

export interface ScoredPassage {
  passage: IndexedPassage;
  /** Fused score in [0, 1]. */
  score: number;
}

const identity = (term: string): string => term;

export class RetrievalIndex {
  private readonly mini = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: (text) => tokenize(text),
    processTerm: identity,
    // A query term given twice must not count twice (MiniSearch scores each query term separately).
    searchOptions: { tokenize: (text) => tokenSet(text), processTerm: identity, combineWith: 'OR' },
  });
  private readonly passages = new Map<number, IndexedPassage>();
  private readonly docs = new Map<string, IndexedDoc>();
  /** Passages holding each token, for the IDF weights of answers and the reranker. */
  private readonly df = new Map<string, number>();
  private nextId = 1;

  get documentCount(): number {
    return this.docs.size;
  }

  get passageCount(): number {
    return this.passages.size;
  }

  doc(nodeId: string): IndexedDoc | undefined {
    return this.docs.get(nodeId);
  }

  passage(id: number): IndexedPassage | undefined {
    return this.passages.get(id);
  }

  allDocs(): IterableIterator<IndexedDoc> {
    return this.docs.values();
  }

  /** Indexes a document's extraction, replacing whatever was indexed for it before. */
  add(nodeId: string, textBlob: string, title: string, extraction: Extraction): void {
    this.remove(nodeId);
    const doc: IndexedDoc = { nodeId, textBlob, titleVector: lexicalVector(title), passageIds: [] };
    for (const page of extraction.pages) {
      for (const p of pagePassages(page)) {
        const passage: IndexedPassage = { ...p, id: this.nextId++, nodeId, vector: lexicalVector(p.text) };
        this.passages.set(passage.id, passage);
        doc.passageIds.push(passage.id);
        this.mini.add({ id: passage.id, text: passage.text });
        for (const t of tokenSet(passage.text)) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      }
    }
    this.docs.set(nodeId, doc);
  }

  remove(nodeId: string): boolean {
    const doc = this.docs.get(nodeId);
    if (!doc) return false;
    for (const id of doc.passageIds) {
      const passage = this.passages.get(id);
      if (!passage) continue;
      this.mini.discard(id);
      for (const t of tokenSet(passage.text)) {
        const n = (this.df.get(t) ?? 1) - 1;
        if (n > 0) this.df.set(t, n);
        else this.df.delete(t);
      }
      this.passages.delete(id);
    }
    this.docs.delete(nodeId);
    return true;
  }

  /** ln(1 + (N + 1) / (df + 1)) over passages: a term in no passage weighs most. */
  idf(term: string): number {
    return Math.log(1 + (this.passages.size + 1) / ((this.df.get(term) ?? 0) + 1));
  }

  /**
   * Passages of the documents `allowed` accepts, best first, by the weighted fusion of BM25, content-vector
   * and title-vector scores (fusion.ts). Passages no enabled signal scores above 0 are left out.
   */
  search(query: string, weights: Weights, allowed: (doc: IndexedDoc) => boolean): ScoredPassage[] {
    const docs: IndexedDoc[] = [];
    const allowedIds = new Set<string>();
    for (const doc of this.docs.values()) {
      if (allowed(doc)) {
        docs.push(doc);
        allowedIds.add(doc.nodeId);
      }
    }
    if (!docs.length || !tokenSet(query).length) return [];
    const bm25 = new Map<number, number>();
    if (weights.bm25 > 0) {
      const boostDocument = (id: number): number => (allowedIds.has(this.passages.get(id)?.nodeId ?? '') ? 1 : 0);
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
          const passage = this.passages.get(id)!;
          ids.push(id);
          b.push(bm25.get(id) ?? 0);
          t.push(weights.text > 0 ? Math.max(0, cosine(q, passage.vector)) : 0);
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
    // Ties (equal scores) keep reading order: earlier pages and passages first.
    order.sort((x, y) => fused[y] - fused[x] || ids[x] - ids[y]);
    return order.map((i) => ({ passage: this.passages.get(ids[i])!, score: fused[i] }));
  }
}
