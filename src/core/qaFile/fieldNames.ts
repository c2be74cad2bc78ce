// The names of a Q&A file's fields in the display language, for the import's column prompts and its row
// problems alike. Through @vscode/l10n: the extension hands it VS Code's bundle (src/platform/l10n.ts);
// elsewhere (unit tests, dist/mcp.js) they are English.
import * as l10n from '@vscode/l10n';
import type { QaField } from './types';

/** Functions: the bundle is read when a name is shown, not when this module loads. */
const ONE: Record<QaField, () => string> = {
  question: () => l10n.t('question'),
  answer: () => l10n.t('answer'),
  similarQuestions: () => l10n.t('similar question'),
  hashtags: () => l10n.t('hashtag'),
  status: () => l10n.t('status'),
  folder: () => l10n.t('folder'),
  memo: () => l10n.t('memo'),
};

/**
 * A field's name: `one` for one value in a sentence ("The 2nd similar question is…"), `column` for the
 * whole column ("Column for similar questions"); only the two list fields differ.
 */
export function qaFieldName(field: QaField, form: 'one' | 'column' = 'one'): string {
  if (form === 'column' && field === 'similarQuestions') return l10n.t('similar questions');
  if (form === 'column' && field === 'hashtags') return l10n.t('hashtags');
  return ONE[field]();
}

/** The fields in the order the import asks for their columns. */
export const QA_FIELDS = Object.keys(ONE) as QaField[];
