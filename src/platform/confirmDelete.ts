import * as vscode from 'vscode';
import type { UserInput } from './userInput';

/**
 * The one confirmation before something is deleted for good: a modal warning whose only action is `action`
 * ("Delete" unless the caller names it); true when the person chose it.
 */
export async function confirmDelete(ui: UserInput, question: string, action = vscode.l10n.t('Delete')): Promise<boolean> {
  return (await ui.showWarningMessage(question, { modal: true }, action)) === action;
}
