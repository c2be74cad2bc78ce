// What one turn of the chat page shows, as the host's snapshot request reports it: the text and HTML of
// the answer as drawn, the sources listed under it, the follow-up and the error; and where the focus is.
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import type { ChatSnapshot } from '../../features/answers/chat/protocol';
import { citationKind, citationTitle, pageLabel } from '../../features/answers/chat/citations';
import { citationLabels } from './citationLinks';
import type { TurnView } from './turnView';

export function describeTurn(v: TurnView, s: ChatStrings): ChatSnapshot['turns'][number] {
  const t = v.data;
  const labels = citationLabels(s, v.element.ownerDocument);
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
            title: citationTitle(c, labels),
            kind: labels.kind[citationKind(c)],
            page: pageLabel(c, labels),
          })),
    followUp: t.fuQuestion ?? null,
    error: t.error?.message ?? null,
    model: t.model ?? null,
    feedback: v.feedbackState,
  };
}

/** The focused element, named for tests: `question`, a `data-action`, `source:<turn>:<n>`, `marker:<turn>:<n>`, or its tag. */
export function describeFocus(doc: Document): string | null {
  const el = doc.activeElement;
  if (!el || el === doc.body) return null;
  const turn = el.closest('.kd-turn')?.getAttribute('data-turn-id') ?? '';
  if (el.classList.contains('kd-source')) return `source:${turn}:${el.getAttribute('data-index')}`;
  if (el.classList.contains('kd-cite-link')) return `marker:${turn}:${el.getAttribute('data-index')}`;
  if (el.id === 'chat-question') return 'question';
  return el.getAttribute('data-action') ?? el.id ?? el.tagName.toLowerCase();
}
