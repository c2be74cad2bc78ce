import * as vscode from 'vscode';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';

/**
 * Views whose features are not built yet: an empty tree, so the view shows its welcome content
 * (Connect while there is no key) instead of "no data provider registered".
 */
export class PlaceholderViews extends Disposable {
  constructor(c: Container, viewIds: string[]) {
    super();
    for (const id of viewIds) {
      const emitter = this._register(new vscode.EventEmitter<void>());
      this._register(c.connection.onDidChangeClient(() => emitter.fire()));
      this._register(vscode.window.createTreeView(id, { treeDataProvider: { getTreeItem: (e: vscode.TreeItem) => e, getChildren: () => [], onDidChangeTreeData: emitter.event } }));
    }
  }
}
