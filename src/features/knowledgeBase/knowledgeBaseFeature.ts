import * as vscode from 'vscode';
import type { FileNode, KbNode } from '../../api/schemas/kbNodes';
import { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES } from '../../api/values';
import { ProcessingWatcher } from '../../api/uploads/processingWatcher';
import type { Container } from '../../container';
import { CommandIds } from '../../platform/commandIds';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import { loadMoreCommand, resetOnClientChange } from '../../platform/tree/pagingItems';
import { OriginalOpener } from './openOriginal';
import { OfferContext } from '../../platform/offerContext';
import { KbDragAndDrop } from './kbDragAndDrop';
import { KB_VIEW, NODE_SCHEME } from './kbTreeItems';
import { KbTreeModel, type KbElement, type NodeElement } from './kbTreeModel';
import { KbTreeProvider } from './kbTreeProvider';
import { NodeDetailsProvider } from './nodeDetails';
import type { BatchResult } from './uploadFlow';
import type * as UploadFlowModule from './uploadFlow';
import type * as Filters from './kbFilterCommands';
import type * as Uploads from './kbUploadCommands';
import type * as Structure from './kbStructureCommands';
import type * as Documents from './kbDocumentCommands';
import type * as Deletes from './kbDeleteCommands';
import type * as Inspect from './kbInspectCommands';
import { noteUseWhenVisible } from '../../platform/usage';

// The command groups (and what they use: the upload flow, ZIP, pickers) load on their first command, not at activation.
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not at activation */
const lazy = {
  filters: (): typeof Filters => require('./kbFilterCommands'),
  uploads: (): typeof Uploads => require('./kbUploadCommands'),
  structure: (): typeof Structure => require('./kbStructureCommands'),
  documents: (): typeof Documents => require('./kbDocumentCommands'),
  deletes: (): typeof Deletes => require('./kbDeleteCommands'),
  inspect: (): typeof Inspect => require('./kbInspectCommands'),
  uploadFlow: (): typeof UploadFlowModule => require('./uploadFlow'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The Knowledge Base view: browse, search, upload, replace, move, delete, and processing badges. */
export class KnowledgeBaseFeature extends Disposable {
  readonly model: KbTreeModel;
  readonly tree: KbTreeProvider;
  readonly view: vscode.TreeView<KbElement>;
  readonly originals: OriginalOpener;
  readonly offerContext: OfferContext;
  readonly watcher: ProcessingWatcher;
  readonly dnd: KbDragAndDrop;
  private readonly groups: {
    filters?: Filters.KbFilterCommands;
    uploads?: Uploads.KbUploadCommands;
    structure?: Structure.KbStructureCommands;
    documents?: Documents.KbDocumentCommands;
    deletes?: Deletes.KbDeleteCommands;
    inspect?: Inspect.KbInspectCommands;
  } = {};
  private readonly details: NodeDetailsProvider;
  private failures: FileNode[] = [];
  private failureTimer: NodeJS.Timeout | undefined;
  private readonly batchEmitter = this._register(new vscode.EventEmitter<BatchResult>());
  /** An upload batch finished (the tree refreshes and watches its new documents). */
  readonly onDidFinishBatch = this.batchEmitter.event;

  constructor(private readonly c: Container) {
    super();
    this.model = new KbTreeModel(
      () => c.connection.getClient(),
      (nodes) => this.listed(nodes),
    );
    this.tree = this._register(new KbTreeProvider(this.model));
    const dnd = (this.dnd = new KbDragAndDrop({
      upload: (paths, target) => this.uploads.upload(paths, target, { ask: false }),
      move: (ids, target) => this.structure.moveTo(ids, target),
      reject: (message) => void vscode.window.showWarningMessage(message),
    }));
    this.view = this._register(
      vscode.window.createTreeView(KB_VIEW, {
        treeDataProvider: connectedOnly(this.tree, c.connection),
        dragAndDropController: dnd,
        canSelectMany: true,
        showCollapseAll: true,
      }),
    );
    this._register(noteUseWhenVisible(KB_VIEW, this.view));
    this._register(vscode.window.registerFileDecorationProvider(this.tree));
    const details = (this.details = this._register(new NodeDetailsProvider()));
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
    this._register(resetOnClientChange(c.connection, this.tree));
    this.originals = new OriginalOpener(c, c.context.globalStorageUri.fsPath);
    this.offerContext = this._register(new OfferContext(c.connection));
    this._register(toDisposable(() => clearTimeout(this.failureTimer)));
    this.registerCommands();
  }

  // Each group of commands takes the container only as CommandServices: the client, prompts and a log.
  private get filters(): Filters.KbFilterCommands {
    return (this.groups.filters ??= new (lazy.filters().KbFilterCommands)(this.c, this.tree, this.view));
  }

  private get uploads(): Uploads.KbUploadCommands {
    return (this.groups.uploads ??= new (lazy.uploads().KbUploadCommands)(this.c, this.tree, this.view, {
      runBatch: (request) => lazy.uploadFlow().uploadBatch(this.c, request, (batch) => this.afterBatch(batch)),
      watch: (nodes) => this.watch(nodes.map(watchTarget)),
    }));
  }

  private get structure(): Structure.KbStructureCommands {
    return (this.groups.structure ??= new (lazy.structure().KbStructureCommands)(this.c, this.tree, this.view));
  }

  private get documents(): Documents.KbDocumentCommands {
    return (this.groups.documents ??= new (lazy.documents().KbDocumentCommands)(this.c, this.tree, this.view));
  }

  private get deletes(): Deletes.KbDeleteCommands {
    return (this.groups.deletes ??= new (lazy.deletes().KbDeleteCommands)(this.c, this.tree, this.view));
  }

  private get inspect(): Inspect.KbInspectCommands {
    return (this.groups.inspect ??= new (lazy.inspect().KbInspectCommands)(this.c, this.tree, this.view, this.details, this.originals));
  }

  private registerCommands(): void {
    const ids = CommandIds.kb;
    this._register(
      this.c.commands({
        // Also Retry of an error row: then only that folder is fetched again. From the title bar VS Code
        // passes the focused row, unmarked: the whole tree is refreshed.
        [ids.refresh]: (e?: KbElement) => this.tree.refresh(e?.kind === 'error' && e.retry ? e.parentKey : undefined),
        [ids.loadMore]: loadMoreCommand(KB_VIEW, this.tree),
        [ids.search]: () => this.filters.search(),
        [ids.filterHashtags]: () => this.filters.filterHashtags(),
        [ids.clearFilter]: () => this.filters.clearFilter(),
        [ids.sort]: () => this.filters.sort(),
        [ids.uploadToKnowledgeBase]: (clicked?: vscode.Uri, selected?: vscode.Uri[]) => this.uploads.uploadFromExplorer(clicked, selected),
        [ids.uploadHere]: (e?: NodeElement) => this.uploads.uploadHere(e),
        [ids.uploadFromCloud]: (e?: NodeElement) => this.uploads.uploadFromCloud(e),
        [ids.replaceFile]: (e?: NodeElement) => this.uploads.replace(e),
        // The title bar's: whatever element VS Code passes (the focused one) is not where they act.
        [ids.uploadFromCloudToFolder]: () => this.uploads.uploadFromCloud(undefined),
        [ids.uploadToTopLevel]: () => this.uploads.uploadHere(undefined),
        [ids.newFolderAtTopLevel]: () => this.structure.newFolder(undefined),
        [ids.newFolder]: (e?: NodeElement) => this.structure.newFolder(e),
        [ids.rename]: (e?: NodeElement) => this.structure.rename(e),
        [ids.move]: (e?: NodeElement, all?: KbElement[]) => this.structure.move(e, all),
        [ids.editHashtags]: (e?: NodeElement) => this.documents.editHashtags(e),
        [ids.turnOff]: (e?: NodeElement, all?: KbElement[]) => this.documents.toggle('off', e, all),
        [ids.turnOn]: (e?: NodeElement, all?: KbElement[]) => this.documents.toggle('on', e, all),
        [ids.delete]: (e?: NodeElement, all?: KbElement[]) => this.deletes.delete(e, all),
        [ids.deleteFolder]: (e?: NodeElement) => this.deletes.deleteFolder(e),
        [ids.copyId]: (e?: NodeElement) => this.inspect.copyId(e),
        [ids.showDetails]: (e?: NodeElement) => this.inspect.showDetails(e),
        [ids.openOriginal]: (e?: NodeElement) => this.inspect.openOriginal(e),
      }),
    );
  }

  private afterBatch(batch: BatchResult): void {
    this.batchEmitter.fire(batch);
    void this.tree.refresh();
    this.watch(batch.newNodes);
  }

  /**
   * Badges follow the service's last word: the listing's, then the watcher's. A listed document still
   * processing is followed too, whoever uploaded it (another window, the samples seeded at start, a document
   * processing when this window opened), so its badge does not wait for a Refresh.
   */
  private listed(nodes: readonly KbNode[]): void {
    this.tree.decorationsChanged(nodes);
    this.watch(nodes.filter((n) => !this.watcher.isWatching(n.id)).map(watchTarget));
  }

  /** Follows documents until processing ends; their badges update as it goes. */
  watch(nodes: WatchTarget[]): void {
    const pending = nodes.filter((n) => n.processState !== undefined && !FINAL_PROCESS_STATES.has(n.processState));
    if (!pending.length) return;
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
      const reason = (first as { processError?: string }).processError ?? vscode.l10n.t('no reason given');
      const text =
        failed.length === 1
          ? vscode.l10n.t('"{0}" could not be processed: {1}', first.name, reason)
          : vscode.l10n.t('{0} documents could not be processed, e.g. "{1}": {2}', failed.length, first.name, reason);
      void vscode.window.showWarningMessage(text, vscode.l10n.t('Show in Tree')).then(async (choice) => {
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
