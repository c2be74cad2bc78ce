import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, truncate, unlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openPromise, type Entry } from 'yauzl';
import { DEFAULT_EXCLUDES, zipFolder } from '../../../src/core/zipFolder';
import { readZipToTemp } from '../../../src/local/kb/zipImport';

const MB = 1024 * 1024;

describe('zipFolder', () => {
  let root: string;
  let src: string;
  let temps: string;
  let n = 0;
  const tempPath = (): string => path.join(temps, `t${n++}`);

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'kd-zipfolder-'));
    src = path.join(root, 'src');
    temps = path.join(root, 'temps');
    await mkdir(src);
    await mkdir(temps);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function put(rel: string, data: string | Buffer): Promise<void> {
    await mkdir(path.dirname(path.join(src, rel)), { recursive: true });
    await writeFile(path.join(src, rel), data);
  }

  async function entries(zipFile: string): Promise<Entry[]> {
    const zip = await openPromise(zipFile, { lazyEntries: true });
    const list: Entry[] = [];
    for await (const entry of zip.eachEntry()) list.push(entry);
    zip.close();
    return list;
  }

  it('round trip: readZipToTemp gives back the same segments, sizes and sha256; excludes junk, skips symlinks', async () => {
    const files: Record<string, Buffer> = {
      'README.md': Buffer.from('# Hello\n'),
      'docs/経費精算ガイド.md': Buffer.from('経費は月末までに精算します。\n'.repeat(500)),
      'docs/nested/deep/file #1.txt': Buffer.from('hash'),
      'docs/nested/100% done.md': Buffer.from('percent'),
      'with space and ＃全角.txt': Buffer.from('space'),
      'zero.bin': Buffer.alloc(0),
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
      'large.log': Buffer.from('2025-01-01 INFO request served in 12 ms\n'.repeat(10_000)),
    };
    for (const [rel, data] of Object.entries(files)) await put(rel, data);
    await mkdir(path.join(src, 'empty', 'inner'), { recursive: true });
    await put('.git/config', '[core]');
    await put('docs/.DS_Store', 'junk');
    await put('Thumbs.db', 'junk');
    await put('ga\u304b\u3099.txt', 'nfd name'); // macOS-style decomposed name
    await symlink(path.join(src, 'README.md'), path.join(src, 'link.md'));
    await symlink(os.tmpdir(), path.join(src, 'linkdir'));

    const out = path.join(root, 'out.zip');
    const progress: number[] = [];
    const result = await zipFolder(src, out, { onProgress: (p) => progress.push(p.files) });
    assert.equal(result.files, 9);
    assert.equal(result.bytes, Object.values(files).reduce((sum, b) => sum + b.length, 0) + 'nfd name'.length);
    assert.deepEqual(result.skipped, ['link.md', 'linkdir']);
    assert.equal(progress.at(-1), 9);

    const back = await readZipToTemp(out, { tempPath });
    const expected = { ...files, 'ga\u304c.txt': Buffer.from('nfd name') };
    assert.deepEqual(
      back.files.map((f) => [f.segments.join('/'), f.size, f.sha256]).sort(),
      Object.entries(expected)
        .map(([rel, data]) => [rel, data.length, sha256(data)])
        .sort(),
    );
    assert.deepEqual(back.skipped, []);
    assert.ok(
      back.folders.some((f) => f.join('/') === 'empty/inner'),
      'empty folders survive',
    );

    const list = await entries(out);
    const names = list.map((e) => e.fileName);
    assert.deepEqual(names, [...names].sort(), 'entries are sorted');
    assert.ok(names.includes('empty/inner/'));
    assert.ok(
      list.every((e) => (e.generalPurposeBitFlag & 0x800) !== 0),
      'UTF-8 flag set',
    );
    const method = (name: string): number | undefined => list.find((e) => e.fileName === name)?.compressionMethod;
    assert.equal(method('image.png'), 0, 'PNG stored');
    assert.equal(method('large.log'), 8, 'text deflated');
    assert.ok(list.find((e) => e.fileName === 'large.log')!.compressedSize < 20_000);
  });

  it('keeps mtimes, and the same folder zips to identical bytes (deterministic)', async () => {
    await put('b.txt', 'b');
    await put('a/z.txt', 'z');
    await put('a/y.txt', 'y');
    const when = new Date('2024-03-04T05:06:08Z');
    await utimes(path.join(src, 'b.txt'), when, when);
    await zipFolder(src, path.join(root, '1.zip'));
    await zipFolder(src, path.join(root, '2.zip'));
    assert.equal(sha256(readFileSync(path.join(root, '1.zip'))), sha256(readFileSync(path.join(root, '2.zip'))));
    const list = await entries(path.join(root, '1.zip'));
    assert.deepEqual(
      list.map((e) => e.fileName),
      ['a/', 'a/y.txt', 'a/z.txt', 'b.txt'],
    );
    assert.equal(list[3].getLastModDate().getTime(), when.getTime());
    await zipFolder(src, path.join(root, 'stored.zip'), { compressionLevel: 0 });
    assert.ok(
      (await entries(path.join(root, 'stored.zip'))).every((e) => e.compressionMethod === 0),
      'level 0 stores all',
    );
  });

  it('applies DEFAULT_EXCLUDES plus the exclude option, and never zips the output into itself', async () => {
    assert.ok(DEFAULT_EXCLUDES.includes('.git') && DEFAULT_EXCLUDES.includes('__MACOSX'));
    await put('keep.txt', 'k');
    await put('node_modules/x/index.js', 'x');
    await put('.svn/entries', 's');
    await put('notes/draft.tmp', 'd');
    const seen: string[] = [];
    const out = path.join(src, 'self.zip');
    await zipFolder(src, out, {
      exclude: (rel, isDirectory) => {
        seen.push(`${rel}${isDirectory ? '/' : ''}`);
        return rel === 'node_modules' || rel.endsWith('.tmp');
      },
    });
    assert.deepEqual(
      (await entries(out)).map((e) => e.fileName),
      ['keep.txt', 'notes/'],
    );
    assert.ok(!seen.includes('node_modules/x/'), 'an excluded directory is not entered');
  });

  it('rejects naming a file that cannot be read, and deletes the partial ZIP', async () => {
    await put('a.txt', 'a');
    await put('secret.txt', 'secret');
    const out = path.join(root, 'out.zip');
    const isRoot = process.getuid?.() === 0;
    if (!isRoot) await chmod(path.join(src, 'secret.txt'), 0o000);
    // root reads anything: make the file vanish between listing and reading instead
    const exclude = (rel: string): boolean => {
      if (isRoot && rel === 'secret.txt') void unlink(path.join(src, rel));
      return false;
    };
    await assert.rejects(zipFolder(src, out, { exclude }), /Cannot read secret\.txt: (EACCES|ENOENT)/);
    assert.equal(existsSync(out), false);
  });

  it('an abort stops, deletes the partial ZIP and rejects with an AbortError', async () => {
    await put('a.txt', 'a');
    await writeFile(path.join(src, 'big.bin'), '');
    await truncate(path.join(src, 'big.bin'), 100 * MB);
    const controller = new AbortController();
    const out = path.join(root, 'out.zip');
    const started = Date.now();
    await assert.rejects(zipFolder(src, out, { signal: controller.signal, onProgress: (p) => p.bytes > 0 && controller.abort() }), {
      name: 'AbortError',
    });
    assert.ok(Date.now() - started < 3000, 'stopped promptly');
    assert.equal(existsSync(out), false);
    assert.deepEqual(await readdir(root), ['src', 'temps']);
    await assert.rejects(zipFolder(src, out, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(existsSync(out), false);
  });

  it('streams 200 MB files (deflated and stored) with flat memory; prints throughput and RSS growth', async () => {
    // The first zip in a process costs ~30 MB once (zlib state, buffers awaiting GC) whatever the
    // file size; warm up on 16 MB so the figure below is what the 200 MB adds.
    await sparse('warm.log', 16 * MB);
    await zipFolder(src, path.join(root, 'warm.zip'));
    await rm(path.join(src, 'warm.log'));
    for (const [name, label] of [
      ['big.log', 'deflated'],
      ['big.mp4', 'stored'],
    ] as const) {
      await sparse(name, 200 * MB);
      const out = path.join(root, `${label}.zip`);
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const started = process.hrtime.bigint();
      try {
        await zipFolder(src, out);
      } finally {
        clearInterval(timer);
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      peak = Math.max(peak, process.memoryUsage().rss);
      const growth = (peak - before) / MB;
      const size = (await stat(out)).size;
      console.log(
        `      200 MB ${label}: ${(200 / seconds).toFixed(0)} MB/s, zip ${(size / MB).toFixed(2)} MB, RSS growth ${growth.toFixed(1)} MB`,
      );
      assert.ok(growth < 30, `RSS grew by ${growth.toFixed(1)} MB`);
      const [entry] = await entries(out);
      assert.equal(entry.uncompressedSize, 200 * MB);
      assert.equal(entry.compressionMethod, label === 'stored' ? 0 : 8);
      await rm(path.join(src, name));
    }
  });

  async function sparse(name: string, size: number): Promise<void> {
    await writeFile(path.join(src, name), '');
    await truncate(path.join(src, name), size); // sparse: costs no disk
  }
});

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
