// The RARE build in the local service: the chunks are the passages the retrieval index already keeps (the
// same 300–800 character units retrieval and answers use, with their lexical-hash-v1 vectors), and each
// chunk is linked to its most similar chunks: the top `top_k_per_chunk` candidates by cosine, of which those
// at or above `similarity_threshold` are kept, at most `max_similar_items`. lexical-hash-v1 is lexical, not
// semantic (docs/api.md#text-search-and-lexical-hash-v1): "similar" means sharing words and word pieces.
//
// There are no threads: `max_workers` bounds the chunks handled in one event-loop turn (max_workers ×
// CHUNKS_PER_WORKER, and never more than TURN_BUDGET_MS of work); the job yields between turns so the
// service keeps answering, and a cancel takes effect at the next turn.
import type { KbStore } from '../kb/kbStore';
import { documentFilter } from '../search/filters';
import type { LEXICAL_MODEL } from '../search/lexicalHash';
import type { Retrieval } from '../search/retrieval';
import type { JobControl } from './jobControl';
import { progress, type JobProgress } from './jobRecords';
import type { BuildParams } from './rareParams';

export const CHUNKS_PER_WORKER = 8;

export interface BuildChunk {
  nodeId: string;
  /** The document's name (the source_document of generated rows). */
  document: string;
  pageNo: number;
  subTextIndex: number;
  text: string;
}

/** What a completed build stores (a JSON blob): generate reads only this, so it works after a restart. */
export interface BuildData {
  version: 1;
  runId: string;
  model: typeof LEXICAL_MODEL;
  params: BuildParams;
  chunks: BuildChunk[];
  /** links[i]: [chunk index, cosine] of the chunks similar to chunk i, most similar first. */
  links: Array<Array<[number, number]>>;
}

export interface BuildInput {
  chunks: BuildChunk[];
  vectors: Float32Array[];
  documents: number;
}

/** The indexed passages of the documents under `folderIds` (all when empty), in a stable order. */
export async function collectChunks(kb: KbStore, retrieval: Retrieval, folderIds: readonly string[]): Promise<BuildInput> {
  await retrieval.ready();
  const allowed = documentFilter(kb, { sharedIds: folderIds });
  const docs = [...retrieval.index.allDocs()].filter(allowed).map((doc) => ({ doc, node: kb.get(doc.nodeId)! }));
  docs.sort((a, b) => a.node.name.localeCompare(b.node.name) || a.node.id.localeCompare(b.node.id));
  const chunks: BuildChunk[] = [];
  const vectors: Float32Array[] = [];
  for (const { doc, node } of docs) {
    for (const id of doc.passageIds) {
      const p = retrieval.index.passage(id);
      if (!p) continue;
      chunks.push({ nodeId: node.id, document: node.name, pageNo: p.pageNo, subTextIndex: p.subTextIndex, text: p.text });
      vectors.push(p.vector);
    }
  }
  return { chunks, vectors, documents: docs.length };
}

export interface LinkParams {
  similarity_threshold: number;
  top_k_per_chunk: number;
  max_similar_items: number;
}

/**
 * All-pairs similarity with the chunks' vectors as postings per dimension (which chunks have a non-zero value
 * there), each pair scored once: row i scores chunk i against the chunks after it, touching only the
 * dimensions i uses and, in each, only the chunks that share it, reading memory in order; every positive
 * score is offered to the top-k lists of both chunks. Scores are summed in dimension order in doubles, so
 * they equal lexicalHash.cosine exactly, and candidates reach each list in index order (ties keep the
 * earlier chunk first).
 */
export class PairLinker {
  private readonly starts: Int32Array;
  private readonly cursor: Int32Array;
  private readonly ids: Int32Array;
  private readonly vals: Float32Array;
  private readonly scores: Float64Array;
  private readonly topIdx: Int32Array;
  private readonly topScore: Float64Array;
  private readonly topCount: Int32Array;

  constructor(
    private readonly vectors: readonly Float32Array[],
    private readonly k: number,
  ) {
    const n = vectors.length;
    const dims = vectors[0]?.length ?? 0;
    const counts = new Int32Array(dims + 1);
    for (const v of vectors) for (let d = 0; d < dims; d++) if (v[d] !== 0) counts[d + 1]++;
    for (let d = 0; d < dims; d++) counts[d + 1] += counts[d];
    this.starts = counts;
    this.cursor = counts.slice(0, dims);
    this.ids = new Int32Array(counts[dims]);
    this.vals = new Float32Array(counts[dims]);
    const fill = counts.slice(0, dims);
    vectors.forEach((v, j) => {
      for (let d = 0; d < dims; d++) {
        if (v[d] === 0) continue;
        this.ids[fill[d]] = j;
        this.vals[fill[d]++] = v[d];
      }
    });
    this.scores = new Float64Array(n);
    this.topIdx = new Int32Array(n * k);
    this.topScore = new Float64Array(n * k);
    this.topCount = new Int32Array(n);
  }

  /** Rows must be run in order 0, 1, 2…; row i pairs chunk i with every later chunk. */
  row(i: number): void {
    const { starts, cursor, ids, vals, scores } = this;
    const v = this.vectors[i];
    for (let d = 0; d < v.length; d++) {
      const x = v[d];
      if (x === 0) continue;
      const end = starts[d + 1];
      let p = cursor[d];
      while (p < end && ids[p] <= i) p++;
      cursor[d] = p;
      for (; p < end; p++) scores[ids[p]] += x * vals[p];
    }
    for (let j = i + 1; j < scores.length; j++) {
      const s = scores[j];
      if (s <= 0) continue;
      scores[j] = 0;
      this.offer(i, j, s);
      this.offer(j, i, s);
    }
  }

  /** Chunk i's links once every row ran: its top k, then the threshold, then the cap. */
  links(i: number, params: LinkParams): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let t = 0; t < this.topCount[i] && out.length < params.max_similar_items; t++) {
      const s = this.topScore[i * this.k + t];
      if (s >= params.similarity_threshold) out.push([this.topIdx[i * this.k + t], Math.round(s * 10000) / 10000]);
    }
    return out;
  }

  private offer(c: number, j: number, s: number): void {
    const { k, topIdx, topScore } = this;
    const base = c * k;
    const n = this.topCount[c];
    if (n === k && s <= topScore[base + k - 1]) return;
    let at = n < k ? n : k - 1;
    while (at > 0 && topScore[base + at - 1] < s) {
      topScore[base + at] = topScore[base + at - 1];
      topIdx[base + at] = topIdx[base + at - 1];
      at--;
    }
    topScore[base + at] = s;
    topIdx[base + at] = j;
    if (n < k) this.topCount[c] = n + 1;
  }
}

/** Longest stretch of work between two yields, whatever the batch size: status calls stay fast. */
const TURN_BUDGET_MS = 10;

/** Links every chunk, a turn at a time; `report` receives live progress (rows, percent of pairs) after each turn. */
export async function linkChunks(
  input: BuildInput,
  params: BuildParams,
  control: JobControl,
  report: (p: JobProgress) => void,
): Promise<Array<Array<[number, number]>>> {
  const n = input.chunks.length;
  const batch = params.max_workers * CHUNKS_PER_WORKER;
  const linker = new PairLinker(input.vectors, params.top_k_per_chunk);
  const pairs = (n * (n - 1)) / 2;
  const step = (i: number): JobProgress => ({
    ...progress(i, n, 'finding similar chunks'),
    percent: pairs ? Math.round(((i * (n - 1) - (i * (i - 1)) / 2) / pairs) * 1000) / 10 : 100,
  });
  report(step(0));
  for (let i = 0; i < n;) {
    await control.step();
    const started = performance.now();
    const end = Math.min(n, i + batch);
    while (i < end) {
      linker.row(i++);
      if (performance.now() - started > TURN_BUDGET_MS) break;
    }
    report(step(i));
  }
  return input.chunks.map((_, i) => linker.links(i, params));
}

/** Distinct unordered pairs among the links. */
export function countPairs(links: ReadonlyArray<ReadonlyArray<[number, number]>>): number {
  const seen = new Set<number>();
  const n = links.length;
  links.forEach((list, i) => {
    for (const [j] of list) seen.add(Math.min(i, j) * n + Math.max(i, j));
  });
  return seen.size;
}
