// Persists the retrieval index and the Q&A index (docs/local-service.md#search-index-snapshot), so a restart
// loads them instead of rebuilding: at 100,000 Q&As and 2,000 documents the rebuild took about 15 s before
// the first answer. One snapshot file holds both, written once changes have settled (the indexes unchanged
// for a while, nothing left to index, every commit durable) and on close. At start a snapshot that cannot be
// used — missing, corrupt, cut short, of another version, or ahead of the journal (a crash cut the journal
// short) — is ignored and the indexes are rebuilt as before; a usable one is reconciled with the journal
// (faqIndexState.ts, Retrieval.restore), so changes after it are indexed and results equal a rebuild's.
import type { FaqStore } from '../faq/faqStore';
import { readFaqIndex, faqFingerprint, faqIndexSections, type SavedFaqIndex } from '../faq/faqIndexState';
import type { LocalLogger } from '../logger';
import { analysisId, readIndexSnapshot, SectionReader, writeIndexSnapshot, type Sections } from '../store/indexSnapshot';
import type { Journal } from '../store/journal';
import type { Retrieval } from './retrieval';
import { readRetrievalIndex, retrievalIndexSections, type RetrievalIndexState } from './retrievalIndexState';
import { tokenizerMode } from './tokenizer';

export const INDEX_SNAPSHOT_FILE = 'search-index.snapshot';
const DEFAULT_SETTLE_MS = 5000;

export interface SavedIndexes {
  seq: number;
  faq: SavedFaqIndex;
  retrieval: RetrievalIndexState;
}

/** The indexes of the snapshot in `file`, or undefined (logged why) when it cannot be used. */
export async function loadIndexSnapshot(file: string, journal: Journal, logger: LocalLogger): Promise<SavedIndexes | undefined> {
  const started = Date.now();
  const read = await readIndexSnapshot(file, analysisId(tokenizerMode()));
  if (!read.ok) {
    logger.info(`search index snapshot not used (${read.reason}): rebuilding the indexes`);
    return undefined;
  }
  if (read.header.seq > journal.stats.seq) {
    logger.warn(`search index snapshot is ahead of the journal (${read.header.seq} > ${journal.stats.seq}): rebuilding the indexes`);
    return undefined;
  }
  try {
    const reader = new SectionReader(read.sections);
    const saved = { seq: read.header.seq, faq: readFaqIndex(reader), retrieval: readRetrievalIndex(reader) };
    logger.info(`search index snapshot read in ${Date.now() - started} ms (journal position ${saved.seq})`);
    return saved;
  } catch (error) {
    logger.warn(`search index snapshot not used (${(error as Error).message}): rebuilding the indexes`);
    return undefined;
  }
}

export interface IndexSnapshotsOptions {
  file: string;
  journal: Journal;
  faqs: FaqStore;
  retrieval: Retrieval;
  logger: LocalLogger;
  /** How long the indexes must stay unchanged before a snapshot is written (default 5 s). */
  settleMs?: number;
}

/** Writes the snapshot after changes settle and on close; counts what it did for /_local/info. */
export class IndexSnapshots {
  readonly counts = { writes: 0, failures: 0 };
  private readonly timer: NodeJS.Timeout;
  /** Index versions (see `version`) last written, and last seen by the timer. */
  private saved: string;
  private seen = '';
  private writing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly options: IndexSnapshotsOptions,
    /** True when the indexes came from a snapshot: what is already on disk needs no write until they change. */
    loaded: Promise<boolean>,
  ) {
    this.saved = '';
    // Nothing is written before: quiet() waits for the retrieval rebuild, which follows the restore.
    void loaded.then((yes) => yes && (this.saved = this.version()));
    this.timer = setInterval(() => this.tick(), options.settleMs ?? DEFAULT_SETTLE_MS).unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
    if (!this.closed && this.version() !== this.saved && this.quiet()) await this.write();
    this.closed = true;
  }

  private version(): string {
    return `${this.options.faqs.index.version}/${this.options.retrieval.index.changes}`;
  }

  /** Nothing half done: the start-up indexing finished, and memory holds only durable commits. */
  private quiet(): boolean {
    const { faqs, retrieval, journal } = this.options;
    return retrieval.isReady && faqs.index.backlog === 0 && journal.settled;
  }

  private tick(): void {
    const version = this.version();
    if (this.writing || version === this.saved) return;
    // Settled: unchanged for a whole interval.
    if (version !== this.seen) {
      this.seen = version;
      return;
    }
    if (this.quiet()) this.writing = this.write().finally(() => (this.writing = undefined));
  }

  private async write(): Promise<void> {
    const { faqs, retrieval, journal, file, logger } = this.options;
    const started = Date.now();
    try {
      // Taken in one synchronous step, so both indexes and the journal position agree.
      const version = this.version();
      const seq = journal.stats.seq;
      const sections: Sections = new Map();
      const state = faqs.index.exportState();
      const fingerprints = Float64Array.from(state.faqIds, (id) => faqFingerprint(faqs.get(id)!));
      faqIndexSections({ state, fingerprints }, sections);
      retrievalIndexSections(retrieval.index.exportState(), sections);
      const bytes = await writeIndexSnapshot(file, seq, analysisId(tokenizerMode()), sections);
      this.saved = version;
      this.counts.writes++;
      logger.info(
        `search index snapshot written: ${(bytes / 2 ** 20).toFixed(1)} MB in ${Date.now() - started} ms (journal position ${seq})`,
      );
    } catch (error) {
      this.counts.failures++;
      logger.warn(`search index snapshot not written: ${(error as Error).message}`);
    }
  }
}
