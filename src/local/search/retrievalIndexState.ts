// The retrieval index in an index snapshot (store/indexSnapshot.ts): its slots, passages, title and content
// vectors and BM25 postings, so a restart loads them instead of reading, splitting and tokenizing every
// document again. Numbers go as typed arrays; passages (text, positions, heading paths) as one JSON section.
import { type SectionReader, SnapshotFormatError, bytes, jsonBytes, stringsBytes, type Sections } from '../store/indexSnapshot';
import type { Bm25State } from './bm25Index';
import { DIMS } from './lexicalHash';
import type { Passage } from './passages';

export interface SavedPassage extends Passage {
  id: number;
  nodeId: string;
  slot: number;
  headingPath: readonly string[];
}

export interface SavedDoc {
  nodeId: string;
  name: string;
  textBlob: string;
  passageIds: number[];
  slots: number[];
}

export interface RetrievalIndexState {
  nextId: number;
  slotCount: number;
  free: number[];
  docs: SavedDoc[];
  /** DIMS floats per document, in the order of `docs`. */
  titleVectors: Float32Array;
  /** The passages of `docs`, document after document, each in the order of its passageIds. */
  passages: SavedPassage[];
  columns: Float32Array;
  bm25: Bm25State;
}

type PassageRow = [number, number, number, number, number, number, number, number, number, number, number, string];

export function retrievalIndexSections(state: RetrievalIndexState, into: Sections): void {
  const paths = new Map<string, number>();
  const rows = state.passages.map((p): PassageRow => {
    const key = JSON.stringify(p.headingPath);
    let path = paths.get(key);
    if (path === undefined) paths.set(key, (path = paths.size));
    const [first, last] = p.items ?? [-1, -1];
    return [p.id, p.slot, p.pageNo, p.subTextIndex, p.start, p.end, p.lineStart, p.lineEnd, first, last, path, p.text];
  });
  const { nextId, slotCount, free, docs } = state;
  const { terms, live, avgLength, dead } = state.bm25;
  into.set('retrieval.meta', jsonBytes({ nextId, slotCount, free, docs, terms: terms.length, live, avgLength, dead }));
  into.set('retrieval.passages', jsonBytes({ paths: [...paths.keys()].map((k) => JSON.parse(k) as string[]), rows }));
  into.set('retrieval.titles', bytes(state.titleVectors));
  into.set('retrieval.columns', bytes(state.columns));
  into.set('bm25.terms', stringsBytes(terms));
  into.set('bm25.counts', bytes(state.bm25.counts));
  into.set('bm25.postings', bytes(state.bm25.postings));
  into.set('bm25.lengths', bytes(state.bm25.lengths));
}

/** Decodes and checks the sections (slots, ids and counts consistent); throws SnapshotFormatError. */
export function readRetrievalIndex(reader: SectionReader): RetrievalIndexState {
  const meta = reader.json<
    Omit<RetrievalIndexState, 'titleVectors' | 'passages' | 'columns' | 'bm25'> &
      Omit<Bm25State, 'terms' | 'counts' | 'postings' | 'lengths'> & { terms: number }
  >('retrieval.meta');
  const { paths, rows } = reader.json<{ paths: string[][]; rows: PassageRow[] }>('retrieval.passages');
  const titleVectors = reader.float32('retrieval.titles');
  const columns = reader.float32('retrieval.columns');
  const terms = reader.strings('bm25.terms', meta.terms);
  const counts = reader.int32('bm25.counts');
  const postings = reader.int32('bm25.postings');
  const signed = reader.int32('bm25.lengths');
  const lengths = new Uint32Array(signed.buffer, signed.byteOffset, signed.length);
  const fail = (what: string): never => {
    throw new SnapshotFormatError(`retrieval: ${what}`);
  };
  if (titleVectors.length !== meta.docs.length * DIMS) fail('title vectors');
  if (columns.length < meta.slotCount * DIMS || lengths.length < meta.slotCount) fail('slots');
  if (counts.length !== terms.length * 2) fail('term counts');
  let total = 0;
  for (let i = 0; i < counts.length; i += 2) total += counts[i] * 2;
  if (total !== postings.length) fail('postings');
  for (let i = 0; i < postings.length; i += 2) if (postings[i] < 0 || postings[i] >= meta.slotCount) fail('posting slot');
  const byId = new Map(rows.map((r) => [r[0], r]));
  const passages: SavedPassage[] = [];
  const used = new Uint8Array(meta.slotCount);
  for (const doc of meta.docs) {
    if (doc.passageIds.length !== doc.slots.length) fail('document passages');
    doc.passageIds.forEach((id, k) => {
      const r = byId.get(id);
      if (!r || r[1] !== doc.slots[k] || r[1] < 0 || r[1] >= meta.slotCount || used[r[1]]++ || !paths[r[10]]) fail('passage');
      const [, slot, pageNo, subTextIndex, start, end, lineStart, lineEnd, first, last, path, text] = r!;
      const p: SavedPassage = {
        id,
        nodeId: doc.nodeId,
        slot,
        pageNo,
        subTextIndex,
        start,
        end,
        text,
        lineStart,
        lineEnd,
        headingPath: paths[path],
      };
      if (first >= 0) p.items = [first, last];
      passages.push(p);
    });
  }
  if (passages.length !== rows.length) fail('passage count');
  const bm25: Bm25State = { terms, counts, postings, lengths, dead: meta.dead, live: meta.live, avgLength: meta.avgLength };
  const { nextId, slotCount, free, docs } = meta;
  return { nextId, slotCount, free, docs, titleVectors, passages, columns, bm25 };
}
