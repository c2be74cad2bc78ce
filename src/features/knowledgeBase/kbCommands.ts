import { pickHashtagFilter } from '../../platform/pickers/hashtagPicker';
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { ingestionFinished, isFileNode, NODE_ORDERS } from '../../api/values';
import { DeleteNotSupportedError, OperationNotOfferedError } from '../../api/errors';
import { toUserFacing } from '../../platform/errorMessages';
import type { Container } from '../../container';
import { setContext } from '../../platform/contextKeys';
import { pickFolder, targetLabel, type FolderChoice } from '../../platform/pickers/folderPicker';
import { ContextKeys } from '../../platform/commandIds';
import { KB_VIEW } from './kbTreeItems';
import { orderLabel, type KbTreeProvider } from './kbTreeProvider';
import { ROOT, type KbElement, type NodeElement } from './kbTreeModel';
import type { NodeDetailsProvider } from './nodeDetails';
import { hashtagFilterText } from '../../core/hashtags';

/** Tree commands other than upload: filter, sort, replace, move, delete, copy id, details, cloud upload. */
export class KbCommands {
  private readonly following = new Set<string>();
  constructor(
    private readonly c: Container,
    private readonly tree: KbTreeProvider,
    private readonly view: vscode.TreeView<KbElement>,
    private readonly details: NodeDetailsProvider,
    private readonly watch: (nodes: KbNode[]) => void,
  ) {}

  async search(): Promise<void> {
    const term = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Search the knowledge base'),
      value: this.tree.model.filter.searchTerm ?? '',
      prompt: vscode.l10n.t('Searched on the service, across all folders. Empty clears the search.'),
    });
    if (term === undefined) return;
    this.tree.model.filter.searchTerm = term.trim() || undefined;
    this.applyFilter();
  }

  async filterHashtags(): Promise<void> {
    const chosen = await pickHashtagFilter(this.c.ui, await this.c.connection.getClient(), {
      title: vscode.l10n.t('Filter by hashtags'),
      current: this.tree.model.filter.hashtags ?? [],
      matchTitle: (tags) => vscode.l10n.t('Documents with {0}', tags),
      log: this.c.log('kb'),
    });
    if (!chosen) return;
    this.tree.model.filter.hashtags = chosen.tags.length ? chosen.tags : undefined;
    this.tree.model.filter.hashtagsOperator = chosen.operator;
    this.applyFilter();
  }

  clearFilter(): void {
    this.tree.model.filter = { order: this.tree.model.filter.order };
    this.applyFilter();
  }

  async sort(): Promise<void> {
    const current = this.tree.model.filter.order;
    const pick = await this.c.ui.showQuickPick(
      NODE_ORDERS.map((o) => ({ label: `${o === current ? '$(check) ' : ''}${vscode.l10n.t('Sort by {0}', orderLabel(o))}`, order: o })),
      { title: vscode.l10n.t('Sort the knowledge base (folders stay first)') },
    );
    if (!pick) return;
    this.tree.model.filter.order = pick.order;
    this.applyFilter();
  }

  applyFilter(): void {
    const f = this.tree.model.filter;
    const parts = [
      f.searchTerm && `"${f.searchTerm}"`,
      f.hashtags?.length && hashtagFilterText(f.hashtags, f.hashtagsOperator),
      f.order !== 'name_asc' && orderLabel(f.order),
    ].filter(Boolean);
    this.view.description = parts.join(' · ') || undefined;
    setContext(ContextKeys.kbFiltered, this.tree.model.filtered);
    this.tree.model.reset();
    this.tree.fire();
  }

  async replace(element: NodeElement | undefined): Promise<void> {
    const node = this.requireNode(element, 'file');
    const picked = await this.c.ui.showOpenDialog({
      title: vscode.l10n.t('Replace the file of "{0}"', node.name),
      canSelectMany: false,
      openLabel: vscode.l10n.t('Replace'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    const file = picked?.[0];
    if (!file) return;
    const name = file.path.split('/').pop()!;
    const replaceLabel = vscode.l10n.t('Replace');
    const resetLabel = vscode.l10n.t('Replace and Reset Feedback');
    const choice = await this.c.ui.showWarningMessage(
      vscode.l10n.t(
        'Replace the file of "{0}" with "{1}"? Its hashtags, permissions and properties are kept, and it is processed again.',
        node.name,
        name,
      ),
      { modal: true },
      replaceLabel,
      resetLabel,
    );
    if (!choice) return;
    const client = await this.c.connection.getClient();
    const updated = await vscode.window.withProgress(
      { location: { viewId: KB_VIEW }, title: vscode.l10n.t('Replacing {0}', node.name) },
      () => client.kbNodes.replace(node.id, { path: file.fsPath, fileName: name }, { resetClueFeedbacks: choice === resetLabel }),
    );
    this.tree.updateNode(updated);
    this.watch([updated]);
    void vscode.window.showInformationMessage(vscode.l10n.t('Replaced the file of "{0}"; it is being processed again.', node.name));
  }

  async move(element: NodeElement | undefined, selection: readonly KbElement[] | undefined): Promise<void> {
    const nodes = this.selected(element, selection);
    if (!nodes.length) return;
    const client = await this.c.connection.getClient();
    const target = await pickFolder(this.c.ui, client, {
      title: nodes.length === 1 ? vscode.l10n.t('Move "{0}" to…', nodes[0].name) : vscode.l10n.t('Move {0} items to…', nodes.length),
      exclude: new Set(nodes.filter((n) => !isFileNode(n)).map((n) => n.id)),
    });
    if (!target) return;
    await this.moveTo(
      nodes.map((n) => n.id),
      target,
    );
  }

  async moveTo(ids: string[], target: FolderChoice): Promise<void> {
    const client = await this.c.connection.getClient();
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

  async delete(element: NodeElement | undefined, selection: readonly KbElement[] | undefined): Promise<void> {
    const nodes = this.selected(element, selection);
    if (!nodes.length) return;
    const question = deleteQuestion(nodes);
    const deleteLabel = vscode.l10n.t('Delete');
    const choice = await this.c.ui.showWarningMessage(question, { modal: true }, deleteLabel);
    if (choice !== deleteLabel) return;
    const client = await this.c.connection.getClient();
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

  async copyId(element: NodeElement | undefined): Promise<void> {
    const node = this.requireNode(element);
    await vscode.env.clipboard.writeText(node.id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the ID of {0}', node.name), 3000);
  }

  async showDetails(element: NodeElement | undefined): Promise<void> {
    const node = this.tree.model.element(this.requireNode(element).id)?.node ?? this.requireNode(element);
    const uri = this.details.set(node);
    if (isFileNode(node)) void this.followSteps(node);
    // Rendered, as a reader wants it; the raw Markdown is the fallback where preview is missing.
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await vscode.window.showTextDocument(doc, { preview: true });
    }
  }

  /**
   * The processing steps in Show Details, read again every 1.5 s while the document is processed and its
   * details are open (at most 10 minutes). Not offered or failing: a line says so, nothing else changes.
   */
  private async followSteps(node: KbNode): Promise<void> {
    if (this.following.has(node.id)) return;
    this.following.add(node.id);
    const deadline = Date.now() + 10 * 60_000;
    try {
      const client = await this.c.connection.getClient();
      for (let first = true; ; first = false) {
        if (!first && !this.details.isOpen(node.id)) return;
        let status;
        try {
          status = await client.kbNodes.ingestionStatus(node.id);
        } catch (error) {
          const missing = error instanceof OperationNotOfferedError;
          this.details.setSteps(
            node,
            missing
              ? vscode.l10n.t('This deployment does not report processing steps.')
              : vscode.l10n.t('Not available: {0}', toUserFacing(error).message),
          );
          return;
        }
        this.details.setSteps(node, status);
        if (ingestionFinished(status.status) || Date.now() > deadline) return;
        await new Promise((r) => setTimeout(r, 1500));
      }
    } finally {
      this.following.delete(node.id);
    }
  }

  async uploadFromCloud(element: NodeElement | undefined): Promise<void> {
    const client = await this.c.connection.getClient();
    const target: FolderChoice | undefined =
      element?.kind === 'node' && !isFileNode(element.node)
        ? { id: element.node.id, label: element.node.name }
        : await pickFolder(this.c.ui, client, { title: vscode.l10n.t('Upload from cloud store into…') });
    if (!target) return;
    const local = this.c.settings.region === 'local';
    const objectPath = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Object path in the cloud store'),
      prompt: local
        ? vscode.l10n.t('The local service reads file:// URLs inside the open workspace folders')
        : vscode.l10n.t('e.g. {0}', 's3://bucket/path/report.pdf'),
      value: local ? vscode.workspace.workspaceFolders?.[0]?.uri.with({ scheme: 'file' }).toString() + '/' : '',
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the object path')),
    });
    if (!objectPath) return;
    const fileName = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Document name'),
      value: decodeURIComponent(objectPath.split('/').pop() ?? ''),
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name')),
    });
    if (!fileName) return;
    const node = await vscode.window.withProgress(
      { location: { viewId: KB_VIEW }, title: vscode.l10n.t('Uploading from cloud store') },
      () =>
        client.kbNodes.uploadFromCloudStore({
          bucketObjectPath: objectPath.trim(),
          fileName: fileName.trim(),
          targetFolderId: target.id ?? undefined,
        }),
    );
    await this.tree.refresh(target.id ?? ROOT);
    this.watch([node]);
    void vscode.window.showInformationMessage(vscode.l10n.t('Uploaded "{0}" to {1} from the cloud store.', node.name, targetLabel(target)));
  }

  private selected(element: NodeElement | undefined, selection: readonly KbElement[] | undefined): KbNode[] {
    const list = selection?.length ? selection : element ? [element] : this.view.selection;
    return list.flatMap((e) => (e.kind === 'node' ? [e.node] : []));
  }

  private requireNode(element: NodeElement | undefined, kind?: 'file'): KbNode {
    const node = element?.kind === 'node' ? element.node : this.view.selection.find((e): e is NodeElement => e.kind === 'node')?.node;
    if (!node) throw new Error(vscode.l10n.t('Select a document or folder in the Knowledge Base view first.'));
    if (kind === 'file' && !isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a folder; choose a document.', node.name));
    return node;
  }
}

/** The delete confirmation, saying what is selected: documents, folders (with everything in them), or both. */
export function deleteQuestion(nodes: readonly KbNode[]): string {
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
