// Open once, then check (docs/local-service.md#file-uploads-from-allowed-folders): a file:// upload opens the
// path first and then checks the file it actually opened, and reads from that same descriptor. Checking a path
// and then opening it again left a window in which a folder on the way could be swapped for a symlink to a
// file outside the allowed folders.
import { constants } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export type OpenedCheck = { ok: true; real: string; size: number } | { ok: false; problem: 'outside' | 'notFile' };

/**
 * Opens `file` for reading without blocking on a FIFO or a device (O_NONBLOCK, where it exists); the caller checks
 * it with checkOpened and closes it. A symlink is followed: what counts is where the opened file really is.
 */
export function openForCheck(file: string): Promise<FileHandle> {
  const nonBlock = process.platform === 'win32' ? 0 : constants.O_NONBLOCK;
  return open(file, constants.O_RDONLY | nonBlock);
}

/**
 * Where the opened file really is, and whether that is inside one of `roots` (already real paths) as a regular file.
 * Linux: the descriptor's own path (/proc/self/fd/N), so nothing done to `file` after the open can change the answer.
 * Elsewhere (no /proc): the real path of `file` now, accepted only if it is the very file the descriptor holds (same
 * device and inode); a swap after the open makes them differ and the upload is refused.
 */
export async function checkOpened(
  handle: FileHandle,
  file: string,
  roots: readonly string[],
  { procFs = process.platform === 'linux' } = {},
): Promise<OpenedCheck> {
  const info = await handle.stat();
  if (!info.isFile()) return { ok: false, problem: 'notFile' };
  const real = (procFs ? await descriptorPath(handle) : undefined) ?? (await samePathFallback(file, info));
  if (!real || !roots.some((root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep))) {
    return { ok: false, problem: 'outside' };
  }
  return { ok: true, real, size: info.size };
}

async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  const link = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  // " (deleted)" marks an unlinked file: not a path that can be checked.
  return link && path.isAbsolute(link) && !link.endsWith(' (deleted)') ? link : undefined;
}

async function samePathFallback(file: string, opened: { dev: number; ino: number }): Promise<string | undefined> {
  try {
    const real = await realpath(file);
    const now = await stat(real);
    return now.dev === opened.dev && now.ino === opened.ino ? real : undefined;
  } catch {
    return undefined;
  }
}
