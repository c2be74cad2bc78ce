// Feedback on Q&As: one current vote per (Q&A, voter) in the journal's `faqFeedback` collection; a new vote
// replaces the voter's previous one and null cancels it. Counts per Q&A are kept in memory.
import type { Identity } from '../http/context';
import type { JournalRecord } from '../store/journal';
import type { Journal } from '../store/journal';
import type { FaqCounts } from './faqRecord';
import { FAQ_FEEDBACK } from '../store/collections';

export interface FeedbackRecord {
  faqId: string;
  query: string;
  isPositive: boolean;
  /** agent: AGENT-EMAIL was sent; user: otherwise (OWN-USER-ID, USER-EMAIL, or anonymous). */
  kind: 'agent' | 'user';
  agentEmail?: string;
  ownUserId?: string;
  userEmail?: string;
  createdAt: number;
}

interface Voter {
  id: string;
  fields: Pick<FeedbackRecord, 'kind' | 'agentEmail' | 'ownUserId' | 'userEmail'>;
}

/** Who a vote belongs to: the agent if AGENT-EMAIL is present, else the user by OWN-USER-ID, then USER-EMAIL. */
export function voterOf(identity: Identity): Voter {
  if (identity.agentEmail)
    return { id: `agent:${identity.agentEmail.toLowerCase()}`, fields: { kind: 'agent', agentEmail: identity.agentEmail } };
  if (identity.ownUserId) return { id: `user:${identity.ownUserId}`, fields: { kind: 'user', ownUserId: identity.ownUserId } };
  if (identity.userEmail)
    return { id: `email:${identity.userEmail.toLowerCase()}`, fields: { kind: 'user', userEmail: identity.userEmail } };
  return { id: 'anonymous', fields: { kind: 'user' } };
}

const zero = (): FaqCounts => ({ agent: { positiveCount: 0, negativeCount: 0 }, user: { positiveCount: 0, negativeCount: 0 } });

export class FeedbackStore {
  private readonly votes = new Map<string, FeedbackRecord>();
  private readonly counts = new Map<string, FaqCounts>();
  private readonly byFaq = new Map<string, Set<string>>();

  constructor(journal: Journal) {
    for (const [key, vote] of journal.collection<FeedbackRecord>(FAQ_FEEDBACK)) this.load(key, vote);
  }

  /** Counts for one Q&A (a fresh object; zeros when nobody voted). */
  countsOf(faqId: string): FaqCounts {
    const c = this.counts.get(faqId);
    return c ? { agent: { ...c.agent }, user: { ...c.user } } : zero();
  }

  /** Positive and negative votes of agents and users together (the effectiveConfidence formula). */
  totals(faqId: string): { pos: number; neg: number } {
    const c = this.counts.get(faqId);
    return c
      ? { pos: c.agent.positiveCount + c.user.positiveCount, neg: c.agent.negativeCount + c.user.negativeCount }
      : { pos: 0, neg: 0 };
  }

  /** Records, replaces or (isPositive null) cancels the voter's vote. */
  vote(faqId: string, query: string, isPositive: boolean | null, identity: Identity, now: number): JournalRecord {
    const voter = voterOf(identity);
    const key = `${faqId}\u0000${voter.id}`;
    if (isPositive === null) {
      this.load(key, undefined);
      return { c: FAQ_FEEDBACK, k: key };
    }
    const record: FeedbackRecord = { faqId, query, isPositive, ...voter.fields, createdAt: now };
    this.load(key, record);
    return { c: FAQ_FEEDBACK, k: key, v: record };
  }

  /** Drops every vote on a deleted Q&A. */
  removeFaq(faqId: string): JournalRecord[] {
    const keys = [...(this.byFaq.get(faqId) ?? [])];
    for (const key of keys) this.load(key, undefined);
    return keys.map((k) => ({ c: FAQ_FEEDBACK, k }));
  }

  /** Current votes, latest first, of the voters the filter names (no filter: everyone's). */
  list(filter: { agentEmail?: string; ownUserId?: string; userEmail?: string }): FeedbackRecord[] {
    const wanted = [
      filter.agentEmail && ((v: FeedbackRecord) => v.kind === 'agent' && v.agentEmail?.toLowerCase() === filter.agentEmail!.toLowerCase()),
      filter.ownUserId && ((v: FeedbackRecord) => v.kind === 'user' && v.ownUserId === filter.ownUserId),
      !filter.agentEmail &&
        !filter.ownUserId &&
        filter.userEmail &&
        ((v: FeedbackRecord) => v.kind === 'user' && v.userEmail?.toLowerCase() === filter.userEmail!.toLowerCase()),
    ].filter((f): f is (v: FeedbackRecord) => boolean => typeof f === 'function');
    const out = [...this.votes.values()].filter((v) => wanted.length === 0 || wanted.some((f) => f(v)));
    // Reversed first so votes of the same millisecond keep "latest first" (a replaced vote moves to the end).
    return out.reverse().sort((a, b) => b.createdAt - a.createdAt);
  }

  load(key: string, vote: FeedbackRecord | undefined): void {
    const previous = this.votes.get(key);
    if (previous) {
      this.adjust(previous, -1);
      this.votes.delete(key);
      this.byFaq.get(previous.faqId)?.delete(key);
    }
    if (vote) {
      this.votes.set(key, vote);
      this.adjust(vote, 1);
      let keys = this.byFaq.get(vote.faqId);
      if (!keys) this.byFaq.set(vote.faqId, (keys = new Set()));
      keys.add(key);
    }
  }

  private adjust(vote: FeedbackRecord, delta: 1 | -1): void {
    let c = this.counts.get(vote.faqId);
    if (!c) this.counts.set(vote.faqId, (c = zero()));
    const side = vote.kind === 'agent' ? c.agent : c.user;
    if (vote.isPositive) side.positiveCount += delta;
    else side.negativeCount += delta;
  }
}
