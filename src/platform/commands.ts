import * as vscode from 'vscode';
import { isCancellation } from './cancellation';
import { toUserFacing } from './errorMessages';
import type { Log } from './logger';

export interface CommandHost {
  log: Log;
  showLog(): void;
  /** Called with every error shown, so tests can observe failures without reading notifications. */
  onErrorShown?: (commandId: string, message: string) => void;
}

// Command arguments come from menus, tree items and other extensions: each handler narrows its own.
export type CommandHandler = (...args: any[]) => unknown;

/**
 * Registers a command whose failures are logged in full and shown briefly with "Show Log" (and a
 * next step when there is one); a cancellation by the user is silent.
 */
export function registerCommand(host: CommandHost, id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (isCancellation(error)) {
        host.log.debug(`${id}: cancelled`);
        return undefined;
      }
      host.log.error(`${id} failed`);
      host.log.error(error as Error);
      const shown = toUserFacing(error);
      host.onErrorShown?.(id, shown.message);
      void showError(host, shown.message, shown.actions);
      return undefined;
    }
  });
}

async function showError(host: CommandHost, message: string, actions: Array<{ label: string; command: string }>): Promise<void> {
  const showLog = vscode.l10n.t('Show Log');
  const choice = await vscode.window.showErrorMessage(message, ...actions.map((a) => a.label), showLog);
  if (choice === showLog) host.showLog();
  const action = actions.find((a) => a.label === choice);
  if (action) await vscode.commands.executeCommand(action.command);
}
