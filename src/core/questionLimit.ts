// The service's limit on a question (docs/api.md#answer-request, #retrieval), in characters as people count
// them (code points, charCount.ts). One place for the chat page's counter, the chat panel, the @knowledge
// participant and the knowledge tools.
import { charCount } from './charCount';

export const QUESTION_MAX_CHARS = 2_000;
/** From here on the chat shows the count, so the limit is seen coming rather than only once it is passed. */
export const QUESTION_COUNT_SHOWN_FROM = 1_800;

export interface QuestionLength {
  /** Characters that would be sent (the question is sent trimmed). */
  chars: number;
  max: number;
  /** Close enough to the limit to show the count. */
  near: boolean;
  /** Over the limit: it cannot be sent. */
  over: boolean;
}

export function questionLength(text: string): QuestionLength {
  const chars = charCount(text.trim());
  return { chars, max: QUESTION_MAX_CHARS, near: chars >= QUESTION_COUNT_SHOWN_FROM, over: chars > QUESTION_MAX_CHARS };
}
