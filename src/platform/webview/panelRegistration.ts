// Creating a panel and restoring panels after a restart, apart from the panel host (webviewPanel.ts): features
// register their serializers at activation, and the host with its channel and the page protocols' schemas (zod)
// loads with the first panel.
import * as vscode from 'vscode';
import type { z } from 'zod';
import type { Log } from '../logger';
import { noteUse } from '../usage';
import { restoredState } from './pageStates';
import { webviewOptions } from './webviewHtml';

/** A new panel with this project's options (scripts on, resource roots limited, no retained context). */
export function createPanel(
  viewType: string,
  title: string,
  extensionUri: vscode.Uri,
  column: vscode.ViewColumn = vscode.ViewColumn.Active,
): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(
    viewType,
    title,
    { viewColumn: column, preserveFocus: false },
    { ...webviewOptions(extensionUri), enableFindWidget: true },
  );
}

/**
 * Restores panels after a restart from the state the page saved with setState, or the host's copy of it when
 * that is newer (validated: a state that does not parse restores a default panel rather than failing).
 */
export function registerPanelSerializer<S extends z.ZodTypeAny>(
  viewType: string,
  /** The schema, or a function returning it (so that the panel's protocol loads on the first restore). */
  stateSchema: S | (() => S),
  log: Log,
  restore: (panel: vscode.WebviewPanel, state: z.output<S> | undefined) => void | Promise<void>,
): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, raw: unknown) {
      noteUse(`restored ${viewType}`);
      const schema: S = typeof stateSchema === 'function' ? (stateSchema as () => S)() : stateSchema;
      // The host's copy when it is newer than what the workbench saved (pageStates.ts says why).
      raw = restoredState(viewType, panel, raw, log);
      const parsed = schema.safeParse(raw);
      if (!parsed.success && raw !== undefined && raw !== null)
        log.warn(`${viewType}: saved state ignored (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      await restore(panel, parsed.success ? parsed.data : undefined);
    },
  });
}
