import * as l10n from '@vscode/l10n';
import { faqStatus } from '../../../api/values';
import type { FaqDetail } from '../../../api/schemas/faq';
import type { QaRecord } from './protocol';

/** The service's single lookup, shaped for the editor (memo is never returned: empty). */
export function recordFromDetail(detail: FaqDetail): QaRecord {
  return {
    id: detail.id,
    values: {
      question: detail.question,
      similarQuestions: detail.similar_questions,
      answer: detail.answer,
      hashtags: detail.hashtags,
      status: faqStatus(detail),
      folder: detail.folder ?? '',
      allowOtherAgentsView: detail.allowOtherAgentsView ?? true,
      allowOtherUsersView: detail.allowOtherUsersView ?? true,
      memo: '',
    },
    userFeedback: pick(detail.userFeedback),
    agentFeedback: pick(detail.agentFeedback),
    createdDate: detail.createdDate ?? undefined,
    lastUpdatedDate: detail.lastUpdatedDate ?? undefined,
    statusOnAt: detail.statusOnAt ?? undefined,
    statusOffAt: detail.statusOffAt ?? undefined,
    agentEditor: detail.agentEditor,
    agentViewer: detail.agentViewer,
  };
}

function pick(c: { positiveCount: number; negativeCount: number }): { positiveCount: number; negativeCount: number } {
  return { positiveCount: c.positiveCount, negativeCount: c.negativeCount };
}

/** A panel title: the question on one line, cut at `max` characters with an ellipsis. */
export function ellipsis(text: string, max = 40): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

export function editorTitle(question: string, dirty: boolean): string {
  return `${dirty ? '● ' : ''}${ellipsis(question) || l10n.t('New Q&A')}`;
}
