// Q&A candidates (journal collection `faqCandidates`): queries no Q&A answered well. The same query, after
// normalisation, increments one candidate rather than adding another; each distinct spelling is one entry of
// `questions`. A candidate is ARCHIVED when a Q&A with that question is registered, and ACTIVE again when
// the query is asked and still finds no answer.
import { randomUUID } from 'node:crypto';
import type { CandidateOrder } from '../../core/faqWire';
import type { Journal, JournalRecord } from '../store/journal';
import { normalizeText } from '../search/tokenizer';
import { hashtagKey, questionKey } from './faqRecord';
import { matchesTerms, type TermQuery } from './termQuery';
import { FAQ_CANDIDATES } from '../store/collections';

export interface CandidateQuestion {
  id: string;
  question: string;
  frequency: number;
  /** hashId of the latest search that asked it; null for queries added directly. */
  historyId: string | null;
}

export interface CandidateRecord {
  id: string;
  key: string;
  state: 'ACTIVE' | 'ARCHIVED';
  createdAt: number;
  updatedAt: number;
  frequency: number;
  /** Hashtags the asking searches were limited to (the candidate list's hashtag filter). */
  hashtags: string[];
  questions: CandidateQuestion[];
}

export type CandidateStatus = 'ALL' | 'ACTIVE' | 'ARCHIVED';

export interface CandidateQuery {
  offset: number;
  limit: number;
  hashtags: string[];
  terms: TermQuery;
  order: CandidateOrder;
  status: CandidateStatus;
}

export class CandidateStore {
  private readonly byId = new Map<string, CandidateRecord>();
  private readonly byKey = new Map<string, string>();

  constructor(journal: Journal) {
    for (const [id, record] of journal.collection<CandidateRecord>(FAQ_CANDIDATES)) this.load(id, record);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Creates the candidate for `query` or counts the query once more (reactivating an archived one). */
  bump(query: string, historyId: string | null, hashtags: readonly string[], now: number): { id: string; record: JournalRecord } {
    const text = query.trim();
    const key = questionKey(text);
    const existingId = this.byKey.get(key);
    const previous = existingId === undefined ? undefined : this.byId.get(existingId);
    const next: CandidateRecord = previous
      ? {
          ...previous,
          state: 'ACTIVE',
          updatedAt: now,
          frequency: previous.frequency + 1,
          questions: previous.questions.map((q) => ({ ...q })),
        }
      : { id: randomUUID(), key, state: 'ACTIVE', createdAt: now, updatedAt: now, frequency: 1, hashtags: [], questions: [] };
    const spelled = next.questions.find((q) => q.question === text);
    if (spelled) {
      spelled.frequency++;
      if (historyId) spelled.historyId = historyId;
    } else {
      next.questions.push({ id: randomUUID(), question: text, frequency: 1, historyId });
    }
    const known = new Set(next.hashtags.map(hashtagKey));
    next.hashtags = [...next.hashtags, ...hashtags.filter((h) => !known.has(hashtagKey(h)))];
    this.load(next.id, next);
    return { id: next.id, record: { c: FAQ_CANDIDATES, k: next.id, v: next } };
  }

  /** Archives the active candidates asked as one of `questions` (a Q&A now answers them). */
  archive(questions: readonly string[], now: number): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (const question of questions) {
      const id = this.byKey.get(questionKey(question));
      const candidate = id === undefined ? undefined : this.byId.get(id);
      if (!candidate || candidate.state === 'ARCHIVED') continue;
      const next: CandidateRecord = { ...candidate, state: 'ARCHIVED', updatedAt: now };
      this.load(next.id, next);
      out.push({ c: FAQ_CANDIDATES, k: next.id, v: next });
    }
    return out;
  }

  list(q: CandidateQuery) {
    const tags = new Set(q.hashtags.map(hashtagKey));
    const matching = [...this.byId.values()].filter(
      (c) =>
        (q.status === 'ALL' || c.state === q.status) &&
        (tags.size === 0 || c.hashtags.some((h) => tags.has(hashtagKey(h)))) &&
        matchesTerms(q.terms, normalizeText(c.questions.map((x) => x.question).join('\n'))),
    );
    const byCreated = (a: CandidateRecord, b: CandidateRecord) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const compare: Record<CandidateOrder, (a: CandidateRecord, b: CandidateRecord) => number> = {
      FREQUENCY_DESC: (a, b) => b.frequency - a.frequency || byCreated(b, a),
      FREQUENCY_ASC: (a, b) => a.frequency - b.frequency || byCreated(a, b),
      CREATED_AT_DESC: (a, b) => byCreated(b, a),
      CREATED_AT_ASC: byCreated,
    };
    matching.sort(compare[q.order]);
    const faqCandidates = matching.slice(q.offset, q.offset + q.limit).map((c) => ({
      id: c.id,
      frequency: c.frequency,
      textAnswer: '',
      state: c.state,
      createdAt: c.createdAt,
      questions: c.questions.map((x) => ({
        id: x.id,
        question: x.question,
        frequency: x.frequency,
        history: x.historyId ? { id: x.historyId } : null,
      })),
    }));
    return { faqCandidates, count: matching.length };
  }

  load(id: string, record: CandidateRecord | undefined): void {
    const previous = this.byId.get(id);
    if (previous) {
      if (this.byKey.get(previous.key) === id) this.byKey.delete(previous.key);
      this.byId.delete(id);
    }
    if (record) {
      this.byId.set(id, record);
      this.byKey.set(record.key, id);
    }
  }
}
