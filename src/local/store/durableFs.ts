// File-system steps that make writes survive a crash: full writes, directory fsync, and renames
// retried on Windows. Shared by the journal, the blob store, the lock and the key file.
import { type FileHandle, open, rename } from 'node:fs/promises';

export async function writeAll(handle: FileHandle, buf: Buffer, position: number): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await handle.write(buf, off, buf.length - off, position + off);
    off += bytesWritten;
  }
}

/** fsync a directory so renames/creations in it survive a power loss. Windows cannot open directories. */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (process.platform !== 'win32' && code !== 'EINVAL') throw err;
  } finally {
    await handle?.close();
  }
}

/** rename(), retried briefly on Windows where a reader or virus scanner holding the target makes it fail. */
export async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await rename(from, to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (process.platform !== 'win32' || attempt >= 10 || !['EPERM', 'EACCES', 'EBUSY'].includes(code ?? '')) throw err;
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
  }
}
