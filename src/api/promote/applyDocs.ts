// Carrying out the picked documents of a promote: the source's file is downloaded and uploaded to the same place
// in the target with isOverwrite, so an identical file comes back `skipped` and a retry or a resume never adds a
// copy with a suffix; missing folders are created on the way; hashtags and on/off follow the source. Documents
// only in the target are deleted only when the person asks for it.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DocPromoteItem, DocSnapshot } from '../../core/promote/docCompare';
import { pool } from '../../core/pool';
import type { ApiClient } from '../client';
import { ConflictError } from '../errors';
import { countOutcomes, deletesOf, settleItem, type ApplyItems, type ItemOutcome } from './itemOutcomes';
import { needOffered } from './promoteErrors';
import { PlaceFinder } from './readDocs';

export interface DocApplyOutcome {
  /** Per item, by its path. */
  outcomes: Map<string, ItemOutcome>;
  copied: number;
  deleted: number;
  failed: number;
  cancelled: number;
}

export const applyDocItems: ApplyItems<DocPromoteItem, DocApplyOutcome> = async (source, target, picked, options = {}) => {
  const { signal } = options;
  const finder = new PlaceFinder(target, 'target', signal);
  const folders = new FolderMaker(target, finder, signal);
  const copies = picked.filter((i) => (i.kind === 'new' || i.kind === 'changed') && i.source);
  const deletes = deletesOf(picked, options);
  const result: DocApplyOutcome = { outcomes: new Map(), copied: 0, deleted: 0, failed: 0, cancelled: 0 };
  const total = copies.length + deletes.length;
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-promote-'));
  try {
    await pool([...copies, ...deletes], options.concurrency ?? 2, undefined, (item) =>
      settleItem(result.outcomes, item.path, signal, tick, async () => {
        if (item.kind === 'onlyInTarget') {
          await target.kbNodes.delete(item.target!.id, { signal });
          result.deleted++;
        } else {
          await copyOne(source, target, item.source!, await folders.ensure(item.source!.folders), dir, signal);
          result.copied++;
        }
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  countOutcomes(result);
  return result;
};

async function copyOne(
  source: ApiClient,
  target: ApiClient,
  doc: DocSnapshot,
  folderId: string | null,
  dir: string,
  signal?: AbortSignal,
): Promise<void> {
  const file = path.join(dir, `${doc.id.replace(/[^\w-]/g, '_')}`);
  const download = await needOffered('source', 'kbNodes.download', () => source.kbNodes.download(doc.id, { signal }));
  try {
    await pipeline(Readable.from(download.body), createWriteStream(file), { signal });
    const [node] = await target.kbNodes.upload(
      {
        file: { path: file, contentType: download.contentType },
        fileName: doc.name,
        hashtags: [...doc.hashtags],
        isOverwrite: true,
        ...(folderId ? { targetFolderId: folderId } : {}),
      },
      { signal },
    );
    if (!node) return;
    // An identical file comes back skipped with its old hashtags: they are set apart.
    const tags = new Set('hashtags' in node && Array.isArray(node.hashtags) ? (node.hashtags as string[]) : []);
    if (tags.size !== doc.hashtags.length || doc.hashtags.some((t) => !tags.has(t)))
      await target.kbNodes.setHashtags(node.id, [...doc.hashtags], { signal });
    const status = 'status' in node ? String(node.status) : 'on';
    if ((doc.status === 'off' || doc.status === 'on') && status !== doc.status)
      await target.kbNodes.toggle([node.id], doc.status, { signal });
  } finally {
    download.cancel();
    await rm(file, { force: true });
  }
}

/** Creates the target's missing folders, once each, even when several documents need the same one at once. */
class FolderMaker {
  private readonly made = new Map<string, Promise<string | null>>();
  constructor(
    private readonly target: ApiClient,
    private readonly finder: PlaceFinder,
    private readonly signal?: AbortSignal,
  ) {}

  ensure(folders: readonly string[]): Promise<string | null> {
    const key = folders.join('/');
    let p = this.made.get(key);
    if (!p) {
      p = this.create(folders);
      this.made.set(key, p);
      p.catch(() => this.made.delete(key)); // a failed creation is tried again by the next document
    }
    return p;
  }

  private async create(folders: readonly string[]): Promise<string | null> {
    if (!folders.length) return null;
    const found = await this.finder.folder(folders);
    if (found !== undefined) return found;
    const parent = await this.ensure(folders.slice(0, -1));
    const name = folders[folders.length - 1];
    try {
      const made = await needOffered('target', 'folders.create', () =>
        this.target.folders.create({ name, parentFolderId: parent }, { signal: this.signal }),
      );
      this.finder.forget(parent);
      return made.id;
    } catch (error) {
      // Made meanwhile (another window, or a request that reached the service before a dropped connection).
      if (!(error instanceof ConflictError)) throw error;
      this.finder.forget(parent);
      const again = await this.finder.folder(folders);
      if (again === undefined || again === null) throw error;
      return again;
    }
  }
}
