import type { ApiClient } from '../client';
import type { KbNode, UploadAction } from '../schemas/kbNodes';
import type { UploadJob } from './uploadJob';

// Server clocks differ from ours: a node counts as "ours" if it changed at most this long before we started.
const CLOCK_SKEW_MS = 2 * 60_000;

/**
 * After a failure that may have been applied (the connection dropped after the request was sent),
 * looks for the job's document in its target folder: same name or a suffixed copy of it, same
 * size, changed since the job started. Found → the upload happened and must not be sent again.
 */
export async function findUploaded(
  client: ApiClient,
  job: UploadJob,
  startedAt: number,
  signal?: AbortSignal,
): Promise<{ action: UploadAction; nodes: KbNode[] } | undefined> {
  const dot = job.fileName.lastIndexOf('.');
  const base = job.isZip ? job.fileName.replace(/\.zip$/i, '') : dot > 0 ? job.fileName.slice(0, dot) : job.fileName;
  const ext = job.isZip ? '' : dot > 0 ? job.fileName.slice(dot) : '';
  const suffixed = new RegExp(`^${escape(base)} \\(\\d+\\)${escape(ext)}$`);
  const parent = job.targetFolderId ?? null;
  const since = startedAt - CLOCK_SKEW_MS;
  const pages = client.kbNodes.pages(
    { parentFolderIds: [parent], searchTerm: base, nodeType: [job.isZip ? 'folder' : 'file'] },
    { signal, maxRetries: 1, maxNodes: 1000 },
  );
  for await (const page of pages) {
    for (const node of page.fresh) {
      if ((node.parentFolder?.id ?? null) !== parent) continue;
      const exact = node.name === (job.isZip ? base : job.fileName);
      if (!exact && !suffixed.test(node.name)) continue;
      if (job.isZip) {
        if (node.createdAt >= since) return { action: 'created', nodes: [node] };
        continue;
      }
      if ((node as { size?: number }).size !== job.size || node.updatedAt < since) continue;
      return { action: !exact ? 'suffix_added' : node.createdAt >= since ? 'created' : 'overwritten', nodes: [node] };
    }
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
