// Local-only document routes (need the base key), for the citation viewer:
//   GET /_local/documents/{node_id}/content → the stored file, Content-Type by extension, shown inline;
//   GET /_local/documents/{node_id}/pages   → { kind, estimatedPages, pages: [{ pageNo, text }] }.
// Unknown nodes, folders and documents whose processing has not completed → 404.
import { pipeline } from 'node:stream/promises';
import { Reply, type Handlers } from '../http/context';
import { notFound } from '../http/errors';
import type { KbStore } from '../kb/kbStore';
import type { NodeRecord } from '../kb/nodeRecord';
import type { Retrieval } from '../search/retrieval';
import type { BlobStore } from '../store/blobs';

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  json: 'application/json',
};

export function contentTypeOf(fileName: string): string {
  const ext = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** RFC 6266 / 5987: a plain ASCII fallback plus the exact UTF-8 name. */
export function inlineDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface LocalDocsDeps {
  kb: KbStore;
  blobs: BlobStore;
  retrieval: Retrieval;
}

export function localDocsHandlers(deps: LocalDocsDeps): Handlers {
  const processed = (id: string): NodeRecord => {
    const node = deps.kb.get(id);
    if (!node || node.nodeType !== 'file' || node.processState !== 'completed' || !node.blob || !deps.blobs.has(node.blob)) {
      throw notFound(`No processed document ${id}`);
    }
    return node;
  };
  return {
    'localDocs.content': async (ctx) => {
      const node = processed(ctx.params.node_id);
      const size = await deps.blobs.size(node.blob!);
      ctx.res.writeHead(200, {
        'content-type': contentTypeOf(node.name),
        'content-length': String(size),
        'content-disposition': inlineDisposition(node.name),
        'x-content-type-options': 'nosniff',
        // A stored HTML file is shown as a document, never run as this origin's page.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
      });
      await pipeline(deps.blobs.createReadStream(node.blob!), ctx.res).catch(() => ctx.res.destroy());
      return Reply.handled();
    },

    'localDocs.pages': async (ctx) => {
      const node = processed(ctx.params.node_id);
      const extraction = await deps.retrieval.extraction(node);
      if (!extraction) throw notFound(`No extracted text for ${ctx.params.node_id}`);
      return {
        kind: extraction.kind,
        estimatedPages: extraction.estimatedPages ?? false,
        pages: extraction.pages.map((p) => ({ pageNo: p.pageNo, text: p.text })),
      };
    },
  };
}
