import * as vscode from 'vscode';
import { reportFailure, type ErrorReporting } from './errorReport';

export type CommandHost = ErrorReporting;

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
      reportFailure(host, id, error);
      return undefined;
    }
  });
}
