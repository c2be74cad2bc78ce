// Tree commands of the operations from the service's public pages (docs/api.md#further-public-operations):
// New Folder…, Rename…, Delete Folder, Edit Hashtags…, Turn Off / Turn On. Each checks its input before it
// asks the service; an operation the deployment does not offer (404/405) is said once and its command hidden
// for the region (src/platform/offerContext.ts).
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import { OperationNotOfferedError } from '../../api/errors';
import type { Container } from '../../container';
import { REGION_INFO } from '../../core/regions';
import { nodeNameProblem } from './nodeNameMessages';
import { pickHashtags } from '../../platform/pickers/hashtagPicker';
import { KB_VIEW } from './kbTreeItems';
import type { KbTreeProvider } from './kbTreeProvider';
import { ROOT, type KbElement, type NodeElement } from './kbTreeModel';

/** What each optional operation is called in "this deployment does not offer …". */
const OPERATION_NAMES: Record<string, () => string> = {
  'folders.create': () => vscode.l10n.t('creating folders'),
  'folders.rename': () => vscode.l10n.t('renaming folders'),
  'folders.delete': () => vscode.l10n.t('deleting folders'),
  'kbNodes.update': () => vscode.l10n.t('editing documents (rename, hashtags)'),
  'kbNodes.toggle': () => vscode.l10n.t('turning documents on or off'),
  'kbNodes.download': () => vscode.l10n.t('downloading original documents'),
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
    const name = await this.c.ui.showInputBox({
      title: parent ? vscode.l10n.t('New folder in "{0}"', parent.name) : vscode.l10n.t('New folder at the top level'),
      prompt: vscode.l10n.t('The folder name (no "/", at most 255 bytes)'),
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
    void vscode.window.showInformationMessage(
      parent
        ? vscode.l10n.t('Created the folder "{0}" in "{1}".', folder.name, parent.name)
        : vscode.l10n.t('Created the folder "{0}" at the top level.', folder.name),
    );
    return folder;
  }

  /** Rename… a folder (folder operation) or a document (node update); the id stays, what is below follows. */
  async rename(element?: NodeElement): Promise<KbNode | undefined> {
    const node = this.requireNode(element);
    const file = isFileNode(node);
    const name = await this.c.ui.showInputBox({
      title: file ? vscode.l10n.t('Rename document "{0}"', node.name) : vscode.l10n.t('Rename folder "{0}"', node.name),
      value: node.name,
      valueSelection: file && node.name.lastIndexOf('.') > 0 ? [0, node.name.lastIndexOf('.')] : undefined,
      prompt: vscode.l10n.t('The new name (no "/", at most 255 bytes)'),
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
    if (isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a document; use Delete for documents.', node.name));
    const client = await this.c.connection.getClient();
    // Gone meanwhile? Counting the contents of a missing folder would find none and ask to delete nothing.
    await this.existing(node.name, () => client.kbNodes.get(node.id)).catch((error: unknown) => {
      if (!(error instanceof OperationNotOfferedError)) throw error;
    });
    const inside = await this.existing(node.name, async () =>
      vscode.window.withProgress({ location: { viewId: KB_VIEW }, title: vscode.l10n.t('Counting what is in {0}', node.name) }, () =>
        client.folders.contents(node.id),
      ),
    );
    const count = (n: number): string => `${n}${inside.complete ? '' : '+'}`;
    const docs = inside.documents === 1 ? vscode.l10n.t('{0} document', count(1)) : vscode.l10n.t('{0} documents', count(inside.documents));
    const folders =
      inside.folders === 1 ? vscode.l10n.t('{0} subfolder', count(1)) : vscode.l10n.t('{0} subfolders', count(inside.folders));
    const question = !(inside.documents || inside.folders)
      ? vscode.l10n.t('Delete the folder "{0}" (it is empty)? This cannot be undone.', node.name)
      : inside.folders
        ? vscode.l10n.t('Delete the folder "{0}" with its {1} and {2}? This cannot be undone.', node.name, docs, folders)
        : vscode.l10n.t('Delete the folder "{0}" with its {1}? This cannot be undone.', node.name, docs);
    const deleteLabel = vscode.l10n.t('Delete Folder');
    const choice = await this.c.ui.showWarningMessage(question, { modal: true }, deleteLabel);
    if (choice !== deleteLabel) return false;
    const result = await this.offered(() => this.existing(node.name, () => client.folders.delete(node.id)));
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

  /** Edit Hashtags… of a document, with the picker of hashtags in use. */
  async editHashtags(element?: NodeElement): Promise<KbNode | undefined> {
    const node = this.requireNode(element);
    if (!isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a folder; hashtags belong to documents.', node.name));
    const client = await this.c.connection.getClient();
    const tags = await pickHashtags(this.c.ui, client, {
      title: vscode.l10n.t('Hashtags of "{0}"', node.name),
      current: node.hashtags,
      log: this.c.log('kb'),
    });
    if (tags === undefined) return undefined;
    if (tags.length === node.hashtags.length && tags.every((t, i) => t === node.hashtags[i])) return node;
    const updated = await this.offered(() => this.existing(node.name, () => client.kbNodes.setHashtags(node.id, tags)));
    if (!updated) return undefined;
    this.tree.updateNode(updated);
    vscode.window.setStatusBarMessage(
      vscode.l10n.t('Hashtags of {0}: {1}', node.name, tags.length ? tags.map((t) => `#${t}`).join(' ') : vscode.l10n.t('none')),
      4000,
    );
    return updated;
  }

  /** Turn Off / Turn On the selected documents; folders in the selection are left alone. */
  async toggle(status: 'on' | 'off', element?: NodeElement, selection?: readonly KbElement[]): Promise<string[]> {
    const list = selection?.length ? selection : element ? [element] : this.view.selection;
    const nodes = list.flatMap((e) => (e.kind === 'node' ? [e.node] : []));
    const docs = nodes.filter(isFileNode);
    if (!docs.length) {
      throw new Error(
        nodes.length
          ? vscode.l10n.t('Folders cannot be turned on or off; select documents.')
          : vscode.l10n.t('Select documents in the Knowledge Base view first.'),
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
    const off = status === 'off';
    const head =
      docs.length === 1 && !missed.length
        ? off
          ? vscode.l10n.t('Turned off "{0}".', docs[0].name)
          : vscode.l10n.t('Turned on "{0}".', docs[0].name)
        : result.updated.length === 1
          ? off
            ? vscode.l10n.t('Turned off {0} document.', 1)
            : vscode.l10n.t('Turned on {0} document.', 1)
          : off
            ? vscode.l10n.t('Turned off {0} documents.', result.updated.length)
            : vscode.l10n.t('Turned on {0} documents.', result.updated.length);
    const tail = missed.length
      ? vscode.l10n.t('{0} could not be changed (deleted meanwhile?): {1}.', missed.length, missed.map((d) => d.name).join(', '))
      : '';
    void (missed.length ? vscode.window.showWarningMessage(`${head} ${tail}`) : vscode.window.showInformationMessage(head));
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
      const what = OPERATION_NAMES[error.operation]?.() ?? error.operation;
      const region = REGION_INFO[this.c.connection.region]?.label ?? this.c.connection.region;
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The {0} deployment does not offer {1} through the API; the command is hidden for this region.', region, what),
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
        name
          ? vscode.l10n.t('"{0}" no longer exists in the knowledge base (deleted meanwhile?); the view was refreshed.', name)
          : vscode.l10n.t('That item no longer exists in the knowledge base (deleted meanwhile?); the view was refreshed.'),
      );
    }
  }

  private requireNode(element: NodeElement | undefined): KbNode {
    const node = element?.kind === 'node' ? element.node : this.view.selection.find((e): e is NodeElement => e.kind === 'node')?.node;
    if (!node) throw new Error(vscode.l10n.t('Select a document or folder in the Knowledge Base view first.'));
    return node;
  }
}
