// Size limits of a Q&A. The local service imports these from core (core never imports src/local).

export interface QaLimits {
  /** Characters (code points) of the question. */
  question: number;
  answer: number;
  /** Characters of each similar question, and how many a Q&A may have. */
  similarQuestion: number;
  similarQuestions: number;
  /** Characters of each hashtag, and how many a Q&A may have. */
  hashtag: number;
  hashtags: number;
  folder: number;
  memo: number;
}

export const DEFAULT_QA_LIMITS: Readonly<QaLimits> = Object.freeze({
  question: 1_000,
  answer: 50_000,
  similarQuestion: 1_000,
  similarQuestions: 100,
  hashtag: 100,
  hashtags: 50,
  folder: 200,
  memo: 5_000,
});
