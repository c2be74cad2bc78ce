// The local service's document routes (local region only; docs/api.md#local-only-routes): a document's stored
// file and its extracted page texts, for the citation viewer.
import { z } from 'zod';
import type { CallOptions, Requester } from '../requester';
import { endpoint } from '../endpoint';
import { getJson } from '../requestSpecs';

export interface LocalDocContent {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

export interface LocalDocPages {
  kind: string;
  estimatedPages: boolean;
  pages: Array<{ pageNo: number; text: string }>;
}

const pagesSchema = z
  .object({
    kind: z.string(),
    estimatedPages: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    pages: z.array(z.object({ pageNo: z.number().int(), text: z.string() }).passthrough()),
  })
  .passthrough();

export class LocalDocsResource {
  constructor(private readonly client: Requester) {}

  /** The stored file (whole, in memory) with its Content-Type and file name. 404 → NotFoundError. */
  async content(nodeId: string, options?: CallOptions): Promise<LocalDocContent> {
    const raw = await this.client.requestRaw({ ...endpoint('localDocs.content', { node_id: nodeId }), schema: z.unknown() }, options);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of raw.body) chunks.push(Buffer.from(chunk));
    } finally {
      raw.cancel();
    }
    const header = (name: string): string => {
      const v = raw.headers[name];
      return (Array.isArray(v) ? v[0] : v) ?? '';
    };
    return {
      bytes: Buffer.concat(chunks),
      contentType: header('content-type') || 'application/octet-stream',
      fileName: fileNameOf(header('content-disposition')),
    };
  }

  /** Page texts as extracted by the local service. 404 (unknown or not processed yet) → NotFoundError. */
  async pages(nodeId: string, options?: CallOptions): Promise<LocalDocPages> {
    const body = await this.client.request(getJson(endpoint('localDocs.pages', { node_id: nodeId }), pagesSchema), options);
    return { kind: body.kind, estimatedPages: body.estimatedPages, pages: body.pages.map((p) => ({ pageNo: p.pageNo, text: p.text })) };
  }
}

/** `filename*=UTF-8''…` (RFC 5987) when present, else the quoted `filename`, else ''. */
export function fileNameOf(disposition: string): string {
  const star = /filename\*\s*=\s*([^;]+)/i.exec(disposition)?.[1]?.trim();
  if (star) {
    const m = /^([\w-]+)'[^']*'(.*)$/.exec(star);
    try {
      if (m)
        return m[1].toLowerCase() === 'utf-8'
          ? decodeURIComponent(m[2])
          : m[2].replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    } catch {
      // malformed percent-encoding: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(disposition);
  if (!plain) return '';
  return plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
}
