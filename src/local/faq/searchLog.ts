// Every Q&A search (journal collection `faqSearches`, keyed by its hashId) and every answer selected for one
// (`faqSelections`): the source of search history, daily counts and analytics. Kept in time order and
// bucketed by local day in memory.
import type { Identity } from '../http/context';
import type { Journal, JournalRecord } from '../store/journal';
import { normalizeText } from '../search/tokenizer';
import { localDate } from './faqRecord';
import { FAQ_SEARCHES, FAQ_SELECTIONS } from '../store/collections';

export interface ShownResult {
  id: string;
  confidence: number;
  effectiveConfidence: number;
}

export interface SearchRecord {
  /** The hashId returned to the caller. */
  id: string;
  query: string;
  at: number;
  /** Order among searches of the same millisecond. */
  n: number;
  agentEmail?: string;
  userEmail?: string;
  ownUserId?: string;
  hashtags?: string[];
  /** What the caller was shown, in order. */
  results: ShownResult[];
}

export interface SelectionRecord {
  hashId: string;
  faqId: string;
  at: number;
}

export interface HistoryQuery {
  offset: number;
  limit: number;
  startDate?: string;
  endDate?: string;
  sortOrder: 'ASC' | 'DESC';
  searchTerm?: string;
}

export class SearchLog {
  private readonly searches = new Map<string, SearchRecord>();
  private timeline: SearchRecord[] = [];
  private unsorted = false;
  private readonly searchesByDay = new Map<string, SearchRecord[]>();
  private readonly selections = new Map<string, SelectionRecord>();
  private readonly selectionsByDay = new Map<string, SelectionRecord[]>();
  private lastN = 0;

  constructor(journal: Journal) {
    for (const [key, search] of journal.collection<SearchRecord>(FAQ_SEARCHES)) this.loadSearch(key, search);
    for (const [key, selection] of journal.collection<SelectionRecord>(FAQ_SELECTIONS)) this.loadSelection(key, selection);
  }

  get(hashId: string): SearchRecord | undefined {
    return this.searches.get(hashId);
  }

  record(hashId: string, query: string, identity: Identity, hashtags: string[], results: ShownResult[], now: number): JournalRecord {
    const search: SearchRecord = { id: hashId, query, at: now, n: ++this.lastN, ...identityFields(identity), results };
    if (hashtags.length) search.hashtags = hashtags;
    this.loadSearch(hashId, search);
    return { c: FAQ_SEARCHES, k: hashId, v: search };
  }

  /** Records that `faqId` was chosen for the search; choosing it again changes nothing (undefined). */
  select(hashId: string, faqId: string, now: number): JournalRecord | undefined {
    const key = `${hashId}\u0000${faqId}`;
    if (this.selections.has(key)) return undefined;
    const selection: SelectionRecord = { hashId, faqId, at: now };
    this.loadSelection(key, selection);
    return { c: FAQ_SELECTIONS, k: key, v: selection };
  }

  searchesOn(day: string): readonly SearchRecord[] {
    return this.searchesByDay.get(day) ?? [];
  }

  selectionsOn(day: string): readonly SelectionRecord[] {
    return this.selectionsByDay.get(day) ?? [];
  }

  history(q: HistoryQuery) {
    const from = q.startDate ? dayStart(q.startDate) : -Infinity;
    const until = q.endDate ? dayStart(q.endDate, 1) : Infinity;
    const term = q.searchTerm?.trim() ? normalizeText(q.searchTerm.trim()) : undefined;
    const matching = this.ordered().filter((s) => s.at >= from && s.at < until && (!term || normalizeText(s.query).includes(term)));
    if (q.sortOrder === 'DESC') matching.reverse();
    const histories = matching.slice(q.offset, q.offset + q.limit).map((s) => ({
      id: s.id,
      agent: { id: s.agentEmail ?? null },
      question: s.query,
      answers: s.results.map((r) => ({ faq: { id: r.id }, effectiveConfidence: r.effectiveConfidence, confidence: r.confidence })),
      createdAt: s.at,
    }));
    return { histories, count: matching.length };
  }

  /** Called with a committed key's durable value when a commit failed (and on start). */
  loadSearch(key: string, search: SearchRecord | undefined): void {
    const previous = this.searches.get(key);
    if (previous) {
      this.searches.delete(key);
      this.timeline = this.timeline.filter((s) => s !== previous);
      remove(this.searchesByDay, localDate(previous.at), previous);
    }
    if (!search) return;
    this.searches.set(key, search);
    const last = this.timeline[this.timeline.length - 1];
    if (last && (last.at > search.at || (last.at === search.at && last.n > search.n))) this.unsorted = true;
    this.timeline.push(search);
    push(this.searchesByDay, localDate(search.at), search);
    if (search.n > this.lastN) this.lastN = search.n;
  }

  loadSelection(key: string, selection: SelectionRecord | undefined): void {
    const previous = this.selections.get(key);
    if (previous) {
      this.selections.delete(key);
      remove(this.selectionsByDay, localDate(previous.at), previous);
    }
    if (!selection) return;
    this.selections.set(key, selection);
    push(this.selectionsByDay, localDate(selection.at), selection);
  }

  private ordered(): SearchRecord[] {
    if (this.unsorted) {
      this.timeline.sort((a, b) => a.at - b.at || a.n - b.n);
      this.unsorted = false;
    }
    return this.timeline;
  }
}

function identityFields(identity: Identity): Pick<SearchRecord, 'agentEmail' | 'userEmail' | 'ownUserId'> {
  const out: Pick<SearchRecord, 'agentEmail' | 'userEmail' | 'ownUserId'> = {};
  if (identity.agentEmail) out.agentEmail = identity.agentEmail;
  if (identity.userEmail) out.userEmail = identity.userEmail;
  if (identity.ownUserId) out.ownUserId = identity.ownUserId;
  return out;
}

/** Local midnight of `date` (YYYY-MM-DD), `plusDays` later. */
function dayStart(date: string, plusDays = 0): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays).getTime();
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Takes `value` out of its bucket (a new array: callers may hold the old one). */
function remove<T>(map: Map<string, T[]>, key: string, value: T): void {
  map.set(
    key,
    (map.get(key) ?? []).filter((v) => v !== value),
  );
}
