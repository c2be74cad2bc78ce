import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { isFileNode } from '../../api/values';
import type { KbElement } from './kbTreeModel';

export const TREE_MIME = 'application/vnd.code.tree.knowledgedesk.knowledgebase';

export interface DropHandlers {
  /** Files or folders from the explorer or the OS dropped onto a folder (undefined: the top level). */
  upload(paths: string[], target: { id: string | null; label: string }): Promise<unknown>;
  /** Tree nodes dropped onto a folder. */
  move(nodeIds: string[], target: { id: string | null; label: string }): Promise<unknown>;
  /** Dropped items that are not files on this machine. */
  reject(message: string): void;
}

/** Drag and drop: explorer/OS files upload into the folder; tree nodes move into it. */
export class KbDragAndDrop implements vscode.TreeDragAndDropController<KbElement> {
  readonly dropMimeTypes = [TREE_MIME, 'text/uri-list'];
  readonly dragMimeTypes = [TREE_MIME];

  constructor(private readonly handlers: DropHandlers) {}

  handleDrag(source: readonly KbElement[], data: vscode.DataTransfer): void {
    const ids = source.flatMap((e) => (e.kind === 'node' ? [e.node.id] : []));
    if (ids.length) data.set(TREE_MIME, new vscode.DataTransferItem(ids));
  }

  async handleDrop(target: KbElement | undefined, data: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const folder = dropFolder(target);
    const own = data.get(TREE_MIME);
    if (own) {
      const ids = (own.value as string[]).filter((id) => id !== folder.id);
      if (ids.length && !token.isCancellationRequested) await this.handlers.move(ids, folder);
      return;
    }
    const list = await data.get('text/uri-list')?.asString();
    if (!list || token.isCancellationRequested) return;
    const { paths, rejected } = await localPaths(list);
    if (rejected.length)
      this.handlers.reject(
        vscode.l10n.t(
          'Only files on the machine where the extension runs can be uploaded; skipped: {0}',
          `${rejected.slice(0, 3).join(', ')}${rejected.length > 3 ? ', …' : ''}`,
        ),
      );
    if (paths.length) await this.handlers.upload(paths, folder);
  }
}

/** Dropping on a document means its folder; on nothing (or a message row), the top level. */
function dropFolder(target: KbElement | undefined): { id: string | null; label: string } {
  if (target?.kind !== 'node') return { id: null, label: vscode.l10n.t('the top level') };
  if (!isFileNode(target.node)) return { id: target.node.id, label: target.node.name };
  const parent = target.node.parentFolder;
  return parent ? { id: parent.id, label: parent.name } : { id: null, label: vscode.l10n.t('the top level') };
}

/** Parses a uri-list strictly (comments skipped) and keeps file URIs that exist here. */
export async function localPaths(uriList: string): Promise<{ paths: string[]; rejected: string[] }> {
  const paths: string[] = [];
  const rejected: string[] = [];
  for (const line of uriList
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(line, true);
    } catch {
      rejected.push(line);
      continue;
    }
    // In a remote window the explorer hands vscode-remote URIs whose path is local to this host.
    const local = uri.scheme === 'file' || (uri.scheme === 'vscode-remote' && !!vscode.env.remoteName);
    const fsPath = uri.scheme === 'file' ? uri.fsPath : uri.path;
    if (
      local &&
      (await stat(fsPath).then(
        () => true,
        () => false,
      ))
    )
      paths.push(fsPath);
    else rejected.push(uri.path.split('/').pop() || line);
  }
  return { paths, rejected };
}
