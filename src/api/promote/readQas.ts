// Reading both projects' Q&As for a promote: the listing (questions and ids, pages of 1000), then single lookups
// (the only source of similar questions, status and folder) of the source's Q&As and of the target's Q&As with
// the same questions, through the import's own lookup (qaImport.ts).
import { compareQas, type QaComparison, type QaIndexEntry } from '../../core/promote/qaCompare';
import { normalizeQuestion } from '../../core/qaFile/text';
import type { ApiClient } from '../client';
import { existingLookup } from '../qaImport';
import { needOffered, refuseSameProject } from './promoteErrors';

export type ReadProgress = (phase: 'listing' | 'reading', done: number, total: number) => void;

/** Every Q&A's question and id, keyed by normalizeQuestion (the first of a question kept). */
export async function listQaIndex(client: ApiClient, side: 'source' | 'target', signal?: AbortSignal): Promise<Map<string, QaIndexEntry>> {
  const out = new Map<string, QaIndexEntry>();
  for (let offset = 0; ; offset += 1000) {
    const page = await needOffered(side, 'faq.list', () => client.faq.list({ offset, limit: 1000, format: 'text' }, { signal }));
    for (const r of page.results) {
      const key = normalizeQuestion(r.question);
      if (!out.has(key)) out.set(key, { id: r.id, question: r.question });
    }
    if (page.results.length < 1000) return out;
  }
}

export interface CompareQasOptions {
  /** Source Q&A ids to compare; all when absent (then the target's own Q&As are listed as onlyInTarget). */
  ids?: readonly string[];
  signal?: AbortSignal;
  onProgress?: ReadProgress;
  concurrency?: number;
}

/** Compares the source's Q&As (all, or the given ids) with the target's, field by field. */
export async function compareProjectQas(source: ApiClient, target: ApiClient, options: CompareQasOptions = {}): Promise<QaComparison> {
  refuseSameProject(source, target);
  const { signal } = options;
  const [sourceIndex, targetIndex] = await Promise.all([listQaIndex(source, 'source', signal), listQaIndex(target, 'target', signal)]);
  let sourceEntries = sourceIndex;
  if (options.ids) {
    const wanted = new Set(options.ids);
    sourceEntries = new Map([...sourceIndex].filter(([, e]) => wanted.has(e.id)));
  }
  // Only questions both have are read one by one: a new one is read when it is copied.
  const matched = [...sourceEntries.keys()].filter((k) => targetIndex.has(k));
  const total = 2 * matched.length;
  let done = 0;
  options.onProgress?.('reading', 0, total);
  const tick = () => options.onProgress?.('reading', ++done, total);
  const concurrency = options.concurrency ?? 8;
  const idsOf = (index: ReadonlyMap<string, QaIndexEntry>) => new Map([...index].map(([k, e]) => [k, e.id]));
  const [sourceDetails, targetDetails] = await Promise.all([
    existingLookup(source, idsOf(sourceEntries), concurrency, tick)(matched, signal),
    existingLookup(target, idsOf(targetIndex), concurrency, tick)(matched, signal),
  ]);
  return compareQas(sourceEntries, sourceDetails, targetDetails, options.ids ? undefined : targetIndex);
}
