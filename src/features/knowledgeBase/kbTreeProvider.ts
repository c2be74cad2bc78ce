import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES, isFileNode, type NODE_ORDERS } from '../../api/values';
import { Disposable } from '../../platform/lifecycle';
import { nodeIdOf, nodeUri, stateLabel, toTreeItem } from './kbTreeItems';
import { type KbTreeModel, ROOT, type KbElement } from './kbTreeModel';

const ORDER_LABEL: Record<(typeof NODE_ORDERS)[number], () => string> = {
  name_asc: () => vscode.l10n.t('name A→Z'),
  name_desc: () => vscode.l10n.t('name Z→A'),
  updated_at_desc: () => vscode.l10n.t('recently updated'),
  updated_at_asc: () => vscode.l10n.t('least recently updated'),
  created_at_desc: () => vscode.l10n.t('newest'),
  created_at_asc: () => vscode.l10n.t('oldest'),
};

export function orderLabel(order: (typeof NODE_ORDERS)[number]): string {
  return ORDER_LABEL[order]();
}

/** The Knowledge Base tree and the processing-state badges of its documents. */
export class KbTreeProvider extends Disposable implements vscode.TreeDataProvider<KbElement>, vscode.FileDecorationProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<KbElement | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly decorationEmitter = this._register(new vscode.EventEmitter<vscode.Uri[]>());
  readonly onDidChangeFileDecorations = this.decorationEmitter.event;

  constructor(readonly model: KbTreeModel) {
    super();
  }

  getTreeItem(element: KbElement): vscode.TreeItem {
    return toTreeItem(element, element.parentKey === ROOT && this.model.filtered);
  }

  getChildren(element?: KbElement): Promise<KbElement[]> | KbElement[] {
    if (!element) return this.model.children(ROOT);
    if (element.kind === 'node' && !isFileNode(element.node)) return this.model.children(element.node.id);
    return [];
  }

  getParent(element: KbElement): KbElement | undefined {
    return this.model.parentOf(element);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const id = nodeIdOf(uri);
    const node = id ? this.model.element(id)?.node : undefined;
    if (!node || !isFileNode(node)) return undefined;
    if (FAILED_PROCESS_STATES.has(node.processState)) {
      return new vscode.FileDecoration('!', vscode.l10n.t('Processing failed'), new vscode.ThemeColor('list.errorForeground'));
    }
    // Off before processing: it is what the user chose, and it decides whether answers use the document.
    if (node.status === 'off')
      return new vscode.FileDecoration('○', vscode.l10n.t('Turned off: not used in answers'), new vscode.ThemeColor('disabledForeground'));
    if (!FINAL_PROCESS_STATES.has(node.processState)) {
      return new vscode.FileDecoration('⋯', stateLabel(node.processState), new vscode.ThemeColor('list.warningForeground'));
    }
    return undefined;
  }

  /** Re-renders the whole tree (model already updated or reset). */
  fire(): void {
    this.changeEmitter.fire(undefined);
  }

  async refresh(parentKey?: string): Promise<void> {
    await this.model.refresh(parentKey);
    this.fire();
  }

  /**
   * Nodes were listed again (their state may have changed): VS Code keeps a decoration until told that it
   * changed, so the badges of these nodes are asked for anew, or a document listed "ready" kept its "⋯".
   */
  decorationsChanged(nodes: readonly KbNode[]): void {
    if (nodes.length) this.decorationEmitter.fire(nodes.map(nodeUri));
  }

  /** A node's state changed (from the processing watcher). */
  updateNode(node: KbNode): void {
    const element = this.model.update(node);
    if (!element) return;
    this.changeEmitter.fire(element);
    this.decorationEmitter.fire([nodeUri(node)]);
  }
}
