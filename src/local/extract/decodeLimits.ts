// How far a document may expand when it is decompressed (issue 23): one rule for ZIP uploads, the parts of a
// DOCX/XLSX and the streams of a PDF. The libraries that read documents (pdfjs, JSZip) decode into ArrayBuffers
// outside the V8 heap, where a worker's heap limit does not reach, so the bytes are counted before they run.
import { ExtractionError } from './types';

/** Ratios are judged only past this size: small blank templates compress extremely well. */
export const RATIO_FLOOR = 4 * 1024 * 1024;
/** Deflate cannot do better than about 1,030:1; real documents stay far below 200:1 once past a few MB. */
export const DEFAULT_MAX_RATIO = 200;
/**
 * Decoded bytes one document may expand to (the parts its text comes from). A 2,000-page text PDF decodes to
 * a few tens of MB; 200 MB keeps a worker's memory, doubled by growing buffers, well inside its budget.
 */
export const DEFAULT_MAX_DECODED_BYTES = 200 * 1024 * 1024;

/** The ZIP rule: an entry (or stream) past RATIO_FLOOR that expands more than `maxRatio` times is a bomb. */
export function exceedsRatio(uncompressed: number, compressed: number, maxRatio = DEFAULT_MAX_RATIO): boolean {
  return uncompressed > RATIO_FLOOR && uncompressed / Math.max(compressed, 1) > maxRatio;
}

export interface DecodeLimits {
  maxDecodedBytes: number;
  maxRatio: number;
}

export function decodeLimits(options: { maxDecodedBytes?: number }): DecodeLimits {
  return { maxDecodedBytes: options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES, maxRatio: DEFAULT_MAX_RATIO };
}

const mb = (bytes: number): string => `${+(bytes / 1024 ** 2).toFixed(1)} MB`;

/** Shown in the knowledge-base tree as the document's failure reason. */
export function expandsBeyondCap(format: string, limit: number): ExtractionError {
  return new ExtractionError(
    'tooLarge',
    `The ${format} expands beyond ${mb(limit)} when decompressed, more than the local service reads from one document; it may be a decompression bomb. If it is a real document, split it into smaller files and upload them separately.`,
  );
}

export function expandsBeyondRatio(format: string, part: string, maxRatio: number): ExtractionError {
  return new ExtractionError(
    'tooLarge',
    `The ${format} expands beyond ${maxRatio} times its size when decompressed (${part}); it looks like a decompression bomb and was not read.`,
  );
}

/** Counts decoded bytes of one document against the cap; `count` throws once the cap is passed. */
export class DecodeBudget {
  private total = 0;
  constructor(
    readonly limits: DecodeLimits,
    private readonly format: string,
  ) {}

  /** A declared size (a ZIP header) that cannot fit: refused before a byte is inflated. */
  checkDeclared(bytes: number): void {
    if (this.total + bytes > this.limits.maxDecodedBytes) throw expandsBeyondCap(this.format, this.limits.maxDecodedBytes);
  }

  count(bytes: number): void {
    this.total += bytes;
    if (this.total > this.limits.maxDecodedBytes) throw expandsBeyondCap(this.format, this.limits.maxDecodedBytes);
  }

  /** The ratio rule for one part, checked as its bytes arrive (so a bomb stops at the first chunk past the rule). */
  checkRatio(decoded: number, compressed: number, part: string): void {
    if (exceedsRatio(decoded, compressed, this.limits.maxRatio)) throw expandsBeyondRatio(this.format, part, this.limits.maxRatio);
  }
}
