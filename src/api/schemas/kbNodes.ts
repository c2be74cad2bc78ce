import { z } from 'zod';
import { epochMs, listOf, nullish, textOr } from './common';

// The client's callers take these from here; src/local takes them from src/core.
export { NODE_ORDERS, ACCESS_TYPES, type NodeOrder, type AccessType } from '../../core/kbWire';

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

// Every node schema accepts a node with only an id, a name and a type (the public upload example has
// no permissions, hashtags, status, size or processState): missing fields get defaults, and
// `unknownFields` names them so the UI can show "unknown" instead of the default (docs/api.md#node-shape).
const UNKNOWN_TIME = 0;
const defaultAgentPermission = () => ({ accessAgents: undefined, accessPermissionGroups: undefined, viewAccessToAgent: false });
const defaultUserPermission = () => ({ ownUserIds: undefined, customerGroups: undefined, viewAccessToUser: false });

const nodeFields = {
  id: z.string(),
  name: z.string(),
  createdAt: epochMs.default(UNKNOWN_TIME),
  createdBy: nullish(creatorSchema),
  updatedAt: epochMs.default(UNKNOWN_TIME),
  parentFolder: nullish(folderRefSchema),
  breadcrumbs: listOf(folderRefSchema),
  agentPermission: agentPermissionSchema.nullish().transform((v) => v ?? defaultAgentPermission()),
  userPermission: userPermissionSchema.nullish().transform((v) => v ?? defaultUserPermission()),
  sourceType: nullish(z.string()),
  /** Fields the service left out and that hold a default here; the UI shows them as unknown. Filled by the client. */
  unknownFields: z.array(z.string()).default([]),
};

/** Process state given to a file node the service sent without one (not final: the watcher keeps asking). */
export const UNKNOWN_PROCESS_STATE = 'unknown';

export const folderNodeSchema = z.object({ ...nodeFields, nodeType: z.string() }).passthrough();

export const fileNodeSchema = z
  .object({
    ...nodeFields,
    nodeType: z.literal('file'),
    piiDetected: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    hashtags: listOf(z.string()),
    status: textOr('on'),
    size: z
      .number()
      .nullish()
      .transform((v) => v ?? 0),
    processState: z
      .string()
      .nullish()
      .transform((v) => v ?? UNKNOWN_PROCESS_STATE),
    properties: nullish(z.array(z.object({ key: z.string(), value: z.string() }).passthrough())),
    action: nullish(z.string()),
  })
  .passthrough();

const DEFAULTED_FIELDS = {
  common: ['createdAt', 'updatedAt', 'breadcrumbs', 'agentPermission', 'userPermission'],
  file: ['hashtags', 'status', 'size', 'processState'],
} as const;

export type FolderNode = z.infer<typeof folderNodeSchema>;
export type FileNode = z.infer<typeof fileNodeSchema>;
export type KbNode = FileNode | FolderNode;

/**
 * Dispatches on nodeType instead of a union: a file node missing a file field must be reported as
 * such, not silently accepted as a folder (nodeType values other than file are treated as folders).
 */
export const kbNodeSchema: z.ZodType<KbNode, z.ZodTypeDef, unknown> = z.unknown().transform((value, ctx) => {
  // `type` is read as `nodeType` when the latter is missing (a shape seen in third-party code).
  const raw = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const input = raw && raw.nodeType == null && typeof raw.type === 'string' ? { ...raw, nodeType: raw.type } : value;
  const isFile = (input as { nodeType?: unknown } | null)?.nodeType === 'file';
  const parsed = (isFile ? fileNodeSchema : folderNodeSchema).safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue(issue);
    return z.NEVER;
  }
  const fields = [...DEFAULTED_FIELDS.common, ...(isFile ? DEFAULTED_FIELDS.file : [])];
  const unknownFields = fields.filter((f) => (input as Record<string, unknown>)[f] == null);
  return { ...parsed.data, unknownFields } as KbNode;
});

export const nodeWrapperSchema = z.object({ result: kbNodeSchema }).passthrough();

/**
 * Search response, normalised. Ours is `{result: {nodes, total}}`; third-party code has seen
 * `result` as the array itself, the keys `items` / `knowledgeBaseNodes`, a top-level `nodes`, and cursor
 * paging: a `cursor` next to the nodes or on each node (docs/api.md#list-and-search-nodes). `cursor` is the
 * value to send as `after` for the next page: the page's own cursor, else the last node's.
 */
export const nodeSearchResponseSchema = z.preprocess(
  (body) => {
    const outer = body as Record<string, unknown> | undefined;
    const root = outer?.result ?? (outer && typeof outer === 'object' && 'nodes' in outer ? outer : undefined) ?? body;
    const pageCursor = (r: Record<string, unknown> | undefined) => r?.cursor ?? r?.nextCursor ?? r?.endCursor ?? r?.after;
    const withCursor = (nodes: unknown, own: unknown) => {
      const last = Array.isArray(nodes) && nodes.length ? (nodes[nodes.length - 1] as { cursor?: unknown })?.cursor : undefined;
      return own ?? pageCursor(outer && outer !== root ? outer : undefined) ?? last ?? undefined;
    };
    if (Array.isArray(root)) return { nodes: root, cursor: withCursor(root, undefined) };
    if (root && typeof root === 'object') {
      const r = root as Record<string, unknown>;
      const nodes = r.nodes ?? r.items ?? r.knowledgeBaseNodes;
      const total = r.total ?? r.totalCount ?? r.total_count ?? r.count;
      return { nodes, total, cursor: withCursor(nodes, pageCursor(r)) };
    }
    return root;
  },
  z
    .object({
      nodes: z.array(kbNodeSchema),
      total: z.number().int().nonnegative().nullish(),
      cursor: z.union([z.string(), z.number()]).nullish(),
    })
    .transform(({ nodes, total, cursor }) => {
      // Keys only when present, as before cursors were read.
      const page: { nodes: KbNode[]; total?: number; cursor?: string } = { nodes };
      if (total !== null && total !== undefined) page.total = total;
      if (cursor !== null && cursor !== undefined && cursor !== '') page.cursor = String(cursor);
      return page;
    }),
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
