// Which documents a search may see, decided at query time from the knowledge base store (so a move, a status
// change or a new owner is reflected at once, without re-indexing):
// - only documents that are on, completed, and whose indexed extraction is their current one;
// - shared scope: documents without owners; limited, when any is given, to knowledgeBaseIds / folderIds
//   (documents, or every document below a folder) and targetFolders (below any folder of that name) — OR-ed;
// - personal scope (enablePersonalFolderSearch, docs/api.md#retrieval): a document with userPermission.ownUserIds is
//   personal to those users and is searched only when the request names it (or a folder of it) among the
//   personal ids AND the request's user owns both; ids the user does not own are dropped silently;
//   OR-ed with the shared scope;
// - hashtags: include (and/or) and exclude (and/or), on every document of either scope.
import { hashtagKey } from '../faq/faqRecord';
import type { KbStore } from '../kb/kbStore';
import type { NodeRecord } from '../kb/nodeRecord';
import type { IndexedDoc } from './retrievalIndex';
import { normalizeText } from './tokenizer';

export type AndOr = 'and' | 'or';

export interface DocumentScope {
  /** Document or folder ids (knowledgeBaseIds, folderIds, source.sharedKnowledgeBaseNodeIds). */
  sharedIds?: readonly string[];
  /** Folder names. */
  targetFolders?: readonly string[];
  /** Set only when personal search is enabled and the request carries a user identity. */
  personal?: { userId: string; ids: readonly string[] };
  hashtags?: readonly string[];
  hashtagsOperator?: AndOr;
  excludeHashtags?: readonly string[];
  excludeHashtagsOperator?: AndOr;
}

export function isPersonal(node: NodeRecord): boolean {
  return (node.userPermission?.ownUserIds?.length ?? 0) > 0;
}

function owns(node: NodeRecord, userId: string): boolean {
  return node.userPermission?.ownUserIds?.includes(userId) ?? false;
}

/** Whether a document is searchable at all: a completed file that is on, indexed from its current extraction. */
export function isSearchable(node: NodeRecord | undefined, doc: IndexedDoc): node is NodeRecord {
  return (
    !!node &&
    node.nodeType === 'file' &&
    (node.status ?? 'on') === 'on' &&
    node.processState === 'completed' &&
    node.textBlob === doc.textBlob
  );
}

export function documentFilter(kb: KbStore, scope: DocumentScope): (doc: IndexedDoc) => boolean {
  const sharedIds = new Set(scope.sharedIds ?? []);
  const names = new Set((scope.targetFolders ?? []).map((n) => normalizeText(n).trim()).filter(Boolean));
  const sharedLimited = sharedIds.size > 0 || names.size > 0;
  const personal = scope.personal;
  // Personal ids the user owns; the rest are dropped. A folder without owners (a ZIP of personal documents
  // makes one) counts too: below it, as everywhere, only documents the user owns are searched.
  const personalIds = new Set(
    (personal?.ids ?? []).filter((id) => {
      const node = kb.get(id);
      if (!node || !personal) return false;
      return owns(node, personal.userId) || (node.nodeType === 'folder' && !isPersonal(node));
    }),
  );
  const include = (scope.hashtags ?? []).map(hashtagKey).filter(Boolean);
  const exclude = (scope.excludeHashtags ?? []).map(hashtagKey).filter(Boolean);

  return (doc) => {
    const node = kb.get(doc.nodeId);
    if (!isSearchable(node, doc)) return false;
    if (include.length || exclude.length) {
      const tags = new Set((node.hashtags ?? []).map(hashtagKey));
      if (include.length && !(scope.hashtagsOperator === 'and' ? include.every((t) => tags.has(t)) : include.some((t) => tags.has(t))))
        return false;
      if (
        exclude.length &&
        (scope.excludeHashtagsOperator === 'and' ? exclude.every((t) => tags.has(t)) : exclude.some((t) => tags.has(t)))
      )
        return false;
    }
    const chain = sharedLimited || personalIds.size ? kb.ancestors(node) : [];
    if (isPersonal(node)) {
      if (!personal || !owns(node, personal.userId)) return false;
      return personalIds.has(node.id) || chain.some((a) => personalIds.has(a.id));
    }
    if (!sharedLimited) return true;
    return sharedIds.has(node.id) || chain.some((a) => sharedIds.has(a.id) || names.has(normalizeText(a.name).trim()));
  };
}
