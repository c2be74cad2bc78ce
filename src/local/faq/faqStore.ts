// Q&A records over the journal's `faqs` collection, with in-memory indexes rebuilt on start: the
// question-key map (register updates the Q&A with the same question), the recency order of list and
// filter, normalised text for searchTerm matching, and the search index (Q&As that are on).
//
// Changes are applied in memory synchronously, then committed; the caller answers only after the commit.
// Check-and-set therefore needs no locks (two registers of one question cannot both create), and a failed
// commit reloads the touched keys from the journal's durable state (`load`).
import type { JournalRecord } from '../store/journal';
import type { Journal } from '../store/journal';
import { normalizeText } from '../search/tokenizer';
import { FaqIndex } from './faqIndex';
import { faqFingerprint, type SavedFaqIndex } from './faqIndexState';
import { answerText, questionKey, type FaqRecord } from './faqRecord';
import { FAQS } from '../store/collections';

export class FaqStore {
  private readonly records = new Map<string, FaqRecord>();
  private readonly byKey = new Map<string, string>();
  private readonly haystacks = new Map<string, string>();
  private sorted: FaqRecord[] | undefined;
  private lastRev = 0;
  /** Q&As the start had to index (all of them without a usable snapshot). */
  reindexed = 0;
  /** While loading at start, the search index is filled in the background instead. */
  private loading = false;
  private current: FaqIndex;
  /** Resolves once the index is complete or being completed in the background: searches wait for it. */
  readonly indexLoaded: Promise<void>;

  /**
   * `saved`: the index of a snapshot, read after the service listens (it took seconds at 100,000 Q&As), then
   * reconciled here with the records as they are by then (faqIndexState.ts); until it is, writes go to an
   * empty index, which the reconciliation replaces.
   */
  constructor(journal: Journal, saved?: Promise<SavedFaqIndex | undefined>) {
    this.current = new FaqIndex(this.onRecord);
    this.loading = true;
    for (const [id, record] of journal.collection<FaqRecord>(FAQS)) this.load(id, record);
    this.loading = false;
    this.indexLoaded = saved
      ? saved.then(
          (s) => this.adopt(s),
          () => this.adopt(undefined),
        )
      : Promise.resolve(this.adopt(undefined));
  }

  get index(): FaqIndex {
    return this.current;
  }

  private readonly onRecord = (id: string): FaqRecord | undefined => {
    const record = this.records.get(id);
    return record?.status === 'on' ? record : undefined;
  };

  private adopt(saved: SavedFaqIndex | undefined): void {
    if (saved) this.current = FaqIndex.fromState(saved.state, this.onRecord);
    const fingerprints = new Map(saved?.state.faqIds.map((id, i) => [id, saved.fingerprints[i]]));
    const stale: string[] = [];
    for (const record of this.records.values()) {
      if (record.status !== 'on') continue;
      if (fingerprints.get(record.id) !== faqFingerprint(record)) {
        this.current.remove(record.id); // changed since the snapshot (or not in it)
        stale.push(record.id);
      }
      fingerprints.delete(record.id);
    }
    // Indexed in the snapshot but deleted, off or lost since (a crash cut the journal short).
    for (const id of fingerprints.keys()) this.current.remove(id);
    this.reindexed = stale.length;
    this.current.indexInBackground(stale);
  }

  get size(): number {
    return this.records.size;
  }

  get(id: string): FaqRecord | undefined {
    return this.records.get(id);
  }

  /** The Q&A whose question is the same as `question` (NFKC, case and surrounding space ignored). */
  byQuestion(question: string): FaqRecord | undefined {
    const id = this.byKey.get(questionKey(question));
    return id === undefined ? undefined : this.records.get(id);
  }

  /** Most recently updated first; cached until the next change. */
  ordered(): readonly FaqRecord[] {
    this.sorted ??= [...this.records.values()].sort((a, b) => b.updatedAt - a.updatedAt || b.rev - a.rev);
    return this.sorted;
  }

  /** Question, similar questions and answer text, normalised, for searchTerm matching (built on first use). */
  haystack(record: FaqRecord): string {
    let text = this.haystacks.get(record.id);
    if (text === undefined) {
      text = normalizeText([record.question, ...record.similarQuestions, answerText(record.answer)].join('\n'));
      this.haystacks.set(record.id, text);
    }
    return text;
  }

  nextRev(): number {
    return ++this.lastRev;
  }

  /** Applies a new version in memory and returns the journal record to commit. */
  put(record: FaqRecord): JournalRecord {
    this.load(record.id, record);
    return { c: FAQS, k: record.id, v: record };
  }

  remove(id: string): JournalRecord {
    this.load(id, undefined);
    return { c: FAQS, k: id };
  }

  /** Holds `record` (the journal's copy of the version already applied) instead of an equal object. */
  share(id: string, record: FaqRecord | undefined): void {
    if (record === undefined || !this.records.has(id)) return;
    this.records.set(id, record);
    this.sorted = undefined;
  }

  /** Sets (or, with undefined, drops) one record and every index entry derived from it. */
  load(id: string, record: FaqRecord | undefined): void {
    const previous = this.records.get(id);
    if (previous) {
      const key = questionKey(previous.question);
      if (this.byKey.get(key) === id) this.byKey.delete(key);
      this.records.delete(id);
      this.haystacks.delete(id);
      this.index.remove(id);
    }
    if (record) {
      this.records.set(id, record);
      this.byKey.set(questionKey(record.question), id);
      if (record.status === 'on' && !this.loading) this.index.put(record);
      if (record.rev > this.lastRev) this.lastRev = record.rev;
    }
    this.sorted = undefined;
  }
}
