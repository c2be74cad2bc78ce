// Which extractor a file needs: the extension decides, magic bytes catch renamed files.
import path from 'node:path';
import type { DocKind } from './types';

const BY_EXTENSION: Record<string, DocKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.xlsx': 'xlsx',
  '.html': 'html',
  '.htm': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.csv': 'text',
  '.tsv': 'text',
  '.json': 'text',
  '.log': 'text',
};

const PDF_MAGIC = Buffer.from('%PDF-');
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** `head`: the first bytes of the file (a few KB is enough). */
export function detectKind(fileName: string, head: Buffer): DocKind | undefined {
  const byName = BY_EXTENSION[path.extname(fileName).toLowerCase()];
  const isPdf = startsWithin(head, PDF_MAGIC, 1024);
  const isZip = head.subarray(0, 4).equals(ZIP_MAGIC);
  // A .pdf stays 'pdf' whatever its bytes: the extractor then explains that the file is damaged.
  if (byName === 'pdf') return 'pdf';
  if (isPdf) return 'pdf';
  if (byName === 'docx' || byName === 'xlsx') return byName;
  if (isZip) return undefined; // some other archive (or an OOXML file we do not read, e.g. .pptx)
  if (byName) return looksLikeText(head) ? byName : undefined;
  return looksLikeText(head) ? 'text' : undefined;
}

// PDF readers accept a header within the first 1,024 bytes, so do we.
function startsWithin(head: Buffer, magic: Buffer, limit: number): boolean {
  const at = head.subarray(0, limit + magic.length).indexOf(magic);
  return at >= 0 && at <= limit;
}

/** Valid UTF-8 or Shift_JIS (or UTF-16 with a BOM) without NUL bytes or other control characters. */
export function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return true;
  const bom = head.length >= 2 ? head.readUInt16BE(0) : 0;
  if (bom === 0xfffe || bom === 0xfeff) {
    const even = head.subarray(2, 2 + ((head.length - 2) & ~1));
    return decodes(even, bom === 0xfffe ? 'utf-16le' : 'utf-16be') && !even.every((b) => b === 0);
  }
  if (head.includes(0)) return false;
  // The head may end inside a multi-byte character: drop up to 3 trailing non-ASCII bytes before checking.
  for (let trim = 0; trim <= 3 && trim < head.length; trim++) {
    const part = head.subarray(0, head.length - trim);
    if (decodes(part, 'utf-8') || decodes(part, 'shift_jis')) return true;
    if (head[head.length - trim - 1]! < 0x80) return false;
  }
  return false;
}

function decodes(bytes: Buffer, encoding: string): boolean {
  try {
    const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    // Control characters other than tab, newlines, form feed and escape mean binary data.
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    return !/[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f]/.test(text);
  } catch {
    return false;
  }
}
