// Folders (docs/api.md#folders): create, rename, delete.
// A deployment without these routes answers 404/405: OperationNotOfferedError, remembered in `client.offers`.
import type { CallOptions, Requester } from '../requester';
import type { KbNodesResource } from './kbNodes';
import { endpoint } from '../endpoint';
import type { FolderNode } from '../schemas/kbNodes';
import { folderDeleteSchema, folderResultSchema, type FolderDeleteResult } from '../schemas/kbOps';

export class FoldersResource {
  // Counting a folder's contents lists them through the kbNodes resource of the same client.
  constructor(private readonly client: Requester & { kbNodes: Pick<KbNodesResource, 'listAll'> }) {}

  /** Creates a folder at the top level (`parentFolderId` null or omitted) or inside a folder. Not resent after a failure. */
  async create(params: { name: string; parentFolderId?: string | null }, options?: CallOptions): Promise<FolderNode> {
    const body = await this.client.requestOptional(
      {
        ...endpoint('folders.create'),
        json: { name: params.name, parentFolderId: params.parentFolderId ?? null },
        schema: folderResultSchema,
      },
      options,
      { ids: params.parentFolderId ? [params.parentFolderId] : [] },
    );
    return body.result as FolderNode;
  }

  /** Renames a folder; its id and everything below it stay, their breadcrumbs follow. */
  async rename(folderId: string, name: string, options?: CallOptions): Promise<FolderNode> {
    const body = await this.client.requestOptional(
      {
        ...endpoint('folders.rename', { folder_id: folderId }),
        json: { name },
        schema: folderResultSchema,
      },
      options,
      { ids: [folderId] },
    );
    return body.result as FolderNode;
  }

  /** Deletes a folder with everything in it; the counts are undefined where the deployment does not say. */
  delete(folderId: string, options?: CallOptions): Promise<FolderDeleteResult> {
    return this.client.requestOptional({ ...endpoint('folders.delete', { folder_id: folderId }), schema: folderDeleteSchema }, options, {
      ids: [folderId],
    });
  }

  /**
   * What a delete would take with it, counted by listing (for the confirmation): documents and folders below
   * `folderId`, at most `max` nodes looked at (`complete` false beyond that).
   */
  async contents(
    folderId: string,
    options: CallOptions & { max?: number } = {},
  ): Promise<{ documents: number; folders: number; complete: boolean }> {
    const max = options.max ?? 10_000;
    let [documents, folders, seen] = [0, 0, 0];
    const queue = [folderId];
    while (queue.length) {
      const parent = queue.shift()!;
      for (const node of await this.client.kbNodes.listAll({ parentFolderIds: [parent] }, { ...options, maxNodes: max - seen })) {
        seen++;
        if (node.nodeType === 'file') documents++;
        else {
          folders++;
          queue.push(node.id);
        }
      }
      if (seen >= max) return { documents, folders, complete: false };
    }
    return { documents, folders, complete: true };
  }
}
