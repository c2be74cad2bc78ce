import { z } from 'zod';
import { epochMs, nullish } from './common';

// The client's callers take these from here; src/local takes them from src/core.
export { NODE_ORDERS, ACCESS_TYPES, type NodeOrder, type AccessType } from '../../core/kbWire';

export const PROCESS_STATES = [
  'initializing',
  'parsing',
  'parsing_fail',
  'completed',
  'retrying',
  'post_parsing',
  'post_parsing_fail',
  'post_completed',
  'post_retrying',
] as const;
export { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES, isFileNode } from '../values';
export const UPLOAD_ACTIONS = ['created', 'overwritten', 'skipped', 'suffix_added'] as const;

export type UploadAction = (typeof UPLOAD_ACTIONS)[number];

export const folderRefSchema = z.object({ id: z.string(), name: z.string() }).passthrough();

export const creatorSchema = z
  .object({
    id: z.string(),
    email: z.string().default(''),
    firstName: z.string().default(''),
    lastName: z.string().default(''),
  })
  .passthrough();

export const agentPermissionSchema = z
  .object({
    accessAgents: nullish(z.array(z.object({ agentId: z.string(), accessType: z.string() }).passthrough())),
    accessPermissionGroups: nullish(
      z.array(
        z.object({ permissionGroupId: z.string(), permissionGroupName: z.string().optional(), accessType: z.string() }).passthrough(),
      ),
    ),
    viewAccessToAgent: z.boolean(),
  })
  .passthrough();

export const userPermissionSchema = z
  .object({
    ownUserIds: nullish(z.array(z.string())),
    customerGroups: nullish(z.array(z.string())),
    viewAccessToUser: z.boolean(),
  })
  .passthrough();

const nodeFields = {
  id: z.string(),
  name: z.string(),
  createdAt: epochMs,
  createdBy: nullish(creatorSchema),
  updatedAt: epochMs,
  parentFolder: nullish(folderRefSchema),
  breadcrumbs: z.array(folderRefSchema),
  agentPermission: agentPermissionSchema,
  userPermission: userPermissionSchema,
  sourceType: nullish(z.string()),
};

export const folderNodeSchema = z.object({ ...nodeFields, nodeType: z.string() }).passthrough();

export const fileNodeSchema = z
  .object({
    ...nodeFields,
    nodeType: z.literal('file'),
    piiDetected: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    hashtags: z.array(z.string()),
    status: z.string(),
    size: z.number(),
    processState: z.string(),
    properties: nullish(z.array(z.object({ key: z.string(), value: z.string() }).passthrough())),
    action: nullish(z.string()),
  })
  .passthrough();

export type FolderNode = z.infer<typeof folderNodeSchema>;
export type FileNode = z.infer<typeof fileNodeSchema>;
export type KbNode = FileNode | FolderNode;

/**
 * Dispatches on nodeType instead of a union: a file node missing a file field must be reported as
 * such, not silently accepted as a folder (nodeType values other than file are treated as folders).
 */
export const kbNodeSchema: z.ZodType<KbNode, z.ZodTypeDef, unknown> = z.unknown().transform((value, ctx) => {
  const schema = (value as { nodeType?: unknown } | null)?.nodeType === 'file' ? fileNodeSchema : folderNodeSchema;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as KbNode;
  for (const issue of parsed.error.issues) ctx.addIssue(issue);
  return z.NEVER;
});

export const nodeWrapperSchema = z.object({ result: kbNodeSchema }).passthrough();

/**
 * Search response, normalised. Ours is `{result: {nodes, total}}`; third-party code has seen
 * `result` as the array itself and the keys `items` / `knowledgeBaseNodes` (docs/api.md#list-and-search-nodes).
 */
export const nodeSearchResponseSchema = z.preprocess(
  (body) => {
    const root = (body as { result?: unknown })?.result ?? body;
    if (Array.isArray(root)) return { nodes: root };
    if (root && typeof root === 'object') {
      const r = root as Record<string, unknown>;
      const nodes = r.nodes ?? r.items ?? r.knowledgeBaseNodes;
      const total = r.total ?? r.totalCount ?? r.total_count ?? r.count;
      return { nodes, total };
    }
    return root;
  },
  z.object({ nodes: z.array(kbNodeSchema), total: z.number().int().nonnegative().optional() }),
);
export type NodeSearchResult = z.infer<typeof nodeSearchResponseSchema>;

/** Upload answers with an array of wrappers; a single wrapper or `{result: [...]}` is read too. */
export const uploadResponseSchema = z.preprocess(
  (body) => {
    if (Array.isArray(body)) return body.map((w) => (w as { result?: unknown })?.result ?? w);
    const root = (body as { result?: unknown })?.result;
    if (Array.isArray(root)) return root.map((w) => (w as { result?: unknown })?.result ?? w);
    return root === undefined ? body : [root];
  },
  z.array(kbNodeSchema).min(1, 'should hold at least one node'),
);

export const moveResultSchema = z.preprocess(
  (body) => (body as { result?: unknown })?.result ?? body,
  z.object({ moved_kb_node_ids: z.array(z.string()), failed_kb_node_ids: z.array(z.string()) }).passthrough(),
);
export type MoveResult = z.infer<typeof moveResultSchema>;
