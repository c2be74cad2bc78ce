import * as vscode from 'vscode';
import { CommandIds } from '../commandIds';
import type { ErrorElement } from './pagingElements';
import { pagingTreeItem } from './pagingItems';

/** What the gate reads of the connection (structural: platform does not import the connection feature). */
export interface ConnectionState {
  readonly status: { readonly state: string; readonly problem?: string };
  readonly onDidChangeStatus: vscode.Event<unknown>;
}

/** Checks that failed to reach or use the service: the view says why, with Retry, instead of staying empty. */
const FAILED_STATES = new Set(['unreachable', 'error']);
/**
 * States that pass: a recheck, and the local service's process being restarted (a second or two; the status bar
 * says so). The view keeps what it shows meanwhile and reloads once connected, so expanded folders stay expanded
 * (replacing the listing with an error row made VS Code forget which folders were open).
 */
const PASSING_STATES = new Set(['checking', 'restarting']);

/**
 * The one "only when connected" gate of every tree: while not connected a view shows no listing and
 * requests none. Without a key (or before first use) it is empty and its welcome content explains why; when
 * the check failed it shows one error row whose Retry runs Check Connection (a tree's own Refresh could not
 * reload anything until the connection is back).
 */
export function connectedOnly<T>(
  provider: vscode.TreeDataProvider<T>,
  connection: ConnectionState,
): vscode.TreeDataProvider<T | ErrorElement> {
  let row: ErrorElement | undefined;
  // While a check runs again (rechecks with backoff) the row stays: no flicker to an empty view and back.
  // Between a restart and the service answering again (restarting, then checking).
  let afterRestart = false;
  const update = (): boolean => {
    const { state, problem } = connection.status;
    if (state === 'restarting') afterRestart = true;
    if (PASSING_STATES.has(state)) return false;
    afterRestart = false;
    const next = FAILED_STATES.has(state) ? (problem ?? state) : undefined;
    if (next === row?.message) return false;
    row = next === undefined ? undefined : { kind: 'error', parentKey: 'connection', message: next };
    return true;
  };
  update();
  return {
    onDidChangeTreeData: (listener, thisArg, disposables) => {
      const own = provider.onDidChangeTreeData?.(listener, thisArg);
      // What this listener was last told, apart from `row`: getChildren (a test, another caller) may update the
      // row first, and the view must still hear that the service is back.
      let told = { connected: connection.status.state === 'connected', message: row?.message };
      const status = connection.onDidChangeStatus(() => {
        update();
        const { state } = connection.status;
        // Not told yet: a reload (keeping each element's id, and so its expansion) follows once connected.
        if (state === 'restarting') told = { ...told, connected: false };
        if (PASSING_STATES.has(state)) return;
        const now = { connected: connection.status.state === 'connected', message: row?.message };
        if (now.connected === told.connected && now.message === told.message) return;
        told = now;
        listener.call(thisArg, undefined);
      });
      const both = vscode.Disposable.from(status, ...(own ? [own] : []));
      disposables?.push(both);
      return both;
    },
    getTreeItem: (element) =>
      row && element === row
        ? pagingTreeItem(row, { loadMore: CommandIds.checkConnection, retry: CommandIds.checkConnection })
        : provider.getTreeItem(element as T),
    getChildren: async (element) => {
      update();
      // A listing asked for while the service restarts (the view refreshed, or a folder was opened) waits for it:
      // VS Code keeps showing the rows it has meanwhile, and the answer keeps their ids, so open folders stay open.
      if (afterRestart && !row) await restarted(connection);
      update();
      if (connection.status.state === 'connected') return provider.getChildren(element as T | undefined);
      return !element && row ? [row] : [];
    },
    getParent: provider.getParent && ((element) => (element === row ? undefined : provider.getParent!(element as T))),
  };
}

/** Resolves when the connection is past its restart and check, or after RESTART_WAIT_MS (a long backoff). */
function restarted(connection: ConnectionState): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(done, RESTART_WAIT_MS);
    const listener = connection.onDidChangeStatus(() => {
      if (!PASSING_STATES.has(connection.status.state)) done();
    });
  });
}

const RESTART_WAIT_MS = 30_000;
