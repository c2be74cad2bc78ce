import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { readZipToTemp, ZipImportError, type ZipLimits } from '../../../src/local/kb/zipImport';
import { craftZip, unicodePathField, type CraftEntry } from './craft';

const MB = 1024 * 1024;

describe('readZipToTemp', () => {
  let dir: string;
  let temps: string;
  let counter = 0;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kd-zipimport-'));
    temps = path.join(dir, 'temps');
    await import('node:fs/promises').then((fs) => fs.mkdir(temps));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const tempPath = (): string => path.join(temps, `t${counter++}`);
  const leftovers = (): Promise<string[]> => readdir(temps);

  async function read(entries: CraftEntry[] | Buffer, limits: ZipLimits & { signal?: AbortSignal; tempPath?: () => string } = {}) {
    const file = path.join(dir, `in${counter++}.zip`);
    await writeFile(file, Buffer.isBuffer(entries) ? entries : craftZip(entries));
    return readZipToTemp(file, { tempPath, ...limits });
  }

  async function rejects(promise: Promise<unknown>, status: 400 | 413, pattern: RegExp): Promise<void> {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof ZipImportError, `expected a ZipImportError, got ${String(error)}`);
      assert.equal(error.status, status, error.message);
      assert.match(error.message, pattern);
      return true;
    });
    assert.deepEqual(await leftovers(), [], 'temp files were left behind');
  }

  const hello = { name: 'ok.txt', data: Buffer.from('hello') };

  it('extracts files with their folders, hashes and sizes; records empty folders parents first', async () => {
    const data = Buffer.from('x'.repeat(10_000));
    const result = await read([
      { name: 'empty/dir/', method: 0 },
      { name: 'docs/a.txt', data },
      { name: './top.txt', data: Buffer.alloc(0), method: 0 },
    ]);
    assert.deepEqual(result.folders, [['empty'], ['empty', 'dir'], ['docs']]);
    assert.deepEqual(
      result.files.map((f) => [f.segments, f.size]),
      [
        [['docs', 'a.txt'], 10_000],
        [['top.txt'], 0],
      ],
    );
    assert.equal(result.files[0].sha256, createHash('sha256').update(data).digest('hex'));
    assert.deepEqual(readFileSync(result.files[0].tempPath), data);
    assert.deepEqual(result.skipped, []);
  });

  for (const name of [
    '../evil.txt',
    '/abs.txt',
    'a/../../b.txt',
    'C:\\x.txt',
    'a\\..\\..\\b.txt',
    'C:/x.txt',
    '\\\\server\\share\\x.txt',
  ]) {
    it(`rejects the zip-slip entry ${JSON.stringify(name)} naming it, and writes nothing`, async () => {
      await rejects(read([hello, { name, data: Buffer.from('pwned') }]), 400, new RegExp(escape(JSON.stringify(name))));
    });
  }

  it('skips symbolic links, special files, __MACOSX and OS junk, listing them with a reason', async () => {
    const result = await read([
      hello,
      { name: 'link', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 },
      { name: 'fifo', unixMode: 0o010644 },
      { name: '__MACOSX/._ok.txt', data: Buffer.from('resource fork') },
      { name: '__MACOSX/', method: 0 },
      { name: 'sub/.DS_Store', data: Buffer.from('x') },
      { name: 'THUMBS.DB', data: Buffer.from('x') },
      { name: 'desktop.ini', data: Buffer.from('x') },
      { name: 'unix.txt', data: Buffer.from('regular'), unixMode: 0o100644 },
    ]);
    assert.deepEqual(
      result.files.map((f) => f.segments.join('/')),
      ['ok.txt', 'unix.txt'],
    );
    assert.deepEqual(result.folders, [], '__MACOSX and folders of junk files are not created');
    assert.deepEqual(
      result.skipped.map((s) => `${s.name}: ${s.reason}`),
      [
        'link: symbolic link',
        'fifo: not a regular file',
        '__MACOSX/._ok.txt: macOS metadata (__MACOSX)',
        '__MACOSX/: macOS metadata (__MACOSX)',
        'sub/.DS_Store: operating-system metadata file',
        'THUMBS.DB: operating-system metadata file',
        'desktop.ini: operating-system metadata file',
      ],
    );
  });

  it('decodes names: Shift_JIS without the UTF-8 flag, UTF-8 without the flag, Unicode Path field, CP437, NFC', async () => {
    const sjis = Buffer.from([0x8e, 0x91, 0x97, 0xbf, 0x2f, 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x2e, 0x74, 0x78, 0x74]); // 資料/日本語.txt
    const legacy = Buffer.from([0x83, 0x65, 0x83, 0x58, 0x83, 0x67, 0x2e, 0x74, 0x78, 0x74]); // テスト.txt in Shift_JIS
    const result = await read([
      { name: sjis, data: Buffer.from('sjis') },
      { name: Buffer.from('macOS/議事録.md', 'utf8'), utf8Flag: false, data: Buffer.from('utf8') },
      { name: legacy, extraField: unicodePathField(legacy, 'ユニコード.txt'), data: Buffer.from('x') },
      { name: Buffer.from('caf\x82.txt', 'latin1'), data: Buffer.from('cp437') },
      { name: 'ga\u304b\u3099.txt', data: Buffer.from('nfd') }, // か + combining dakuten
    ]);
    assert.deepEqual(
      result.files.map((f) => f.segments.join('/')),
      ['資料/日本語.txt', 'macOS/議事録.md', 'ユニコード.txt', 'café.txt', 'ga\u304c.txt'],
    );
  });

  it('renames later duplicates with " (1)" before the extension; a file named like a folder is renamed too', async () => {
    const result = await read([
      { name: 'a.txt', data: Buffer.from('1') },
      { name: 'a.txt', data: Buffer.from('2') },
      { name: 'a.txt', data: Buffer.from('3') },
      { name: 'x', data: Buffer.from('file x') },
      { name: 'x/y.txt', data: Buffer.from('y') },
      { name: 'a (1).txt', data: Buffer.from('real a (1)') },
    ]);
    assert.deepEqual(
      result.files.map((f) => `${f.segments.join('/')}=${readFileSync(f.tempPath, 'utf8')}`),
      ['a.txt=1', 'a (2).txt=2', 'a (3).txt=3', 'x (1)=file x', 'x/y.txt=y', 'a (1).txt=real a (1)'],
    );
  });

  it('rejects invalid names, too deep paths, encrypted and unsupported entries (400 naming the entry)', async () => {
    await rejects(read([hello, { name: 'bad\u0007name.txt', data: Buffer.from('x') }]), 400, /bad\\u0007name\.txt.*control/);
    await rejects(read([hello, { name: `${'あ'.repeat(86)}.txt`, data: Buffer.from('x') }]), 400, /bytes long/);
    await rejects(read([hello, { name: 'a//b.txt', data: Buffer.from('x') }]), 400, /"a\/\/b\.txt".*empty/);
    await rejects(read([{ name: `${'d/'.repeat(5)}f.txt`, data: Buffer.from('x') }], { maxDepth: 5 }), 400, /6 levels deep/);
    await rejects(read([hello, { name: 'secret.txt', data: Buffer.from('x'), flags: 1 }]), 400, /"secret\.txt" is encrypted/);
    await rejects(
      read([hello, { name: 'bz.txt', data: Buffer.from('x'), method: 12, rawData: Buffer.from('x') }]),
      400,
      /"bz\.txt".*compression method \(12\)/,
    );
  });

  describe('limits and ZIP bombs', () => {
    const zeros = Buffer.alloc(50 * MB);
    const bomb = deflateRawSync(zeros, { level: 9 });
    const bombEntry: CraftEntry = { name: 'bomb.bin', data: zeros, rawData: bomb };

    it(`rejects 50 MB of zeros (${(zeros.length / bomb.length).toFixed(0)}:1) by ratio, entry size or total size`, async () => {
      await rejects(read([hello, bombEntry]), 400, /"bomb\.bin" expands more than 200 times.*ZIP bomb/);
      await rejects(
        read([hello, bombEntry], { maxRatio: 1e9, maxEntryBytes: 10 * MB }),
        413,
        /"bomb\.bin" is larger than the limit of 10 MB/,
      );
      const twice = [hello, bombEntry, { ...bombEntry, name: 'bomb2.bin' }];
      await rejects(read(twice, { maxRatio: 1e9, maxTotalBytes: 80 * MB }), 413, /expands to more than the limit of 80 MB/);
      const allowed = await read([hello, bombEntry], { maxRatio: 1e9 });
      assert.equal(allowed.files[1].size, 50 * MB);
    });

    it('rejects a header that lies about the uncompressed size, checking the real bytes while streaming', async () => {
      const started = Date.now();
      await rejects(
        read([hello, { ...bombEntry, declaredSize: 1000 }]),
        400,
        /not a valid ZIP archive \(entry "bomb\.bin": too many bytes/,
      );
      // 3 MB declared stays below the ratio floor, so only the streamed byte count can catch it.
      await rejects(read([hello, { ...bombEntry, declaredSize: 3 * MB }]), 400, /entry "bomb\.bin": too many bytes/);
      assert.ok(Date.now() - started < 5000);
    });

    it('rejects data that does not match its CRC-32, and corrupt deflate data', async () => {
      await rejects(
        read([hello, { name: 'crc.txt', data: Buffer.from('data'), declaredCrc: 1234 }]),
        400,
        /"crc\.txt": the data does not match its CRC-32/,
      );
      const garbage = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
      await rejects(
        read([hello, { name: 'bad.txt', data: Buffer.from('abcdef'), rawData: garbage }]),
        400,
        /not a valid ZIP archive \(entry "bad\.txt"/,
      );
    });

    it('rejects too many entries before reading any', async () => {
      const many = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from(String(i)) }));
      await rejects(read(many, { maxEntries: 10 }), 400, /has 30 entries; at most 10/);
      assert.equal((await read(many, { maxEntries: 30 })).files.length, 30);
    });
  });

  it('rejects a file that is not a ZIP, and a truncated ZIP', async () => {
    await rejects(read(Buffer.from('just some text, not a zip at all')), 400, /^The file is not a valid ZIP archive \(/);
    const whole = craftZip([hello, { name: 'b.txt', data: Buffer.alloc(100_000, 7) }]);
    await rejects(read(whole.subarray(0, Math.floor(whole.length / 2))), 400, /^The file is not a valid ZIP archive \(/);
    await rejects(read(whole.subarray(0, whole.length - 10)), 400, /^The file is not a valid ZIP archive \(/);
  });

  it('an abort mid-way rejects with AbortError and deletes the temp files written so far', async () => {
    const controller = new AbortController();
    const entries = Array.from({ length: 5 }, (_, i) => ({ name: `big${i}.bin`, data: Buffer.alloc(5 * MB, i), method: 0 }));
    let calls = 0;
    const aborting = (): string => {
      if (++calls === 3) setImmediate(() => controller.abort(new Error('client closed the connection')));
      return tempPath();
    };
    await assert.rejects(read(entries, { signal: controller.signal, tempPath: aborting }), { name: 'AbortError' });
    assert.ok(calls >= 3);
    assert.deepEqual(await leftovers(), []);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
