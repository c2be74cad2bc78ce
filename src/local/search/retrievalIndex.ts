// The retrieval index: every passage of every processed document, scored by BM25 (bm25Index.ts: MiniSearch's
// scoring, own inverted index) and by lexical-hash-v1 vectors (content per passage, title per document).
// Documents are added when processing completes and removed on delete or before a re-index; which documents
// a search may see (status, folders, hashtags, owners) is decided at query time by the caller, so moves and
// status changes need no re-indexing.
//
// Each passage lives in a slot (a small integer, reused after removal) so that a search works on flat typed
// arrays indexed by slot — allowed or not, BM25, content cosine, title cosine — instead of maps and one object
// per passage; a passage's text is tokenized once, when added (and again only to remove it).
import type { Extraction } from '../extract/types';
import { Bm25Index } from './bm25Index';
import { fuseScores, rankByScore, type Weights } from './fusion';
import { cosine, DIMS, lexicalVector, sparse, VectorColumns } from './lexicalHash';
import { HeadingTrail } from './headings';
import { documentNoise } from './pageNoise';
import { pagePassages, type Passage } from './passages';
import { indexTerms, indexTermSet, termOf } from './analysis';
import { expandQuery } from './queryExpansion';
import { Scratch } from './searchScratch';
import type { RetrievalIndexState } from './retrievalIndexState';

export interface IndexedPassage extends Passage {
  id: number;
  nodeId: string;
  /** The section headings the passage lies under, outermost first (headings.ts); empty when the document has none. */
  headingPath: readonly string[];
  /** Its lexical-hash-v1 vector (a copy: the index keeps vectors by dimension). */
  readonly vector: Float32Array;
}

export interface IndexedDoc {
  nodeId: string;
  /** The document's name when it was indexed (the title vector reads it). */
  name: string;
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

/** Passages best first and their fused scores, without one object per passage. */
export interface Ranking {
  passages: IndexedPassage[];
  scores: number[];
}

interface StoredDoc extends IndexedDoc {
  slots: number[];
}

/** Removed slots are purged from the postings (and reused) once there are this many, and a quarter of the live ones. */
const PURGE_MIN = 256;

class StoredPassage implements IndexedPassage {
  declare pageNo: number;
  declare subTextIndex: number;
  declare start: number;
  declare end: number;
  declare text: string;
  declare lineStart: number;
  declare lineEnd: number;
  declare items?: [first: number, last: number];
  headingPath: readonly string[] = [];
  readonly #columns: VectorColumns;
  /** The vector, copied out when the passage is removed (its slot may then hold another passage). */
  #kept: Float32Array | undefined;

  constructor(
    p: Passage,
    readonly id: number,
    readonly nodeId: string,
    readonly slot: number,
    columns: VectorColumns,
  ) {
    Object.assign(this, p);
    this.#columns = columns;
  }

  get vector(): Float32Array {
    return this.#kept ?? this.#columns.get(this.slot);
  }

  retire(): void {
    this.#kept = this.#columns.get(this.slot);
  }
}

export class RetrievalIndex {
  private readonly bm25 = new Bm25Index();
  private readonly columns = new VectorColumns();
  private readonly passages = new Map<number, StoredPassage>();
  private readonly docs = new Map<string, StoredDoc>();
  /** The passage in each slot; undefined when the slot is free or awaiting a purge. */
  private readonly bySlot: Array<StoredPassage | undefined> = [];
  private readonly free: number[] = [];
  private readonly scratch = new Scratch();
  private nextId = 1;
  /** Counts adds and removes (a snapshot is due when it moved). */
  changes = 0;

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
  add(nodeId: string, textBlob: string, title: string, extraction: Extraction, name = ''): void {
    this.remove(nodeId);
    this.changes++;
    const doc: StoredDoc = { nodeId, name, textBlob, titleVector: lexicalVector(title), passageIds: [], slots: [] };
    const noise = documentNoise(extraction);
    const trail = new HeadingTrail();
    for (const page of extraction.pages) {
      for (const p of pagePassages(page, noise.of(page))) {
        const slot = this.free.pop() ?? this.bySlot.length;
        const passage = new StoredPassage(p, this.nextId++, nodeId, slot, this.columns);
        trail.read(p.text, 1); // a heading the passage opens with is its own
        passage.headingPath = trail.path;
        trail.read(p.text);
        this.columns.set(slot, lexicalVector(p.text));
        this.bm25.add(slot, indexTerms(bm25Text(passage)));
        this.bySlot[slot] = passage;
        this.passages.set(passage.id, passage);
        doc.passageIds.push(passage.id);
        doc.slots.push(slot);
      }
    }
    this.docs.set(nodeId, doc);
  }

  remove(nodeId: string): boolean {
    const doc = this.docs.get(nodeId);
    if (!doc) return false;
    this.changes++;
    for (const id of doc.passageIds) {
      const passage = this.passages.get(id);
      if (!passage) continue;
      passage.retire();
      this.bm25.remove(passage.slot, indexTermSet(bm25Text(passage)));
      this.bySlot[passage.slot] = undefined;
      this.passages.delete(id);
    }
    this.docs.delete(nodeId);
    const dead = this.bm25.deadCount;
    if (dead >= PURGE_MIN && dead * 4 >= this.passages.size) for (const slot of this.bm25.purge()) this.free.push(slot);
    return true;
  }

  /** Everything a snapshot needs to give back this index (retrievalIndexState.ts encodes it). */
  exportState(): RetrievalIndexState {
    const docs = [...this.docs.values()].map(({ nodeId, name, textBlob, passageIds, slots }) => ({
      nodeId,
      name,
      textBlob,
      passageIds,
      slots,
    }));
    const titleVectors = new Float32Array(docs.length * DIMS);
    [...this.docs.values()].forEach((d, i) => titleVectors.set(d.titleVector, i * DIMS));
    const passages = [...this.docs.values()].flatMap((d) => d.passageIds.map((id) => this.passages.get(id)!));
    const { nextId, free } = this;
    return {
      nextId,
      slotCount: this.bySlot.length,
      free,
      docs,
      titleVectors,
      passages,
      columns: this.columns.exportBlocks(),
      bm25: this.bm25.exportState(),
    };
  }

  /** Loads a state (checked by its decoder) into this empty index; false (and still empty) if its vectors do not fit. */
  restoreState(state: RetrievalIndexState): boolean {
    if (this.docs.size || !this.columns.restoreBlocks(state.columns)) return false;
    this.bm25.restoreState(state.bm25);
    this.bySlot.length = state.slotCount;
    for (const p of state.passages) {
      const passage = new StoredPassage(p, p.id, p.nodeId, p.slot, this.columns);
      passage.headingPath = p.headingPath;
      this.bySlot[p.slot] = passage;
      this.passages.set(p.id, passage);
    }
    state.docs.forEach((d, i) => this.docs.set(d.nodeId, { ...d, titleVector: state.titleVectors.slice(i * DIMS, (i + 1) * DIMS) }));
    for (const slot of state.free) this.free.push(slot);
    this.nextId = state.nextId;
    this.changes++;
    return true;
  }

  /** ln(1 + (N + 1) / (df + 1)) over passages: a term in no passage weighs most. */
  idf(term: string): number {
    return Math.log(1 + (this.passages.size + 1) / (this.bm25.df(termOf(term)) + 1));
  }

  /**
   * Passages of the documents `allowed` accepts, best first, by the weighted fusion of BM25, content-vector
   * and title-vector scores (fusion.ts) — at most `limit`. Passages no enabled signal scores above 0 are left
   * out; equal scores keep reading order.
   */
  search(query: string, weights: Weights, allowed: (doc: IndexedDoc) => boolean, limit = Infinity): ScoredPassage[] {
    const { passages, scores } = this.rank(query, weights, allowed);
    const n = Math.min(limit, passages.length);
    const out: ScoredPassage[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = { passage: passages[i], score: scores[i] };
    return out;
  }

  /** What `search` returns, as two arrays: for callers that read only as far as they need. */
  rank(query: string, weights: Weights, allowed: (doc: IndexedDoc) => boolean): Ranking {
    const slots = this.bySlot.length;
    const expanded = expandQuery(query);
    const terms = expanded.terms;
    const q = weights.text > 0 || weights.title > 0 ? sparse(lexicalVector(query)) : undefined;
    const { ok, bm25, matched, covered, text, title, fused, positive } = this.scratch.reset(slots);
    let anyDoc = false;
    for (const doc of this.docs.values()) {
      if (!allowed(doc)) continue;
      anyDoc = true;
      const t = weights.title > 0 ? Math.max(0, cosine(q!, doc.titleVector)) : 0;
      for (const slot of doc.slots) {
        ok[slot] = 1;
        title[slot] = t;
      }
    }
    if (!anyDoc || !terms.length) return { passages: [], scores: [] };

    if (weights.bm25 > 0)
      this.bm25.score(terms, ok, bm25, matched, expanded.weights, { sources: expanded.sources, covered, counted: expanded.counted });
    if (weights.text > 0) {
      this.columns.scoreAll(q!, text);
      for (let s = 0; s < slots; s++) text[s] = ok[s] ? Math.max(0, text[s]) : 0;
    }
    // Every signal is 0 outside the allowed slots (and BM25 outside its matches), so fusing over all slots
    // gives the same maxima, hence the same scores, as fusing over the candidates alone.
    fuseScores(weights, bm25, text, title, fused);
    let n = 0;
    for (let s = 0; s < slots; s++) if (fused[s] > 0) positive[n++] = s;
    const order = rankByScore(positive.subarray(0, n), fused, (s) => this.bySlot[s]!.id);
    const ranking: Ranking = { passages: new Array(n), scores: new Array(n) };
    for (let r = 0; r < n; r++) {
      ranking.passages[r] = this.bySlot[order[r]]!;
      ranking.scores[r] = fused[order[r]];
    }
    return ranking;
  }
}

/**
 * What BM25 reads of a passage: its text, and the heading of its section when the passage does not start
 * with it (a section's later passages rarely repeat its title, which names their topic).
 */
export function bm25Text(passage: Pick<IndexedPassage, 'text' | 'headingPath'>): string {
  const heading = passage.headingPath.at(-1);
  if (!heading || passage.text.startsWith(heading.split(' ')[0])) return passage.text;
  return `${heading.replace(/^[\d.]+\s+/, '')}\n${passage.text}`;
}
