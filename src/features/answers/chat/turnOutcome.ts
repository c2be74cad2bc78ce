// How an answer's outcome ends its turn: the answer as it arrived (within the chat's limits), its citations,
// follow-up question, thread and model when it finished; "stopped"; or the user-facing error with the next
// steps the page may offer.
import * as l10n from '@vscode/l10n';
import { questionLength } from '../../../core/questionLimit';
import { CommandIds } from '../../../platform/commandIds';
import { toUserFacing } from '../../../platform/errorMessages';
import { numberText } from '../../../platform/intlFormat';
import type { AnswerOutcome } from './answerRunner';
import { toChatCitation } from './citations';
import { CHAT_LIMITS, type Turn } from './protocol';

/** Commands an error's next step may run from the page (toUserFacing's actions, and Show Log). */
export const ALLOWED_ACTIONS = new Set<string>([
  CommandIds.setApiKey,
  CommandIds.selectRegion,
  CommandIds.setIdentity,
  CommandIds.showLog,
  CommandIds.connect,
]);

/** Sets the fields of a finished turn from the outcome of its request. */
export function applyOutcome(turn: Turn, outcome: AnswerOutcome): void {
  turn.answeredAt = Date.now();
  if (outcome.answer !== turn.answer) turn.answer = outcome.answer.slice(0, CHAT_LIMITS.answer);
  if (outcome.status === 'done') {
    const r = outcome.result;
    turn.status = 'done';
    turn.citations = r.citations.slice(0, CHAT_LIMITS.citations).map(toChatCitation);
    turn.fuQuestion = r.fuQuestion?.trim().slice(0, 2_000) || undefined;
    turn.threadId = r.threadId ?? undefined;
    turn.model = typeof r.model === 'string' && r.model ? r.model.slice(0, 200) : undefined;
    turn.answerHash = r.answerHash?.slice(0, 200) || undefined;
    turn.documentId = (r.documentId ?? turn.citations.find((c) => c.knowledgeBaseId)?.knowledgeBaseId)?.slice(0, 200) || undefined;
    const notes = Array.isArray(r.notes)
      ? r.notes
          .filter((n): n is string => typeof n === 'string' && !!n.trim())
          .map((n) => n.slice(0, 1_000))
          .slice(0, 10)
      : [];
    turn.notes = notes.length ? notes : undefined;
  } else if (outcome.status === 'stopped') {
    turn.status = 'stopped';
  } else {
    turn.status = 'error';
    const shown = toUserFacing(outcome.error);
    // {0}: the error's own message (toUserFacing), already in the display language.
    const message =
      outcome.broken && turn.answer ? l10n.t('{0} The part of the answer that arrived is kept above.', shown.message) : shown.message;
    turn.error = {
      message: message.slice(0, 4_000),
      actions: shown.actions.filter((a) => ALLOWED_ACTIONS.has(a.command)).slice(0, 3),
    };
  }
}

/** Why `question` cannot be asked (over the service's limit, in code points), in words; undefined when it can. */
export function tooLongQuestion(question: string): string | undefined {
  const { chars, max, over } = questionLength(question);
  // {0}: characters in the question, {1}: the most that can be sent.
  return over
    ? l10n.t('The question is {0} characters long; at most {1} can be sent. Shorten it, then send it.', numberText(chars), numberText(max))
    : undefined;
}
