// The file that persists the search indexes (docs/local-service.md#search-index-snapshot): named sections of
// raw bytes (typed arrays, or JSON where a structure is small), behind a header naming the format, the analysis
// that made the indexes (tokenizer mode, ICU), the journal position covered, and a CRC-32 of the sections (it
// guards against a torn or damaged file, not an attacker; SHA-256 took half a second over 40 MB at start).
// Written to a temporary file, fsync'ed and renamed over the old one, so a reader sees a whole snapshot or
// the previous one. Reading never throws on bad content: a snapshot that is missing, cut short, corrupt,
// of another version or analysis is reported as unusable, and the caller rebuilds the indexes.
import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { renameWithRetry, syncDir, writeAll } from './durableFs';
import { FILE_MODE } from './fileModes';

const MAGIC = 'KDIX';
/**
 * Bumped whenever what an index holds changes meaning (tokenizer, analysis, passages, scoring inputs): an older
 * snapshot then no longer matches what a rebuild would make, and is ignored.
 */
export const INDEX_SNAPSHOT_VERSION = 2;
const ALIGN = 8;

export interface SnapshotHeader {
  version: number;
  /** The journal's sequence number when the snapshot was taken: every change up to it is in the indexes. */
  seq: number;
  /** What made the tokens: a runtime whose segmenter differs would tokenize queries differently. */
  analysis: string;
  sections: Array<[name: string, bytes: number]>;
  /** CRC-32 of the sections, one after another. */
  crc32: number;
}

export type Sections = Map<string, Uint8Array>;

/** Identifies the runtime's text analysis; a snapshot made under another one is not used. */
export function analysisId(tokenizerMode: string): string {
  return `${tokenizerMode}/icu-${process.versions.icu ?? 'none'}/unicode-${process.versions.unicode ?? '?'}`;
}

export async function writeIndexSnapshot(file: string, seq: number, analysis: string, sections: Sections): Promise<number> {
  let checksum = 0;
  const list: Array<[string, number]> = [];
  for (const [name, bytes] of sections) {
    checksum = crc32(bytes, checksum);
    list.push([name, bytes.byteLength]);
  }
  const header: SnapshotHeader = { version: INDEX_SNAPSHOT_VERSION, seq, analysis, sections: list, crc32: checksum };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(pad(12 + json.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(INDEX_SNAPSHOT_VERSION, 4);
  head.writeUInt32LE(json.length, 8);
  json.copy(head, 12);
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w', FILE_MODE);
  let pos = 0;
  try {
    await writeAll(handle, head, 0);
    pos = head.length;
    for (const bytes of sections.values()) {
      await writeAll(handle, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), pos);
      pos += pad(bytes.byteLength);
    }
    await handle.truncate(pos);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await renameWithRetry(tmp, file);
  await syncDir(path.dirname(file));
  return pos;
}

export type SnapshotRead = { ok: true; header: SnapshotHeader; sections: Map<string, Buffer> } | { ok: false; reason: string };

/** The snapshot's sections, or why it cannot be used (never throws for bad content). */
export async function readIndexSnapshot(file: string, analysis: string): Promise<SnapshotRead> {
  await rm(`${file}.tmp`, { force: true }).catch(() => undefined);
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'none yet' : `unreadable (${code})` };
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== MAGIC) return { ok: false, reason: 'not a snapshot' };
  if (buf.readUInt32LE(4) !== INDEX_SNAPSHOT_VERSION) return { ok: false, reason: `version ${buf.readUInt32LE(4)}` };
  const jsonLength = buf.readUInt32LE(8);
  if (12 + jsonLength > buf.length) return { ok: false, reason: 'cut short' };
  let header: SnapshotHeader;
  try {
    header = JSON.parse(buf.toString('utf8', 12, 12 + jsonLength)) as SnapshotHeader;
  } catch {
    return { ok: false, reason: 'corrupt header' };
  }
  if (header.version !== INDEX_SNAPSHOT_VERSION || !Number.isSafeInteger(header.seq) || !Array.isArray(header.sections))
    return { ok: false, reason: 'corrupt header' };
  if (header.analysis !== analysis) return { ok: false, reason: `made by another analysis (${header.analysis})` };
  const sections = new Map<string, Buffer>();
  let checksum = 0;
  let pos = pad(12 + jsonLength);
  for (const [name, bytes] of header.sections) {
    if (!Number.isSafeInteger(bytes) || bytes < 0 || pos + bytes > buf.length) return { ok: false, reason: 'cut short' };
    const part = buf.subarray(pos, pos + bytes);
    checksum = crc32(part, checksum);
    sections.set(name, part);
    pos += pad(bytes);
  }
  if (checksum !== header.crc32) return { ok: false, reason: 'checksum mismatch' };
  return { ok: true, header, sections };
}

function pad(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

// ---- section encoding: typed arrays as raw little-endian bytes; on reading, views of the file's bytes where
// they are aligned (sections start at multiples of 8 in the file), else copies ----

export function bytes(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

export function jsonBytes(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/** Strings that hold no U+0000 (tokens, ids), joined: one string to decode instead of one JSON value each. */
export function stringsBytes(values: readonly string[]): Uint8Array {
  return Buffer.from(values.join('\u0000'), 'utf8');
}

/** Reads sections; a missing or malformed one throws SnapshotFormatError, which callers treat as unusable. */
export class SectionReader {
  constructor(private readonly sections: Map<string, Buffer>) {}

  private get(name: string): Buffer {
    const part = this.sections.get(name);
    if (!part) throw new SnapshotFormatError(`no section ${name}`);
    return part;
  }

  json<T>(name: string): T {
    return JSON.parse(this.get(name).toString('utf8')) as T;
  }

  strings(name: string, count: number): string[] {
    const part = this.get(name);
    const out = part.length === 0 && count === 0 ? [] : part.toString('utf8').split('\u0000');
    if (out.length !== count) throw new SnapshotFormatError(`section ${name}: ${out.length} strings, expected ${count}`);
    return out;
  }

  int32(name: string): Int32Array {
    return this.typed(name, Int32Array);
  }

  float32(name: string): Float32Array {
    return this.typed(name, Float32Array);
  }

  float64(name: string): Float64Array {
    return this.typed(name, Float64Array);
  }

  private typed<T extends Int32Array | Float32Array | Float64Array>(
    name: string,
    Type: { new (n: number): T; new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
  ): T {
    const part = this.get(name);
    if (part.length % Type.BYTES_PER_ELEMENT !== 0) throw new SnapshotFormatError(`section ${name} has a partial element`);
    const count = part.length / Type.BYTES_PER_ELEMENT;
    // A view costs nothing at start; it keeps the file's buffer alive, which holds mostly these arrays anyway.
    if (part.byteOffset % Type.BYTES_PER_ELEMENT === 0) return new Type(part.buffer as ArrayBuffer, part.byteOffset, count);
    const out = new Type(count);
    new Uint8Array(out.buffer).set(part);
    return out;
  }
}

export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
  }
}
