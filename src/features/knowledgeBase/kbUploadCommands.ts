// Files into the knowledge base: Upload to Knowledge Base (Explorer), Upload Here…, Upload to the Top Level,
// a drop from the Explorer or the OS, Upload from Cloud Store…, and Replace File… of a document.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import type { FolderMode } from '../../api/uploads/planUploads';
import type { CommandServices } from '../../platform/commandServices';
import { activeConnectionLabel, titleWithName } from '../../platform/connection/connectionLabel';
import { pickFolder, targetLabel, type FolderChoice } from '../../platform/pickers/folderPicker';
import { pickHashtags } from '../../platform/pickers/hashtagPicker';
import { KbCommandGroup } from './kbCommandGroup';
import { requireNode } from './kbSelection';
import { KB_VIEW } from './kbTreeItems';
import { ROOT, type KbElement, type NodeElement } from './kbTreeModel';
import type { KbTreeProvider } from './kbTreeProvider';
import type { BatchResult, UploadRequest } from './uploadFlow';

/** What the upload commands hand on: a batch to run (uploadFlow.ts), nodes whose processing to follow. */
export interface UploadSink {
  runBatch(request: UploadRequest): Promise<BatchResult | undefined>;
  watch(nodes: KbNode[]): void;
}

export class KbUploadCommands extends KbCommandGroup {
  constructor(
    s: CommandServices,
    tree: KbTreeProvider,
    view: vscode.TreeView<KbElement>,
    private readonly sink: UploadSink,
  ) {
    super(s, tree, view);
  }

  /** Explorer context menu (multi-select: the second argument holds the whole selection). */
  async uploadFromExplorer(clicked?: vscode.Uri, selected?: vscode.Uri[]): Promise<BatchResult | undefined> {
    // Run without a selection (the walkthrough's button): ask for folders of the workspace.
    const uris = selected?.length
      ? selected
      : clicked
        ? [clicked]
        : await this.askForUploads(this.titled(vscode.l10n.t('Upload Folders to the Knowledge Base')), 'folders');
    if (!uris?.length) return undefined;
    const client = await this.s.connection.getClient();
    const target = await pickFolder(this.s.ui, client, {
      title: this.titled(
        uris.length === 1
          ? vscode.l10n.t('Upload {0} to…', uris[0].path.split('/').pop() ?? '')
          : vscode.l10n.t('Upload {0} items to…', uris.length),
      ),
    });
    return target && this.uploadUris(uris, target);
  }

  async uploadHere(element?: NodeElement): Promise<BatchResult | undefined> {
    const target: FolderChoice =
      element?.kind === 'node' && element.node.nodeType !== 'file'
        ? { id: element.node.id, label: element.node.name }
        : { id: null, label: vscode.l10n.t('the top level') };
    const picked = await this.askForUploads(this.titled(vscode.l10n.t('Upload files to {0}', targetLabel(target))), 'files');
    return picked?.length ? this.uploadUris(picked, target) : undefined;
  }

  /**
   * A prompt's title naming the connection the files go to (" — Beta"), as panel titles do, once the user has a
   * connection of their own: with several projects, the upload must not go to the wrong one unnoticed.
   */
  private titled(title: string): string {
    return titleWithName(title, activeConnectionLabel(this.s.connection.store));
  }

  /** The open dialog of both upload commands: several files or several folders, starting in the workspace. */
  private askForUploads(title: string, kind: 'files' | 'folders'): Promise<vscode.Uri[] | undefined> {
    return this.s.ui.showOpenDialog({
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
      const pick = await this.s.ui.showQuickPick(
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
        { title: this.titled(vscode.l10n.t('How should folders be uploaded?')) },
      );
      if (!pick) return undefined;
      folderMode = pick.mode;
    }
    let hashtags = opts.hashtags;
    if (opts.ask && !hashtags) {
      hashtags = await pickHashtags(this.s.ui, await this.s.connection.getClient(), {
        title: this.titled(vscode.l10n.t('Hashtags for the uploaded documents (optional)')),
        prompt: vscode.l10n.t('Separated by commas or semicolons (# optional), e.g. "#hr #policy" or "hr; policy". Leave empty for none.'),
        log: this.s.log('kb'),
      });
      if (hashtags === undefined) return undefined;
    }
    return this.sink.runBatch({ paths, target, folderMode, hashtags });
  }

  async uploadFromCloud(element: NodeElement | undefined): Promise<void> {
    const client = await this.s.connection.getClient();
    const target: FolderChoice | undefined =
      element?.kind === 'node' && !isFileNode(element.node)
        ? { id: element.node.id, label: element.node.name }
        : await pickFolder(this.s.ui, client, { title: this.titled(vscode.l10n.t('Upload from cloud store into…')) });
    if (!target) return;
    const local = this.s.connection.region === 'local';
    const objectPath = await this.s.ui.showInputBox({
      title: this.titled(vscode.l10n.t('Object path in the cloud store')),
      prompt: local
        ? vscode.l10n.t('The local service reads file:// URLs inside the open workspace folders')
        : vscode.l10n.t('e.g. {0}', 's3://bucket/path/report.pdf'),
      value: local ? vscode.workspace.workspaceFolders?.[0]?.uri.with({ scheme: 'file' }).toString() + '/' : '',
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the object path')),
    });
    if (!objectPath) return;
    const fileName = await this.s.ui.showInputBox({
      title: this.titled(vscode.l10n.t('Document name')),
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
    this.sink.watch([node]);
    void vscode.window.showInformationMessage(vscode.l10n.t('Uploaded "{0}" to {1} from the cloud store.', node.name, targetLabel(target)));
  }

  /** Replace File… of a document: a new file under the same id, processed again. */
  async replace(element: NodeElement | undefined): Promise<void> {
    const node = requireNode(this.view, element);
    if (!isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a folder; choose a document.', node.name));
    const picked = await this.s.ui.showOpenDialog({
      title: this.titled(vscode.l10n.t('Replace the file of "{0}"', node.name)),
      canSelectMany: false,
      openLabel: vscode.l10n.t('Replace'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    const file = picked?.[0];
    if (!file) return;
    const name = file.path.split('/').pop()!;
    const replaceLabel = vscode.l10n.t('Replace');
    const resetLabel = vscode.l10n.t('Replace and Reset Feedback');
    const choice = await this.s.ui.showWarningMessage(
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
    const client = await this.s.connection.getClient();
    const updated = await vscode.window.withProgress(
      { location: { viewId: KB_VIEW }, title: vscode.l10n.t('Replacing {0}', node.name) },
      () => client.kbNodes.replace(node.id, { path: file.fsPath, fileName: name }, { resetClueFeedbacks: choice === resetLabel }),
    );
    this.tree.updateNode(updated);
    this.sink.watch([updated]);
    void vscode.window.showInformationMessage(vscode.l10n.t('Replaced the file of "{0}"; it is being processed again.', node.name));
  }
}
