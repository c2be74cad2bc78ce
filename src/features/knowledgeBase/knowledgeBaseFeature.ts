import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { FileNode, KbNode } from '../../api/schemas/kbNodes';
import { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES } from '../../api/values';
import { ProcessingWatcher } from '../../api/uploads/processingWatcher';
import type { FolderMode } from '../../api/uploads/planUploads';
import type { Container } from '../../container';
import { CommandIds } from '../../platform/commandIds';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import { loadMoreInView } from '../../platform/tree/pagingItems';
import type { LoadMoreElement } from '../../platform/tree/pagingElements';
import { pickFolder, targetLabel, type FolderChoice } from '../../platform/pickers/folderPicker';
import { KbCommands } from './kbCommands';
import { KbEditCommands } from './kbEditCommands';
import { OriginalOpener } from './openOriginal';
import { OfferContext } from '../../platform/offerContext';
import { pickHashtags } from '../../platform/pickers/hashtagPicker';
import { KbDragAndDrop } from './kbDragAndDrop';
import { KB_VIEW, NODE_SCHEME } from './kbTreeItems';
import { KbTreeModel, type KbElement, type NodeElement } from './kbTreeModel';
import { KbTreeProvider } from './kbTreeProvider';
import { NodeDetailsProvider } from './nodeDetails';
import { uploadBatch, type BatchResult } from './uploadFlow';
import { noteUseWhenVisible } from '../../platform/usage';
import { ProbeKeys } from '../../platform/testProbe';

/** The Knowledge Base view: browse, search, upload, replace, move, delete, and processing badges. */
export class KnowledgeBaseFeature extends Disposable {
  readonly model: KbTreeModel;
  readonly tree: KbTreeProvider;
  readonly view: vscode.TreeView<KbElement>;
  readonly commands: KbCommands;
  readonly edits: KbEditCommands;
  readonly originals: OriginalOpener;
  readonly offerContext: OfferContext;
  readonly watcher: ProcessingWatcher;
  readonly dnd: KbDragAndDrop;
  private failures: FileNode[] = [];
  private failureTimer: NodeJS.Timeout | undefined;

  constructor(private readonly c: Container) {
    super();
    this.model = new KbTreeModel(
      () => c.connection.getClient(),
      (nodes) => this.listed(nodes),
    );
    this.tree = this._register(new KbTreeProvider(this.model));
    const dnd = (this.dnd = new KbDragAndDrop({
      upload: (paths, target) => this.upload(paths, target, { ask: false }),
      move: (ids, target) => this.commands.moveTo(ids, target),
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
    this.edits = new KbEditCommands(c, this.tree, this.view);
    this.originals = new OriginalOpener(c);
    this.offerContext = this._register(new OfferContext(c.connection));
    this._register(toDisposable(() => clearTimeout(this.failureTimer)));
    this.registerCommands();
  }

  private registerCommands(): void {
    const k = this.commands;
    const ids = CommandIds.kb;
    this._register(
      this.c.commands({
        // Also Retry of an error row: then only that folder is fetched again. From the title bar VS Code
        // passes the focused row, unmarked: the whole tree is refreshed.
        [ids.refresh]: (e?: KbElement) => this.tree.refresh(e?.kind === 'error' && e.retry ? e.parentKey : undefined),
        [ids.loadMore]: (e: LoadMoreElement) =>
          loadMoreInView(
            KB_VIEW,
            () => this.model.loadMore(e.parentKey),
            () => this.tree.fire(),
          ),
        [ids.search]: () => k.search(),
        [ids.filterHashtags]: () => k.filterHashtags(),
        [ids.clearFilter]: () => k.clearFilter(),
        [ids.sort]: () => k.sort(),
        [ids.replaceFile]: (e?: NodeElement) => k.replace(e),
        [ids.move]: (e?: NodeElement, all?: KbElement[]) => k.move(e, all),
        [ids.delete]: (e?: NodeElement, all?: KbElement[]) => k.delete(e, all),
        [ids.copyId]: (e?: NodeElement) => k.copyId(e),
        [ids.showDetails]: (e?: NodeElement) => k.showDetails(e),
        [ids.uploadFromCloud]: (e?: NodeElement) => k.uploadFromCloud(e),
        [ids.uploadHere]: (e?: NodeElement) => this.uploadHere(e),
        [ids.newFolder]: (e?: NodeElement) => this.edits.newFolder(e),
        // The title bar's: whatever element VS Code passes (the focused one) is not where they act.
        [ids.uploadFromCloudToFolder]: () => k.uploadFromCloud(undefined),
        [ids.uploadToTopLevel]: () => this.uploadHere(undefined),
        [ids.newFolderAtTopLevel]: () => this.edits.newFolder(undefined),
        [ids.rename]: (e?: NodeElement) => this.edits.rename(e),
        [ids.deleteFolder]: (e?: NodeElement) => this.edits.deleteFolder(e),
        [ids.editHashtags]: (e?: NodeElement) => this.edits.editHashtags(e),
        [ids.turnOff]: (e?: NodeElement, all?: KbElement[]) => this.edits.toggle('off', e, all),
        [ids.turnOn]: (e?: NodeElement, all?: KbElement[]) => this.edits.toggle('on', e, all),
        [ids.openOriginal]: (e?: NodeElement) => this.openOriginal(e),
        [ids.uploadToKnowledgeBase]: (clicked?: vscode.Uri, selected?: vscode.Uri[]) => this.uploadFromExplorer(clicked, selected),
      }),
    );
  }

  private async openOriginal(element?: NodeElement) {
    const node = element?.kind === 'node' ? element.node : this.view.selection.find((e): e is NodeElement => e.kind === 'node')?.node;
    if (!node) throw new Error(vscode.l10n.t('Select a document in the Knowledge Base view first.'));
    return this.edits.offered(() => this.originals.open(node));
  }

  /** Explorer context menu (multi-select: the second argument holds the whole selection). */
  private async uploadFromExplorer(clicked?: vscode.Uri, selected?: vscode.Uri[]): Promise<BatchResult | undefined> {
    // Run without a selection (the walkthrough's button): ask for folders of the workspace.
    const uris = selected?.length
      ? selected
      : clicked
        ? [clicked]
        : await this.askForUploads(vscode.l10n.t('Upload Folders to the Knowledge Base'), 'folders');
    if (!uris?.length) return undefined;
    const client = await this.c.connection.getClient();
    const target = await pickFolder(this.c.ui, client, {
      title:
        uris.length === 1
          ? vscode.l10n.t('Upload {0} to…', uris[0].path.split('/').pop() ?? '')
          : vscode.l10n.t('Upload {0} items to…', uris.length),
    });
    return target && this.uploadUris(uris, target);
  }

  private async uploadHere(element?: NodeElement): Promise<BatchResult | undefined> {
    const target: FolderChoice =
      element?.kind === 'node' && element.node.nodeType !== 'file'
        ? { id: element.node.id, label: element.node.name }
        : { id: null, label: vscode.l10n.t('the top level') };
    const picked = await this.askForUploads(vscode.l10n.t('Upload files to {0}', targetLabel(target)), 'files');
    return picked?.length ? this.uploadUris(picked, target) : undefined;
  }

  /** The open dialog of both upload commands: several files or several folders, starting in the workspace. */
  private askForUploads(title: string, kind: 'files' | 'folders'): Promise<vscode.Uri[] | undefined> {
    return this.c.ui.showOpenDialog({
      title,
      canSelectMany: true,
      canSelectFiles: kind === 'files',
      canSelectFolders: kind === 'folders',
      openLabel: vscode.l10n.t('Upload'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
  }

  /** Chosen in a dialog or the Explorer: asks for hashtags (and how to treat folders), then uploads. */
  private uploadUris(uris: vscode.Uri[], target: FolderChoice): Promise<BatchResult | undefined> {
    return this.upload(
      uris.map((u) => u.fsPath),
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
            label: vscode.l10n.t('Upload as a new folder'),
            detail: vscode.l10n.t('Each folder becomes a new knowledge-base folder (sent as one ZIP).'),
            mode: 'zip' as const,
          },
          {
            label: vscode.l10n.t('Sync into {0}', targetLabel(target)),
            detail: vscode.l10n.t('File by file; unchanged files are skipped, subfolders go into folders of the same name.'),
            mode: 'sync' as const,
          },
        ],
        { title: vscode.l10n.t('How should folders be uploaded?') },
      );
      if (!pick) return undefined;
      folderMode = pick.mode;
    }
    let hashtags = opts.hashtags;
    if (opts.ask && !hashtags) {
      hashtags = await pickHashtags(this.c.ui, await this.c.connection.getClient(), {
        title: vscode.l10n.t('Hashtags for the uploaded documents (optional)'),
        prompt: vscode.l10n.t('Separated by commas or semicolons (# optional), e.g. "#hr #policy" or "hr; policy". Leave empty for none.'),
        log: this.c.log('kb'),
      });
      if (hashtags === undefined) return undefined;
    }
    return uploadBatch(this.c, { paths, target, folderMode, hashtags }, (batch) => this.afterBatch(batch));
  }

  private afterBatch(batch: BatchResult): void {
    this.c.probe?.record(this, ProbeKeys.uploadBatches, batch);
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
