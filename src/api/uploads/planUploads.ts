// @vscode/l10n (not vscode): a file's problem and the progress text reach the upload report and notification.
import * as l10n from '@vscode/l10n';
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_EXCLUDES, zipFolder } from '../../core/zipFolder';
import type { ApiClient } from '../client';
import type { KbNode } from '../schemas/kbNodes';
import type { UploadJob } from './uploadJob';

export type FolderMode = 'zip' | 'sync';

export interface PlanRequest {
  /** Files and folders on disk. */
  paths: string[];
  /** Knowledge-base folder to upload into (undefined: the top level). */
  targetFolderId?: string;
  /** A folder becomes a new knowledge-base folder (zipped) or is synced into the target file by file. */
  folderMode: FolderMode;
  /** Upload limit of the service when known (the local service's setting). */
  maxBytes?: number;
  /** Where ZIPs of folders are written; the caller deletes `tempFiles` when done. */
  tempDir: string;
  /** 0 stores (fast; right when the service unpacks on this machine), 1–9 deflates. */
  compressionLevel?: number;
  signal?: AbortSignal;
  onStatus?: (message: string) => void;
  /**
   * Sync mode: also collect what the knowledge base has and the folder does not (the command line's
   * `sync --delete`), and note on each file job the document of the same name it meets.
   */
  compare?: boolean;
}

/** A knowledge-base node a synced folder does not have, with the local folder it was compared with. */
export interface Absent {
  node: KbNode;
  dir: string;
}

export interface Plan {
  jobs: UploadJob[];
  tempFiles: string[];
  /** With `compare`: nodes of the synced knowledge-base folders that the local folders do not have. */
  absent: Absent[];
}

/** Turns the user's selection into upload jobs (folders zipped or walked), finding problems up front. */
export async function planUploads(client: ApiClient, req: PlanRequest): Promise<Plan> {
  const plan: Plan = { jobs: [], tempFiles: [], absent: [] };
  for (const p of req.paths) {
    const info = await stat(p).catch(() => undefined);
    if (!info)
      plan.jobs.push({
        id: p,
        path: p,
        fileName: path.basename(p),
        size: 0,
        targetFolderId: req.targetFolderId,
        problem: l10n.t('The file no longer exists.'),
      });
    else if (info.isDirectory()) {
      if (req.folderMode === 'zip') await addZip(plan, p, req.targetFolderId, req);
      else await syncFolder(client, plan, p, req.targetFolderId, req);
    } else plan.jobs.push(await fileJob(p, p, req.targetFolderId, req.maxBytes));
  }
  return plan;
}

async function fileJob(file: string, id: string, targetFolderId: string | undefined, maxBytes?: number): Promise<UploadJob> {
  const job: UploadJob = { id, path: file, fileName: path.basename(file).normalize('NFC'), size: 0, targetFolderId };
  try {
    const info = await stat(file);
    job.size = info.size;
    await access(file, constants.R_OK);
    if (info.size === 0) job.problem = l10n.t('The file is empty (0 bytes); there is nothing to upload.');
    else if (maxBytes && info.size > maxBytes)
      job.problem = l10n.t('The file is {0}, over the upload limit of {1}.', mb(info.size), mb(maxBytes));
  } catch (error) {
    job.problem = l10n.t('The file cannot be read ({0}).', (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  return job;
}

async function addZip(plan: Plan, dir: string, targetFolderId: string | undefined, req: PlanRequest): Promise<void> {
  const name = path.basename(dir).normalize('NFC');
  const zip = path.join(req.tempDir, `${plan.tempFiles.length}-${name}.zip`);
  plan.tempFiles.push(zip);
  req.onStatus?.(l10n.t('Zipping {0}…', name));
  const result = await zipFolder(dir, zip, { signal: req.signal, compressionLevel: req.compressionLevel });
  const size = (await stat(zip)).size;
  const job: UploadJob = { id: dir, path: zip, fileName: `${name}.zip`, size, targetFolderId, isZip: true };
  if (result.files === 0) job.problem = l10n.t('The folder {0} holds no files.', name);
  else if (req.maxBytes && size > req.maxBytes)
    job.problem = l10n.t(
      'The folder zips to {0}, over the upload limit of {1}; sync it into an existing folder instead.',
      mb(size),
      mb(req.maxBytes),
    );
  plan.jobs.push(job);
}

/**
 * Syncs a local folder into an existing knowledge-base folder file by file (unchanged files come
 * back `skipped`). A subfolder goes into the knowledge-base subfolder of the same name when there
 * is one, and is uploaded as a new folder (zipped) when there is not: the API cannot create an
 * empty folder (docs/api.md#upload-outcomes).
 */
async function syncFolder(client: ApiClient, plan: Plan, dir: string, targetFolderId: string | undefined, req: PlanRequest): Promise<void> {
  req.onStatus?.(l10n.t('Reading {0}…', path.basename(dir)));
  const children = await listChildren(client, targetFolderId ?? null, req.signal);
  const remoteFolders = new Map(children.filter((n) => n.nodeType !== 'file').map((n) => [n.name, n.id]));
  const remoteFiles = new Map(children.flatMap((n) => (n.nodeType === 'file' ? [[n.name, n] as const] : [])));
  const excluded = new Set(DEFAULT_EXCLUDES.map((n) => n.toLowerCase()));
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => !excluded.has(e.name.toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name));
  const synced = new Set<string>();
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    const name = entry.name.normalize('NFC');
    if (entry.isDirectory()) {
      synced.add(name);
      const existing = remoteFolders.get(name);
      if (existing) await syncFolder(client, plan, full, existing, req);
      else await addZip(plan, full, targetFolderId, req);
    } else if (entry.isFile()) {
      synced.add(name);
      const job = await fileJob(full, full, targetFolderId, req.maxBytes);
      const same = req.compare ? remoteFiles.get(name) : undefined;
      if (same) job.existing = { id: same.id, size: (same as { size?: number }).size ?? 0 };
      plan.jobs.push(job);
    }
  }
  if (req.compare) for (const node of children) if (!synced.has(node.name)) plan.absent.push({ node, dir });
}

/** Every child of a knowledge-base folder, all pages (kbPaging.ts: never loops on a deployment that ignores offset). */
export function listChildren(client: ApiClient, parentId: string | null, signal?: AbortSignal): Promise<KbNode[]> {
  return client.kbNodes.listAll({ parentFolderIds: [parentId] }, { signal });
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
