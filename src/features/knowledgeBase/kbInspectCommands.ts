// Looking at a node without changing it: Copy ID, Show Details (with the processing steps while they run)
// and Open Original.
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { ingestionFinished, isFileNode } from '../../api/values';
import { OperationNotOfferedError } from '../../api/errors';
import type { CommandServices } from '../../platform/commandServices';
import { toUserFacing } from '../../platform/errorMessages';
import { KbCommandGroup } from './kbCommandGroup';
import { offered } from './kbOperations';
import { requireNode, selectedNode } from './kbSelection';
import type { KbElement, NodeElement } from './kbTreeModel';
import type { KbTreeProvider } from './kbTreeProvider';
import type { NodeDetailsProvider } from './nodeDetails';
import type { OriginalOpener } from './openOriginal';

export class KbInspectCommands extends KbCommandGroup {
  private readonly following = new Set<string>();

  constructor(
    s: CommandServices,
    tree: KbTreeProvider,
    view: vscode.TreeView<KbElement>,
    private readonly details: NodeDetailsProvider,
    private readonly originals: OriginalOpener,
  ) {
    super(s, tree, view);
  }

  async copyId(element: NodeElement | undefined): Promise<void> {
    const node = requireNode(this.view, element);
    await vscode.env.clipboard.writeText(node.id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the ID of {0}', node.name), 3000);
  }

  async openOriginal(element?: NodeElement) {
    const node = selectedNode(this.view, element);
    if (!node) throw new Error(vscode.l10n.t('Select a document in the Knowledge Base view first.'));
    return offered(this.s.connection, () => this.originals.open(node));
  }

  async showDetails(element: NodeElement | undefined): Promise<void> {
    const selected = requireNode(this.view, element);
    const node = this.tree.model.element(selected.id)?.node ?? selected;
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
      const client = await this.s.connection.getClient();
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
}
