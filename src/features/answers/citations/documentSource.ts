// What the citation viewer shows for a target, per region, with the fallbacks:
//   Local:  the document from the local service (GET /_local/documents/{id}/pages, …/content):
//           a PDF with the service's highlight boxes, anything else as text with the passage marked.
//   Remote: no document download yet (docs/api.md#download-the-original-and-the-parsed-text: the client has it, the viewer does not use it yet). The answer's `pdfPreview` (https only, fetched
//           here in the host, without the API key), else the page number and the passage text.
// Pure of vscode: unit-tested in Node with fakes.
import type { Region } from '../../../core/regions';
import type { Highlight } from '../../../api/schemas/answers';
import { MAX_PDF_BYTES, MAX_TEXT_CHARS, type CitationTarget, type DocumentView, type WireBBox } from './protocol';

export interface LocalDocument {
  bytes: Uint8Array;
  contentType: string;
  fileName: string;
}

export interface LocalPages {
  kind: string;
  estimatedPages?: boolean | number;
  pages: Array<{ pageNo: number; text: string }>;
}

/** `client.localDocs` (Local region only): the stored file and its extracted pages. */
export interface LocalDocsApi {
  content(nodeId: string): Promise<LocalDocument>;
  pages(nodeId: string): Promise<LocalPages>;
}

export interface SourceClient {
  answers: {
    highlightsForClue(clueId: string): Promise<Highlight>;
    highlightForRetrieval(body: {
      kbId: string;
      pageNo: number;
      subTextIndex?: number;
      passageText?: string;
      question?: string;
      answer?: string;
    }): Promise<Highlight>;
  };
  localDocs?: LocalDocsApi;
}

export interface DocumentSourceDeps {
  region(): Region;
  client(): Promise<SourceClient>;
  /** Downloads an https URL without credentials (previewDownload.ts). */
  download(url: string): Promise<Uint8Array>;
  /** Short text of an error for a note (the user-facing message). */
  describe(error: unknown): string;
  log: { debug(message: string): void; warn(message: string): void };
}

export interface ResolveExtras {
  /** The answer's PDF preview URL (remote regions). Never sent to the page or saved. */
  pdfPreview?: string;
}

const REMOTE_REASON =
  'The service offers no document download for this region, and the answer came without a PDF preview, so the cited page number and passage are shown instead.';

export class DocumentSource {
  constructor(private readonly deps: DocumentSourceDeps) {}

  async resolve(target: CitationTarget, extras: ResolveExtras = {}): Promise<DocumentView> {
    const base = { title: titleOf(target), pageNo: target.pageNo ?? null, passageText: target.passageText ?? '', notes: [] as string[] };
    const fallback = (reason: string): DocumentView => ({ kind: 'fallback', ...base, reason, url: webUrl(target.url) });
    const region = this.deps.region();
    if (region === 'local') {
      if (!target.kbId) return fallback(noDocumentReason(target));
      return this.fromLocal(target, base, fallback);
    }
    if (extras.pdfPreview) {
      const url = httpsUrl(extras.pdfPreview);
      if (!url)
        return fallback(
          'The answer’s PDF preview link is not an https address, so it was not opened. The cited page number and passage are shown instead.',
        );
      try {
        const data = await this.deps.download(url);
        if (!isPdf(data))
          return fallback('The answer’s PDF preview is not a PDF file. The cited page number and passage are shown instead.');
        const highlight = await this.highlight(target, base.notes);
        base.notes.push('Showing the PDF preview the service made for this answer.');
        return { kind: 'pdf', ...base, data, origin: 'preview', ...highlight };
      } catch (error) {
        this.deps.log.warn(`citation: PDF preview download failed: ${String(error)}`);
        return fallback(
          `The answer’s PDF preview could not be downloaded (${this.deps.describe(error)}); the link may be limited by the Download IP Allowlist or have expired. The cited page number and passage are shown instead.`,
        );
      }
    }
    return fallback(target.kbId ? REMOTE_REASON : noDocumentReason(target));
  }

  private async fromLocal(target: CitationTarget, base: BaseView, fallback: (reason: string) => DocumentView): Promise<DocumentView> {
    const kbId = target.kbId!;
    const client = await this.deps.client();
    const docs = client.localDocs;
    if (!docs)
      return fallback(
        'This version of the local service cannot send documents to the viewer. The cited page number and passage are shown instead.',
      );
    let pages: LocalPages | undefined;
    try {
      pages = await docs.pages(kbId);
    } catch (error) {
      // An older service may have /content only: try it before giving up.
      this.deps.log.debug(`citation: pages of ${kbId} failed: ${String(error)}`);
    }
    if (!pages || pages.kind === 'pdf') {
      try {
        const file = await docs.content(kbId);
        if (isPdf(file.bytes) || /pdf/i.test(file.contentType) || /\.pdf$/i.test(file.fileName)) {
          if (file.bytes.byteLength > MAX_PDF_BYTES)
            return fallback(`The document is too large to show here (${Math.round(file.bytes.byteLength / 1048576)} MB).`);
          const highlight = await this.highlight(target, base.notes);
          const title = target.title ?? file.fileName;
          return { kind: 'pdf', ...base, title, data: toPlainBytes(file.bytes), origin: 'document', ...highlight };
        }
        if (!pages) return fallback(`The document (${file.contentType || file.fileName}) has no text pages to show.`);
      } catch (error) {
        this.deps.log.warn(`citation: content of ${kbId} failed: ${String(error)}`);
        return fallback(
          `The document could not be loaded from the local service (${this.deps.describe(error)}). The cited page number and passage are shown instead.`,
        );
      }
    }
    const texts = capPages(pages.pages);
    if (!texts.length) return fallback('The document has no extracted text to show.');
    const estimated = pages.estimatedPages === true || (typeof pages.estimatedPages === 'number' && pages.estimatedPages > 0);
    if (estimated) base.notes.push('Page numbers of this document are estimated: it has no real page breaks.');
    return { kind: 'text', ...base, format: pages.kind || 'text', pages: texts, estimatedPages: estimated };
  }

  /** The service's highlight for the cited page; failures become a note, never an error. */
  private async highlight(target: CitationTarget, notes: string[]): Promise<{ bboxes: WireBBox[]; highlightPageNo: number | null }> {
    const none = { bboxes: [], highlightPageNo: null };
    let result: Highlight | undefined;
    try {
      const client = await this.deps.client();
      if (target.clueId) result = await client.answers.highlightsForClue(target.clueId);
      else if (target.kbId && target.pageNo && (target.passageText?.trim() || target.subTextIndex !== undefined)) {
        result = await client.answers.highlightForRetrieval(
          strip({
            kbId: target.kbId,
            pageNo: target.pageNo,
            subTextIndex: target.subTextIndex,
            passageText: target.passageText?.slice(0, 20_000),
            question: target.question?.slice(0, 2_000),
            answer: target.answer?.slice(0, 20_000),
          }),
        );
      }
    } catch (error) {
      // Not found: the service has no boxes for this passage; the page then finds it by its text.
      if ((error as { name?: string })?.name === 'NotFoundError') {
        this.deps.log.debug(`citation: no highlight from the service: ${String(error)}`);
        return none;
      }
      this.deps.log.warn(`citation: highlight failed: ${String(error)}`);
      notes.push(`The service could not give a highlight (${this.deps.describe(error)}).`);
      return none;
    }
    const bboxes = (result?.bboxes ?? []).filter(isFiniteBox).map(({ left, top, right, bottom }) => ({ left, top, right, bottom }));
    return { bboxes, highlightPageNo: result?.pageNo ?? null };
  }
}

type BaseView = { title: string; pageNo: number | null; passageText: string; notes: string[] };

function titleOf(target: CitationTarget): string {
  return target.title ?? (target.index !== undefined ? `Citation [${target.index}]` : 'Cited document');
}

function noDocumentReason(target: CitationTarget): string {
  if (target.url)
    return 'This citation is a web page, not a document of the knowledge base. Its passage is shown here; open the link to see the page.';
  return 'The citation names no document of the knowledge base, so only its page number and passage can be shown.';
}

/** `%PDF-` within the first 1 KB (some files have a few junk bytes first). */
export function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

export function httpsUrl(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function webUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** A plain Uint8Array of exactly the document (a Node Buffer may be a view into a larger pool). */
function toPlainBytes(bytes: Uint8Array): Uint8Array {
  return bytes.constructor === Uint8Array && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

function capPages(pages: LocalPages['pages']): Array<{ pageNo: number; text: string }> {
  let left = MAX_TEXT_CHARS;
  const out: Array<{ pageNo: number; text: string }> = [];
  for (const p of pages) {
    if (left <= 0) break;
    const text = typeof p.text === 'string' ? p.text.slice(0, left) : '';
    left -= text.length;
    if (Number.isInteger(p.pageNo) && p.pageNo >= 1) out.push({ pageNo: p.pageNo, text });
  }
  return out;
}

function isFiniteBox(b: { left: number; top: number; right: number; bottom: number }): boolean {
  return [b.left, b.top, b.right, b.bottom].every((n) => typeof n === 'number' && Number.isFinite(n));
}

function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}
