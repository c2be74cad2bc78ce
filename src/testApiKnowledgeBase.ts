// The test facade's Knowledge Base view (src/testApi.ts, the test build only): what VS Code itself asks of the
// view (children, items, badges, a drop) and the few facts tests check, rather than the feature's own objects.
import * as vscode from 'vscode';
import type { KnowledgeBaseFeature } from './features/knowledgeBase/knowledgeBaseFeature';
import type { KbTreeProvider } from './features/knowledgeBase/kbTreeProvider';
import type { KbElement, NodeElement } from './features/knowledgeBase/kbTreeModel';
import type { BatchResult } from './features/knowledgeBase/uploadFlow';
import { ProbeKeys, type Ring, type TestProbe } from './testProbe';

export interface KnowledgeBaseTestView {
  /** The tree as VS Code sees it: children, items, badges, and their change events. */
  tree: Pick<
    KbTreeProvider,
    'getChildren' | 'getTreeItem' | 'provideFileDecoration' | 'onDidChangeTreeData' | 'onDidChangeFileDecorations' | 'refresh'
  >;
  /** The view as a user sees it: reveal, selection, description (the filter). */
  view: Pick<vscode.TreeView<KbElement>, 'reveal' | 'selection' | 'description'>;
  /** Drops `data` on `target` (undefined: the view's empty space), as VS Code does after a drag. */
  drop(target: KbElement | undefined, data: vscode.DataTransfer): Promise<void>;
  /** The element listed for a node id, if any. */
  element(id: string): NodeElement | undefined;
  /** What a window opening now does: its tree lists the knowledge base for the first time. */
  listAfresh(): void;
  /** Whether the processing watcher follows a document. */
  isWatching(id: string): boolean;
  /** The files in the cache of opened originals. */
  cachedOriginals(): Promise<string[]>;
  /** The upload batches that finished (KnowledgeBaseFeature.onDidFinishBatch). */
  uploadBatches: Ring<BatchResult>;
}

export function knowledgeBaseTestView(feature: KnowledgeBaseFeature, probe: TestProbe): KnowledgeBaseTestView {
  return {
    tree: feature.tree,
    view: feature.view,
    drop: (target, data) => feature.dnd.handleDrop(target, data, new vscode.CancellationTokenSource().token),
    element: (id) => feature.model.element(id),
    listAfresh: () => {
      feature.model.reset();
      feature.tree.fire();
    },
    isWatching: (id) => feature.watcher.isWatching(id),
    cachedOriginals: () => feature.originals.cache.list(),
    uploadBatches: probe.ring<BatchResult>(feature, ProbeKeys.uploadBatches),
  };
}
