// Feedback on generative answers (`POST /webapi/mrc/user_feedback`, `GET /webapi/mrc_feedbacks`; docs/api.md#answer-feedback).
// One vote per (answer, user): the user is OWN-USER-ID, else USER-EMAIL, else the one default user (public:
// without OWN-USER-ID all calls share one user). `positive: null` cancels the vote (its record is deleted).
// Each change reads, decides and commits in one synchronous span (docs/local-service-storage.md).
import { z } from 'zod';
import type { Journal } from '../store/journal';
import { ANSWER_FEEDBACK } from '../store/collections';

export interface AnswerFeedbackRecord {
  answerHash: string;
  user: string;
  query: string;
  answer: string;
  documentId: string;
  positive: boolean;
  at: number;
}

export const userFeedbackSchema = z.object({
  answerHash: z.string().trim().min(1).max(200),
  answer: z.string().min(1).max(100_000),
  id: z.string().trim().min(1).max(200),
  query: z.string().trim().min(1).max(2000),
  positive: z.boolean().nullable(),
});

export const feedbackListSchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export class AnswerFeedbackStore {
  private readonly records: ReadonlyMap<string, AnswerFeedbackRecord>;

  constructor(private readonly journal: Journal) {
    this.records = journal.collection<AnswerFeedbackRecord>(ANSWER_FEEDBACK);
  }

  /** Records (or cancels) the user's vote and answers the answer's counts after it, once durable. */
  async vote(body: z.infer<typeof userFeedbackSchema>, user: string): Promise<{ positiveCount: number; negativeCount: number }> {
    const key = `${body.answerHash}:${Buffer.from(user, 'utf8').toString('base64url')}`;
    const written =
      body.positive === null
        ? this.records.has(key)
          ? this.journal.commit([{ c: ANSWER_FEEDBACK, k: key }])
          : undefined
        : this.journal.commit([
            {
              c: ANSWER_FEEDBACK,
              k: key,
              v: {
                answerHash: body.answerHash,
                user,
                query: body.query,
                answer: body.answer,
                documentId: body.id,
                positive: body.positive,
                at: Date.now(),
              },
            },
          ]);
    // The counts are read in the same span as the commit (it is visible at once), so they include this vote.
    const counts = this.counts(body.answerHash);
    await written;
    return counts;
  }

  counts(answerHash: string): { positiveCount: number; negativeCount: number } {
    let [positiveCount, negativeCount] = [0, 0];
    for (const r of this.records.values()) {
      if (r.answerHash !== answerHash) continue;
      if (r.positive) positiveCount++;
      else negativeCount++;
    }
    return { positiveCount, negativeCount };
  }

  /** Votes grouped by query, the most recently voted query first; `offset`/`limit` count queries. */
  history(offset: number, limit: number): Array<{ query: string; feedbacks: Array<Record<string, unknown>> }> {
    const groups = new Map<string, { at: number; records: AnswerFeedbackRecord[] }>();
    for (const r of this.records.values()) {
      const g = groups.get(r.query) ?? { at: 0, records: [] };
      g.records.push(r);
      g.at = Math.max(g.at, r.at);
      groups.set(r.query, g);
    }
    return [...groups.entries()]
      .sort((a, b) => b[1].at - a[1].at || (a[0] < b[0] ? -1 : 1))
      .slice(offset, offset + limit)
      .map(([query, g]) => ({
        query,
        feedbacks: g.records
          .sort((a, b) => b.at - a.at || (a.user < b.user ? -1 : 1))
          .map((r) => ({ document_id: r.documentId, answer: r.answer, answer_hash: r.answerHash, positive: r.positive })),
      }));
  }
}
