// Deterministic attack documents for the tests and `npm run bench` (issue 23): Flate bombs in a PDF and a DOCX,
// and a small PDF with millions of text operators. Built from a few repeated deflate blocks, so a file that
// inflates to gigabytes costs milliseconds to write and nothing is downloaded.
import { crc32, deflateRawSync, deflateSync, constants } from 'node:zlib';

const MiB = 1024 * 1024;
// One deflate chunk of 1 MiB of zeros, ending byte-aligned (a sync flush, not final): copies of it can be
// concatenated, and each copy inflates to another 1 MiB of zeros.
const ZERO_CHUNK = deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
// An empty final block with fixed Huffman codes: BFINAL=1, BTYPE=01, end-of-block.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Raw deflate data that inflates to `mib` MiB of zeros (about 1,000 times its own size). */
export function zeroDeflateRaw(mib: number): Buffer {
  return Buffer.concat([...Array.from({ length: mib }, () => ZERO_CHUNK), FINAL_BLOCK]);
}

/** The same as a zlib stream (what a PDF's /FlateDecode holds): header, data, Adler-32 of the zeros. */
export function zeroDeflateZlib(mib: number): Buffer {
  const adler = Buffer.alloc(4);
  // Adler-32 of n zero bytes: a stays 1 and b adds 1 per byte.
  adler.writeUInt32BE(((((mib * MiB) % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), zeroDeflateRaw(mib), adler]);
}

/** Inflated MiB that fit into a file of about `fileMb` MB. */
export const mibForSize = (fileMb: number): number => Math.floor((fileMb * MiB) / ZERO_CHUNK.length);

function pdfWith(contents: Buffer, contentDict: string, text: string): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  const push = (b: Buffer | string): void => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    at += buf.length;
  };
  const obj = (n: number, body: Buffer | string, stream?: Buffer): void => {
    offsets[n] = at;
    push(`${n} 0 obj\n`);
    push(body);
    if (stream) {
      push('\nstream\n');
      push(stream);
      push('\nendstream');
    }
    push('\nendobj\n');
  };
  push('%PDF-1.4\n');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>');
  obj(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>');
  obj(4, `<< /Length ${contents.length}${contentDict} >>`, contents);
  obj(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  obj(6, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 7 0 R >>');
  const page2 = Buffer.from(`BT /F1 12 Tf 56 790 Td (${text}) Tj ET`, 'latin1');
  obj(7, `<< /Length ${page2.length} >>`, page2);
  const xref = at;
  push(
    `xref\n0 8\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('')}`,
  );
  push(`trailer\n<< /Size 8 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A PDF whose first page's content stream inflates to `mib` MiB of zeros (PDF whitespace); page 2 has text. */
export function makeFlateBombPdf(mib: number): Buffer {
  return pdfWith(zeroDeflateZlib(mib), ' /Filter /FlateDecode', 'After the bomb.');
}

/** The same bomb behind ASCIIHexDecode: the stream scan does not see it, the worker's memory budget must. */
export function makeHexFlateBombPdf(mib: number): Buffer {
  return pdfWith(
    Buffer.from(zeroDeflateZlib(mib).toString('hex') + '>', 'latin1'),
    ' /Filter [/ASCIIHexDecode /FlateDecode]',
    'After the bomb.',
  );
}

/**
 * A PDF with `operators` text-showing operators on one page, compressed: tiny, yet pdfjs spends seconds per
 * 100,000 of them. Varied strings and positions, so pdfjs cannot merge them into a few text items.
 */
export function makeManyOperatorsPdf(operators: number): Buffer {
  const lines: string[] = ['BT /F1 4 Tf'];
  // Absolute positions on the page (Tm), so every item is kept; a cycle of 997 keeps the deflate ratio near
  // 30:1, far from the 200:1 of a bomb, like the 764 KB file of the issue (3 million operators).
  for (let i = 0; i < operators; i++) lines.push(`1 0 0 1 ${20 + ((i % 997) % 50) * 11} ${30 + ((i % 997) % 61) * 12} Tm (w${i % 997}) Tj`);
  lines.push('ET');
  return pdfWith(deflateSync(Buffer.from(lines.join('\n'), 'latin1')), ' /Filter /FlateDecode', 'Many operators.');
}

interface ZipPart {
  name: string;
  method: 0 | 8;
  data: Buffer;
  size: number;
  crc: number;
}

/** A ZIP written by hand, so an entry's compressed bytes can be built without inflating them first. */
export function makeZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(p.method, 10);
    central.writeUInt32LE(p.crc, 16);
    central.writeUInt32LE(p.data.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.data);
    centrals.push(central, name);
    offset += local.length + name.length + p.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const stored = (name: string, text: string): ZipPart => {
  const data = Buffer.from(text, 'utf8');
  return { name, method: 0, data, size: data.length, crc: crc32(data) };
};

/** CRC-32 of n MiB of zeros, one MiB at a time (a 3 GiB bomb takes about a second). */
function zeroCrc(mib: number): number {
  const zeros = Buffer.alloc(MiB);
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(zeros, crc);
  return crc;
}

/**
 * A DOCX whose word/document.xml inflates to `mib` MiB of zeros (under 4 GiB: no ZIP64 needed). With `lie`, its
 * headers claim 1,000 bytes, so only a count of the real bytes can catch it.
 */
export function makeDocxBomb(mib: number, lie = false): Buffer {
  return makeZip([
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    { name: 'word/document.xml', method: 8, data: zeroDeflateRaw(mib), size: lie ? 1000 : mib * MiB, crc: lie ? 0 : zeroCrc(mib) },
  ]);
}
