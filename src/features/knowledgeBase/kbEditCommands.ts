// Tree commands of the operations from the service's public pages (docs/api.md#further-public-operations):
// New Folder…, Rename…, Delete Folder, Edit Hashtags…, Turn Off / Turn On. Each checks its input before it
// asks the service; an operation the deployment does not offer (404/405) is said once and its command hidden
// for the region (src/platform/offerContext.ts).
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode, OperationNotOfferedError } from '../../api/values';
import type { Container } from '../../container';
import { REGION_INFO } from '../../core/regions';
import { nodeNameProblem } from '../../core/nodeNames';
import { pickHashtags } from '../../platform/pickers/hashtagPicker';
import { KB_VIEW } from './kbTreeItems';
import type { KbTreeProvider } from './kbTreeProvider';
import { ROOT, type KbElement, type NodeElement } from './kbTreeModel';

/** What each optional operation is called in "this deployment does not offer …". */
const OPERATION_NAMES: Record<string, string> = {
  'folders.create': 'creating folders',
  'folders.rename': 'renaming folders',
  'folders.delete': 'deleting folders',
  'kbNodes.update': 'editing documents (rename, hashtags)',
  'kbNodes.toggle': 'turning documents on or off',
  'kbNodes.download': 'downloading original documents',
};

export class KbEditCommands {
  constructor(
    private readonly c: Container,
    private readonly tree: KbTreeProvider,
    private readonly view: vscode.TreeView<KbElement>,
  ) {}

  /** New Folder… at the top level (view title), inside a folder, or beside a document (its folder). */
  async newFolder(element?: NodeElement): Promise<KbNode | undefined> {
    const context = element?.kind === 'node' ? element : undefined;
    const parent = context
      ? isFileNode(context.node)
        ? (context.node.parentFolder ?? null)
        : { id: context.node.id, name: context.node.name }
      : null;
    const where = parent ? `in "${parent.name}"` : 'at the top level';
    const name = await this.c.ui.showInputBox({
      title: `New folder ${where}`,
      prompt: 'The folder name (no "/", at most 255 bytes)',
      validateInput: (v) => nodeNameProblem(v, 'folder'),
    });
    if (name === undefined) return undefined;
    const client = await this.c.connection.getClient();
    const folder = await this.offered(() =>
      this.existing(parent?.name, () => client.folders.create({ name: name.trim(), parentFolderId: parent?.id ?? null })),
    );
    if (!folder) return undefined;
    await this.tree.refresh(parent?.id ?? ROOT);
    const shown = this.tree.model.element(folder.id);
    if (shown) await this.view.reveal(shown, { select: true, focus: true });
    void vscode.window.showInformationMessage(`Created the folder "${folder.name}" ${where}.`);
    return folder;
  }

  /** Rename… a folder (folder operation) or a document (node update); the id stays, what is below follows. */
  async rename(element?: NodeElement): Promise<KbNode | undefined> {
    const node = this.requireNode(element);
    const file = isFileNode(node);
    const name = await this.c.ui.showInputBox({
      title: `Rename ${file ? 'document' : 'folder'} "${node.name}"`,
      value: node.name,
      valueSelection: file && node.name.lastIndexOf('.') > 0 ? [0, node.name.lastIndexOf('.')] : undefined,
      prompt: 'The new name (no "/", at most 255 bytes)',
      validateInput: (v) => nodeNameProblem(v, file ? 'document' : 'folder'),
    });
    if (name === undefined || name.trim() === node.name) return undefined;
    const client = await this.c.connection.getClient();
    const renamed = await this.offered(() =>
      this.existing(node.name, () =>
        file ? client.kbNodes.update(node.id, { name: name.trim() }) : client.folders.rename(node.id, name.trim()),
      ),
    );
    if (!renamed) return undefined;
    this.tree.updateNode(renamed);
    // Below a renamed folder every breadcrumb changed: shown descriptions and tooltips follow.
    await this.tree.refresh();
    return renamed;
  }

  /** Delete Folder: a modal that says how many documents go with it. */
  async deleteFolder(element?: NodeElement): Promise<boolean> {
    const node = this.requireNode(element);
    if (isFileNode(node)) throw new Error(`"${node.name}" is a document; use Delete for documents.`);
    const client = await this.c.connection.getClient();
    // Gone meanwhile? Counting the contents of a missing folder would find none and ask to delete nothing.
    await this.existing(node.name, () => client.kbNodes.get(node.id)).catch((error: unknown) => {
      if (!(error instanceof OperationNotOfferedError)) throw error;
    });
    const inside = await this.existing(node.name, async () =>
      vscode.window.withProgress({ location: { viewId: KB_VIEW }, title: `Counting what is in ${node.name}` }, () =>
        client.folders.contents(node.id),
      ),
    );
    const docs = `${inside.documents}${inside.complete ? '' : '+'} document${inside.documents === 1 ? '' : 's'}`;
    const folders = inside.folders ? ` and ${inside.folders}${inside.complete ? '' : '+'} subfolder${inside.folders === 1 ? '' : 's'}` : '';
    const what = inside.documents || inside.folders ? `with its ${docs}${folders}` : '(it is empty)';
    const choice = await this.c.ui.showWarningMessage(
      `Delete the folder "${node.name}" ${what}? This cannot be undone.`,
      { modal: true },
      'Delete Folder',
    );
    if (choice !== 'Delete Folder') return false;
    const result = await this.offered(() => this.existing(node.name, () => client.folders.delete(node.id)));
    if (!result) return false;
    await this.tree.refresh();
    const gone = result.deletedDocuments ?? inside.documents;
    void vscode.window.showInformationMessage(`Deleted the folder "${node.name}" and ${gone} document${gone === 1 ? '' : 's'} in it.`);
    return true;
  }

  /** Edit Hashtags… of a document, with the picker of hashtags in use. */
  async editHashtags(element?: NodeElement): Promise<KbNode | undefined> {
    const node = this.requireNode(element);
    if (!isFileNode(node)) throw new Error(`"${node.name}" is a folder; hashtags belong to documents.`);
    const client = await this.c.connection.getClient();
    const tags = await pickHashtags(this.c.ui, client, {
      title: `Hashtags of "${node.name}"`,
      current: node.hashtags,
      log: this.c.log('kb'),
    });
    if (tags === undefined) return undefined;
    if (tags.length === node.hashtags.length && tags.every((t, i) => t === node.hashtags[i])) return node;
    const updated = await this.offered(() => this.existing(node.name, () => client.kbNodes.setHashtags(node.id, tags)));
    if (!updated) return undefined;
    this.tree.updateNode(updated);
    vscode.window.setStatusBarMessage(`Hashtags of ${node.name}: ${tags.length ? tags.map((t) => `#${t}`).join(' ') : 'none'}`, 4000);
    return updated;
  }

  /** Turn Off / Turn On the selected documents; folders in the selection are left alone. */
  async toggle(status: 'on' | 'off', element?: NodeElement, selection?: readonly KbElement[]): Promise<string[]> {
    const list = selection?.length ? selection : element ? [element] : this.view.selection;
    const nodes = list.flatMap((e) => (e.kind === 'node' ? [e.node] : []));
    const docs = nodes.filter(isFileNode);
    if (!docs.length) {
      throw new Error(
        nodes.length ? 'Folders cannot be turned on or off; select documents.' : 'Select documents in the Knowledge Base view first.',
      );
    }
    const client = await this.c.connection.getClient();
    const result = await this.offered(() =>
      client.kbNodes.toggle(
        docs.map((d) => d.id),
        status,
      ),
    );
    if (!result) return [];
    await this.tree.refresh();
    const missed = docs.filter((d) => !result.updated.includes(d.id));
    const verb = status === 'off' ? 'Turned off' : 'Turned on';
    const head = docs.length === 1 && !missed.length ? `${verb} "${docs[0].name}".` : `${verb} ${result.updated.length} document(s).`;
    const tail = missed.length
      ? ` ${missed.length} could not be changed (deleted meanwhile?): ${missed.map((d) => d.name).join(', ')}.`
      : '';
    void (missed.length ? vscode.window.showWarningMessage(head + tail) : vscode.window.showInformationMessage(head));
    return result.updated;
  }

  /**
   * Runs an optional operation; "not offered" is said once (the command is hidden for this region from then
   * on) and gives undefined.
   */
  async offered<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof OperationNotOfferedError)) throw error;
      const what = OPERATION_NAMES[error.operation] ?? error.operation;
      const region = REGION_INFO[this.c.connection.region]?.label ?? this.c.connection.region;
      void vscode.window.showInformationMessage(
        `The ${region} deployment does not offer ${what} through the API; the command is hidden for this region.`,
      );
      return undefined;
    }
  }

  /** A node deleted meanwhile (404 naming it) becomes a message saying so, and the tree is refreshed. */
  private async existing<T>(name: string | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if ((error as { name?: string })?.name !== 'NotFoundError' || error instanceof OperationNotOfferedError) throw error;
      await this.tree.refresh();
      throw new Error(
        `${name ? `"${name}"` : 'That item'} no longer exists in the knowledge base (deleted meanwhile?); the view was refreshed.`,
      );
    }
  }

  private requireNode(element: NodeElement | undefined): KbNode {
    const node = element?.kind === 'node' ? element.node : this.view.selection.find((e): e is NodeElement => e.kind === 'node')?.node;
    if (!node) throw new Error('Select a document or folder in the Knowledge Base view first.');
    return node;
  }
}
