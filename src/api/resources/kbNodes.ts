import { z } from 'zod';
import type { CallOptions, Requester } from '../requester';
import { endpoint, endpointAlias, type Endpoint } from '../endpoint';
import { deleteEmpty, sendJson } from '../requestSpecs';
import { DeleteNotSupportedError, NotFoundError, OperationNotOfferedError } from '../errors';
import {
  ingestionStatusSchema,
  pageTextSchema,
  toggleResultSchema,
  type IngestionStatus,
  type NodeDownload,
  type NodeUpdate,
  type PageText,
  type ToggleResult,
} from '../schemas/kbOps';
import { listAllNodes, searchPages, type ListAllOptions, type PageInfo } from './kbPaging';
import { fileNameOf } from './localDocs';
import type { FilePart } from '../multipart';
import {
  moveResultSchema,
  nodeSearchResponseSchema,
  nodeWrapperSchema,
  uploadResponseSchema,
  type KbNode,
  type MoveResult,
  type NodeSearchResult,
} from '../schemas/kbNodes';
import type { BlobStorageUpload, CloudStoreUpload, NodeSearchParams, UploadParams } from './kbNodeParams';

/** Blob-storage upload: the path seen second-hand, then our older guess on 404 (docs/api.md#upload-from-blob-storage). */
export const DEFAULT_BLOB_STORAGE_PATH = endpoint('kbNodes.uploadFromBlobStorage').path;
export const FALLBACK_BLOB_STORAGE_PATH = endpointAlias('kbNodes.uploadFromBlobStorage', 0).path;

function filePart(
  file: UploadParams['file'],
  fileName: string,
): FilePart | { kind: 'buffer'; data: Uint8Array | string; fileName: string; contentType?: string } {
  return 'path' in file
    ? { kind: 'file', path: file.path, fileName, contentType: file.contentType }
    : { kind: 'buffer', data: file.data, fileName, contentType: file.contentType };
}

export class KbNodesResource {
  constructor(private readonly client: Requester) {}

  /** Lists or searches nodes (`POST …/knowledge_base_nodes/search`); read-only, so retried. */
  search(params: NodeSearchParams = {}, options?: CallOptions): Promise<NodeSearchResult> {
    const { parentFolderIds, searchTerm, hashtags, hashtagsOperator, nodeType, order, offset, limit, after } = params;
    const filter_: Record<string, unknown> = { parentFolderIds: parentFolderIds ?? [null] };
    if (searchTerm) filter_.searchTerm = searchTerm;
    if (hashtags?.length) filter_.hashtags = hashtags;
    if (hashtagsOperator) filter_.hashtagsOperator = hashtagsOperator;
    if (nodeType?.length) filter_.nodeType = nodeType;
    return this.client.request(
      sendJson(
        endpoint('kbNodes.search'),
        after !== undefined ? { filter_, order, limit, after } : { filter_, order, offset, limit },
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
        ...endpoint('kbNodes.upload'),
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
        ...endpoint('kbNodes.replace', { node_id: nodeId }),
        multipart: { file: filePart(file, file.fileName), resetClueFeedbacks: params.resetClueFeedbacks },
        schema: nodeWrapperSchema,
      },
      options,
    );
    return body.result;
  }

  async uploadFromCloudStore(body: CloudStoreUpload, options?: CallOptions): Promise<KbNode> {
    const res = await this.client.request(sendJson(endpoint('kbNodes.uploadFromCloudStore'), body, nodeWrapperSchema), options);
    return res.result;
  }

  /**
   * Upload from cloud blob storage. Path: `options.path` (the setting) when given, else `upload_from_azure_blob`
   * and, if the deployment answers 404 there, the older `upload_from_blob_storage` (docs/api.md#upload-from-blob-storage).
   */
  async uploadFromBlobStorage(body: BlobStorageUpload, options?: CallOptions & { path?: string }): Promise<KbNode> {
    const send = (at: Endpoint) => this.client.request(sendJson(at, body, nodeWrapperSchema), options);
    // A path from the setting replaces the table's: it names the deployment's own route for this operation.
    if (options?.path) return (await send({ ...endpoint('kbNodes.uploadFromBlobStorage'), path: options.path })).result;
    try {
      return (await send(endpoint('kbNodes.uploadFromBlobStorage'))).result;
    } catch (error) {
      if (!(error instanceof NotFoundError) || String(error.message).includes(body.containerBlobPath)) throw error;
      return (await send(endpointAlias('kbNodes.uploadFromBlobStorage', 0))).result;
    }
  }

  moveBulk(
    body: { targetFolderId: string | null; nodeIds: string[]; keepCurrentPermission: boolean },
    options?: CallOptions,
  ): Promise<MoveResult> {
    return this.client.request(sendJson(endpoint('kbNodes.moveBulk'), body, moveResultSchema, { idempotent: true }), options);
  }

  /** Deletes a node (a folder with its contents). Throws DeleteNotSupportedError where the deployment has no delete. */
  async delete(nodeId: string, options?: CallOptions): Promise<void> {
    try {
      await this.client.requestOptional(deleteEmpty(endpoint('kbNodes.delete', { node_id: nodeId })), options, {
        ids: [nodeId],
      });
    } catch (error) {
      if (error instanceof OperationNotOfferedError) throw new DeleteNotSupportedError();
      throw error;
    }
  }

  /** Every page of a listing, whatever paging the deployment uses (kbPaging.ts); never loops on a deployment ignoring offset. */
  pages(params: Omit<NodeSearchParams, 'offset' | 'limit' | 'after'> = {}, options?: ListAllOptions): AsyncGenerator<PageInfo> {
    return searchPages((p, o) => this.search(p as NodeSearchParams, o), params, options);
  }

  /** All nodes of a listing (every page), each once, at most `options.maxNodes` (default 10,000). */
  listAll(params: Omit<NodeSearchParams, 'offset' | 'limit' | 'after'> = {}, options?: ListAllOptions): Promise<KbNode[]> {
    return listAllNodes((p, o) => this.search(p as NodeSearchParams, o), params, options);
  }

  /** One node (`GET …/knowledge_base_nodes/{id}`). Unknown id → NotFoundError; route missing → OperationNotOfferedError. */
  async get(nodeId: string, options?: CallOptions): Promise<KbNode> {
    const body = await this.client.requestOptional(
      { ...endpoint('kbNodes.get', { node_id: nodeId }), schema: nodeWrapperSchema },
      options,
      { ids: [nodeId] },
    );
    return body.result;
  }

  /**
   * Updates a node's name, hashtags or properties (only the fields given change; `PUT …/knowledge_base_nodes/{id}`).
   * Renaming keeps the id; a folder's contents follow. Hashtags are sent without `#`.
   */
  async update(nodeId: string, patch: NodeUpdate, options?: CallOptions): Promise<KbNode> {
    const body = await this.client.requestOptional(
      {
        ...endpoint('kbNodes.update', { node_id: nodeId }),
        json: patch,
        schema: nodeWrapperSchema,
      },
      options,
      { ids: [nodeId] },
    );
    return body.result;
  }

  /** Replaces a document's hashtags (the node update operation). */
  setHashtags(nodeId: string, hashtags: string[], options?: CallOptions): Promise<KbNode> {
    return this.update(nodeId, { hashtags }, options);
  }

  /**
   * Turns documents on or off (`POST /webapi/toggle_documents`). An off document stays in the tree and is not
   * used in retrieval or answers. Returns the ids the service reports as updated.
   */
  async toggle(ids: readonly string[], status: 'on' | 'off', options?: CallOptions): Promise<ToggleResult> {
    return this.client.requestOptional(
      {
        ...endpoint('kbNodes.toggle'),
        json: { ids, status },
        schema: toggleResultSchema,
        idempotent: true,
      },
      options,
      { ids },
    );
  }

  /**
   * Streams the original file (`GET …/{id}/download`). Read `body` to the end or call `cancel()`; the signal
   * aborts it mid-way. Retried only before the first byte.
   */
  async download(nodeId: string, options?: CallOptions): Promise<NodeDownload> {
    const raw = await this.client.requestRawOptional(
      { ...endpoint('kbNodes.download', { node_id: nodeId }), schema: z.unknown() },
      options,
      { ids: [nodeId] },
    );
    const header = (name: string): string => {
      const v = raw.headers[name];
      return (Array.isArray(v) ? v[0] : v) ?? '';
    };
    const length = Number(header('content-length'));
    return {
      contentType: header('content-type') || 'application/octet-stream',
      fileName: fileNameOf(header('content-disposition')),
      size: header('content-length') !== '' && Number.isFinite(length) ? length : undefined,
      body: raw.body,
      cancel: raw.cancel,
    };
  }

  /** The parsed text of a document, per page (`GET …/{id}/text`). */
  async text(nodeId: string, options?: CallOptions): Promise<PageText[]> {
    return this.client.requestOptional({ ...endpoint('kbNodes.text', { node_id: nodeId }), schema: pageTextSchema }, options, {
      ids: [nodeId],
    });
  }

  /** Processing steps of a document (`GET /webapi/v2/ingestion_status/{id}`). */
  ingestionStatus(nodeId: string, options?: CallOptions): Promise<IngestionStatus> {
    return this.client.requestOptional(
      {
        ...endpoint('kbNodes.ingestionStatus', { node_id: nodeId }),
        schema: ingestionStatusSchema,
      },
      options,
      { ids: [nodeId] },
    );
  }
}
