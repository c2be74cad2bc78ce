import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { Reply, type Handlers, type RequestContext } from '../http/context';
import { badRequest, notFound, parseOrBadRequest } from '../http/errors';
import { fetchFileUrl } from '../kb/cloudSource';
import { deleteNode, moveNodes } from '../kb/kbMoves';
import type { KbService, Outcome } from '../kb/kbService';
import { creatorFor, type NodeRecord } from '../kb/nodeRecord';
import { nodeSearchSchema, searchNodes } from '../kb/nodeQuery';
import { blobStorageBodySchema, cloudStoreBodySchema, fieldsToObject, uploadOptionsSchema } from '../kb/uploadOptions';
import type { BlobStore } from '../store/blobs';

const moveSchema = z.object({
  targetFolderId: z.string().min(1).nullable(),
  nodeIds: z.array(z.string().min(1)).min(1).max(10_000),
  keepCurrentPermission: z.boolean(),
});

export interface KbHandlerDeps {
  kb: KbService;
  blobs: BlobStore;
  allowedRoots: () => readonly string[];
  maxUploadBytes: number;
  /** Whether any record (a node, a job) still names the blob: checked again at the moment of deletion. */
  isBlobUsed: (hash: string) => boolean;
}

export function kbHandlers(deps: KbHandlerDeps): Handlers {
  const { kb, blobs } = deps;
  const store = kb.store;
  const wrap = (o: Outcome): { result: Record<string, unknown> } => ({ result: store.toApi(o.node, o.action) });

  async function singleFile(ctx: RequestContext) {
    const { fields, files } = await ctx.multipart({ maxFiles: 1 });
    const file = files.find((f) => f.field === 'file');
    try {
      if (!file) throw badRequest('file: a file part named "file" is required', 'file');
      return { fields, file };
    } catch (error) {
      await Promise.all(files.map((f) => rm(f.tempPath, { force: true })));
      throw error;
    }
  }

  async function fromCloud(
    ctx: RequestContext,
    schema: typeof cloudStoreBodySchema | typeof blobStorageBodySchema,
    field: 'bucketObjectPath' | 'containerBlobPath',
  ) {
    const body = (await ctx.parse(schema)) as z.infer<typeof cloudStoreBodySchema> & z.infer<typeof blobStorageBodySchema>;
    kb.folderOrRoot(body.targetFolderId);
    const incoming = await fetchFileUrl(body[field], field, deps.allowedRoots(), deps.maxUploadBytes, blobs.tempPath());
    const outcomes = await kb.upload({
      ...incoming,
      options: body,
      creator: creatorFor(ctx.identity.agentEmail),
      sourceType: field === 'bucketObjectPath' ? 'cloud_store' : 'blob_storage',
    });
    // One wrapper (docs/api.md#upload-from-a-cloud-store); for a ZIP that is the folder it created.
    return wrap(outcomes[0]);
  }

  return {
    'kbNodes.search': async (ctx) => {
      const query = await ctx.parse(nodeSearchSchema);
      const { nodes, total } = searchNodes(store, query);
      return { result: { nodes: nodes.map((n) => store.toApi(n)), total } };
    },

    'kbNodes.upload': async (ctx) => {
      const { fields, file } = await singleFile(ctx);
      let options;
      try {
        options = parseOrBadRequest(uploadOptionsSchema, fieldsToObject(fields));
      } catch (error) {
        await rm(file.tempPath, { force: true });
        throw error;
      }
      const outcomes = await kb.upload({
        ...file,
        options,
        creator: creatorFor(ctx.identity.agentEmail),
        sourceType: 'upload',
        signal: ctx.signal,
      });
      return outcomes.map(wrap);
    },

    'kbNodes.replace': async (ctx) => {
      const { fields, file } = await singleFile(ctx);
      let reset = false;
      try {
        reset = (fieldsToObject(fields).resetClueFeedbacks as boolean | undefined) ?? false;
      } catch (error) {
        await rm(file.tempPath, { force: true });
        throw error;
      }
      const node = await kb.replace(ctx.params.node_id, file, { resetClueFeedbacks: reset });
      return { result: store.toApi(node) };
    },

    'kbNodes.moveBulk': async (ctx) => {
      const body = await ctx.parse(moveSchema);
      const target = kb.folderOrRoot(body.targetFolderId);
      return moveNodes(store, target, body.nodeIds, body.keepCurrentPermission);
    },

    'kbNodes.delete': async (ctx) => {
      const removed = await deleteNode(store, ctx.params.node_id);
      if (!removed) throw notFound(`Node not found: ${ctx.params.node_id}`);
      await releaseBlobs(removed, blobs, deps.isBlobUsed);
      return Reply.text('', 'application/json; charset=utf-8');
    },

    'kbNodes.uploadFromCloudStore': (ctx) => fromCloud(ctx, cloudStoreBodySchema, 'bucketObjectPath'),
    'kbNodes.uploadFromBlobStorage': (ctx) => fromCloud(ctx, blobStorageBodySchema, 'containerBlobPath'),
  };
}

/**
 * Deletes the stored files of removed documents that nothing uses any more. Whether a file is used is
 * decided when it is deleted, not before the awaits: an upload of the same content may land meanwhile.
 */
export async function releaseBlobs(removed: NodeRecord[], blobs: BlobStore, isUsed: (hash: string) => boolean): Promise<void> {
  const hashes = new Set(removed.flatMap((n) => [n.blob, n.textBlob]).filter((h): h is string => !!h));
  for (const hash of hashes) await blobs.delete(hash, () => !isUsed(hash)).catch(() => undefined);
}
