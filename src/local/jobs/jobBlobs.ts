// Job files (build data, result CSVs) live in the content-addressed blob store, where equal content is one
// blob: two generate runs with the same parameters write the same CSV, and a user may upload a downloaded
// result as a document. A blob is therefore deleted only when no job record and no document refers to it.
import type { KbStore } from '../kb/kbStore';
import type { LocalLogger } from '../logger';
import type { BlobStore } from '../store/blobs';
import type { Journal } from '../store/journal';
import { RARE_BUILD_KEY, type StoredBuild, type StoredBulkRun, type StoredRareResult } from './jobRecords';
import { BULK_RUNS, NODES, RARE, RARE_RESULTS } from '../store/collections';

export interface BlobDeps {
  journal: Journal;
  blobs: BlobStore;
  kb: KbStore;
  logger: LocalLogger;
}

/**
 * Whether a record names the blob — as memory shows it, or as the disk may still hold it: a delete (or change)
 * of a record that is not durable yet can be lost in a crash, and the record would come back without its file.
 */
export function isReferenced(deps: BlobDeps, hash: string): boolean {
  const { journal, kb } = deps;
  if (journal.get<StoredBuild>(RARE, RARE_BUILD_KEY)?.blob === hash) return true;
  for (const r of journal.collection<StoredRareResult>(RARE_RESULTS).values()) if (r.blob === hash) return true;
  for (const r of journal.collection<StoredBulkRun>(BULK_RUNS).values()) if (r.blob === hash) return true;
  for (const n of kb.all()) if (n.blob === hash || n.textBlob === hash) return true;
  for (const c of [RARE, RARE_RESULTS, BULK_RUNS, NODES])
    for (const v of journal.pendingReplaced(c)) {
      const r = v as { blob?: unknown; textBlob?: unknown } | null;
      if (r && typeof r === 'object' && (r.blob === hash || r.textBlob === hash)) return true;
    }
  return false;
}

/** Deletes `hash` when nothing refers to it any more (call after the record's removal is committed). */
export async function releaseBlob(deps: BlobDeps, hash: string | undefined): Promise<void> {
  if (!hash || isReferenced(deps, hash)) return;
  await deps.blobs
    .delete(hash, () => !isReferenced(deps, hash))
    .catch((error) => deps.logger.warn(`cannot delete job file ${hash}: ${(error as Error)?.message ?? error}`));
}
