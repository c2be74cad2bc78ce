// What the citation viewer shows for a target, the same for every region (Local included), with the fallbacks:
//   1. the original file (`GET …/knowledge_base_nodes/{id}/download`): a PDF with the service's highlight boxes;
//   2. the parsed text per page (`GET …/{id}/text`) with the passage marked: a non-PDF document, or a deployment
//      that does not offer download (404/405, remembered by the client: src/api/offers.ts);
//   3. the answer's `pdfPreview` (https only, fetched here in the host, without the API key);
//   4. the page number and the passage text.
// Pure of vscode: unit-tested in Node against the local service. What the page shows (notes, reasons, titles)
// goes through @vscode/l10n, which has VS Code's bundle once the extension is active.
import * as l10n from '@vscode/l10n';
import type { Region } from '../../../core/regions';
import { urlWithScheme, WEB_SCHEMES } from '../../../core/urls';
import type { Highlight } from '../../../api/schemas/answers';
import type { NodeDownload, PageText } from '../../../api/schemas/kbOps';
import { MAX_PDF_BYTES, MAX_TEXT_CHARS, type CitationTarget, type DocumentView, type WireBBox } from './protocol';

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
  kbNodes: {
    download(nodeId: string): Promise<NodeDownload>;
    text(nodeId: string): Promise<PageText[]>;
  };
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

/** A function, not a constant: the bundle is handed to @vscode/l10n after this module loads. */
const remoteReason = (): string =>
  l10n.t('This deployment offers neither the document download nor its text, and the answer came without a PDF preview.');

export class DocumentSource {
  constructor(private readonly deps: DocumentSourceDeps) {}

  async resolve(target: CitationTarget, extras: ResolveExtras = {}): Promise<DocumentView> {
    const base = { title: titleOf(target), pageNo: target.pageNo ?? null, passageText: target.passageText ?? '', notes: [] as string[] };
    const fallback = (reason: string): DocumentView => ({ kind: 'fallback', ...base, reason, url: webUrl(target.url) });
    const reasons: string[] = [];
    if (target.kbId) {
      const view = await this.fromKnowledgeBase(target, base, reasons);
      if (view) return view;
    }
    if (extras.pdfPreview) return this.fromPreview(target, base, extras.pdfPreview, fallback);
    if (!target.kbId) return fallback(noDocumentReason(target));
    // {0}: why the document is not shown (one or more sentences).
    return fallback(l10n.t('{0} The cited page number and passage are shown instead.', reasons.join(' ') || remoteReason()));
  }

  /** Steps 1 and 2: the original (a PDF) or the parsed text; undefined with `reasons` filled when neither. */
  private async fromKnowledgeBase(target: CitationTarget, base: BaseView, reasons: string[]): Promise<DocumentView | undefined> {
    const kbId = target.kbId!;
    const client = await this.deps.client();
    try {
      const file = await readCapped(await client.kbNodes.download(kbId), MAX_PDF_BYTES);
      if (file.tooLarge) reasons.push(l10n.t('The document is too large to show here (over {0} MB).', Math.round(MAX_PDF_BYTES / 1048576)));
      else if (isPdf(file.bytes) || /pdf/i.test(file.contentType)) {
        if (!isPdf(file.bytes)) reasons.push(l10n.t('The downloaded document is not a valid PDF.'));
        else {
          const highlight = await this.highlight(target, base.notes);
          return {
            kind: 'pdf',
            ...base,
            title: target.title ?? (file.fileName || base.title),
            data: file.bytes,
            origin: 'document',
            ...highlight,
          };
        }
      }
    } catch (error) {
      const name = (error as { name?: string })?.name;
      this.deps.log.debug(`citation: download of ${kbId}: ${String(error)}`);
      if (name === 'NotFoundError') {
        reasons.push(l10n.t('The document is no longer in the knowledge base.'));
        return undefined;
      }
      if (name !== 'OperationNotOfferedError' && name !== 'DeleteNotSupportedError')
        base.notes.push(l10n.t('The original could not be downloaded ({0}).', this.deps.describe(error)));
      else base.notes.push(l10n.t('This deployment does not offer downloading documents; showing the parsed text.'));
    }
    try {
      const texts = capPages(await client.kbNodes.text(kbId));
      if (texts.length) return { kind: 'text', ...base, format: formatOf(target.title), pages: texts, estimatedPages: false };
      reasons.push(l10n.t('The document has no extracted text to show.'));
    } catch (error) {
      this.deps.log.debug(`citation: text of ${kbId}: ${String(error)}`);
      const name = (error as { name?: string })?.name;
      reasons.push(
        name === 'OperationNotOfferedError'
          ? remoteReason()
          : name === 'NotFoundError'
            ? l10n.t('The document is no longer in the knowledge base.')
            : l10n.t('The document could not be loaded ({0}).', this.deps.describe(error)),
      );
    }
    return undefined;
  }

  /** Step 3: the answer's PDF preview (remote answers). */
  private async fromPreview(
    target: CitationTarget,
    base: BaseView,
    pdfPreview: string,
    fallback: (reason: string) => DocumentView,
  ): Promise<DocumentView> {
    const url = httpsUrl(pdfPreview);
    if (!url)
      return fallback(
        l10n.t(
          'The answer’s PDF preview link is not an https address, so it was not opened. The cited page number and passage are shown instead.',
        ),
      );
    try {
      const data = await this.deps.download(url);
      if (!isPdf(data))
        return fallback(l10n.t('The answer’s PDF preview is not a PDF file. The cited page number and passage are shown instead.'));
      const highlight = await this.highlight(target, base.notes);
      base.notes.push(l10n.t('Showing the PDF preview the service made for this answer.'));
      return { kind: 'pdf', ...base, data, origin: 'preview', ...highlight };
    } catch (error) {
      this.deps.log.warn(`citation: PDF preview download failed: ${String(error)}`);
      return fallback(
        l10n.t(
          'The answer’s PDF preview could not be downloaded ({0}); the link may be limited by the Download IP Allowlist or have expired. The cited page number and passage are shown instead.',
          this.deps.describe(error),
        ),
      );
    }
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
      notes.push(l10n.t('The service could not give a highlight ({0}).', this.deps.describe(error)));
      return none;
    }
    const bboxes = (result?.bboxes ?? []).filter(isFiniteBox).map(({ left, top, right, bottom }) => ({ left, top, right, bottom }));
    return { bboxes, highlightPageNo: result?.pageNo ?? null };
  }
}

type BaseView = { title: string; pageNo: number | null; passageText: string; notes: string[] };

function titleOf(target: CitationTarget): string {
  return target.title ?? (target.index !== undefined ? l10n.t('Citation [{0}]', target.index) : l10n.t('Cited document'));
}

function noDocumentReason(target: CitationTarget): string {
  if (target.url)
    return l10n.t(
      'This citation is a web page, not a document of the knowledge base. Its passage is shown here; open the link to see the page.',
    );
  return l10n.t('The citation names no document of the knowledge base, so only its page number and passage can be shown.');
}

/** `%PDF-` within the first 1 KB (some files have a few junk bytes first). */
export function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

export function httpsUrl(value: string): string | undefined {
  return urlWithScheme(value, ['https:']);
}

function webUrl(value: string | undefined): string | null {
  return urlWithScheme(value, WEB_SCHEMES) ?? null;
}

/** Reads a download into memory, at most `max` bytes (beyond that it stops and says so). */
async function readCapped(
  download: NodeDownload,
  max: number,
): Promise<{ bytes: Uint8Array; contentType: string; fileName: string; tooLarge: boolean }> {
  const head = { contentType: download.contentType, fileName: download.fileName };
  if (download.size !== undefined && download.size > max) {
    download.cancel();
    return { ...head, bytes: new Uint8Array(), tooLarge: true };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of download.body) {
      size += chunk.byteLength;
      if (size > max) return { ...head, bytes: new Uint8Array(), tooLarge: true };
      chunks.push(chunk);
    }
  } finally {
    download.cancel();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ...head, bytes, tooLarge: false };
}

/** The text view's format from the document name (the text operation does not say). */
function formatOf(title: string | undefined): string {
  const ext = /\.([a-z0-9]{1,8})$/i.exec(title ?? '')?.[1]?.toLowerCase();
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'htm' || ext === 'html') return 'html';
  return ext && /^[a-z0-9]+$/.test(ext) ? ext : 'text';
}

function capPages(pages: readonly PageText[]): Array<{ pageNo: number; text: string }> {
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
