// Q&As as a source of generative answers (search_from: qna). The Q&A handlers own their FaqService; this
// reads the same journal collection and keeps its own FaqIndex (the Q&A search engine, same confidence
// scale) in step with it, re-indexing only the records whose version changed since the last answer.
import { FaqIndex } from '../faq/faqIndex';
import { answerText, hashtagKey, type FaqRecord } from '../faq/faqRecord';
import type { Journal } from '../store/journal';
import type { AndOr } from '../search/filters';
import { FAQS } from '../store/collections';

/** A Q&A counts as a source from this confidence on (below 0.5 is "no matching answer": docs/api.md#search-qa). */
export const QNA_MIN_CONFIDENCE = 0.5;
/**
 * With documents among the sources, a Q&A answers alone, whole, only from this confidence on: a question that
 * shares words with a Q&A's question ("create a tar archive" and "list a tar archive" match at about 0.5) is
 * another question, and its answer belongs to the documents (seen in a person's trial).
 */
export const QNA_ANSWERS_ALONE = 0.8;

export interface FaqHit {
  record: FaqRecord;
  confidence: number;
  answer: string;
}

export interface FaqFilter {
  include?: readonly string[];
  includeOption?: AndOr;
  exclude?: readonly string[];
  excludeOption?: AndOr;
}

export class FaqLookup {
  private readonly records: ReadonlyMap<string, FaqRecord>;
  private readonly indexed = new Map<string, FaqRecord>();
  private readonly index: FaqIndex;

  constructor(journal: Journal) {
    this.records = journal.collection<FaqRecord>(FAQS);
    this.index = new FaqIndex((id) => {
      const r = this.records.get(id);
      return r?.status === 'on' ? r : undefined;
    });
  }

  /** The best Q&A that is on, matches the filter and reaches QNA_MIN_CONFIDENCE. */
  best(query: string, filter: FaqFilter = {}): FaqHit | undefined {
    this.sync();
    const include = (filter.include ?? []).map(hashtagKey).filter(Boolean);
    const exclude = (filter.exclude ?? []).map(hashtagKey).filter(Boolean);
    let best: FaqHit | undefined;
    for (const match of this.index.search(query, QNA_MIN_CONFIDENCE)) {
      const record = this.records.get(match.faqId);
      if (!record || record.status !== 'on') continue;
      const tags = new Set(record.hashtags.map(hashtagKey));
      if (include.length && !(filter.includeOption === 'and' ? include.every((t) => tags.has(t)) : include.some((t) => tags.has(t))))
        continue;
      if (exclude.length && (filter.excludeOption === 'and' ? exclude.every((t) => tags.has(t)) : exclude.some((t) => tags.has(t))))
        continue;
      if (
        !best ||
        match.confidence > best.confidence ||
        (match.confidence === best.confidence && record.updatedAt > best.record.updatedAt)
      ) {
        best = { record, confidence: match.confidence, answer: answerText(record.answer) };
      }
    }
    return best;
  }

  /** Records are immutable values: a different object under an id is a new version. */
  private sync(): void {
    for (const [id, record] of this.records) {
      if (this.indexed.get(id) === record) continue;
      this.indexed.set(id, record);
      if (record.status === 'on') this.index.put(record);
      else this.index.remove(id);
    }
    if (this.indexed.size > this.records.size) {
      for (const id of this.indexed.keys()) {
        if (!this.records.has(id)) {
          this.indexed.delete(id);
          this.index.remove(id);
        }
      }
    }
  }
}
