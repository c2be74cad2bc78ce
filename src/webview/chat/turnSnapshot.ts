// What one turn of the chat page shows, as the host's snapshot request reports it: the text and HTML of
// the answer as drawn, the sources listed under it, the follow-up and the error.
import type { ChatSnapshot } from '../../features/answers/chat/protocol';
import { citationKind, citationTitle, KIND_LABEL, pageLabel } from '../../features/answers/chat/citations';
import type { TurnView } from './turnView';

export function describeTurn(v: TurnView): ChatSnapshot['turns'][number] {
  const t = v.data;
  return {
    id: t.id,
    question: t.question,
    status: t.status,
    answerText: v.answer.element.textContent ?? '',
    answerHtml: v.answer.element.innerHTML,
    citationLinks: v.answer.element.querySelectorAll('a.kd-cite-link').length,
    sources:
      t.status === 'streaming'
        ? []
        : t.citations.map((c) => ({
            index: c.index,
            title: citationTitle(c),
            kind: KIND_LABEL[citationKind(c)],
            page: pageLabel(c),
          })),
    followUp: t.fuQuestion ?? null,
    error: t.error?.message ?? null,
    model: t.model ?? null,
    feedback: v.feedbackState,
  };
}
