import * as vscode from 'vscode';
import { isCancellation } from '../cancellation';
import { toUserFacing } from '../errorMessages';
import type { Log } from '../logger';
import type { TestProbe } from '../testProbe';
import type { WireError } from './protocol';

/** Where a webview's failures go: the same path as the command wrapper (src/platform/commands.ts). */
export interface ErrorReporting {
  log: Log;
  showLog(): void;
  /** Called with every error shown (the Container keeps them for tests and diagnostics). */
  onErrorShown?(source: string, message: string): void;
}

/** What every panel needs from the extension (Container.panelBasics); each panel's context adds its own. */
export interface PanelBasics {
  extensionUri: vscode.Uri;
  log: Log;
  errors: ErrorReporting;
  /** Container.probe (tests only). */
  probe?: TestProbe;
}

/** The WebviewPanelHost setup every panel shares: its basics, and errors sent to the page as describeForPage makes them. */
export function hostSetup(basics: PanelBasics) {
  return { extensionUri: basics.extensionUri, log: basics.log, probe: basics.probe, channel: { describeError: describeForPage } };
}

/**
 * Logs `error` in full and shows it briefly with "Show Log" (and a next step when there is one);
 * returns what the page shows inline. A cancellation is silent and returns undefined.
 */
export function reportError(host: ErrorReporting, source: string, error: unknown): WireError | undefined {
  if (isCancellation(error)) {
    host.log.debug(`${source}: cancelled`);
    return undefined;
  }
  host.log.error(`${source} failed`);
  host.log.error(error instanceof Error ? error : String(error));
  const shown = toUserFacing(error);
  host.onErrorShown?.(source, shown.message);
  const showLog = vscode.l10n.t('Show Log');
  void vscode.window.showErrorMessage(shown.message, ...shown.actions.map((a) => a.label), showLog).then(async (choice) => {
    if (choice === showLog) host.showLog();
    const action = shown.actions.find((a) => a.label === choice);
    if (action) await vscode.commands.executeCommand(action.command);
  });
  return { message: shown.message, code: error instanceof Error ? error.name : undefined };
}

/** The message the page shows for an error, without notifying (for answers to the page). */
export function describeForPage(error: unknown): WireError {
  if (isCancellation(error)) return { message: vscode.l10n.t('Cancelled.'), code: 'cancelled' };
  return { message: toUserFacing(error).message, code: error instanceof Error ? error.name : undefined };
}
