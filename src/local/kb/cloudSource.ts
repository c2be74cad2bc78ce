import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { realpath, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { badRequest, HttpError } from '../http/errors';
import { formatBytes } from '../http/body';
import { checkOpened, openForCheck } from './openedFile';
import type { IncomingFile } from './uploadOptions';

/**
 * Cloud uploads in the local service (docs/api.md#cloud-uploads-in-the-local-service): the object path may be a file:// URL inside
 * the folders the service was told to allow (the extension passes the open workspace folders);
 * anything else is a clear 400, since the local service cannot reach cloud stores.
 */
export async function fetchFileUrl(
  value: string,
  field: string,
  allowedRoots: readonly string[],
  maxBytes: number,
  tempPath: string,
): Promise<IncomingFile> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(
      `${field}: the local service cannot reach cloud stores; give a file:// URL of a file inside ${describeRoots(allowedRoots)}.`,
      field,
    );
  }
  if (url.protocol !== 'file:') {
    throw badRequest(
      `${field}: the local service cannot reach cloud stores (${url.protocol}//…); give a file:// URL of a file inside ${describeRoots(allowedRoots)}.`,
      field,
    );
  }
  const roots = (await Promise.all(allowedRoots.map((r) => realpath(r).catch(() => undefined)))).filter((r) => r !== undefined);
  let handle;
  try {
    handle = await openForCheck(fileURLToPath(url));
  } catch {
    throw badRequest(`${field}: no such file: ${value}`, field);
  }
  try {
    // The opened file is checked, and read: a path swapped after the open cannot lead outside the allowed folders.
    const check = await checkOpened(handle, fileURLToPath(url), roots);
    if (!check.ok && check.problem === 'notFile') throw badRequest(`${field}: ${value} is not a file.`, field);
    if (!check.ok) {
      throw badRequest(`${field}: ${value} is outside the folders the local service may read (${describeRoots(allowedRoots)}).`, field);
    }
    if (check.size > maxBytes) throw new HttpError(413, `The file is larger than the upload limit of ${formatBytes(maxBytes)}.`, { field });
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(handle.createReadStream({ start: 0, autoClose: false }), tap, createWriteStream(tempPath, { mode: 0o600 }));
    } catch (error) {
      await rm(tempPath, { force: true });
      throw badRequest(`${field}: cannot read ${value}: ${(error as Error).message}`, field);
    }
    return { tempPath, sha256: hash.digest('hex'), size };
  } finally {
    await handle.close();
  }
}

function describeRoots(roots: readonly string[]): string {
  return roots.length ? roots.join(', ') : 'no folder (none is allowed)';
}
