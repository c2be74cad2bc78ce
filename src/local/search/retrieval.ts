// Retrieval in the local service: keeps the index in step with the knowledge base (a document is indexed
// when processing completes, re-indexed when it completes again after a replace, dropped on delete, and the
// whole index is rebuilt from the stored extractions at start, in the background — searches arriving
// earlier wait for it), and answers searches by page with filters and the optional reranker.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Extraction } from '../extract/types';
import type { KbStore } from '../kb/kbStore';
import type { NodeRecord } from '../kb/nodeRecord';
import type { LocalLogger } from '../logger';
import type { BlobStore } from '../store/blobs';
import { passageClueId } from './clueId';
import { documentFilter, type DocumentScope } from './filters';
import type { Weights } from './fusion';
import { queryTerms, type WeightedTerm } from './queryTerms';
import { rerank } from './reranker';
import { RetrievalIndex, type IndexedPassage } from './retrievalIndex';
import type { RetrievalIndexState } from './retrievalIndexState';

export interface PassageHit {
  passage: IndexedPassage;
  node: NodeRecord;
  score: number;
  clueId: string;
}

export interface PageSearch {
  weights: Weights;
  scope: DocumentScope;
  maxPages: number;
  rerank?: { candidates: number; maxTokens: number };
}

const EXTRACTION_CACHE = 4;

export class Retrieval {
  readonly index = new RetrievalIndex();
  private readonly extractions = new Map<string, Promise<Extraction>>();
  private readonly clueIds = new WeakMap<IndexedPassage, string>();
  private rebuilding: Promise<void> = Promise.resolve();
  private rebuilt = true;
  private closed = false;
  private rebuiltCount = 0;

  constructor(
    private readonly kb: KbStore,
    private readonly blobs: BlobStore,
    private readonly logger: LocalLogger,
  ) {
    // A deleted document leaves the index in the same turn as it leaves the store.
    kb.onChange((id, node, previous) => {
      if (!node) this.index.remove(id);
      // A delete undone by a failed write brings the document back: index its stored text again.
      else if (!previous && node.processState === 'completed' && node.textBlob)
        void this.indexStored(id).catch((error) => this.logger.warn(`re-indexing ${id}: ${(error as Error)?.message ?? error}`));
      // A completion undone by a failed write (same file, its text gone again): the text indexed with it goes too.
      else if (
        previous?.processState === 'completed' &&
        previous.textBlob &&
        previous.blob === node.blob &&
        node.textBlob !== previous.textBlob &&
        this.index.doc(id)?.textBlob === previous.textBlob
      )
        this.index.remove(id);
    });
  }

  /**
   * ProcessingQueue listener: index the new extraction, or drop the document when processing failed. It runs
   * in the span of the commit that completes the document (a reader never sees it completed and not
   * indexed); only the record as it is now counts.
   */
  onProcessed(processed: NodeRecord, extraction: Extraction | undefined): void {
    const node = this.kb.get(processed.id);
    if (!node) return;
    if (node.textBlob !== processed.textBlob || node.processState !== processed.processState) return; // newer content: its own run indexes it
    if (!extraction || !node.textBlob || node.processState !== 'completed') {
      this.index.remove(node.id);
      return;
    }
    this.index.add(node.id, node.textBlob, titleOf(node, extraction), extraction, node.name);
    this.remember(node.textBlob, Promise.resolve(extraction));
  }

  /**
   * Takes the index of a snapshot (before rebuildInBackground), dropping every document that is no longer
   * completed with the same text and name: the rebuild then indexes those, and any the snapshot lacks.
   */
  restore(state: RetrievalIndexState): boolean {
    if (!this.index.restoreState(state)) return false;
    for (const doc of [...this.index.allDocs()]) {
      const node = this.kb.get(doc.nodeId);
      if (node?.processState !== 'completed' || node.textBlob !== doc.textBlob || node.name !== doc.name) this.index.remove(doc.nodeId);
    }
    return true;
  }

  /** Documents the start-up rebuild indexed (all of them without a usable snapshot). */
  get reindexed(): number {
    return this.rebuiltCount;
  }

  /**
   * Restores `snapshot` once read (the service listens meanwhile), then indexes what it lacks; searches wait
   * for both. Resolves to whether the snapshot was used.
   */
  rebuildInBackground(snapshot: Promise<RetrievalIndexState | undefined> = Promise.resolve(undefined)): Promise<boolean> {
    this.rebuilt = false;
    const restored = snapshot.then((state) => state !== undefined && this.restore(state)).catch(() => false);
    this.rebuilding = restored
      .then(() => this.rebuild())
      .catch((error) => this.logger.error(`retrieval index rebuild: ${(error as Error)?.stack ?? error}`))
      .finally(() => (this.rebuilt = true));
    return restored;
  }

  /** False while the start-up rebuild runs: the index then holds only part of the completed documents. */
  get isReady(): boolean {
    return this.rebuilt;
  }

  /** Resolves once the start-up rebuild is done. */
  ready(): Promise<void> {
    return this.rebuilding;
  }

  close(): void {
    this.closed = true;
  }

  idf(term: string): number {
    return this.index.idf(term);
  }

  terms(query: string): WeightedTerm[] {
    return queryTerms(query, (t) => this.index.idf(t));
  }

  /** The stored extraction of a completed document (a few are cached for highlights and previews). */
  async extraction(node: NodeRecord): Promise<Extraction | undefined> {
    if (!node.textBlob || !this.blobs.has(node.textBlob)) return undefined;
    const hash = node.textBlob;
    const cached = this.extractions.get(hash);
    const pending = cached ?? this.blobs.read(hash).then((buf) => JSON.parse(buf.toString('utf8')) as Extraction);
    this.remember(hash, pending);
    try {
      return await pending;
    } catch (error) {
      this.extractions.delete(hash);
      this.logger.warn(`cannot read the extraction of ${node.name} (${node.id}): ${(error as Error)?.message ?? error}`);
      return undefined;
    }
  }

  /** Passages best first (at most `limit`), with their documents (current records) and clue ids. */
  async searchPassages(query: string, weights: Weights, scope: DocumentScope, limit = Infinity): Promise<PassageHit[]> {
    await this.ready();
    const filter = documentFilter(this.kb, scope);
    return this.index.search(query, weights, filter, limit).map(({ passage, score }) => this.hit(passage, score));
  }

  /** One hit per (document, page) — its best passage — best first, reranked when asked. */
  async searchPages(query: string, options: PageSearch): Promise<PassageHit[]> {
    await this.ready();
    const want = Math.max(options.maxPages, options.rerank?.candidates ?? 0);
    // The ranking is walked only as far as `want` pages: hits (and clue ids) are made for those alone.
    const { passages, scores } = this.index.rank(query, options.weights, documentFilter(this.kb, options.scope));
    const seen = new Set<string>();
    let pages: PassageHit[] = [];
    for (let i = 0; i < passages.length && pages.length < want; i++) {
      const key = `${passages[i].nodeId}\n${passages[i].pageNo}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pages.push(this.hit(passages[i], scores[i]));
    }
    if (options.rerank) {
      const head = pages.slice(0, options.rerank.candidates).map((h) => ({ ...h, text: h.passage.text }));
      const reordered = rerank(this.terms(query), head, options.rerank.maxTokens);
      pages = [...reordered.map(({ text: _t, rerankScore: _r, ...h }) => h), ...pages.slice(options.rerank.candidates)];
    }
    return pages.slice(0, options.maxPages);
  }

  private hit(passage: IndexedPassage, score: number): PassageHit {
    const node = this.kb.get(passage.nodeId)!;
    // A passage's clue id never changes (a re-index makes new passages): made once, on first use.
    let clueId = this.clueIds.get(passage);
    if (clueId === undefined) {
      clueId = passageClueId(node.id, passage.pageNo, passage.subTextIndex, this.index.doc(passage.nodeId)!.textBlob);
      this.clueIds.set(passage, clueId);
    }
    return { passage, node, score, clueId };
  }

  private remember(hash: string, extraction: Promise<Extraction>): void {
    this.extractions.delete(hash);
    this.extractions.set(hash, extraction);
    while (this.extractions.size > EXTRACTION_CACHE) this.extractions.delete(this.extractions.keys().next().value!);
  }

  /** Indexes a completed document from its stored extraction unless already indexed; false if nothing was done. */
  private async indexStored(id: string): Promise<boolean> {
    const node = this.kb.get(id);
    if (!node?.textBlob || node.processState !== 'completed' || this.index.doc(id)?.textBlob === node.textBlob) return false;
    const extraction = await this.extraction(node);
    // Processing may have re-indexed, replaced or deleted it meanwhile.
    const now = this.kb.get(id);
    if (
      !extraction ||
      now?.textBlob !== node.textBlob ||
      now.processState !== 'completed' ||
      this.index.doc(id)?.textBlob === node.textBlob
    )
      return false;
    this.index.add(id, node.textBlob, titleOf(node, extraction), extraction, node.name);
    return true;
  }

  private async rebuild(): Promise<void> {
    const started = Date.now();
    const ids = [...this.kb.all()].filter((n) => n.nodeType === 'file' && n.processState === 'completed' && n.textBlob).map((n) => n.id);
    let indexed = 0;
    for (const id of ids) {
      if (this.closed) return;
      if (!(await this.indexStored(id))) continue;
      indexed++;
      this.rebuiltCount++;
      await nextTurn(); // one document per event-loop turn: the server keeps answering meanwhile
    }
    if (indexed)
      this.logger.info(`retrieval index: ${indexed} documents, ${this.index.passageCount} passages in ${Date.now() - started} ms`);
  }
}

/** What the title vector reads: the file name without extension, and the title found inside the document. */
export function titleOf(node: NodeRecord, extraction: Extraction): string {
  const name = node.name.replace(/\.[^.]{1,8}$/, '').replace(/[-_]+/g, ' ');
  return extraction.title ? `${name} ${extraction.title}` : name;
}
