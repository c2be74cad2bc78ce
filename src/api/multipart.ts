import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** A file part, streamed from disk when the request is sent (never read whole into memory). */
export interface FilePart {
  kind: 'file';
  path: string;
  fileName: string;
  contentType?: string;
}

/** An in-memory part, for small generated content (tests, CSV built by the extension). */
export interface BufferPart {
  kind: 'buffer';
  data: Uint8Array | string;
  fileName: string;
  contentType?: string;
}

export type MultipartValue = string | number | boolean | FilePart | BufferPart | readonly unknown[] | Record<string, unknown>;
export type MultipartFields = Record<string, MultipartValue | null | undefined>;

/** A multipart/form-data body ready to send: a stream of the parts and the headers that describe it. */
export interface EncodedForm {
  body: Readable;
  headers: { 'content-type': string; 'content-length': string };
}

function isPart(value: unknown): value is FilePart | BufferPart {
  return typeof value === 'object' && value !== null && 'kind' in value && (value.kind === 'file' || value.kind === 'buffer');
}

/** Names and file names in a part header, escaped as browsers (and undici's FormData) do. */
const escapeName = (s: string): string => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
/** Text values with normalised line breaks, as browsers send them. */
const normalizeLines = (s: string): string => s.replace(/\r?\n|\r/g, '\r\n');

type Piece = Buffer | { path: string; size: number };

/**
 * Builds the body for one attempt. Array and object fields go as one field holding JSON text,
 * booleans as `true` / `false` (docs/api.md#multipart-encoding). Called again for each retry, because
 * a streamed file can be read only once.
 *
 * Encoded here rather than with FormData + fs.openAsBlob: when a connection dropped mid-upload, the
 * blob's file read was neither finished nor cancelled, so the file stayed open and kept the process
 * alive. A Readable is destroyed with the request, and so is the file stream it is reading.
 */
export async function buildForm(fields: MultipartFields): Promise<EncodedForm> {
  const boundary = `----KnowledgeDesk${randomBytes(16).toString('hex')}`;
  const pieces: Piece[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"`;
    if (isPart(value)) {
      const type = value.contentType ?? 'application/octet-stream';
      head += `; filename="${escapeName(value.fileName)}"\r\nContent-Type: ${type}\r\n\r\n`;
      pieces.push(Buffer.from(head, 'utf8'));
      if (value.kind === 'file') pieces.push({ path: value.path, size: (await stat(value.path)).size });
      else pieces.push(Buffer.from(value.data));
    } else {
      pieces.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'));
      pieces.push(Buffer.from(typeof value === 'object' ? JSON.stringify(value) : normalizeLines(String(value)), 'utf8'));
    }
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const length = pieces.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.size), 0);
  return {
    body: Readable.from(emit(pieces), { objectMode: false }),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
  };
}

async function* emit(pieces: Piece[]): AsyncGenerator<Buffer> {
  for (const piece of pieces) {
    if (Buffer.isBuffer(piece)) {
      yield piece;
      continue;
    }
    if (piece.size === 0) continue;
    // Exactly the bytes counted in content-length, even if the file grows meanwhile; a file that shrank
    // ends the body early, and the service sees a short request rather than a wrong file.
    const file = createReadStream(piece.path, { start: 0, end: piece.size - 1 });
    try {
      for await (const chunk of file) yield chunk as Buffer;
    } finally {
      file.destroy();
    }
  }
}
