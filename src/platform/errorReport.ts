import * as vscode from 'vscode';
import { isCancellation } from './cancellation';
import { toUserFacing } from './errorMessages';
import type { Log } from './logger';

/** Where failures go, for commands (src/platform/commands.ts) and webview panels (webview/panelErrors.ts) alike. */
export interface ErrorReporting {
  log: Log;
  showLog(): void;
  /** Called with every error shown (Container fires it as onDidShowError). */
  onErrorShown?(source: string, message: string): void;
}

/** An error shown to the user. */
export interface ErrorShown {
  /** The command or panel that showed it. */
  command: string;
  message: string;
}

/**
 * Logs `error` in full and shows it briefly with "Show Log" (and a next step when there is one);
 * returns the message shown. A cancellation by the user is silent and returns undefined.
 */
export function reportFailure(host: ErrorReporting, source: string, error: unknown): string | undefined {
  if (isCancellation(error)) {
    host.log.debug(`${source}: cancelled`);
    return undefined;
  }
  host.log.error(`${source} failed`);
  host.log.error(error instanceof Error ? error : String(error));
  const shown = toUserFacing(error);
  host.onErrorShown?.(source, shown.message);
  void showError(host, shown.message, shown.actions);
  return shown.message;
}

async function showError(host: ErrorReporting, message: string, actions: Array<{ label: string; command: string }>): Promise<void> {
  const showLog = vscode.l10n.t('Show Log');
  const choice = await vscode.window.showErrorMessage(message, ...actions.map((a) => a.label), showLog);
  if (choice === showLog) host.showLog();
  const action = actions.find((a) => a.label === choice);
  if (action) await vscode.commands.executeCommand(action.command);
}
