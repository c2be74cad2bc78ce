import type { ApiClient, CallOptions } from '../client';
import { nodeSearchResponseSchema, type NodeOrder, type NodeSearchResult } from '../schemas/kbNodes';

export interface NodeSearchParams {
  /** Folders whose children are listed; `[null]` (the default) is the top level. */
  parentFolderIds?: Array<string | null>;
  searchTerm?: string;
  hashtags?: string[];
  hashtagsOperator?: 'and' | 'or';
  nodeType?: Array<'file' | 'folder'>;
  order?: NodeOrder;
  offset?: number;
  /** Page size, at most 100 (default 50). */
  limit?: number;
}

export class KbNodesResource {
  constructor(private readonly client: ApiClient) {}

  /** Lists or searches nodes (`POST /webapi/v2/knowledge_base_nodes/search`); read-only, so retried. */
  search(params: NodeSearchParams = {}, options?: CallOptions): Promise<NodeSearchResult> {
    const { parentFolderIds, searchTerm, hashtags, hashtagsOperator, nodeType, order, offset, limit } = params;
    const filter_: Record<string, unknown> = { parentFolderIds: parentFolderIds ?? [null] };
    if (searchTerm) filter_.searchTerm = searchTerm;
    if (hashtags?.length) filter_.hashtags = hashtags;
    if (hashtagsOperator) filter_.hashtagsOperator = hashtagsOperator;
    if (nodeType?.length) filter_.nodeType = nodeType;
    return this.client.request(
      {
        operation: 'kbNodes.search',
        method: 'POST',
        path: '/webapi/v2/knowledge_base_nodes/search',
        json: { filter_, order, offset, limit },
        schema: nodeSearchResponseSchema,
        idempotent: true,
      },
      options,
    );
  }
}
