// How the local service stores a knowledge base node, and how it presents one (docs/api.md#node-shape).
// Breadcrumbs and parentFolder are computed from the parent chain at read time, so a move can
// never leave them stale.

export interface Creator {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface AgentPermission {
  accessAgents: Array<{ agentId: string; accessType: string }> | null;
  accessPermissionGroups: Array<{ permissionGroupId: string; permissionGroupName: string; accessType: string }> | null;
  viewAccessToAgent: boolean;
}

export interface UserPermission {
  ownUserIds: string[] | null;
  customerGroups: string[] | null;
  viewAccessToUser: boolean;
}

export interface NodeRecord {
  id: string;
  name: string;
  nodeType: 'file' | 'folder';
  parentId: string | null;
  createdAt: number;
  updatedAt: number;
  createdBy: Creator | null;
  agentPermission: AgentPermission;
  userPermission: UserPermission;
  sourceType: string | null;
  // files only
  hashtags?: string[];
  status?: 'on' | 'off';
  size?: number;
  processState?: string;
  /** Why processing failed (parsing_fail), for the UI. */
  processError?: string;
  properties?: Array<{ key: string; value: string }> | null;
  piiDetected?: boolean;
  /** sha256 of the content in the blob store. */
  blob?: string;
  mimeType?: string;
  pageCount?: number;
  /** sha256 of the extraction (pages as JSON) in the blob store, once processing completed. */
  textBlob?: string;
  /** Processing steps (ingestion_status): when the content arrived, extraction started and ended (epoch ms). */
  ingestQueuedAt?: number;
  ingestStartedAt?: number;
  ingestEndedAt?: number;
  /** When answer feedback on this document was last reset (replace with resetClueFeedbacks). */
  clueFeedbackResetAt?: number;
}

export type ApiNode = Record<string, unknown>;

export function defaultAgentPermission(): AgentPermission {
  return { accessAgents: null, accessPermissionGroups: null, viewAccessToAgent: false };
}

export function defaultUserPermission(): UserPermission {
  return { ownUserIds: null, customerGroups: null, viewAccessToUser: false };
}

/** AGENT-EMAIL → creator object; no agent header → null. */
export function creatorFor(agentEmail: string | undefined): Creator | null {
  if (!agentEmail) return null;
  const local = agentEmail.split('@')[0] ?? agentEmail;
  const [first, ...rest] = local.split(/[._-]/);
  return {
    id: `agent-${Buffer.from(agentEmail.toLowerCase()).toString('base64url')}`,
    email: agentEmail,
    firstName: capitalize(first ?? local),
    lastName: capitalize(rest.join(' ')),
  };
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : '';
}

export function toApiNode(record: NodeRecord, ancestors: Array<{ id: string; name: string }>, action?: string): ApiNode {
  const parent = ancestors.length ? ancestors[ancestors.length - 1] : null;
  const node: ApiNode = {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
    nodeType: record.nodeType,
    parentFolder: parent,
    breadcrumbs: ancestors,
    agentPermission: record.agentPermission,
    userPermission: record.userPermission,
    sourceType: record.sourceType,
  };
  if (record.nodeType === 'file') {
    node.piiDetected = record.piiDetected ?? false;
    node.hashtags = record.hashtags ?? [];
    node.status = record.status ?? 'on';
    node.size = record.size ?? 0;
    node.processState = record.processState ?? 'initializing';
    node.properties = record.properties ?? null;
    node.action = action ?? null;
    // A local extra (the service has no reason field): lets the extension say why processing failed.
    if (record.processError) node.processError = record.processError;
  }
  return node;
}
