// A local folder mirrored into a knowledge-base folder path (`knowledge-desk sync`), by the extension's folder
// sync (planUploads in sync mode: file by file with isOverwrite, so the service skips identical files and a
// rerun after a failure sends nothing twice; a missing subfolder goes up as a ZIP, which creates it). Added
// here: a plan that changes nothing, the folder path created as needed, and removal of what the folder lacks.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_EXCLUDES, zipFolder } from '../../core/zipFolder';
import type { ApiClient } from '../client';
import { OperationNotOfferedError } from '../errors';
import type { FileNode, KbNode } from '../schemas/kbNodes';
import { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES, isFileNode } from '../values';
import { listChildren, planUploads } from './planUploads';
import { ProcessingWatcher } from './processingWatcher';
import { runUploads } from './uploadRunner';
import type { UploadJob } from './uploadJob';

const EXCLUDED = new Set(DEFAULT_EXCLUDES.map((n) => n.toLowerCase()));

export type SyncAction = 'create' | 'replace' | 'skip' | 'remove';
export type SyncOutcome = 'created' | 'replaced' | 'skipped' | 'removed' | 'failed' | 'cancelled' | 'not removed';

export interface SyncItem {
  /** Relative to the synced folder, with "/"; a folder ends in "/". */
  path: string;
  action: SyncAction;
  /** A folder created from a ZIP: the files it holds. */
  files?: number;
  /** Found before sending (an empty or unreadable file, an empty folder): the item cannot be synced. */
  problem?: string;
  /** A replace whose content could not be compared (the service offers no download): it may be skipped. */
  unverified?: boolean;
  job?: UploadJob;
  node?: KbNode;
}

export interface FolderSyncPlan {
  /** The deepest folder of the path that exists (null: the top level), and the folders to create under it. */
  parentId: string | null;
  missing: string[];
  items: SyncItem[];
  tempFiles: string[];
}

export interface SyncPlanRequest {
  dir: string;
  /** The knowledge-base folder path, one name a segment ([] is the top level). */
  folder: string[];
  /** List what the knowledge base has and the folder does not (`--delete`). */
  removals: boolean;
  /** Compare same-size documents by content (downloads them): exact for a plan, needless for an apply. */
  verify: boolean;
  tempDir: string;
  compressionLevel?: number;
  signal?: AbortSignal;
  onStatus?: (message: string) => void;
}

/** The folders of a path that exist, from the top: stops at the first missing one. */
export async function resolveFolderPath(
  client: ApiClient,
  folder: string[],
  signal?: AbortSignal,
): Promise<{ parentId: string | null; missing: string[] }> {
  let parentId: string | null = null;
  for (let i = 0; i < folder.length; i++) {
    const name = folder[i].normalize('NFC');
    const found: KbNode | undefined = (await listChildren(client, parentId, signal)).find((n) => n.nodeType !== 'file' && n.name === name);
    if (!found) return { parentId, missing: folder.slice(i) };
    parentId = found.id;
  }
  return { parentId, missing: [] };
}

export async function planFolderSync(client: ApiClient, req: SyncPlanRequest): Promise<FolderSyncPlan> {
  const { parentId, missing } = await resolveFolderPath(client, req.folder, req.signal);
  if (missing.length) return { parentId, missing, items: [await newFolderItem(req, parentId, missing)], tempFiles: [] };
  const plan = await planUploads(client, {
    paths: [req.dir],
    targetFolderId: parentId ?? undefined,
    folderMode: 'sync',
    tempDir: req.tempDir,
    compressionLevel: req.compressionLevel,
    signal: req.signal,
    onStatus: req.onStatus,
    compare: true,
  });
  const rel = (full: string, folder: boolean): string => path.relative(req.dir, full).split(path.sep).join('/') + (folder ? '/' : '');
  const items: SyncItem[] = [];
  for (const job of plan.jobs) {
    const item: SyncItem = { path: rel(job.id, job.isZip === true), action: job.existing ? 'replace' : 'create', job };
    if (job.isZip) item.files = await countFiles(job.id);
    if (job.problem) item.problem = job.problem;
    else if (job.existing && job.existing.size === job.size) {
      const same = req.verify ? await sameContent(client, job.existing.id, job.path, req.signal) : undefined;
      if (same) item.action = 'skip';
      else if (same === undefined) item.unverified = true;
    }
    items.push(item);
  }
  if (req.removals)
    for (const { node, dir } of plan.absent)
      items.push({ path: rel(path.join(dir, node.name), node.nodeType !== 'file'), action: 'remove', node });
  return { parentId, missing: [], items, tempFiles: plan.tempFiles };
}

/** The API cannot create an empty folder: the path's first missing folder comes from a ZIP that holds the rest of it. */
async function newFolderItem(req: SyncPlanRequest, parentId: string | null, missing: string[]): Promise<SyncItem> {
  const zip = path.join(req.tempDir, `new-${missing[0]}.zip`);
  req.onStatus?.(`Zipping ${path.basename(req.dir)}…`);
  const zipped = await zipFolder(req.dir, zip, {
    signal: req.signal,
    compressionLevel: req.compressionLevel,
    prefix: missing.slice(1).join('/'),
  });
  const job: UploadJob = {
    id: req.dir,
    path: zip,
    fileName: `${missing[0]}.zip`,
    size: 0,
    targetFolderId: parentId ?? undefined,
    isZip: true,
  };
  const item: SyncItem = { path: './', action: 'create', files: zipped.files, job };
  if (!zipped.files) item.problem = job.problem = 'The folder holds no files: the knowledge-base folder cannot be created empty.';
  return item;
}

/** The files a folder's ZIP holds (what zipFolder takes: no excluded names, no links). */
async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (EXCLUDED.has(entry.name.toLowerCase())) continue;
    if (entry.isDirectory()) n += await countFiles(path.join(dir, entry.name));
    else if (entry.isFile()) n++;
  }
  return n;
}

/** Undefined when the service offers no download: the content cannot be compared. */
async function sameContent(client: ApiClient, nodeId: string, file: string, signal?: AbortSignal): Promise<boolean | undefined> {
  let download;
  try {
    download = await client.kbNodes.download(nodeId, { signal });
  } catch (error) {
    if (error instanceof OperationNotOfferedError) return undefined;
    throw error;
  }
  const remote = createHash('sha256');
  for await (const chunk of download.body) remote.update(chunk);
  const local = createHash('sha256');
  for await (const chunk of createReadStream(file)) local.update(chunk as Buffer);
  return remote.digest('hex') === local.digest('hex');
}

export interface SyncResult {
  item: SyncItem;
  outcome: SyncOutcome;
  message?: string;
  /** What the service answered for an upload (the document, or a new folder and its documents). */
  nodes?: KbNode[];
}

const DONE: Record<string, SyncOutcome> = { created: 'created', overwritten: 'replaced', skipped: 'skipped', suffix_added: 'created' };

/**
 * Uploads every file item with isOverwrite (the service answers skipped for an identical file, so what a failed
 * run did is not sent again), then removes, only when every upload succeeded: a file renamed locally whose new
 * name failed to upload keeps its old copy until a rerun succeeds.
 */
export async function applyFolderSync(
  client: ApiClient,
  plan: FolderSyncPlan,
  run: { concurrency: number; signal?: AbortSignal; onResult?: (result: SyncResult) => void },
): Promise<SyncResult[]> {
  const results: SyncResult[] = [];
  const settle = (result: SyncResult): void => {
    results.push(result);
    run.onResult?.(result);
  };
  const uploads = plan.items.filter((i) => i.job);
  const byJob = new Map(uploads.map((i) => [i.job!.id, i]));
  await runUploads(
    client,
    uploads.map((i) => i.job!),
    {
      concurrency: run.concurrency,
      options: { isOverwrite: true },
      signal: run.signal,
      onOutcome: (job, o) =>
        settle({
          item: byJob.get(job.id)!,
          outcome: o.status === 'done' ? DONE[o.action] : o.status,
          ...(o.status === 'failed' ? { message: o.message } : {}),
          ...(o.status === 'done' ? { nodes: o.nodes } : {}),
        }),
    },
  );
  const failed = results.some((r) => r.outcome === 'failed' || r.outcome === 'cancelled');
  for (const item of plan.items.filter((i) => i.action === 'remove')) {
    if (failed || run.signal?.aborted) {
      settle({ item, outcome: 'not removed', message: 'an upload failed: removals wait for a run where every upload succeeds' });
      continue;
    }
    try {
      await client.kbNodes.delete(item.node!.id, { signal: run.signal });
      settle({ item, outcome: 'removed' });
    } catch (error) {
      settle({ item, outcome: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}

/** The documents a sync sent or met (created, replaced, skipped), to wait for their processing. */
export function syncedDocuments(results: readonly SyncResult[]): FileNode[] {
  return results.flatMap((r) => (r.nodes ?? []).filter(isFileNode));
}

/**
 * Resolves once every document has reached a final processing state (or was deleted meanwhile), polling as the
 * extension's badges do (ProcessingWatcher: one listing per folder a round, backing off to 15 s). Returns the
 * documents whose processing failed; those still unfinished after `giveUpMs` count as failed too.
 */
export async function waitProcessed(
  client: ApiClient,
  documents: readonly FileNode[],
  options: { signal?: AbortSignal; giveUpMs?: number; onFinal?: (node: FileNode) => void } = {},
): Promise<FileNode[]> {
  const failed: FileNode[] = [];
  const waiting = new Map(documents.filter((d) => !FINAL_PROCESS_STATES.has(d.processState)).map((d) => [d.id, d]));
  for (const d of documents) if (FAILED_PROCESS_STATES.has(d.processState)) failed.push(d);
  if (!waiting.size) return failed;
  const giveUpMs = options.giveUpMs ?? 30 * 60_000;
  await new Promise<void>((resolve) => {
    const settle = (id: string): void => {
      waiting.delete(id);
      if (!waiting.size) finish();
    };
    const watcher = new ProcessingWatcher({
      client: () => Promise.resolve(client),
      onUpdate: () => undefined,
      onFinal: (node) => {
        if (FAILED_PROCESS_STATES.has(node.processState)) failed.push(node);
        options.onFinal?.(node);
        settle(node.id);
      },
      onGone: settle,
      giveUpMs,
    });
    // The watcher drops a document it gave up on without a word: the deadline is kept here.
    const deadline = setTimeout(() => {
      failed.push(...waiting.values());
      finish();
    }, giveUpMs);
    const finish = (): void => {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', finish);
      watcher.dispose();
      resolve();
    };
    options.signal?.addEventListener('abort', finish, { once: true });
    watcher.watch([...waiting.values()].map((d) => ({ id: d.id, parentId: d.parentFolder?.id ?? null, name: d.name })));
  });
  return failed;
}
