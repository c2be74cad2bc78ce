// Reading both projects' documents for a promote: the chosen documents and folders of the source (folders walked
// to the bottom), and in the target the folders of the same names at the same place. Documents of the same size
// that the source changed later are compared by a hash of their content where both deployments offer download.
import { createHash } from 'node:crypto';
import { compareDocs, type DocPromoteItem, type DocSnapshot } from '../../core/promote/docCompare';
import { pool } from '../../core/pool';
import type { ApiClient } from '../client';
import { isNotOffered, needOffered, refuseSameProject } from './promoteErrors';
import type { FileNode, KbNode } from '../schemas/kbNodes';
import { isFileNode } from '../values';

/** A chosen node of the source: a document or a folder, with the folder names above it (top first). */
export interface DocRoot {
  id: string;
  name: string;
  folders: readonly string[];
  /** A chosen document as it was listed; absent for a folder. */
  file?: DocSnapshot;
}

export function rootOf(node: KbNode): DocRoot {
  const folders = node.breadcrumbs.map((b) => b.name);
  return { id: node.id, name: node.name, folders, ...(isFileNode(node) ? { file: snapshot(node, folders) } : {}) };
}

function snapshot(node: FileNode, folders: readonly string[]): DocSnapshot {
  return {
    id: node.id,
    folders,
    name: node.name,
    size: node.size,
    updatedAt: node.updatedAt,
    hashtags: node.hashtags,
    status: node.status,
  };
}

async function children(client: ApiClient, side: 'source' | 'target', parent: string | null, signal?: AbortSignal): Promise<KbNode[]> {
  return needOffered(side, 'kbNodes.search', () => client.kbNodes.listAll({ parentFolderIds: [parent] }, { signal, maxNodes: 100_000 }));
}

/** Every document below a folder, with its place. */
async function walk(
  client: ApiClient,
  side: 'source' | 'target',
  folderId: string,
  folders: readonly string[],
  signal?: AbortSignal,
): Promise<DocSnapshot[]> {
  const out: DocSnapshot[] = [];
  const queue: Array<[string, readonly string[]]> = [[folderId, folders]];
  while (queue.length) {
    const [id, place] = queue.shift()!;
    for (const node of await children(client, side, id, signal)) {
      if (isFileNode(node)) out.push(snapshot(node, place));
      else queue.push([node.id, [...place, node.name]]);
    }
  }
  return out;
}

const sameName = (a: string, b: string) => a.normalize('NFC') === b.normalize('NFC');

/** Finds nodes by place in one project, caching each folder's children. */
export class PlaceFinder {
  private readonly listed = new Map<string, Promise<KbNode[]>>();
  constructor(
    private readonly client: ApiClient,
    private readonly side: 'source' | 'target',
    private readonly signal?: AbortSignal,
  ) {}

  childrenOf(parent: string | null): Promise<KbNode[]> {
    const key = parent ?? '';
    let p = this.listed.get(key);
    if (!p) this.listed.set(key, (p = children(this.client, this.side, parent, this.signal)));
    return p;
  }

  /** The folder at this place (null: the top level), or undefined when some folder on the way is missing. */
  async folder(folders: readonly string[]): Promise<string | null | undefined> {
    let parent: string | null = null;
    for (const name of folders) {
      const next: KbNode | undefined = (await this.childrenOf(parent)).find((n) => !isFileNode(n) && sameName(n.name, name));
      if (!next) return undefined;
      parent = next.id;
    }
    return parent;
  }

  forget(parent: string | null): void {
    this.listed.delete(parent ?? '');
  }
}

export interface CompareDocsOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Compares the chosen documents and folders of the source with the same places in the target. */
export async function compareProjectDocs(
  source: ApiClient,
  target: ApiClient,
  roots: readonly DocRoot[],
  options: CompareDocsOptions = {},
): Promise<DocPromoteItem[]> {
  refuseSameProject(source, target);
  const { signal } = options;
  const finder = new PlaceFinder(target, 'target', signal);
  const sourceDocs: DocSnapshot[] = [];
  const targetDocs: DocSnapshot[] = [];
  for (const [n, root] of roots.entries()) {
    options.onProgress?.(n, roots.length);
    if (!root.file) {
      const place = [...root.folders, root.name];
      sourceDocs.push(...(await walk(source, 'source', root.id, place, signal)));
      const there = await finder.folder(place);
      if (there) targetDocs.push(...(await walk(target, 'target', there, place, signal)));
      continue;
    }
    sourceDocs.push(root.file);
    const there = await finder.folder(root.folders);
    const twin =
      there === undefined ? undefined : (await finder.childrenOf(there)).find((c) => isFileNode(c) && sameName(c.name, root.name));
    if (twin && isFileNode(twin)) targetDocs.push(snapshot(twin, root.folders));
  }
  const items = compareDocs(sourceDocs, targetDocs);
  await settleByHash(source, target, items, signal);
  return items;
}

/** Same size, source newer: the content decides, where both sides can be downloaded. */
async function settleByHash(source: ApiClient, target: ApiClient, items: DocPromoteItem[], signal?: AbortSignal): Promise<void> {
  const doubtful = items.filter((i) => i.kind === 'changed' && i.changes?.includes('content') && i.source!.size === i.target!.size);
  await pool(doubtful, 4, signal, async (item) => {
    try {
      const [a, b] = await Promise.all([contentHash(source, item.source!.id, signal), contentHash(target, item.target!.id, signal)]);
      if (a !== b) return;
      item.changes = item.changes!.filter((c) => c !== 'content');
      if (!item.changes.length) {
        item.kind = 'same';
        delete item.changes;
      }
    } catch (error) {
      if (!isNotOffered(error)) throw error; // without download, the later update is all there is to go by
    }
  });
}

export async function contentHash(client: ApiClient, id: string, signal?: AbortSignal): Promise<string> {
  const download = await client.kbNodes.download(id, { signal });
  const hash = createHash('sha256');
  for await (const chunk of download.body) hash.update(chunk);
  return hash.digest('hex');
}
