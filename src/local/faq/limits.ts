// Field limits of a Q&A as the local service enforces them (register, update, file upload). The numbers
// come from src/core/qaFile/limits.ts, which the extension's CSV import validates with, so there is one
// source: a file that imports cleanly also registers cleanly.
import { DEFAULT_QA_LIMITS } from '../../core/qaFile/limits';

export const QA_LIMITS = Object.freeze({
  /** Characters (Unicode code points, counted after trimming). */
  questionMaxChars: DEFAULT_QA_LIMITS.question,
  answerMaxChars: DEFAULT_QA_LIMITS.answer,
  similarQuestionMaxChars: DEFAULT_QA_LIMITS.similarQuestion,
  similarQuestionsMaxCount: DEFAULT_QA_LIMITS.similarQuestions,
  /** Per hashtag, after the leading `#` is stripped. */
  hashtagMaxChars: DEFAULT_QA_LIMITS.hashtag,
  hashtagsMaxCount: DEFAULT_QA_LIMITS.hashtags,
  folderMaxChars: DEFAULT_QA_LIMITS.folder,
  memoMaxChars: DEFAULT_QA_LIMITS.memo,
  /** Search query (POST /webapi/faq); not a Q&A field, so not in core. */
  queryMaxChars: 1_000,
});

/** Length in Unicode code points, the unit of QA_LIMITS (an emoji or a rare kanji counts once). */
export function charCount(text: string): number {
  let n = text.length;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const before = text.charCodeAt(i - 1);
    if (c >= 0xdc00 && c <= 0xdfff && before >= 0xd800 && before <= 0xdbff) n--;
  }
  return n;
}
