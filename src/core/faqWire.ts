// Q&A values on the wire that both the client (src/api) and the local service (src/local) use.

/** Sort orders of the Q&A candidate list (docs/api.md#list-candidates). */
export const CANDIDATE_ORDERS = ['FREQUENCY_DESC', 'FREQUENCY_ASC', 'CREATED_AT_DESC', 'CREATED_AT_ASC'] as const;

export type CandidateOrder = (typeof CANDIDATE_ORDERS)[number];
