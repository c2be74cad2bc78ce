// Content-addressed files: dir/<first 2 hex>/<remaining 62 hex> of the SHA-256. Uploads land in
// dir/tmp, are hashed while streaming, fsynced and renamed into place.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, open, readdir, readFile, rm, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { renameWithRetry, syncDir } from './durableFs';
import { DIR_MODE, FILE_MODE } from './fileModes';

const HASH = /^[0-9a-f]{64}$/;

export class InvalidBlobHashError extends Error {
  constructor(hash: unknown) {
    super(`Invalid blob hash: ${JSON.stringify(String(hash).slice(0, 80))}`);
    this.name = 'InvalidBlobHashError';
  }
}

export class BlobStore {
  // Serialises put/delete of the same hash so a dedupe never races a delete of that blob.
  private readonly busy = new Map<string, Promise<unknown>>();
  private readonly holds = new Map<string, number>();

  private constructor(
    private readonly dir: string,
    private readonly known: Set<string>,
  ) {}

  static async open(dir: string): Promise<BlobStore> {
    const tmp = join(dir, 'tmp');
    await rm(tmp, { recursive: true, force: true }); // partial uploads from a crash
    await mkdir(tmp, { recursive: true, mode: DIR_MODE });
    return new BlobStore(dir, new Set((await listBlobs(dir)).map((b) => b.hash)));
  }

  /** A fresh path for an incoming upload (same file system as the store, so the final rename is atomic). */
  tempPath(): string {
    return join(this.dir, 'tmp', randomUUID());
  }

  /** Moves `tempFile` into the store under its SHA-256, hashed by streaming. */
  /**
   * `known` is the digest the caller computed while writing the temp file (the multipart parser
   * hashes on the way in), which saves reading the file a second time.
   */
  async putFile(tempFile: string, known?: { hash: string; size: number }): Promise<{ hash: string; size: number }> {
    const { hash, size } = known && HASH.test(known.hash) ? known : await hashFile(tempFile);
    await this.install(hash, tempFile);
    return { hash, size };
  }

  async putBuffer(data: Buffer | string): Promise<{ hash: string; size: number }> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const hash = createHash('sha256').update(buf).digest('hex');
    const tmp = this.tempPath();
    await writeDurably(tmp, buf);
    await this.install(hash, tmp);
    return { hash, size: buf.length };
  }

  has(hash: string): boolean {
    return HASH.test(hash) && this.known.has(hash);
  }

  path(hash: string): string {
    if (!HASH.test(hash)) throw new InvalidBlobHashError(hash);
    return join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  async size(hash: string): Promise<number> {
    return (await stat(this.path(hash))).size;
  }

  createReadStream(hash: string): NodeJS.ReadableStream {
    return createReadStream(this.path(hash));
  }

  read(hash: string): Promise<Buffer> {
    return readFile(this.path(hash));
  }

  /**
   * Keeps `hash` from being deleted until the returned function is called: an upload holds its blob from
   * before it is stored until the record naming it is committed, so a delete that found it unused cannot
   * remove it in between.
   */
  hold(hash: string): () => void {
    this.holds.set(hash, (this.holds.get(hash) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.holds.get(hash) ?? 1) - 1;
      if (n > 0) this.holds.set(hash, n);
      else this.holds.delete(hash);
    };
  }

  /** Deletes the blob unless it is held or `stillUnused` (checked at the moment of deletion) says otherwise. */
  delete(hash: string, stillUnused?: () => boolean): Promise<void> {
    const path = this.path(hash);
    return this.exclusive(hash, async () => {
      if (this.holds.has(hash) || (stillUnused && !stillUnused())) return;
      await unlink(path).catch((err) => {
        if (err.code !== 'ENOENT') throw err;
      });
      this.known.delete(hash);
    });
  }

  /**
   * Removes blobs not in `referenced`; returns how many. An upload that is stored but not yet
   * referenced by a committed record would be removed too: run gc while no upload is in flight,
   * or pass `olderThanMs` (puts refresh the blob's mtime, also when deduplicated).
   */
  async gc(referenced: Set<string>, options: { olderThanMs?: number } = {}): Promise<number> {
    const cutoff = Date.now() - (options.olderThanMs ?? 0);
    let removed = 0;
    for (const { hash, path } of await listBlobs(this.dir)) {
      if (referenced.has(hash)) continue;
      if (options.olderThanMs) {
        const info = await stat(path).catch(() => undefined);
        if (!info || info.mtimeMs > cutoff) continue;
      }
      await this.delete(hash);
      removed++;
    }
    return removed;
  }

  private install(hash: string, tempFile: string): Promise<void> {
    const target = this.path(hash);
    return this.exclusive(hash, async () => {
      if (await exists(target)) {
        await unlink(tempFile);
        const now = new Date();
        await utimes(target, now, now).catch(() => undefined);
      } else {
        const sub = join(this.dir, hash.slice(0, 2));
        const created = !(await exists(sub));
        await mkdir(sub, { recursive: true, mode: DIR_MODE });
        // Copies (a seeded folder, a ZIP entry) keep their source's mode: the stored file is its owner's alone.
        await chmod(tempFile, FILE_MODE).catch(() => undefined);
        await moveInto(tempFile, target, this.dir);
        await syncDir(sub);
        if (created) await syncDir(this.dir);
      }
      this.known.add(hash);
    });
  }

  private exclusive<T>(hash: string, task: () => Promise<T>): Promise<T> {
    const run = (this.busy.get(hash) ?? Promise.resolve()).catch(() => undefined).then(task);
    this.busy.set(hash, run);
    const cleanup = (): void => void (this.busy.get(hash) === run && this.busy.delete(hash));
    run.then(cleanup, cleanup);
    return run;
  }
}

/** Streams the file through SHA-256 (never the whole file in memory) and fsyncs it. */
async function hashFile(file: string): Promise<{ hash: string; size: number }> {
  const handle = await open(file, 'r+'); // writable: Windows refuses to flush a read-only handle
  try {
    const hasher = createHash('sha256');
    let size = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 1 << 20 })) {
      hasher.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    await handle.sync();
    return { hash: hasher.digest('hex'), size };
  } finally {
    await handle.close();
  }
}

async function writeDurably(path: string, data: Buffer): Promise<void> {
  const handle = await open(path, 'w', FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** rename(); a temp file on another device is first copied (and fsynced) next to the store. */
async function moveInto(from: string, to: string, dir: string): Promise<void> {
  try {
    await renameWithRetry(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    const local = join(dir, 'tmp', randomUUID());
    await copyFile(from, local);
    const handle = await open(local, 'r+');
    await handle.sync().finally(() => handle.close());
    await renameWithRetry(local, to);
    await unlink(from);
  }
}

async function listBlobs(dir: string): Promise<{ hash: string; path: string }[]> {
  const out: { hash: string; path: string }[] = [];
  for (const sub of await readdir(dir)) {
    if (!/^[0-9a-f]{2}$/.test(sub)) continue;
    for (const rest of await readdir(join(dir, sub)).catch(() => [] as string[])) {
      const hash = sub + rest;
      if (HASH.test(hash)) out.push({ hash, path: join(dir, sub, rest) });
    }
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
