// Delete (documents and folders in a selection) and Delete Folder (which first counts what goes with it).
// Both ask through the one confirmation (platform/confirmDelete.ts); only the question differs.
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import { DeleteNotSupportedError, OperationNotOfferedError } from '../../api/errors';
import { ContextKeys } from '../../platform/commandIds';
import { confirmDelete } from '../../platform/confirmDelete';
import { setContext } from '../../platform/contextKeys';
import { KbCommandGroup } from './kbCommandGroup';
import { KB_VIEW } from './kbTreeItems';
import { existing, offered } from './kbOperations';
import { requireNode, selectedNodes } from './kbSelection';
import type { KbElement, NodeElement } from './kbTreeModel';

export class KbDeleteCommands extends KbCommandGroup {
  async delete(element: NodeElement | undefined, selection: readonly KbElement[] | undefined): Promise<void> {
    const nodes = selectedNodes(this.view, element, selection);
    if (!nodes.length) return;
    if (!(await confirmDelete(this.s.ui, deleteQuestion(nodes)))) return;
    const client = await this.s.connection.getClient();
    try {
      for (const node of nodes) await client.kbNodes.delete(node.id);
    } catch (error) {
      if (!(error instanceof DeleteNotSupportedError)) throw error;
      setContext(ContextKeys.kbDeleteUnsupported, true);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('This deployment does not offer deleting documents through the API; delete them in the dashboard.'),
      );
    }
    await this.tree.refresh();
  }

  /** Delete Folder: a modal that says how many documents go with it. */
  async deleteFolder(element?: NodeElement): Promise<boolean> {
    const node = requireNode(this.view, element);
    if (isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a document; use Delete for documents.', node.name));
    const client = await this.s.connection.getClient();
    const refresh = () => this.tree.refresh();
    // Gone meanwhile? Counting the contents of a missing folder would find none and ask to delete nothing.
    await existing(refresh, node.name, () => client.kbNodes.get(node.id)).catch((error: unknown) => {
      if (!(error instanceof OperationNotOfferedError)) throw error;
    });
    const inside = await existing(refresh, node.name, async () =>
      vscode.window.withProgress({ location: { viewId: KB_VIEW }, title: vscode.l10n.t('Counting what is in {0}', node.name) }, () =>
        client.folders.contents(node.id),
      ),
    );
    if (!(await confirmDelete(this.s.ui, folderDeleteQuestion(node.name, inside), vscode.l10n.t('Delete Folder')))) return false;
    const result = await offered(this.s.connection, () => existing(refresh, node.name, () => client.folders.delete(node.id)));
    if (!result) return false;
    await this.tree.refresh();
    const gone = result.deletedDocuments ?? inside.documents;
    void vscode.window.showInformationMessage(
      gone === 1
        ? vscode.l10n.t('Deleted the folder "{0}" and {1} document in it.', node.name, gone)
        : vscode.l10n.t('Deleted the folder "{0}" and {1} documents in it.', node.name, gone),
    );
    return true;
  }
}

/** The delete confirmation, saying what is selected: documents, folders (with everything in them), or both. */
function deleteQuestion(nodes: readonly KbNode[]): string {
  const docs = nodes.filter(isFileNode).length;
  const folders = nodes.length - docs;
  if (nodes.length === 1) {
    return docs
      ? vscode.l10n.t('Delete "{0}" from the knowledge base? This cannot be undone.', nodes[0].name)
      : vscode.l10n.t('Delete "{0}" and everything in it from the knowledge base? This cannot be undone.', nodes[0].name);
  }
  if (!folders) return vscode.l10n.t('Delete {0} documents from the knowledge base? This cannot be undone.', docs);
  if (!docs) return vscode.l10n.t('Delete {0} folders and everything in them from the knowledge base? This cannot be undone.', folders);
  const docText = docs === 1 ? vscode.l10n.t('{0} document', 1) : vscode.l10n.t('{0} documents', docs);
  const folderText = folders === 1 ? vscode.l10n.t('{0} folder', 1) : vscode.l10n.t('{0} folders', folders);
  return folders === 1
    ? vscode.l10n.t('Delete {0} and {1} with everything in it from the knowledge base? This cannot be undone.', docText, folderText)
    : vscode.l10n.t('Delete {0} and {1} with everything in them from the knowledge base? This cannot be undone.', docText, folderText);
}

/** Delete Folder's question: what the folder holds, with "+" where the count stopped short of the end. */
function folderDeleteQuestion(name: string, inside: { documents: number; folders: number; complete: boolean }): string {
  const count = (n: number): string => `${n}${inside.complete ? '' : '+'}`;
  const docs = inside.documents === 1 ? vscode.l10n.t('{0} document', count(1)) : vscode.l10n.t('{0} documents', count(inside.documents));
  const folders = inside.folders === 1 ? vscode.l10n.t('{0} subfolder', count(1)) : vscode.l10n.t('{0} subfolders', count(inside.folders));
  return !(inside.documents || inside.folders)
    ? vscode.l10n.t('Delete the folder "{0}" (it is empty)? This cannot be undone.', name)
    : inside.folders
      ? vscode.l10n.t('Delete the folder "{0}" with its {1} and {2}? This cannot be undone.', name, docs, folders)
      : vscode.l10n.t('Delete the folder "{0}" with its {1}? This cannot be undone.', name, docs);
}
