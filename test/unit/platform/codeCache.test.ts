import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadWithCodeCache } from '../../../src/platform/codeCache';

// A bundle-like CommonJS file with a relative require, __dirname and enough code for V8 to cache.
function writeBundle(dir: string, marker: string): string {
  fs.writeFileSync(path.join(dir, 'dep.js'), 'module.exports = { dep: 42 };');
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${JSON.stringify(marker)}.length; }`).join(
    '\n',
  );
  const file = path.join(dir, 'main.js');
  fs.writeFileSync(
    file,
    `${body}\nexports.marker = ${JSON.stringify(marker)};\nexports.dep = require('./dep.js').dep;\nexports.dir = __dirname;\nexports.sum = f199(2);`,
  );
  return file;
}

const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

describe('V8 code cache loader (src/platform/codeCache.ts)', () => {
  let root: string;
  let cacheDir: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-codecache-'));
    cacheDir = path.join(root, 'cache');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('loads the module (exports, relative require, __dirname), writes the cache once, and the next load takes it', () => {
    const file = writeBundle(root, 'one');
    const first = loadWithCodeCache<{ marker: string; dep: number; dir: string; sum: number }>(file, { cacheDir, scriptName: 'a' });
    assert.equal(first.cache, 'miss');
    assert.deepEqual({ ...first.exports }, { marker: 'one', dep: 42, dir: root, sum: 2 * 199 + 3 });
    assert.equal(cacheFiles(cacheDir).length, 0, 'nothing written before save()');
    assert.deepEqual(first.save(), { written: true });
    assert.deepEqual(first.save(), { written: false }, 'a second save writes nothing');
    assert.equal(cacheFiles(cacheDir).length, 1);
    const second = loadWithCodeCache<{ marker: string }>(file, { cacheDir, scriptName: 'b' });
    assert.equal(second.cache, 'hit');
    assert.equal(second.exports.marker, 'one');
    assert.deepEqual(second.save(), { written: false }, 'a load that used the cache does not rewrite it');
  });

  it('a corrupt cache file is rejected by V8: the module still loads and the cache is replaced', () => {
    const file = writeBundle(root, 'two');
    loadWithCodeCache(file, { cacheDir, scriptName: 'a' }).save();
    const [name] = cacheFiles(cacheDir);
    fs.writeFileSync(path.join(cacheDir, name), Buffer.from('not a code cache at all, just bytes'));
    const load = loadWithCodeCache<{ marker: string }>(file, { cacheDir, scriptName: 'b' });
    assert.equal(load.cache, 'rejected');
    assert.equal(load.exports.marker, 'two');
    assert.deepEqual(load.save(), { written: true });
    assert.equal(loadWithCodeCache(file, { cacheDir, scriptName: 'c' }).cache, 'hit');
  });

  it('a changed bundle never uses the cache of the old one, and the old cache is removed', () => {
    const file = writeBundle(root, 'old');
    loadWithCodeCache(file, { cacheDir, scriptName: 'a' }).save();
    const [oldName] = cacheFiles(cacheDir);
    // Same length, different content: V8 alone would not tell them apart (it checks the length).
    writeBundle(root, 'new');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const load = loadWithCodeCache<{ marker: string }>(file, { cacheDir, scriptName: 'b' });
    assert.equal(load.cache, 'miss');
    assert.equal(load.exports.marker, 'new');
    load.save();
    assert.equal(cacheFiles(cacheDir).length, 1);
    assert.notEqual(cacheFiles(cacheDir)[0], oldName);
  });

  it('a cache folder that cannot be written costs nothing but the cache', () => {
    const file = writeBundle(root, 'three');
    const blocked = path.join(root, 'a-file');
    fs.writeFileSync(blocked, 'x');
    const load = loadWithCodeCache<{ marker: string }>(file, { cacheDir: path.join(blocked, 'cache'), scriptName: 'a' });
    assert.equal(load.exports.marker, 'three');
    const saved = load.save();
    assert.equal(saved.written, false);
    assert.match(saved.error ?? '', /EEXIST|ENOTDIR/);
  });

  it('without a cache folder nothing is read or written', () => {
    const file = writeBundle(root, 'four');
    const load = loadWithCodeCache<{ marker: string }>(file, { cacheDir: undefined });
    assert.equal(load.cache, 'off');
    assert.deepEqual(load.save(), { written: false });
    assert.equal(load.exports.marker, 'four');
  });

  it('an error thrown by the module reaches the caller', () => {
    const file = path.join(root, 'bad.js');
    fs.writeFileSync(file, 'throw new Error("boom at load")');
    assert.throws(() => loadWithCodeCache(file, { cacheDir }), /boom at load/);
  });
});

describe('V8 code cache loader: lazy parts of a bundle', () => {
  it('require() of a sibling file on first use works from a cached load, as dist/main.js loads dist/xlsxReader.js', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-codecache-'));
    try {
      fs.writeFileSync(path.join(root, 'lazy.js'), 'exports.value = "lazy";');
      const file = path.join(root, 'main.js');
      fs.writeFileSync(file, 'exports.later = () => require("./lazy.js").value;');
      const load = loadWithCodeCache<{ later(): string }>(file, { cacheDir: path.join(root, 'c') });
      assert.equal(load.exports.later(), 'lazy');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
