// Conversation threads (isStateful, threadId; docs/api.md#extractive-answers). History is kept per (threadId, user) in the
// journal, so it survives restarts; a user is OWN-USER-ID, else USER-EMAIL, and without either nothing is
// kept (the answer says so). A follow-up that leans on the conversation — a pronoun, very few words, or an
// opening like "and …" / "what about …" / 「それ…」「では…」 — is rewritten by adding the key terms of the
// previous question, and the rewritten query is what retrieval and the answerer see.
import type { Journal } from '../store/journal';
import { contentTokens } from '../search/queryTerms';
import { ANSWER_THREADS } from '../store/collections';

const MAX_TURNS = 20;
const MAX_ADDED_TERMS = 6;

export interface ThreadTurn {
  query: string;
  /** The query as answered (the same as `query` when it needed no context). */
  rewrittenQuery: string;
  at: number;
}

export interface ThreadRecord {
  threadId: string;
  user: string;
  turns: ThreadTurn[];
  updatedAt: number;
}

export class ThreadStore {
  private readonly records: ReadonlyMap<string, ThreadRecord>;

  constructor(private readonly journal: Journal) {
    this.records = journal.collection<ThreadRecord>(ANSWER_THREADS);
  }

  get(threadId: string, user: string): ThreadRecord | undefined {
    return this.records.get(key(threadId, user));
  }

  /** Durably appends a turn (the oldest turns are dropped past MAX_TURNS). */
  async append(threadId: string, user: string, turn: ThreadTurn): Promise<void> {
    const previous = this.get(threadId, user);
    const turns = [...(previous?.turns ?? []), turn].slice(-MAX_TURNS);
    const record: ThreadRecord = { threadId, user, turns, updatedAt: turn.at };
    await this.journal.commit([{ c: ANSWER_THREADS, k: key(threadId, user), v: record }]);
  }
}

function key(threadId: string, user: string): string {
  return `${threadId.toLowerCase()}:${Buffer.from(user, 'utf8').toString('base64url')}`;
}

const PRONOUN = /\b(it|its|they|them|their|this|that|these|those|there|he|she|him|her|one|ones)\b/i;
const OPENING = /^(and|also|what about|how about|and what about|then|so|but)\b/i;
const PRONOUN_JA = /(それ|その|そこ|そちら|これ|この|あれ|あの|彼|彼女)/u;
const OPENING_JA = /^(では|じゃあ|じゃ|それでは|それなら|あと|また|ちなみに|なお)/u;

/** Whether a query leans on what was asked before. */
export function leansOnContext(query: string): boolean {
  const q = query.trim();
  if (OPENING.test(q) || OPENING_JA.test(q) || PRONOUN.test(q) || PRONOUN_JA.test(q)) return true;
  return contentTokens(q).length <= 2;
}

/** The query with the previous question's key terms added, or the query unchanged when it stands alone. */
export function rewriteFollowUp(query: string, previousQuery: string | undefined): string {
  if (!previousQuery || !leansOnContext(query)) return query;
  const own = new Set(contentTokens(query));
  const added = contentTokens(previousQuery)
    .filter((t) => !own.has(t))
    .slice(0, MAX_ADDED_TERMS);
  return added.length ? `${query} ${added.join(' ')}` : query;
}
