import * as vscode from 'vscode';
import { isCancellation } from '../cancellation';
import { titleWithName } from '../connection/connectionLabel';
import { toUserFacing } from '../errorMessages';
import { reportFailure, type ErrorReporting } from '../errorReport';
import type { Log } from '../logger';
import type { WireError } from './protocol';

/** What every panel needs from the extension (Container.panelBasics); each panel's context adds its own. */
export interface PanelBasics {
  extensionUri: vscode.Uri;
  log: Log;
  /** Where a webview's failures go: the same path as the command wrapper (src/platform/commands.ts). */
  errors: ErrorReporting;
  /**
   * The active connection's name for a panel's title, once the user has connections of their own; undefined
   * with only the ones migrated from the regions (their titles stay as they were).
   */
  connectionLabel?: () => string | undefined;
}

/** `title — connection` when there is a connection to name. */
export function titleWithConnection(title: string, basics: Pick<PanelBasics, 'connectionLabel'>): string {
  return titleWithName(title, basics.connectionLabel?.());
}

/** The WebviewPanelHost setup every panel shares: its basics, and errors sent to the page as describeForPage makes them. */
export function hostSetup(basics: PanelBasics) {
  return { extensionUri: basics.extensionUri, log: basics.log, channel: { describeError: describeForPage } };
}

/**
 * Logs `error` in full and shows it briefly with "Show Log" (and a next step when there is one);
 * returns what the page shows inline. A cancellation is silent and returns undefined.
 */
export function reportError(host: ErrorReporting, source: string, error: unknown): WireError | undefined {
  const message = reportFailure(host, source, error);
  return message === undefined ? undefined : { message, code: error instanceof Error ? error.name : undefined };
}

/** The message the page shows for an error, without notifying (for answers to the page). */
export function describeForPage(error: unknown): WireError {
  if (isCancellation(error)) return { message: vscode.l10n.t('Cancelled.'), code: 'cancelled' };
  return { message: toUserFacing(error).message, code: error instanceof Error ? error.name : undefined };
}
