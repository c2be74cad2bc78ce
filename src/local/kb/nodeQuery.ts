import { normalizeHashtag } from '../../core/hashtags';
import { z } from 'zod';
import { NODE_ORDERS } from '../../core/kbWire';
import { notFound } from '../http/errors';
import type { KbStore } from './kbStore';
import type { NodeRecord } from './nodeRecord';

export const nodeSearchSchema = z.object({
  filter_: z
    .object({
      parentFolderIds: z.array(z.string().nullable()).min(1).default([null]),
      searchTerm: z.string().max(1000).optional(),
      hashtags: z.array(z.string()).optional(),
      hashtagsOperator: z.enum(['and', 'or']).default('or'),
      nodeType: z.array(z.enum(['file', 'folder'])).optional(),
    })
    .default({}),
  order: z.enum(NODE_ORDERS).nullish(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100).default(50),
});
export type NodeSearch = z.infer<typeof nodeSearchSchema>;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Lists children of the given folders, or — when a search term or hashtags are given — searches
 * their whole subtrees (our decision: a search box that only filtered one level would miss most
 * documents). Folders come before files; `order` sorts within each group (default name_asc).
 */
export function searchNodes(store: KbStore, query: NodeSearch): { nodes: NodeRecord[]; total: number } {
  const f = query.filter_;
  for (const id of f.parentFolderIds) {
    if (id !== null && store.get(id)?.nodeType !== 'folder') {
      throw notFound(`Folder not found: ${id}`);
    }
  }
  const deep = !!f.searchTerm?.trim() || !!f.hashtags?.length;
  const seen = new Set<string>();
  let candidates: NodeRecord[] = [];
  for (const parent of f.parentFolderIds) {
    for (const node of deep ? store.descendantsOf(parent) : store.childrenOf(parent)) {
      if (!seen.has(node.id)) {
        seen.add(node.id);
        candidates.push(node);
      }
    }
  }
  if (f.nodeType?.length) candidates = candidates.filter((n) => f.nodeType!.includes(n.nodeType));
  const term = f.searchTerm?.trim();
  if (term) {
    const words = fold(term).split(/\s+/).filter(Boolean);
    candidates = candidates.filter((n) => {
      const name = fold(n.name);
      return words.every((w) => name.includes(w));
    });
  }
  if (f.hashtags?.length) {
    const wanted = f.hashtags.map((h) => fold(normalizeHashtag(h)));
    candidates = candidates.filter((n) => {
      const tags = new Set((n.hashtags ?? []).map((h) => fold(normalizeHashtag(h))));
      return f.hashtagsOperator === 'and' ? wanted.every((t) => tags.has(t)) : wanted.some((t) => tags.has(t));
    });
  }
  candidates.sort(comparator(query.order ?? 'name_asc'));
  return { nodes: candidates.slice(query.offset, query.offset + query.limit), total: candidates.length };
}

function comparator(order: NonNullable<NodeSearch['order']>): (a: NodeRecord, b: NodeRecord) => number {
  const [field, direction] = [order.replace(/_(asc|desc)$/, ''), order.endsWith('_desc') ? -1 : 1];
  const key = (n: NodeRecord): number | string => (field === 'updated_at' ? n.updatedAt : field === 'created_at' ? n.createdAt : n.name);
  return (a, b) => {
    if (a.nodeType !== b.nodeType) return a.nodeType === 'folder' ? -1 : 1;
    const ka = key(a);
    const kb = key(b);
    const c = typeof ka === 'number' ? ka - (kb as number) : collator.compare(ka, kb as string);
    return (c || collator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1)) * direction;
  };
}
