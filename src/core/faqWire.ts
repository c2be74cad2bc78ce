// Q&A values on the wire that both the client (src/api) and the local service (src/local) use.

/** Sort orders of the Q&A candidate list (docs/api.md#list-candidates). */
export const CANDIDATE_ORDERS = ['FREQUENCY_DESC', 'FREQUENCY_ASC', 'CREATED_AT_DESC', 'CREATED_AT_ASC'] as const;

export type CandidateOrder = (typeof CANDIDATE_ORDERS)[number];

/** What every Q&A has, wherever it is held: the local service's record, an import's lookup of existing ones. */
export interface QaContent {
  id: string;
  question: string;
  answer: string;
  similarQuestions: string[];
  hashtags: string[];
  status: 'on' | 'off';
}
