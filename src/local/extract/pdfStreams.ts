// Counts what a PDF's Flate streams inflate to before pdfjs opens it (issue 23). pdfjs decodes a stream into
// one Uint8Array that doubles as it grows, outside the V8 heap, and offers no hook or option to stop it: a
// 1 MB stream of deflated zeros became 2.2 GB. Here each stream is inflated by zlib in bounded chunks that are
// counted and dropped, so the scan itself never holds more than a chunk.
import { constants, createInflate } from 'node:zlib';
import type { DecodeBudget } from './decodeLimits';

const STREAM = Buffer.from('stream', 'latin1');
const END = Buffer.from('endstream', 'latin1');
const CHUNK = 256 * 1024;
const [CR, LF, SPACE] = [0x0d, 0x0a, 0x20];

/**
 * Throws the budget's ExtractionError when the document's streams expand past its cap or ratio.
 *
 * Every `stream` keyword is tried, wherever its dictionary is (a comment may sit between them), and what
 * follows is inflated up to the end of the deflate data, whatever /Length says: zlib stops where pdfjs's own
 * inflate would. Streams of images count only against the ratio: text extraction never decodes them, and a
 * manual full of screenshots may well hold more than the cap. A content stream labelled as an image still
 * meets the ratio rule. Not covered here (the worker's memory budget is the backstop): encrypted streams,
 * and Flate behind another filter such as ASCIIHexDecode.
 */
export async function checkPdfStreams(data: Uint8Array, budget: DecodeBudget): Promise<void> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  for (let at = buf.indexOf(STREAM); at >= 0; at = buf.indexOf(STREAM, at + STREAM.length)) {
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    const start = dataStart(buf, at + STREAM.length);
    if (start < 0 || !isZlibHeader(buf, start)) continue;
    const next = buf.indexOf(END, start);
    const compressed = (next < 0 ? buf.length : next) - start;
    const image = isImageStream(buf, at);
    const part = `stream at byte ${at}`;
    await inflateCounted(buf.subarray(start), (chunk, decoded) => {
      if (!image) budget.count(chunk);
      budget.checkRatio(decoded, compressed, part);
    });
  }
}

/** After `stream` comes an end of line (CRLF or LF; pdfjs also accepts a lone CR and stray spaces). */
function dataStart(buf: Buffer, pos: number): number {
  while (buf[pos] === SPACE) pos++;
  if (buf[pos] === CR) return buf[pos + 1] === LF ? pos + 2 : pos + 1;
  return buf[pos] === LF ? pos + 1 : -1;
}

/** The checks pdfjs's FlateStream makes: deflate method, header checksum, no preset dictionary. */
function isZlibHeader(buf: Buffer, at: number): boolean {
  const cmf = buf[at];
  const flg = buf[at + 1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0 && (flg & 0x20) === 0;
}

/** The stream's dictionary is between the last `obj` before it and the keyword. */
function isImageStream(buf: Buffer, at: number): boolean {
  const from = Math.max(0, at - 4096);
  const head = buf.toString('latin1', from, at);
  const dict = head.slice(head.lastIndexOf('obj') + 1);
  return /\/Subtype\s*\/Image\b/.test(dict);
}

/**
 * Inflates `input` up to the end of its deflate data (zlib ignores what follows), calling `onChunk` with each
 * chunk's size and the running total. A throw from `onChunk` stops the inflate and rejects; damaged data ends
 * the count quietly, as pdfjs stops decoding there too.
 */
function inflateCounted(input: Buffer, onChunk: (chunk: number, decoded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: CHUNK });
    let decoded = 0;
    inflate.on('data', (chunk: Buffer) => {
      decoded += chunk.length;
      try {
        onChunk(chunk.length, decoded);
      } catch (error) {
        inflate.destroy();
        reject(error);
      }
    });
    inflate.once('end', () => resolve());
    inflate.once('error', () => resolve());
    inflate.once('close', () => resolve());
    inflate.end(input);
  });
}
