import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { BlobStore, InvalidBlobHashError } from '../../../../src/local/store/blobs';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

describe('BlobStore', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-blobs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a buffer under its sha256 and reads it back', async () => {
    const store = await BlobStore.open(dir);
    const { hash, size } = await store.putBuffer('hello world');
    assert.equal(hash, sha256('hello world'));
    assert.equal(size, 11);
    assert.equal(store.path(hash), join(dir, hash.slice(0, 2), hash.slice(2)));
    assert.equal(store.has(hash), true);
    assert.equal(await store.size(hash), 11);
    assert.equal((await store.read(hash)).toString(), 'hello world');
    assert.equal(await text(store.createReadStream(hash) as NodeJS.ReadableStream & AsyncIterable<Buffer>), 'hello world');
  });

  it('hashes a multi-MB upload by streaming and moves it into place', async () => {
    const store = await BlobStore.open(dir);
    const data = randomBytes(12 * 1024 * 1024 + 123);
    const temp = store.tempPath();
    assert.ok(temp.startsWith(join(dir, 'tmp')));
    await writeFile(temp, data);
    const { hash, size } = await store.putFile(temp);
    assert.equal(hash, sha256(data));
    assert.equal(size, data.length);
    assert.deepEqual(await readdir(join(dir, 'tmp')), []);
    assert.ok((await store.read(hash)).equals(data));
  });

  it('deduplicates identical content and removes the redundant temp file', async () => {
    const store = await BlobStore.open(dir);
    const first = await store.putBuffer(Buffer.from('same bytes'));
    const temp = store.tempPath();
    await writeFile(temp, 'same bytes');
    const second = await store.putFile(temp);
    assert.deepEqual(second, first);
    assert.deepEqual(await readdir(join(dir, 'tmp')), []);
    assert.deepEqual(await readdir(join(dir, first.hash.slice(0, 2))), [first.hash.slice(2)]);
    // Concurrent puts of the same content end up as one blob.
    const results = await Promise.all(Array.from({ length: 5 }, () => store.putBuffer('same bytes')));
    assert.ok(results.every((r) => r.hash === first.hash));
  });

  it('rejects invalid hashes before touching the file system', async () => {
    const store = await BlobStore.open(dir);
    for (const bad of ['../../etc/passwd', 'A'.repeat(64), 'a'.repeat(63), `${'a'.repeat(62)}/x`, '']) {
      assert.throws(() => store.path(bad), InvalidBlobHashError);
      assert.throws(() => store.createReadStream(bad), InvalidBlobHashError);
      await assert.rejects(async () => store.read(bad), InvalidBlobHashError);
      await assert.rejects(async () => store.delete(bad), InvalidBlobHashError);
      await assert.rejects(async () => store.size(bad), InvalidBlobHashError);
      assert.equal(store.has(bad), false);
    }
  });

  it('empties tmp on open and finds existing blobs again', async () => {
    const store = await BlobStore.open(dir);
    const { hash } = await store.putBuffer('kept');
    await writeFile(store.tempPath(), 'partial upload from a crash');
    await mkdir(join(dir, 'tmp', 'nested'));
    const reopened = await BlobStore.open(dir);
    assert.deepEqual(await readdir(join(dir, 'tmp')), []);
    assert.equal(reopened.has(hash), true);
    assert.equal(reopened.has(sha256('never stored')), false);
  });

  it('deletes, and garbage-collects unreferenced blobs', async () => {
    const store = await BlobStore.open(dir);
    const a = await store.putBuffer('a');
    const b = await store.putBuffer('b');
    const c = await store.putBuffer('c');
    await store.delete(c.hash);
    assert.equal(store.has(c.hash), false);
    await store.delete(c.hash); // already gone: no error
    assert.equal(await store.gc(new Set([a.hash])), 1);
    assert.equal(store.has(a.hash), true);
    assert.equal(store.has(b.hash), false);
    await assert.rejects(stat(store.path(b.hash)), { code: 'ENOENT' });
  });

  it('keeps a held blob, and one that is in use again at the moment of deletion', async () => {
    const store = await BlobStore.open(dir);
    const { hash } = await store.putBuffer('shared');
    const release = store.hold(hash);
    await store.delete(hash);
    assert.equal(store.has(hash), true, 'held: not deleted');
    release();
    release(); // twice is harmless
    let inUse = true;
    await store.delete(hash, () => !inUse);
    assert.equal(store.has(hash), true, 'still used when the deletion ran');
    inUse = false;
    await store.delete(hash, () => !inUse);
    assert.equal(store.has(hash), false);
    await assert.rejects(store.read(hash), { code: 'ENOENT' });
  });

  it('spares recently stored blobs when gc is given olderThanMs', async () => {
    const store = await BlobStore.open(dir);
    const old = await store.putBuffer('old');
    const fresh = await store.putBuffer('fresh');
    const past = new Date(Date.now() - 3_600_000);
    await utimes(store.path(old.hash), past, past);
    assert.equal(await store.gc(new Set(), { olderThanMs: 60_000 }), 1);
    assert.equal(store.has(old.hash), false);
    assert.equal(store.has(fresh.hash), true);
  });
});
