import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysMatch, loadOrCreateKeys } from '../../../../src/local/store/keys';

describe('local service keys', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-keys-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates random keys once, with distinct prefixes, in a 0600 file', async () => {
    const keys = await loadOrCreateKeys(dir);
    assert.match(keys.apiKey, /^kd_local_[A-Za-z0-9_-]{43}$/);
    assert.match(keys.nluApiKey, /^kd_nlu_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(keys.apiKey.slice(9), keys.nluApiKey.slice(7));
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8')), keys);
    assert.deepEqual(await readdir(dir), ['keys.json'], 'no temp files left');
    if (process.platform !== 'win32') assert.equal((await stat(join(dir, 'keys.json'))).mode & 0o777, 0o600);
  });

  it('reuses the stored keys on later starts and tightens a loosened mode', async () => {
    const first = await loadOrCreateKeys(dir);
    if (process.platform !== 'win32') await chmod(join(dir, 'keys.json'), 0o644);
    assert.deepEqual(await loadOrCreateKeys(dir), first);
    if (process.platform !== 'win32') assert.equal((await stat(join(dir, 'keys.json'))).mode & 0o777, 0o600);
    const other = await mkdtemp(join(tmpdir(), 'kd-keys-'));
    try {
      assert.notEqual((await loadOrCreateKeys(other)).apiKey, first.apiKey);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('agrees on one set of keys when two starts race', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => loadOrCreateKeys(dir)));
    for (const keys of all) assert.deepEqual(keys, all[0]);
  });

  it('compares keys in constant time', () => {
    assert.equal(keysMatch('kd_local_abc', 'kd_local_abc'), true);
    assert.equal(keysMatch('kd_local_abc', 'kd_local_abd'), false);
    assert.equal(keysMatch('kd_local_abc', undefined), false);
    assert.equal(keysMatch('kd_local_abc', ''), false);
    assert.equal(keysMatch('kd_local_abc', 'kd_local_abcdef'), false);
    assert.equal(keysMatch('kd_local_abc', 'kd'), false);
    assert.equal(keysMatch('', ''), false, 'an empty expected key never matches');
  });
});
