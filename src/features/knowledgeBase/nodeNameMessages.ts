// The texts of the node-name check (src/core/nodeNames.ts says what is wrong as a code; src/core has no
// user text). @vscode/l10n, not vscode: unit-tested in plain Node (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
import { nodeNameIssue } from '../../core/nodeNames';

/** Why `name` cannot name a node, in the display language, or undefined when it can. */
export function nodeNameProblem(name: string, kind: 'folder' | 'document' = 'folder'): string | undefined {
  const issue = nodeNameIssue(name);
  if (!issue) return undefined;
  const folder = kind === 'folder';
  switch (issue.code) {
    case 'empty':
      return folder ? l10n.t('A folder name cannot be empty.') : l10n.t('A document name cannot be empty.');
    case 'separator':
      return folder ? l10n.t('A folder name cannot contain "/" or "\\".') : l10n.t('A document name cannot contain "/" or "\\".');
    case 'dots':
      return folder ? l10n.t('A folder name cannot be "." or "..".') : l10n.t('A document name cannot be "." or "..".');
    case 'control':
      return folder
        ? l10n.t('A folder name cannot contain control characters (tabs, line breaks).')
        : l10n.t('A document name cannot contain control characters (tabs, line breaks).');
    case 'tooLong':
      return folder
        ? l10n.t('A folder name is {0} bytes long in UTF-8; the limit is {1}.', issue.bytes, issue.limit)
        : l10n.t('A document name is {0} bytes long in UTF-8; the limit is {1}.', issue.bytes, issue.limit);
  }
}
