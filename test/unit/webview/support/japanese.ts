// Builds a page's texts as the host does when VS Code's display language is Japanese: @vscode/l10n is handed
// l10n/bundle.l10n.ja.json (as platform/l10n.ts hands it VS Code's bundle), then English again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as l10n from '@vscode/l10n';
import type { El } from './page';

const root = path.resolve(__dirname, '../../../..');

export function inJapanese<T>(build: () => T): T {
  l10n.config({ contents: JSON.parse(readFileSync(path.join(root, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<string, string> });
  try {
    return build();
  } finally {
    l10n.config({ contents: {} });
  }
}

/** Every text a person can see or hear on the page: text, and the accessible names and hints in attributes. */
export function visibleTexts(root: El): string {
  const attrs = (Array.from(root.querySelectorAll('[aria-label], [title], [placeholder]')) as El[]).flatMap((el) =>
    ['aria-label', 'title', 'placeholder'].map((a) => (el.getAttribute(a) as string | null) ?? ''),
  );
  return [root.textContent ?? '', ...attrs].join('\n');
}
