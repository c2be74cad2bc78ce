import Busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { HttpError } from './errors';
import { FILE_MODE } from '../store/fileModes';

/** Reads a JSON body up to `limit` bytes. An empty body is `undefined`. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidJsonError();
  }
}

export class InvalidJsonError extends Error {
  constructor() {
    super('The request body is not valid JSON.');
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `The request body is larger than the limit of ${formatBytes(limit)}.`);
}

export interface UploadedFile {
  field: string;
  /** File name from the part's Content-Disposition (UTF-8). */
  fileName: string;
  mimeType: string;
  tempPath: string;
  size: number;
  sha256: string;
}

export interface MultipartBody {
  fields: Map<string, string[]>;
  files: UploadedFile[];
}

export interface MultipartOptions {
  maxFileBytes: number;
  /** Path for the next incoming file (inside the data folder, so renaming into the blob store is cheap). */
  tempPath: () => string;
  maxFiles?: number;
  maxFields?: number;
}

/**
 * Streams a multipart body to disk, hashing on the way. An over-limit file → 413 and every temp
 * file written for this request is deleted (nothing left behind).
 */
export async function readMultipart(req: IncomingMessage, options: MultipartOptions): Promise<MultipartBody> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw new HttpError(400, 'Expected a multipart/form-data body.');
  const fields = new Map<string, string[]>();
  const files: UploadedFile[] = [];
  const writes: Array<Promise<void>> = [];
  let failure: Error | undefined;

  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: req.headers,
      defParamCharset: 'utf8', // file names in Japanese arrive as UTF-8 bytes
      limits: {
        fileSize: options.maxFileBytes,
        files: options.maxFiles ?? 1,
        fields: options.maxFields ?? 100,
        fieldSize: 1024 * 1024,
      },
    });
  } catch (error) {
    throw new HttpError(400, `Malformed multipart body: ${(error as Error).message}`);
  }

  busboy.on('field', (name, value, info) => {
    if (info.valueTruncated) failure ??= new HttpError(400, `The field ${name} is too long.`, { field: name });
    const list = fields.get(name) ?? [];
    list.push(value);
    fields.set(name, list);
  });
  busboy.on('file', (field, stream, info) => {
    const tempPath = options.tempPath();
    const hash = createHash('sha256');
    let size = 0;
    const file: UploadedFile = { field, fileName: info.filename ?? '', mimeType: info.mimeType, tempPath, size: 0, sha256: '' };
    files.push(file);
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
    });
    stream.on('limit', () => {
      failure ??= new HttpError(413, `The file is larger than the upload limit of ${formatBytes(options.maxFileBytes)}.`, { field });
    });
    writes.push(
      pipeline(stream, createWriteStream(tempPath, { mode: FILE_MODE })).then(() => {
        file.size = size;
        file.sha256 = hash.digest('hex');
      }),
    );
  });
  busboy.on('filesLimit', () => (failure ??= new HttpError(400, 'Too many files in one request.')));
  busboy.on('fieldsLimit', () => (failure ??= new HttpError(400, 'Too many fields in one request.')));

  try {
    await pipeline(req, busboy);
    await Promise.all(writes);
  } catch (error) {
    failure ??= error instanceof HttpError ? error : new HttpError(400, `Malformed multipart body: ${(error as Error).message}`);
  }
  if (failure) {
    await Promise.allSettled(writes);
    await Promise.all(files.map((f) => rm(f.tempPath, { force: true })));
    throw failure;
  }
  return { fields, files };
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
