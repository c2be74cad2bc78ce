// The parameters of the knowledge-base node operations (kbNodes.ts): listing, upload and the cloud uploads.
import type { AccessType, NodeOrder } from '../schemas/kbNodes';

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
  /** Cursor paging (seen second-hand): the `cursor` of the previous page. */
  after?: string;
}

/** The optional fields shared by upload and the cloud uploads (docs/api.md#upload). */
export interface UploadOptions {
  hashtags?: string[];
  targetFolderId?: string;
  isOverwrite?: boolean;
  isOverwriteFolderAccess?: boolean;
  useLayout?: boolean;
  useImageDescription?: boolean;
  useOcr?: boolean;
  accessPermissionGroups?: Array<{ permissionGroupId: string; accessType: AccessType }>;
  accessAgents?: Array<{ agentId: string; accessType: AccessType }>;
  accessUserFilters?: Array<{ variableName: 'CUSTOMER_ID' | 'CUSTOMER_GROUP'; value: string }>;
  viewAccessToAgent?: boolean;
  viewAccessToUser?: boolean;
  properties?: Array<{ key: string; value: string }>;
  notificationHooks?: Array<'email_on_ingestion_complete'>;
}

export interface UploadParams extends UploadOptions {
  /** Streamed from disk when the request is sent. */
  file: { path: string; contentType?: string } | { data: Uint8Array | string; contentType?: string };
  fileName: string;
}

export interface CloudStoreUpload extends UploadOptions {
  bucketObjectPath: string;
  fileName: string;
  cloudAccessKey?: string | null;
  cloudSecretKey?: string | null;
  cloudIamRoleArn?: string | null;
  cloudExternalId?: string | null;
}

export interface BlobStorageUpload extends UploadOptions {
  containerBlobPath: string;
  cloudBlobConnectionString: string;
  fileName: string;
}
