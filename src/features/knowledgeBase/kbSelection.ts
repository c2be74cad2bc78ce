// The one reading of "what a Knowledge Base command acts on". VS Code passes the clicked row and, from a
// context menu on a multi-selection, the whole selection; from the Command Palette or a keybinding it passes
// nothing, and the view's own selection counts.
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import type { KbElement, NodeElement } from './kbTreeModel';

/** The part of the tree view a command reads. */
export type KbSelectionSource = Pick<vscode.TreeView<KbElement>, 'selection'>;

/** The nodes a command acts on: the multi-selection, else the clicked row, else the view's selection. */
export function selectedNodes(
  view: KbSelectionSource,
  element: NodeElement | undefined,
  selection: readonly KbElement[] | undefined,
): KbNode[] {
  const list = selection?.length ? selection : element ? [element] : view.selection;
  return list.flatMap((e) => (e.kind === 'node' ? [e.node] : []));
}

/** The one node a command acts on: the clicked row, else the first node selected in the view. */
export function selectedNode(view: KbSelectionSource, element: NodeElement | undefined): KbNode | undefined {
  return element?.kind === 'node' ? element.node : view.selection.find((e): e is NodeElement => e.kind === 'node')?.node;
}

/** selectedNode, or an error asking to select one first. */
export function requireNode(view: KbSelectionSource, element: NodeElement | undefined): KbNode {
  const node = selectedNode(view, element);
  if (!node) throw new Error(vscode.l10n.t('Select a document or folder in the Knowledge Base view first.'));
  return node;
}
