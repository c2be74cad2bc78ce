// What every group of Knowledge Base commands (filters, uploads, structure, documents, deletes, inspection)
// acts through: the services it runs with, the tree it redraws and the view whose selection it reads.
import type * as vscode from 'vscode';
import type { CommandServices } from '../../platform/commandServices';
import type { KbElement } from './kbTreeModel';
import type { KbTreeProvider } from './kbTreeProvider';

export abstract class KbCommandGroup {
  constructor(
    protected readonly s: CommandServices,
    protected readonly tree: KbTreeProvider,
    protected readonly view: vscode.TreeView<KbElement>,
  ) {}
}
