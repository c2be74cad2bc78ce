// Size limits of a Q&A, the one definition: the editor, the file import and the local service all use
// QA_LIMITS, so a Q&A that passes one passes the others. Characters are code points (src/core/charCount.ts).

export interface QaLimits {
  /** Characters (code points) of the question. */
  question: number;
  answer: number;
  /** Characters of each similar question, and how many a Q&A may have. */
  similarQuestion: number;
  similarQuestions: number;
  /** Characters of each hashtag (after its `#` is stripped), and how many a Q&A may have. */
  hashtag: number;
  hashtags: number;
  folder: number;
  memo: number;
}

export const QA_LIMITS: Readonly<QaLimits> = Object.freeze({
  question: 1_000,
  answer: 50_000,
  similarQuestion: 1_000,
  similarQuestions: 100,
  hashtag: 100,
  hashtags: 50,
  folder: 200,
  memo: 5_000,
});
