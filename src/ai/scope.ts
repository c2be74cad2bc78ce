// Scope ids given to a tool are checked before they are used: the service ignores ids it does not know
// (an answer restricted to them would silently search nothing), and a model that invented an id should
// hear so. A folder is recognised by listing it, a document by a retrieval restricted to it.
import type { ApiClient } from '../api/client';
import { BadRequestError, NotFoundError } from '../api/errors';
import { ToolInputError } from './toolInput';

export interface Scope {
  folderIds: string[];
  documentIds: string[];
}

export async function resolveScope(
  client: ApiClient,
  ids: readonly string[] | undefined,
  question: string,
  signal?: AbortSignal,
): Promise<Scope> {
  const scope: Scope = { folderIds: [], documentIds: [] };
  const unknown: string[] = [];
  for (const id of new Set(ids ?? [])) {
    if (await isFolder(client, id, signal)) scope.folderIds.push(id);
    else if (await isDocument(client, id, question, signal)) scope.documentIds.push(id);
    else unknown.push(id);
  }
  if (unknown.length) {
    throw new ToolInputError(
      `Unknown folder or document ${unknown.length === 1 ? 'id' : 'ids'}: ${unknown.join(', ')}. Use ids returned by the retrieve tool (documentId), or omit scopeIds to search the whole knowledge base.`,
    );
  }
  return scope;
}

async function isFolder(client: ApiClient, id: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.kbNodes.search({ parentFolderIds: [id], limit: 1 }, { signal });
    return true;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof BadRequestError) return false;
    throw error;
  }
}

async function isDocument(client: ApiClient, id: string, question: string, signal?: AbortSignal): Promise<boolean> {
  const items = await client.answers.retrieve({ question, knowledgeBaseIds: [id], maxDocumentClues: 1 }, { signal });
  return items.some((item) => item.kb_id === id);
}
