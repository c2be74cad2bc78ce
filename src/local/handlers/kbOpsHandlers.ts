// The operations from the service's public pages (docs/api.md#further-public-operations), exact:
//   GET    /webapi/v2/knowledge_base_nodes/{id}            → { result: node }
//   PUT    /webapi/v2/knowledge_base_nodes/{id}            { name?, hashtags?, properties? } → { result: node }
//   GET    /webapi/v2/knowledge_base_nodes/{id}/download   → the file, its Content-Type, attachment disposition
//   GET    /webapi/v2/knowledge_base_nodes/{id}/text       → { result: { pages: [{ pageNo, text }] } }
//   GET    /webapi/v2/ingestion_status/{id}                → { status, startedAt, endedAt, elapsed, steps: [...] }
//   POST   /webapi/toggle_documents                        { ids, status } → { result: { updated: [ids] } }
//   POST   /webapi/v2/folders                              { name, parentFolderId? } → { result: folder }
//   PUT    /webapi/v2/folders/{id}                         { name } → { result: folder }
//   DELETE /webapi/v2/folders/{id}                         → { result: { id, deletedDocuments, deletedFolders } }
//   GET    /webapi/hashtags                                → { result: { "<tag>": count } }
//   GET    /webapi/v2/projects                             → { result: { id, name, region: "local" } }
import { pipeline } from 'node:stream/promises';
import { Reply, type Handlers } from '../http/context';
import { HttpError, notFound } from '../http/errors';
import type { FaqStore } from '../faq/faqStore';
import type { BlobStore } from '../store/blobs';
import type { KbStore } from '../kb/kbStore';
import {
  createFolder,
  createFolderSchema,
  deleteFolder,
  renameSchema,
  requireDocument,
  requireNode,
  toggleDocuments,
  toggleSchema,
  updateNode,
  updateNodeSchema,
} from '../kb/kbEdits';
import { creatorFor, type NodeRecord } from '../kb/nodeRecord';
import { ingestionStatus } from '../kb/ingestion';
import type { Retrieval } from '../search/retrieval';
import { contentTypeOf } from './localDocsHandlers';

export interface KbOpsDeps {
  kb: KbStore;
  blobs: BlobStore;
  retrieval: Retrieval;
  /** The Q&As, whose hashtags count in the hashtags in use. */
  faqs: FaqStore;
  /** Deletes the stored files of removed documents that nothing uses any more. */
  releaseBlobs: (removed: NodeRecord[]) => Promise<void>;
}

/** RFC 6266 / 5987 attachment: a plain ASCII fallback plus the exact UTF-8 name. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function kbOpsHandlers(deps: KbOpsDeps): Handlers {
  const { kb } = deps;
  const wrap = (node: NodeRecord) => ({ result: kb.toApi(node) });
  return {
    'kbNodes.get': async (ctx) => wrap(requireNode(kb, ctx.params.node_id)),

    'kbNodes.update': async (ctx) => wrap(await updateNode(kb, ctx.params.node_id, await ctx.parse(updateNodeSchema))),

    'kbNodes.toggle': async (ctx) => ({ result: { updated: await toggleDocuments(kb, await ctx.parse(toggleSchema)) } }),

    'kbNodes.download': async (ctx) => {
      const node = requireDocument(kb, ctx.params.node_id);
      if (!node.blob || !deps.blobs.has(node.blob)) throw notFound(`The file of document ${node.id} is not stored`);
      const size = await deps.blobs.size(node.blob);
      ctx.res.writeHead(200, {
        'content-type': contentTypeOf(node.name),
        'content-length': String(size),
        'content-disposition': attachment(node.name),
        'x-content-type-options': 'nosniff',
      });
      await pipeline(deps.blobs.createReadStream(node.blob), ctx.res).catch(() => ctx.res.destroy());
      return Reply.handled();
    },

    'kbNodes.text': async (ctx) => {
      const node = requireDocument(kb, ctx.params.node_id);
      if (node.processState !== 'completed') {
        throw new HttpError(409, `Document ${node.id} has no text yet: its processing is ${node.processState ?? 'initializing'}`);
      }
      const extraction = await deps.retrieval.extraction(node);
      if (!extraction) throw notFound(`No extracted text for document ${node.id}`);
      return { result: { pages: extraction.pages.map((p) => ({ pageNo: p.pageNo, text: p.text })) } };
    },

    'kbNodes.ingestionStatus': async (ctx) => ingestionStatus(requireDocument(kb, ctx.params.node_id), Date.now()),

    'folders.create': async (ctx) => {
      const body = await ctx.parse(createFolderSchema);
      return wrap(await createFolder(kb, body, creatorFor(ctx.identity.agentEmail)));
    },

    'folders.rename': async (ctx) => wrap(await updateNode(kb, ctx.params.folder_id, await ctx.parse(renameSchema), true)),

    'folders.delete': async (ctx) => {
      const removed = await deleteFolder(kb, ctx.params.folder_id);
      await deps.releaseBlobs(removed);
      const documents = removed.filter((n) => n.nodeType === 'file').length;
      return { result: { id: ctx.params.folder_id, deletedDocuments: documents, deletedFolders: removed.length - documents } };
    },

    'hashtags.inUse': async () => {
      const counts = new Map<string, number>();
      const add = (tags: readonly string[] | undefined) => {
        for (const tag of new Set(tags ?? [])) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      };
      for (const node of kb.all()) if (node.nodeType === 'file') add(node.hashtags);
      for (const faq of deps.faqs.ordered()) add(faq.hashtags);
      const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      return { result: Object.fromEntries(sorted) };
    },

    'projects.current': async () => ({ result: { id: 'local', name: 'Knowledge Desk local service', region: 'local' } }),
  };
}
