import * as vscode from 'vscode';

// Knowledge Desk does nothing costly until it is used in a window: the first use (a view becomes
// visible, a command runs, a panel is restored) is reported here and the container starts the
// connection (for the Local region: the local service). See ConnectionManager.use().
const used = new vscode.EventEmitter<string>();

/** Fires with what was used, each time; listeners act on the first one. */
export const onDidUse = used.event;

export function noteUse(what: string): void {
  used.fire(what);
}

/** Reports a use when the view is (or becomes) visible. */
export function noteUseWhenVisible(
  id: string,
  view: { visible: boolean; onDidChangeVisibility: vscode.Event<{ visible: boolean }> },
): vscode.Disposable {
  if (view.visible) noteUse(`view ${id}`);
  return view.onDidChangeVisibility((e) => e.visible && noteUse(`view ${id}`));
}
