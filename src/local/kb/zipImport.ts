// Safe ZIP reading for ZIP uploads: every entry is checked (zip-slip, names, limits) before
// anything is written, then streamed to a temp file with the real byte count enforced.

import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import { DEFAULT_MAX_RATIO, exceedsRatio } from '../extract/decodeLimits';
import { formatBytes } from '../http/body';
import { fileNameProblem, freeName, normalizeName } from './fileNames';
import { decodeName } from './zipEntryName';

export interface ZipFileEntry {
  /** Folder names then the file name, NFC-normalised. */
  segments: string[];
  tempPath: string;
  size: number;
  sha256: string;
}

export interface ZipContents {
  /** Every folder path that must exist, parents first, including empty folders. */
  folders: string[][];
  /**
   * Files in archive order. A path that occurs twice (or names a folder too) keeps its first
   * occurrence; later ones get " (1)", " (2)"… before the extension, like `suffix_added`.
   */
  files: ZipFileEntry[];
  /** Entries left out on purpose: symbolic links, special files, `__MACOSX/`, OS junk files. */
  skipped: Array<{ name: string; reason: string }>;
}

export interface ZipLimits {
  /** Entries in the archive, directories and skipped ones included. Default 20 000. */
  maxEntries?: number;
  /** Uncompressed bytes of all files together. Default 4 GiB. */
  maxTotalBytes?: number;
  /** Uncompressed bytes of one file (the upload limit). Default: maxTotalBytes. */
  maxEntryBytes?: number;
  /** Uncompressed/compressed ratio of one entry once it is past a few MB. Default 200. */
  maxRatio?: number;
  /** Path segments of one entry (folders plus the file name). Default 32. */
  maxDepth?: number;
}

export class ZipImportError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'ZipImportError';
  }
}

// File type bits of the Unix mode kept in the high half of the external attributes.
const [S_IFMT, S_IFREG, S_IFDIR, S_IFLNK] = [0o170000, 0o100000, 0o040000, 0o120000];
const JUNK_FILES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);

interface Planned {
  entry: Entry;
  name: string;
  segments: string[];
}

/**
 * Reads a ZIP archive into temp files (one per file entry, sha256 computed on the way; nothing
 * held in memory). Any failure or abort deletes every temp file written so far.
 */
export async function readZipToTemp(
  zipPath: string,
  options: ZipLimits & { tempPath: () => string; signal?: AbortSignal },
): Promise<ZipContents> {
  const { signal } = options;
  const maxTotalBytes = options.maxTotalBytes ?? 4 * 1024 ** 3;
  const limits = {
    maxEntries: options.maxEntries ?? 20_000,
    maxTotalBytes,
    maxEntryBytes: options.maxEntryBytes ?? maxTotalBytes,
    maxRatio: options.maxRatio ?? DEFAULT_MAX_RATIO,
    maxDepth: options.maxDepth ?? 32,
  };
  const written: string[] = [];
  let zip: ZipFile | undefined;
  try {
    checkAbort(signal);
    zip = await openPromise(zipPath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
    if (zip.entryCount > limits.maxEntries) {
      throw new ZipImportError(400, `The ZIP archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed.`);
    }
    const { folders, planned, skipped } = await plan(zip, limits, signal);
    const files: ZipFileEntry[] = [];
    let total = 0;
    for (const item of planned) {
      checkAbort(signal);
      const tempPath = options.tempPath();
      written.push(tempPath);
      const meter = new EntryMeter(item, limits, total);
      await extract(zip, item, meter, tempPath, signal);
      total += meter.size;
      files.push({ segments: item.segments, tempPath, size: meter.size, sha256: meter.hash.digest('hex') });
    }
    return { folders, files, skipped };
  } catch (error) {
    await Promise.all(written.map((p) => rm(p, { force: true })));
    if (signal?.aborted) throw abortError(signal);
    if (error instanceof ZipImportError || isIoError(error)) throw error;
    throw invalidZip(error);
  } finally {
    zip?.close();
  }
}

/** Reads the central directory only: every name and declared size is checked before any data is written. */
async function plan(zip: ZipFile, limits: Required<ZipLimits>, signal: AbortSignal | undefined) {
  const folders = new Map<string, string[]>();
  const planned: Planned[] = [];
  const skipped: ZipContents['skipped'] = [];
  let declared = 0;
  for await (const entry of zip.eachEntry()) {
    checkAbort(signal);
    const name = decodeName(entry);
    const shown = JSON.stringify(name);
    const path = name.replace(/\\/g, '/'); // Windows tools write backslashes; treat them as separators
    if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw new ZipImportError(400, `The ZIP entry ${shown} has an absolute path.`);
    const parts = path.split('/');
    if (parts.includes('..')) throw new ZipImportError(400, `The ZIP entry ${shown} points outside the archive folder ("..").`);

    const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
    const isDirectory = path.endsWith('/') || type === S_IFDIR;
    const segments = parts.filter((p, i) => p !== '.' && !(p === '' && i === parts.length - 1)).map(normalizeName);
    const reason = skipReason(segments, isDirectory, type);
    if (reason) {
      skipped.push({ name, reason });
      continue;
    }
    for (const segment of segments) {
      const problem = fileNameProblem(segment);
      if (problem) throw new ZipImportError(400, `The ZIP entry ${shown} has an invalid name: ${problem}`);
    }
    if (segments.length > limits.maxDepth) {
      throw new ZipImportError(
        400,
        `The ZIP entry ${shown} is nested ${segments.length} levels deep; at most ${limits.maxDepth} are allowed.`,
      );
    }
    if (isDirectory) {
      addFolder(folders, segments);
      continue;
    }
    if (segments.length === 0) continue; // "./" and the like
    checkDeclared(entry, shown, limits, (declared += entry.uncompressedSize));
    addFolder(folders, segments.slice(0, -1));
    planned.push({ entry, name, segments });
  }
  renameDuplicates(planned, folders);
  return { folders: [...folders.values()], planned, skipped };
}

function skipReason(segments: string[], isDirectory: boolean, type: number): string | undefined {
  if (segments.includes('__MACOSX')) return 'macOS metadata (__MACOSX)';
  if (!isDirectory && JUNK_FILES.has(segments[segments.length - 1]?.toLowerCase() ?? '')) return 'operating-system metadata file';
  if (type === S_IFLNK) return 'symbolic link';
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) return 'not a regular file';
  return undefined;
}

function checkDeclared(entry: Entry, shown: string, limits: Required<ZipLimits>, declaredTotal: number): void {
  if (entry.isEncrypted()) throw new ZipImportError(400, `The ZIP entry ${shown} is encrypted; encrypted archives are not supported.`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new ZipImportError(
      400,
      `The ZIP entry ${shown} uses an unsupported compression method (${entry.compressionMethod}); only stored and deflated entries can be read.`,
    );
  }
  // Headers can lie; these only reject early. EntryMeter enforces the real byte counts.
  if (entry.uncompressedSize > limits.maxEntryBytes) throw entryTooLarge(shown, limits.maxEntryBytes);
  if (declaredTotal > limits.maxTotalBytes) throw totalTooLarge(limits.maxTotalBytes);
  if (exceedsRatio(entry.uncompressedSize, entry.compressedSize, limits.maxRatio)) {
    throw ratioTooHigh(shown, limits.maxRatio);
  }
}

function addFolder(folders: Map<string, string[]>, segments: string[]): void {
  for (let i = 1; i <= segments.length; i++) {
    const key = segments.slice(0, i).join('/');
    if (!folders.has(key)) folders.set(key, segments.slice(0, i));
  }
}

/** First occurrences keep their names; later duplicates (and files named like a folder) get a suffix. */
function renameDuplicates(planned: Planned[], folders: Map<string, string[]>): void {
  const taken = new Set(folders.keys());
  const later: Planned[] = [];
  for (const item of planned) {
    const key = item.segments.join('/');
    if (taken.has(key)) later.push(item);
    else taken.add(key);
  }
  for (const item of later) {
    const dir = item.segments.slice(0, -1);
    const name = freeName(item.segments[item.segments.length - 1], (candidate) => taken.has([...dir, candidate].join('/')));
    item.segments = [...dir, name];
    taken.add(item.segments.join('/'));
  }
}

async function extract(zip: ZipFile, item: Planned, meter: EntryMeter, tempPath: string, signal: AbortSignal | undefined): Promise<void> {
  const shown = JSON.stringify(item.name);
  let sink: WriteStream | undefined;
  try {
    const source = await zip.openReadStreamPromise(item.entry);
    sink = createWriteStream(tempPath);
    await pipeline(source, meter, sink, signal ? { signal } : {});
  } catch (error) {
    // Wait for the file to be closed, or it could be created after the caller deletes it.
    if (sink && !sink.closed) await new Promise<void>((resolve) => sink!.destroy().once('close', () => resolve()));
    if (error instanceof ZipImportError || isIoError(error) || signal?.aborted) throw error;
    throw invalidZip(error, shown);
  }
  // yauzl checks the byte count against the header but not the CRC.
  if (meter.size !== item.entry.uncompressedSize || meter.crc !== item.entry.crc32) {
    throw invalidZip(new Error('the data does not match its CRC-32 or size'), shown);
  }
}

/** Counts, hashes and checks the real uncompressed bytes of one entry as they stream by. */
class EntryMeter extends Transform {
  size = 0;
  crc = 0;
  readonly hash = createHash('sha256');
  private readonly shown: string;

  constructor(
    private readonly item: Planned,
    private readonly limits: Required<ZipLimits>,
    private readonly totalBefore: number,
  ) {
    super();
    this.shown = JSON.stringify(item.name);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limits.maxEntryBytes) return callback(entryTooLarge(this.shown, this.limits.maxEntryBytes));
    if (this.totalBefore + this.size > this.limits.maxTotalBytes) return callback(totalTooLarge(this.limits.maxTotalBytes));
    if (exceedsRatio(this.size, this.item.entry.compressedSize, this.limits.maxRatio)) {
      return callback(ratioTooHigh(this.shown, this.limits.maxRatio));
    }
    this.hash.update(chunk);
    this.crc = crc32(chunk, this.crc);
    callback(null, chunk);
  }
}

const entryTooLarge = (shown: string, limit: number): ZipImportError =>
  new ZipImportError(413, `The ZIP entry ${shown} is larger than the limit of ${formatBytes(limit)} uncompressed.`);
const totalTooLarge = (limit: number): ZipImportError =>
  new ZipImportError(413, `The ZIP archive expands to more than the limit of ${formatBytes(limit)}.`);
const ratioTooHigh = (shown: string, limit: number): ZipImportError =>
  new ZipImportError(400, `The ZIP entry ${shown} expands more than ${limit} times its compressed size; it looks like a ZIP bomb.`);

function invalidZip(error: unknown, shown?: string): ZipImportError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ZipImportError(400, `The file is not a valid ZIP archive (${shown ? `entry ${shown}: ` : ''}${reason}).`);
}

/** Errors of the file system (disk full, permissions) are not the archive's fault. */
function isIoError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

const checkAbort = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw abortError(signal);
};

function abortError(signal: AbortSignal): Error {
  const error = new Error('The ZIP import was aborted.', { cause: signal.reason });
  error.name = 'AbortError';
  return error;
}
