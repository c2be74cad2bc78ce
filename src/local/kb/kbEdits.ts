// Folder and node edits of the local service (docs/api.md#folders):
// create folder, rename / update a node, delete a folder, turn documents on or off.
// Each one reads the records, decides and commits in one synchronous span (docs/local-service-storage.md):
// no await between the read and `store.write()`, so no other write can slip in.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { normalizeHashtags } from '../../core/hashtags';
import { badRequest, HttpError, notFound } from '../http/errors';
import { fileNameProblem, normalizeName } from './fileNames';
import type { KbStore } from './kbStore';
import { defaultAgentPermission, defaultUserPermission, type Creator, type NodeRecord } from './nodeRecord';

export const createFolderSchema = z.object({ name: z.string(), parentFolderId: z.string().min(1).nullish() });
export const renameSchema = z.object({ name: z.string() });
export const updateNodeSchema = z
  .object({
    name: z.string().optional(),
    hashtags: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
    properties: z
      .array(z.object({ key: z.string().min(1).max(200), value: z.string().max(2000) }))
      .max(200)
      .optional(),
  })
  .refine((b) => b.name !== undefined || b.hashtags !== undefined || b.properties !== undefined, {
    message: 'give at least one of name, hashtags, properties',
  });
export const toggleSchema = z.object({
  ids: z.array(z.string().min(1)).min(1).max(1000),
  status: z.enum(['on', 'off']),
});

const conflict = (message: string, field: string): HttpError => new HttpError(409, message, { field });

/** A valid, free name for a node in `parentId` (NFC), or a 400/409 naming the problem. */
function checkedName(store: KbStore, raw: string, parentId: string | null, kind: 'file' | 'folder', self?: string): string {
  const name = normalizeName(raw);
  const problem = fileNameProblem(name, kind);
  if (problem) throw badRequest(problem, 'name');
  const taken = store.childrenOf(parentId).find((n) => n.id !== self && n.name === name);
  if (taken) {
    const where = parentId ? `the folder "${store.get(parentId)?.name ?? parentId}"` : 'the top level';
    throw conflict(`A ${taken.nodeType === 'folder' ? 'folder' : 'document'} named "${name}" already exists in ${where}.`, 'name');
  }
  return name;
}

function requireFolder(store: KbStore, id: string): NodeRecord {
  const node = store.get(id);
  if (!node || node.nodeType !== 'folder') throw notFound(`Folder not found: ${id}`);
  return node;
}

export function requireNode(store: KbStore, id: string): NodeRecord {
  const node = store.get(id);
  if (!node) throw notFound(`Node not found: ${id}`);
  return node;
}

export function requireDocument(store: KbStore, id: string): NodeRecord {
  const node = store.get(id);
  if (!node || node.nodeType !== 'file') throw notFound(`Document not found: ${id}`);
  return node;
}

/** A new, empty folder at the top level or inside `parentFolderId`. */
export async function createFolder(store: KbStore, body: z.infer<typeof createFolderSchema>, creator: Creator | null): Promise<NodeRecord> {
  const parentId = body.parentFolderId ?? null;
  if (parentId) {
    const parent = store.get(parentId);
    if (!parent) throw new HttpError(404, `Folder not found: ${parentId}`, { field: 'parentFolderId' });
    if (parent.nodeType !== 'folder') throw badRequest(`parentFolderId: ${parentId} is a document, not a folder`, 'parentFolderId');
  }
  const name = checkedName(store, body.name, parentId, 'folder');
  const now = Date.now();
  const parent = parentId ? store.get(parentId) : undefined;
  const folder: NodeRecord = {
    id: randomUUID(),
    name,
    nodeType: 'folder',
    parentId,
    createdAt: now,
    updatedAt: now,
    createdBy: creator,
    // A new folder inside another takes its access, as a moved node does.
    agentPermission: parent?.agentPermission ?? defaultAgentPermission(),
    userPermission: parent?.userPermission ?? defaultUserPermission(),
    sourceType: 'folder',
  };
  await store.write([folder]);
  return folder;
}

/**
 * Changes a node's name, hashtags or properties; only the fields given change. The id stays, and what
 * is below a renamed folder keeps its place (breadcrumbs are computed from the parent chain when read).
 * `folderOnly`: the folders route, which answers 404 for a document.
 */
export async function updateNode(
  store: KbStore,
  id: string,
  patch: { name?: string; hashtags?: string[]; properties?: Array<{ key: string; value: string }> },
  folderOnly = false,
): Promise<NodeRecord> {
  const node = folderOnly ? requireFolder(store, id) : requireNode(store, id);
  if (node.nodeType === 'folder' && (patch.hashtags !== undefined || patch.properties !== undefined)) {
    throw badRequest(
      `${patch.hashtags !== undefined ? 'hashtags' : 'properties'}: folders have no hashtags or properties`,
      patch.hashtags !== undefined ? 'hashtags' : 'properties',
    );
  }
  const next: NodeRecord = { ...node };
  if (patch.name !== undefined) next.name = checkedName(store, patch.name, node.parentId, node.nodeType, node.id);
  if (patch.hashtags !== undefined) next.hashtags = normalizeHashtags(patch.hashtags);
  if (patch.properties !== undefined) next.properties = patch.properties;
  next.updatedAt = Date.now();
  await store.write([next]);
  return next;
}

/** Deletes a folder with everything below it; returns the removed records. */
export async function deleteFolder(store: KbStore, id: string): Promise<NodeRecord[]> {
  const folder = requireFolder(store, id);
  const removed = [folder, ...store.descendantsOf(folder.id)];
  await store.write(
    [],
    removed.map((n) => n.id),
  );
  return removed;
}

/**
 * Turns documents on or off, all or nothing: an unknown id is a 404 and a folder a 400, and then nothing
 * changes. An off document keeps its place and is left out of retrieval and answers (search/filters.ts).
 * Answers the given documents, each once, in request order.
 */
export async function toggleDocuments(store: KbStore, body: z.infer<typeof toggleSchema>): Promise<string[]> {
  const ids = [...new Set(body.ids)];
  const changed: NodeRecord[] = [];
  for (const [i, id] of ids.entries()) {
    const node = store.get(id);
    if (!node) throw notFound(`Document not found: ${id}`);
    if (node.nodeType !== 'file') throw badRequest(`ids.${i}: ${id} is a folder; only documents can be turned on or off`, `ids.${i}`);
    if ((node.status ?? 'on') !== body.status) changed.push({ ...node, status: body.status });
  }
  if (changed.length) await store.write(changed);
  return ids;
}
