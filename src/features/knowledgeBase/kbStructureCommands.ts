// Where things are in the knowledge base: New Folder…, Rename…, Move… (and moving by drag and drop).
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import { pickFolder, targetLabel, type FolderChoice } from '../../platform/pickers/folderPicker';
import { KbCommandGroup } from './kbCommandGroup';
import { existing, offered } from './kbOperations';
import { requireNode, selectedNodes } from './kbSelection';
import { ROOT, type KbElement, type NodeElement } from './kbTreeModel';
import { nodeNameProblem } from './nodeNameMessages';

export class KbStructureCommands extends KbCommandGroup {
  /** New Folder… at the top level (view title), inside a folder, or beside a document (its folder). */
  async newFolder(element?: NodeElement): Promise<KbNode | undefined> {
    const context = element?.kind === 'node' ? element : undefined;
    const parent = context
      ? isFileNode(context.node)
        ? (context.node.parentFolder ?? null)
        : { id: context.node.id, name: context.node.name }
      : null;
    const name = await this.s.ui.showInputBox({
      title: parent ? vscode.l10n.t('New folder in "{0}"', parent.name) : vscode.l10n.t('New folder at the top level'),
      prompt: vscode.l10n.t('The folder name (no "/", at most 255 bytes)'),
      validateInput: (v) => nodeNameProblem(v, 'folder'),
    });
    if (name === undefined) return undefined;
    const client = await this.s.connection.getClient();
    const folder = await offered(this.s.connection, () =>
      existing(
        () => this.tree.refresh(),
        parent?.name,
        () => client.folders.create({ name: name.trim(), parentFolderId: parent?.id ?? null }),
      ),
    );
    if (!folder) return undefined;
    await this.tree.refresh(parent?.id ?? ROOT);
    const shown = this.tree.model.element(folder.id);
    if (shown) await this.view.reveal(shown, { select: true, focus: true });
    void vscode.window.showInformationMessage(
      parent
        ? vscode.l10n.t('Created the folder "{0}" in "{1}".', folder.name, parent.name)
        : vscode.l10n.t('Created the folder "{0}" at the top level.', folder.name),
    );
    return folder;
  }

  /** Rename… a folder (folder operation) or a document (node update); the id stays, what is below follows. */
  async rename(element?: NodeElement): Promise<KbNode | undefined> {
    const node = requireNode(this.view, element);
    const file = isFileNode(node);
    const name = await this.s.ui.showInputBox({
      title: file ? vscode.l10n.t('Rename document "{0}"', node.name) : vscode.l10n.t('Rename folder "{0}"', node.name),
      value: node.name,
      valueSelection: file && node.name.lastIndexOf('.') > 0 ? [0, node.name.lastIndexOf('.')] : undefined,
      prompt: vscode.l10n.t('The new name (no "/", at most 255 bytes)'),
      validateInput: (v) => nodeNameProblem(v, file ? 'document' : 'folder'),
    });
    if (name === undefined || name.trim() === node.name) return undefined;
    const client = await this.s.connection.getClient();
    const renamed = await offered(this.s.connection, () =>
      existing(
        () => this.tree.refresh(),
        node.name,
        () => (file ? client.kbNodes.update(node.id, { name: name.trim() }) : client.folders.rename(node.id, name.trim())),
      ),
    );
    if (!renamed) return undefined;
    this.tree.updateNode(renamed);
    // Below a renamed folder every breadcrumb changed: shown descriptions and tooltips follow.
    await this.tree.refresh();
    return renamed;
  }

  async move(element: NodeElement | undefined, selection: readonly KbElement[] | undefined): Promise<void> {
    const nodes = selectedNodes(this.view, element, selection);
    if (!nodes.length) return;
    const client = await this.s.connection.getClient();
    const target = await pickFolder(this.s.ui, client, {
      title: nodes.length === 1 ? vscode.l10n.t('Move "{0}" to…', nodes[0].name) : vscode.l10n.t('Move {0} items to…', nodes.length),
      exclude: new Set(nodes.filter((n) => !isFileNode(n)).map((n) => n.id)),
    });
    if (!target) return;
    await this.moveTo(
      nodes.map((n) => n.id),
      target,
    );
  }

  /** Moves nodes into a folder (Move… and a drop of tree nodes), then says how many went and how many not. */
  async moveTo(ids: string[], target: FolderChoice): Promise<void> {
    const client = await this.s.connection.getClient();
    const result = await client.kbNodes.moveBulk({ targetFolderId: target.id, nodeIds: ids, keepCurrentPermission: true });
    await this.tree.refresh();
    const failed = result.failed_kb_node_ids.length;
    const count = result.moved_kb_node_ids.length;
    const moved =
      count === 1
        ? vscode.l10n.t('Moved {0} item to {1}.', count, targetLabel(target))
        : vscode.l10n.t('Moved {0} items to {1}.', count, targetLabel(target));
    const msg = failed
      ? `${moved} ${vscode.l10n.t('{0} could not be moved (a folder cannot go into itself or its own subfolders, or the item no longer exists).', failed)}`
      : moved;
    void (failed ? vscode.window.showWarningMessage(msg) : vscode.window.showInformationMessage(msg));
  }
}
