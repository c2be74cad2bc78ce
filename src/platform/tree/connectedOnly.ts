import type * as vscode from 'vscode';

/** What the gate reads of the connection (structural: platform does not import the connection feature). */
export interface ConnectionState {
  readonly status: { readonly state: string };
}

/**
 * The one "only when connected" gate of every tree: while not connected a view is empty (its welcome
 * content explains why), and no listing is requested.
 */
export function connectedOnly<T>(provider: vscode.TreeDataProvider<T>, connection: ConnectionState): vscode.TreeDataProvider<T> {
  return {
    onDidChangeTreeData: provider.onDidChangeTreeData,
    getTreeItem: (element) => provider.getTreeItem(element),
    getChildren: (element) => (connection.status.state === 'connected' ? provider.getChildren(element) : []),
    getParent: provider.getParent && ((element) => provider.getParent!(element)),
  };
}
