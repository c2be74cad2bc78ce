// The fields of a Q&A as "register" takes them: one shape for the client, the editor page (which
// cannot import src/api) and the local service. No imports: the page bundle uses it.

export interface QaFields {
  question: string;
  answer: string;
  status: 'on' | 'off';
  similarQuestions?: string[];
  hashtags?: string[];
  memo?: string;
  folder?: string;
  allowOtherAgentsView?: boolean;
  allowOtherUsersView?: boolean;
}

/** The changed fields of "update" (the service names similar questions in snake case there). */
export interface QaUpdateFields {
  question?: string;
  similar_questions?: string[];
  answer?: string;
  hashtags?: string[];
  status?: 'on' | 'off';
  folder?: string;
  allowOtherAgentsView?: boolean;
  allowOtherUsersView?: boolean;
}
