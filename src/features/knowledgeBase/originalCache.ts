// Open Original's cache of downloaded documents in globalStorage (no vscode: unit-tested in Node against
// the local service). One entry per node id and update time, so a replaced document is downloaded again:
//   <dir>/<id>@<updatedAt>/<file name>      the bytes
//   <dir>/<id>@<updatedAt>/.meta.json       content type and size
// A download goes to a temporary directory that is renamed into place only when complete, so a download
// cut mid-way (network, cancel, over the limit) leaves nothing behind. The whole cache stays under a size
// limit: older entries go first; a single document over the limit is refused with a clear error.
// @vscode/l10n, not vscode: src/platform/l10n.ts hands it the bundle at activation.
import * as l10n from '@vscode/l10n';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { finished } from 'node:stream/promises';
import type { NodeDownload } from '../../api/schemas/kbOps';

export interface CachedOriginal {
  path: string;
  contentType: string;
  size: number;
  fromCache: boolean;
}

export interface OriginalSource {
  download(nodeId: string, options?: { signal?: AbortSignal }): Promise<NodeDownload>;
}

/** The document is larger than the whole cache may be. */
export class OriginalTooLargeError extends Error {
  override readonly name = 'OriginalTooLargeError';
  constructor(
    readonly fileName: string,
    readonly size: number,
    readonly limit: number,
    /** Known only to exceed the limit (no Content-Length): `size` is where the download stopped. */
    atLeast = false,
  ) {
    super(
      atLeast
        ? l10n.t(
            '"{0}" is over {1} MB; documents opened from the knowledge base are limited to {2} MB (setting {3}).',
            fileName,
            mb(limit),
            mb(limit),
            'knowledgeDesk.originalsCacheMb',
          )
        : l10n.t(
            '"{0}" is {1} MB; documents opened from the knowledge base are limited to {2} MB (setting {3}).',
            fileName,
            mb(size),
            mb(limit),
            'knowledgeDesk.originalsCacheMb',
          ),
    );
  }
}

const META = '.meta.json';

export class OriginalCache {
  constructor(
    private readonly dir: string,
    private readonly maxBytes: () => number,
  ) {}

  /** The cached file of `node`, downloading it first when this version is not cached. */
  async get(source: OriginalSource, node: { id: string; name: string; updatedAt: number }, signal?: AbortSignal): Promise<CachedOriginal> {
    const entry = path.join(this.dir, entryName(node.id, node.updatedAt));
    const hit = await this.read(entry);
    if (hit) {
      const now = new Date();
      await utimes(entry, now, now).catch(() => undefined); // most recently used: evicted last
      return { ...hit, fromCache: true };
    }
    const limit = this.maxBytes();
    const download = await source.download(node.id, { signal });
    const fileName = safeFileName(download.fileName || node.name);
    if (download.size !== undefined && download.size > limit) {
      download.cancel();
      throw new OriginalTooLargeError(fileName, download.size, limit);
    }
    await mkdir(this.dir, { recursive: true });
    const temp = path.join(this.dir, `.partial-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    await mkdir(temp);
    let size = 0;
    try {
      const out = createWriteStream(path.join(temp, fileName));
      try {
        for await (const chunk of download.body) {
          size += chunk.byteLength;
          if (size > limit) throw new OriginalTooLargeError(fileName, size, limit, true);
          if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        }
      } finally {
        download.cancel();
        out.end();
        await finished(out).catch(() => undefined);
      }
      await writeFile(path.join(temp, META), JSON.stringify({ contentType: download.contentType, fileName, size }));
      await this.makeRoom(limit - size);
      await rm(entry, { recursive: true, force: true });
      await rename(temp, entry);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
    return { path: path.join(entry, fileName), contentType: download.contentType, size, fromCache: false };
  }

  /** Bytes held by complete entries. */
  async size(): Promise<number> {
    return (await this.entries()).reduce((sum, e) => sum + e.size, 0);
  }

  /** Names of the entries and of anything else in the cache directory (tests: nothing half-written stays). */
  async list(): Promise<string[]> {
    return (await readdir(this.dir).catch(() => [] as string[])).sort();
  }

  private async read(entry: string): Promise<Omit<CachedOriginal, 'fromCache'> | undefined> {
    try {
      const meta = JSON.parse(await readFile(path.join(entry, META), 'utf8')) as { contentType: string; fileName: string; size: number };
      const file = path.join(entry, meta.fileName);
      const s = await stat(file);
      if (s.size !== meta.size) return undefined;
      return { path: file, contentType: meta.contentType, size: meta.size };
    } catch {
      return undefined;
    }
  }

  private async entries(): Promise<Array<{ dir: string; size: number; used: number }>> {
    const out: Array<{ dir: string; size: number; used: number }> = [];
    for (const name of await this.list()) {
      if (name.startsWith('.')) continue;
      const dir = path.join(this.dir, name);
      const hit = await this.read(dir);
      if (!hit) {
        await rm(dir, { recursive: true, force: true }); // damaged: never served
        continue;
      }
      out.push({ dir, size: hit.size, used: (await stat(dir)).mtimeMs });
    }
    return out;
  }

  /** Removes least recently used entries until `free` more bytes fit. */
  private async makeRoom(budget: number): Promise<void> {
    const entries = (await this.entries()).sort((a, b) => a.used - b.used);
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    for (const e of entries) {
      if (total <= budget) break;
      await rm(e.dir, { recursive: true, force: true });
      total -= e.size;
    }
  }
}

function entryName(id: string, updatedAt: number): string {
  return `${id.replace(/[^\w.-]/g, '_')}@${Math.trunc(updatedAt) || 0}`;
}

/** A file name safe on every platform, keeping the extension (VS Code picks the editor from it). */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  const unsafe = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;
  const cleaned = name
    .replace(unsafe, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return (cleaned || 'document').slice(-120);
}

function mb(bytes: number): string {
  return (bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0);
}
