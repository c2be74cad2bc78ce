// Streams a folder into a ZIP (yazl) so a workspace folder can be uploaded as a new
// knowledge-base folder. Files are piped one at a time: memory stays flat whatever their size.

import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { lstat, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { deflateRaw } from 'node:zlib';
import type * as Yazl from 'yazl';

export interface ZipFolderResult {
  /** Files written (directories not counted). */
  files: number;
  /** Uncompressed bytes of those files. */
  bytes: number;
  /** Paths (relative, with "/") left out because they are symbolic links or special files. */
  skipped: string[];
}

export interface ZipFolderOptions {
  signal?: AbortSignal;
  onProgress?: (p: { files: number; bytes: number }) => void;
  /** Extra exclusions on top of DEFAULT_EXCLUDES; an excluded directory is not entered. */
  exclude?: (relativePath: string, isDirectory: boolean) => boolean;
  /**
   * Deflate level for compressible files, 1–9 (default 6: ~20 MB/s on source code); 0 stores
   * everything at ~150 MB/s, the better choice when the ZIP is unpacked on this machine.
   */
  compressionLevel?: number;
  /** Folders ("a/b") the entries go under: a ZIP that creates a nested knowledge-base folder path at once. */
  prefix?: string;
}

/** VCS metadata and OS junk, matched against each file or folder name (case-insensitively). */
export const DEFAULT_EXCLUDES: readonly string[] = ['.git', '.svn', '.hg', '.DS_Store', 'Thumbs.db', 'desktop.ini', '__MACOSX'];
const EXCLUDED = new Set(DEFAULT_EXCLUDES.map((n) => n.toLowerCase()));

/** Formats that are compressed already: deflating them costs time and saves nothing. */
const STORED_EXTENSIONS = new Set(
  (
    'zip gz tgz bz2 xz 7z rar zst lz4 br png jpg jpeg gif webp avif heic heif jxl mp3 mp4 m4a m4v aac ogg opus flac ' +
    'mov avi mkv webm wmv woff woff2 docx xlsx pptx docm xlsm pptm odt ods odp epub jar apk vsix nupkg whl'
  ).split(' '),
);
/**
 * Larger files of other types (PDF, unknown binaries) are probed: 64 KB from the middle is
 * deflated and the file is stored unless that saves 10 %. Measured on PDFs from TeX and
 * LibreOffice: deflate saved 1.5–2.5 % at 20–30 MB/s, so they are stored; PDFs with
 * uncompressed streams saved a third and are deflated.
 */
const PROBE_FROM = 256 * 1024;
const PROBE_BYTES = 64 * 1024;
const MIN_SAVING = 0.1;
const PROGRESS_STEP = 4 * 1024 * 1024;
const deflateRawAsync = promisify(deflateRaw);

/**
 * Zips the contents of `dir` (entries relative to it, sorted, UTF-8 names with "/", mtimes kept,
 * empty folders included, symbolic links skipped). On abort or failure the partial `outFile` is
 * deleted; an abort rejects with an error named 'AbortError', an unreadable file with an error
 * naming it.
 */
export async function zipFolder(dir: string, outFile: string, options: ZipFolderOptions = {}): Promise<ZipFolderResult> {
  const { signal } = options;
  const level = options.compressionLevel ?? 6;
  if (signal?.aborted) throw abortError(signal);
  const target = path.resolve(outFile);
  // Required here, not imported: the extension's bundle keeps yazl in a file of its own (esbuild.mjs, split-vendored).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first folder upload, not at activation
  const zip = new (require('yazl') as typeof Yazl).ZipFile();
  const out = createWriteStream(target);
  const result: ZipFolderResult = { files: 0, bytes: 0, skipped: [] };
  let current: ReadStream | undefined;
  let failure: Error | undefined;
  const fail = (error: Error): void => {
    failure ??= error;
    current?.destroy();
    (zip.outputStream as PassThrough).destroy(failure);
  };
  const onAbort = (): void => fail(abortError(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  zip.on('error', (error: Error) => fail(error));
  const written = pipeline(zip.outputStream, out);
  written.catch((error: Error) => fail(error)); // e.g. the disk is full: stop walking too

  let reported = 0;
  const addFile = (full: string, rel: string, stats: { mtime: Date; mode: number }, compress: boolean): void => {
    zip.addReadStreamLazy(rel, { mtime: stats.mtime, mode: stats.mode & 0xffff, compressionLevel: compress ? level : 0 }, (callback) => {
      const stream = createReadStream(full);
      current = stream;
      stream.on('error', (error) => fail(unreadable(rel, error)));
      stream.on('data', (chunk) => {
        result.bytes += chunk.length;
        if (result.bytes - reported >= PROGRESS_STEP) report();
      });
      stream.on('end', () => {
        result.files++;
        report();
      });
      callback(null, stream);
    });
  };
  const report = (): void => {
    reported = result.bytes;
    options.onProgress?.({ files: result.files, bytes: result.bytes });
  };

  const walk = async (full: string, rel: string): Promise<void> => {
    const names = (await readdir(full).catch((error: Error) => Promise.reject(unreadable(rel || dir, error)))).sort(byCodeUnit);
    for (const name of names) {
      if (failure) throw failure;
      if (EXCLUDED.has(name.toLowerCase())) continue;
      const childFull = path.join(full, name);
      const childRel = (rel ? `${rel}/${name}` : name).normalize('NFC');
      if (childFull === target) continue; // the ZIP being written inside the folder itself
      const stats = await lstat(childFull).catch((error: Error) => Promise.reject(unreadable(childRel, error)));
      const isDirectory = stats.isDirectory();
      if (options.exclude?.(childRel, isDirectory)) continue;
      if (name.includes('\\') || (!isDirectory && !stats.isFile())) {
        result.skipped.push(childRel); // symbolic links are not followed; pipes and devices are not files
      } else if (isDirectory) {
        zip.addEmptyDirectory(childRel, { mtime: stats.mtime, mode: stats.mode & 0xffff });
        await walk(childFull, childRel);
      } else {
        addFile(childFull, childRel, stats, level > 0 && (await shouldCompress(childFull, childRel, stats.size)));
      }
    }
  };

  try {
    const prefix = (options.prefix ?? '').split('/').filter(Boolean);
    for (let i = 1; i <= prefix.length; i++) zip.addEmptyDirectory(prefix.slice(0, i).join('/').normalize('NFC'), { mtime: new Date() });
    await walk(path.resolve(dir), prefix.join('/'));
    if (failure) throw failure;
    zip.end();
    await written;
    if (failure) throw failure;
    return result;
  } catch (error) {
    fail(error as Error);
    await written.catch(() => undefined);
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve())); // not events.once: it rejects on 'error'
    await rm(target, { force: true });
    throw failure;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

async function shouldCompress(full: string, rel: string, size: number): Promise<boolean> {
  if (STORED_EXTENSIONS.has(path.extname(full).slice(1).toLowerCase())) return false;
  if (size < PROBE_FROM) return true;
  try {
    const handle = await open(full, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(PROBE_BYTES), 0, PROBE_BYTES, Math.floor((size - PROBE_BYTES) / 2));
      const deflated = await deflateRawAsync(buffer.subarray(0, bytesRead));
      return deflated.length <= bytesRead * (1 - MIN_SAVING);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(rel, error as Error);
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0; // not localeCompare: the order must not depend on the user's locale
}

function unreadable(rel: string, error: Error): Error {
  const reason = (error as NodeJS.ErrnoException).code ?? error.message;
  return Object.assign(new Error(`Cannot read ${rel}: ${reason}`, { cause: error }), { path: rel });
}

function abortError(signal: AbortSignal): Error {
  const error = new Error('Zipping the folder was cancelled.', { cause: signal.reason });
  error.name = 'AbortError';
  return error;
}
