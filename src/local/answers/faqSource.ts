// Q&As as a source of generative answers (search_from: qna): searches the Q&A store's own index (the one Q&A
// search uses, same confidence scale), which follows every write; a second index here doubled the memory
// of a large store and its start-up work.
import { CANDIDATE_THRESHOLD } from '../faq/faqService';
import type { FaqStore } from '../faq/faqStore';
import { answerText, hashtagKey, type FaqRecord } from '../faq/faqRecord';
import type { AndOr } from '../search/filters';

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
  constructor(private readonly faqs: Pick<FaqStore, 'get' | 'index'>) {}

  /**
   * The best Q&A that is on, matches the filter and reaches CANDIDATE_THRESHOLD: below it Q&A search itself
   * found "no matching answer" (docs/api.md#search-qa), so the Q&A is no source either.
   */
  best(query: string, filter: FaqFilter = {}): FaqHit | undefined {
    const include = (filter.include ?? []).map(hashtagKey).filter(Boolean);
    const exclude = (filter.exclude ?? []).map(hashtagKey).filter(Boolean);
    let best: FaqHit | undefined;
    for (const match of this.faqs.index.search(query, CANDIDATE_THRESHOLD)) {
      const record = this.faqs.get(match.faqId);
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
}
