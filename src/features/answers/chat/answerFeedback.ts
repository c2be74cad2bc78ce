// 👍/👎 on a chat answer (`POST /webapi/mrc/user_feedback`, public): the answer's answerHash, its document id,
// the query and the answer; clicking the pressed button again cancels (`positive: null`). No vscode here.
import * as l10n from '@vscode/l10n';
import type { FeedbackCounts } from '../../../api/schemas/common';
import { toUserFacing } from '../../../platform/errorMessages';
import type { Turn, TurnFeedback } from './protocol';

export interface FeedbackSender {
  answers: {
    feedback(feedback: {
      answerHash: string;
      answer: string;
      documentId: string;
      query: string;
      positive: boolean | null;
    }): Promise<FeedbackCounts>;
  };
}

/** Whether a turn can take feedback: a finished answer the service gave a hash and a document for. */
export function takesFeedback(turn: Turn): boolean {
  return turn.status === 'done' && !!turn.answerHash && !!turn.documentId && !!turn.answer.trim();
}

/** What to send for a click: the clicked value, or null when that button is already pressed. */
export function nextFeedback(turn: Turn, clicked: boolean): boolean | null {
  return turn.feedback?.positive === clicked ? null : clicked;
}

/** Sends the click's feedback and returns the turn's new feedback (counts as the service gives them). */
export async function sendFeedback(client: FeedbackSender, turn: Turn, clicked: boolean): Promise<TurnFeedback> {
  if (!takesFeedback(turn))
    throw new Error(l10n.t('This answer cannot take feedback: the service sent no answer hash or document for it.'));
  const positive = nextFeedback(turn, clicked);
  const counts = await client.answers.feedback({
    answerHash: turn.answerHash!,
    answer: turn.answer,
    documentId: turn.documentId!,
    query: turn.question,
    positive,
  });
  return { positive, positiveCount: count(counts.positiveCount), negativeCount: count(counts.negativeCount) };
}

/** What a failed click tells the person: "not offered" hides the buttons (said once, as information), else a warning. */
export function feedbackFailure(error: unknown): { offered: boolean; message: string; kind: 'info' | 'warning' } {
  if ((error as { name?: string })?.name === 'OperationNotOfferedError')
    return { offered: false, message: l10n.t('This deployment does not take answer feedback; the buttons are hidden.'), kind: 'info' };
  return { offered: true, message: l10n.t('Feedback not sent: {0}', toUserFacing(error).message), kind: 'warning' };
}

function count(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.trunc(n) : 0;
}
