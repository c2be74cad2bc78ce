// Shared shapes of the text extraction: plain data, so results cross the worker boundary unchanged.

export type DocKind = 'pdf' | 'docx' | 'xlsx' | 'html' | 'markdown' | 'text';

/** A run of text on a PDF page with its box in page fractions (0..1, origin top-left). */
export interface TextItem {
  str: string;
  box: [left: number, top: number, right: number, bottom: number];
}

export interface ExtractedPage {
  /** 1-based */
  pageNo: number;
  text: string;
  /** PDF only */
  items?: TextItem[];
}

export interface Extraction {
  kind: DocKind;
  pages: ExtractedPage[];
  title?: string;
  /** pages are estimated (DOCX, long text), not real page breaks */
  estimatedPages?: boolean;
}

export type ExtractionFailure = 'encrypted' | 'empty' | 'broken' | 'unsupported' | 'tooLarge' | 'timeout';

/** Its message is shown to users as the reason a document failed: keep it specific and actionable. */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  constructor(
    readonly reason: ExtractionFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface ExtractOptions {
  /** folder holding pdfjs `cmaps/` and `standard_fonts/` */
  assetsDir: string;
  /** default 2,000 */
  maxPages?: number;
  /** decoded bytes one document may expand to; default DEFAULT_MAX_DECODED_BYTES (decodeLimits.ts) */
  maxDecodedBytes?: number;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_PAGES = 2000;

export function isExtractionFailure(value: unknown): value is ExtractionFailure {
  return typeof value === 'string' && ['encrypted', 'empty', 'broken', 'unsupported', 'tooLarge', 'timeout'].includes(value);
}
