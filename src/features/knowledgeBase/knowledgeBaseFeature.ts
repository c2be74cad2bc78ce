import { parseHashtags } from '../../core/hashtags';
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES, type FileNode, type KbNode } from '../../api/schemas/kbNodes';
import { ProcessingWatcher } from '../../api/uploads/processingWatcher';
import type { FolderMode } from '../../api/uploads/planUploads';
import type { Container } from '../../container';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { pickFolder, type FolderChoice } from '../../platform/folderPicker';
import { KbCommands } from './kbCommands';
import { KbDragAndDrop } from './kbDragAndDrop';
import { KB_VIEW, NODE_SCHEME } from './kbTreeItems';
import { KbTreeModel, type KbElement, type NodeElement } from './kbTreeModel';
import { KbTreeProvider } from './kbTreeProvider';
import { NodeDetailsProvider } from './nodeDetails';
import { uploadBatch, type BatchResult } from './uploadFlow';

/** The Knowledge Base view: browse, search, upload, replace, move, delete, and processing badges. */
export class KnowledgeBaseFeature extends Disposable {
  readonly model: KbTreeModel;
  readonly tree: KbTreeProvider;
  readonly view: vscode.TreeView<KbElement>;
  readonly commands: KbCommands;
  readonly watcher: ProcessingWatcher;
  readonly dnd: KbDragAndDrop;
  /** The last upload batch (tests and diagnostics). */
  lastBatch: BatchResult | undefined;
  private failures: FileNode[] = [];
  private failureTimer: NodeJS.Timeout | undefined;

  constructor(private readonly c: Container) {
    super();
    this.model = new KbTreeModel(() => c.connection.getClient());
    this.tree = this._register(new KbTreeProvider(this.model));
    const ready = (): boolean => c.connection.status.state === 'connected';
    const provider: vscode.TreeDataProvider<KbElement> = {
      onDidChangeTreeData: this.tree.onDidChangeTreeData,
      getTreeItem: (e) => this.tree.getTreeItem(e),
      getChildren: (e) => (ready() ? this.tree.getChildren(e) : []),
      getParent: (e) => this.tree.getParent(e),
    };
    const dnd = (this.dnd = new KbDragAndDrop({
      upload: (paths, target) => this.upload(paths, target, { ask: false }),
      move: (ids, target) => this.commands.moveTo(ids, target),
      reject: (message) => void vscode.window.showWarningMessage(message),
    }));
    this.view = this._register(
      vscode.window.createTreeView(KB_VIEW, {
        treeDataProvider: provider,
        dragAndDropController: dnd,
        canSelectMany: true,
        showCollapseAll: true,
      }),
    );
    this._register(vscode.window.registerFileDecorationProvider(this.tree));
    const details = this._register(new NodeDetailsProvider());
    this._register(vscode.workspace.registerTextDocumentContentProvider(`${NODE_SCHEME}-details`, details));
    this.watcher = new ProcessingWatcher({
      client: () => c.connection.getClient(),
      onUpdate: (node) => {
        this.tree.updateNode(node);
        if (details.uriFor(node)) details.set(node);
      },
      onFinal: (node) => this.onProcessed(node),
    });
    this._register(toDisposable(() => this.watcher.dispose()));
    this.commands = new KbCommands(c, this.tree, this.view, details, (nodes) => this.watch(nodes.map(watchTarget)));
    this._register(
      c.connection.onDidChangeClient(() => {
        this.model.reset();
        this.tree.fire();
      }),
    );
    this._register(toDisposable(() => clearTimeout(this.failureTimer)));
    this.registerCommands();
  }

  private registerCommands(): void {
    const cmd = (id: string, fn: (...args: any[]) => unknown): void => void this._register(this.c.command(id, fn));
    const k = this.commands;
    cmd('knowledgeDesk.kb.refresh', () => this.tree.refresh());
    cmd('knowledgeDesk.kb.loadMore', async (e: Extract<KbElement, { kind: 'loadMore' }>) => {
      await vscode.window.withProgress({ location: { viewId: KB_VIEW } }, () => this.model.loadMore(e.parentKey));
      this.tree.fire();
    });
    cmd('knowledgeDesk.kb.retryLoad', (e: KbElement) => this.tree.refresh(e.parentKey));
    cmd('knowledgeDesk.kb.search', () => k.search());
    cmd('knowledgeDesk.kb.filterHashtags', () => k.filterHashtags());
    cmd('knowledgeDesk.kb.clearFilter', () => k.clearFilter());
    cmd('knowledgeDesk.kb.sort', () => k.sort());
    cmd('knowledgeDesk.kb.replaceFile', (e?: NodeElement) => k.replace(e));
    cmd('knowledgeDesk.kb.move', (e?: NodeElement, all?: KbElement[]) => k.move(e, all));
    cmd('knowledgeDesk.kb.delete', (e?: NodeElement, all?: KbElement[]) => k.delete(e, all));
    cmd('knowledgeDesk.kb.copyId', (e?: NodeElement) => k.copyId(e));
    cmd('knowledgeDesk.kb.showDetails', (e?: NodeElement) => k.showDetails(e));
    cmd('knowledgeDesk.kb.uploadFromCloud', (e?: NodeElement) => k.uploadFromCloud(e));
    cmd('knowledgeDesk.kb.uploadHere', (e?: NodeElement) => this.uploadHere(e));
    cmd('knowledgeDesk.uploadToKnowledgeBase', (clicked?: vscode.Uri, selected?: vscode.Uri[]) =>
      this.uploadFromExplorer(clicked, selected),
    );
  }

  /** Explorer context menu (multi-select: the second argument holds the whole selection). */
  private async uploadFromExplorer(clicked?: vscode.Uri, selected?: vscode.Uri[]): Promise<BatchResult | undefined> {
    const uris = selected?.length ? selected : clicked ? [clicked] : [];
    if (!uris.length) throw new Error('Choose files or folders in the Explorer, then "Upload to Knowledge Base".');
    const client = await this.c.connection.getClient();
    const target = await pickFolder(this.c.ui, client, {
      title: `Upload ${uris.length === 1 ? uris[0].path.split('/').pop() : `${uris.length} items`} to…`,
    });
    if (!target) return undefined;
    return this.upload(
      uris.map((u) => u.fsPath),
      target,
      { ask: true },
    );
  }

  private async uploadHere(element?: NodeElement): Promise<BatchResult | undefined> {
    const target: FolderChoice =
      element?.kind === 'node' && element.node.nodeType !== 'file'
        ? { id: element.node.id, label: element.node.name }
        : { id: null, label: 'the top level' };
    const picked = await this.c.ui.showOpenDialog({
      title: `Upload files to ${target.id ? `"${target.label}"` : 'the top level'}`,
      canSelectMany: true,
      canSelectFiles: true,
      canSelectFolders: false,
      openLabel: 'Upload',
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    if (!picked?.length) return undefined;
    return this.upload(
      picked.map((u) => u.fsPath),
      target,
      { ask: true },
    );
  }

  /** Runs a batch: asks how to treat folders (and for hashtags when `ask`), uploads, refreshes, watches. */
  async upload(
    paths: string[],
    target: FolderChoice,
    opts: { ask: boolean; folderMode?: FolderMode; hashtags?: string[] },
  ): Promise<BatchResult | undefined> {
    let folderMode = opts.folderMode;
    const hasFolder = (
      await Promise.all(
        paths.map((p) =>
          stat(p).then(
            (s) => s.isDirectory(),
            () => false,
          ),
        ),
      )
    ).some(Boolean);
    if (hasFolder && !folderMode) {
      const pick = await this.c.ui.showQuickPick(
        [
          {
            label: 'Upload as a new folder',
            detail: 'Each folder becomes a new knowledge-base folder (sent as one ZIP).',
            mode: 'zip' as const,
          },
          {
            label: `Sync into ${target.id ? `"${target.label}"` : 'the top level'}`,
            detail: 'File by file; unchanged files are skipped, subfolders go into folders of the same name.',
            mode: 'sync' as const,
          },
        ],
        { title: 'How should folders be uploaded?' },
      );
      if (!pick) return undefined;
      folderMode = pick.mode;
    }
    let hashtags = opts.hashtags;
    if (opts.ask && !hashtags) {
      const value = await this.c.ui.showInputBox({
        title: 'Hashtags for the uploaded documents (optional)',
        prompt: 'Separated by spaces or commas, e.g. "#hr #policy". Leave empty for none.',
      });
      if (value === undefined) return undefined;
      hashtags = parseHashtags(value);
    }
    return uploadBatch(this.c, { paths, target, folderMode, hashtags }, (batch) => this.afterBatch(batch));
  }

  private afterBatch(batch: BatchResult): void {
    this.lastBatch = batch;
    void this.tree.refresh();
    this.watch(batch.newNodes);
  }

  /** Follows documents until processing ends; their badges update as it goes. */
  watch(nodes: WatchTarget[]): void {
    const pending = nodes.filter((n) => n.processState !== undefined && !FINAL_PROCESS_STATES.has(n.processState));
    this.watcher.watch(pending, (id) => pending.find((n) => n.id === id)?.processState);
  }

  private onProcessed(node: FileNode): void {
    if (!FAILED_PROCESS_STATES.has(node.processState)) return;
    // One message for failures that end close together, not one per document.
    this.failures.push(node);
    clearTimeout(this.failureTimer);
    this.failureTimer = setTimeout(() => {
      const failed = this.failures.splice(0);
      const first = failed[0];
      const reason = (first as { processError?: string }).processError ?? 'no reason given';
      const text =
        failed.length === 1
          ? `"${first.name}" could not be processed: ${reason}`
          : `${failed.length} documents could not be processed, e.g. "${first.name}": ${reason}`;
      void vscode.window.showWarningMessage(text, 'Show in Tree').then(async (choice) => {
        const element = choice && this.model.element(first.id);
        if (element) await this.view.reveal(element, { select: true, focus: true });
      });
    }, 1500);
  }
}

export interface WatchTarget {
  id: string;
  name: string;
  parentId: string | null;
  processState?: string;
}

export function watchTarget(node: KbNode): WatchTarget {
  return {
    id: node.id,
    name: node.name,
    parentId: node.parentFolder?.id ?? null,
    processState: (node as { processState?: string }).processState,
  };
}
