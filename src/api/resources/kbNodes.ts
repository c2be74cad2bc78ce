import type { ApiClient, CallOptions } from '../client';
import { deleteEmpty, sendJson } from '../requestSpecs';
import { MethodNotAllowedError, NotFoundError } from '../errors';
import type { FilePart } from '../multipart';
import {
  moveResultSchema,
  nodeSearchResponseSchema,
  nodeWrapperSchema,
  uploadResponseSchema,
  type AccessType,
  type KbNode,
  type MoveResult,
  type NodeOrder,
  type NodeSearchResult,
} from '../schemas/kbNodes';
import { path } from '../url';

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

import { DeleteNotSupportedError } from '../values';
export { DeleteNotSupportedError };

export const DEFAULT_BLOB_STORAGE_PATH = '/webapi/v2/knowledge_base_nodes/upload_from_blob_storage';

function filePart(
  file: UploadParams['file'],
  fileName: string,
): FilePart | { kind: 'buffer'; data: Uint8Array | string; fileName: string; contentType?: string } {
  return 'path' in file
    ? { kind: 'file', path: file.path, fileName, contentType: file.contentType }
    : { kind: 'buffer', data: file.data, fileName, contentType: file.contentType };
}

export class KbNodesResource {
  constructor(private readonly client: ApiClient) {}

  /** Lists or searches nodes (`POST …/knowledge_base_nodes/search`); read-only, so retried. */
  search(params: NodeSearchParams = {}, options?: CallOptions): Promise<NodeSearchResult> {
    const { parentFolderIds, searchTerm, hashtags, hashtagsOperator, nodeType, order, offset, limit } = params;
    const filter_: Record<string, unknown> = { parentFolderIds: parentFolderIds ?? [null] };
    if (searchTerm) filter_.searchTerm = searchTerm;
    if (hashtags?.length) filter_.hashtags = hashtags;
    if (hashtagsOperator) filter_.hashtagsOperator = hashtagsOperator;
    if (nodeType?.length) filter_.nodeType = nodeType;
    return this.client.request(
      sendJson(
        'kbNodes.search',
        'POST',
        '/webapi/v2/knowledge_base_nodes/search',
        { filter_, order, offset, limit },
        nodeSearchResponseSchema,
        { idempotent: true },
      ),
      options,
    );
  }

  /**
   * Uploads a document; returns one node per created node (a ZIP creates a folder and its entries).
   * Resent after a failure only with isOverwrite: an identical file then comes back `skipped`,
   * whereas without it a same-named file could be copied again with a suffix.
   */
  upload(params: UploadParams, options?: CallOptions): Promise<KbNode[]> {
    const { file, ...fields } = params;
    return this.client.request(
      {
        operation: 'kbNodes.upload',
        method: 'POST',
        path: '/webapi/v2/knowledge_base_nodes/upload',
        multipart: { file: filePart(file, params.fileName), ...fields },
        schema: uploadResponseSchema,
        idempotent: params.isOverwrite === true && !/\.zip$/i.test(params.fileName),
      },
      options,
    );
  }

  /** Replaces a document's file, keeping its metadata. */
  async replace(
    nodeId: string,
    file: UploadParams['file'] & { fileName: string },
    params: { resetClueFeedbacks?: boolean } = {},
    options?: CallOptions,
  ): Promise<KbNode> {
    const body = await this.client.request(
      {
        operation: 'kbNodes.replace',
        method: 'POST',
        path: path`/webapi/v2/knowledge_base_nodes/${nodeId}/replace`,
        multipart: { file: filePart(file, file.fileName), resetClueFeedbacks: params.resetClueFeedbacks },
        schema: nodeWrapperSchema,
      },
      options,
    );
    return body.result;
  }

  async uploadFromCloudStore(body: CloudStoreUpload, options?: CallOptions): Promise<KbNode> {
    const res = await this.client.request(
      sendJson('kbNodes.uploadFromCloudStore', 'POST', '/webapi/v2/knowledge_base_nodes/upload_from_cloud_store', body, nodeWrapperSchema),
      options,
    );
    return res.result;
  }

  /** The service does not document this path; ours is a default a setting can override (docs/api.md#upload-from-blob-storage). */
  async uploadFromBlobStorage(body: BlobStorageUpload, options?: CallOptions & { path?: string }): Promise<KbNode> {
    const res = await this.client.request(
      sendJson('kbNodes.uploadFromBlobStorage', 'POST', options?.path || DEFAULT_BLOB_STORAGE_PATH, body, nodeWrapperSchema),
      options,
    );
    return res.result;
  }

  moveBulk(
    body: { targetFolderId: string | null; nodeIds: string[]; keepCurrentPermission: boolean },
    options?: CallOptions,
  ): Promise<MoveResult> {
    return this.client.request(
      sendJson('kbNodes.moveBulk', 'POST', '/webapi/v2/knowledge_base_nodes/move/bulk', body, moveResultSchema, { idempotent: true }),
      options,
    );
  }

  /** Deletes a node (a folder with its contents). Throws DeleteNotSupportedError where the deployment has no delete. */
  async delete(nodeId: string, options?: CallOptions): Promise<void> {
    try {
      await this.client.request(deleteEmpty('kbNodes.delete', path`/webapi/v2/knowledge_base_nodes/${nodeId}`), options);
    } catch (error) {
      if (error instanceof MethodNotAllowedError) throw new DeleteNotSupportedError();
      // A 404 that does not name the node means the route itself is missing.
      if (error instanceof NotFoundError && !String(error.message).includes(nodeId)) throw new DeleteNotSupportedError();
      throw error;
    }
  }
}
