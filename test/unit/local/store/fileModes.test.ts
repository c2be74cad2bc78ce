// The data folder is its owner's alone (issue 23): folders 0700 and files 0600 after a start, an upload and a
// Q&A, including what an older version left with wider modes.
import assert from 'node:assert/strict';
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../../src/api/client';
import { startLocalService } from '../../../../src/local/service';

async function modes(dir: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [[dir, ((await lstat(dir)).mode & 0o777).toString(8)]];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await modes(full)));
    else out.push([full, ((await lstat(full)).mode & 0o777).toString(8)]);
  }
  return out;
}

(process.platform === 'win32' ? describe.skip : describe)('Local service: modes of the data folder', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(tmpdir(), 'kd-modes-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it('keeps folders 0700 and files 0600 after a start, an upload and a new Q&A, tightening older ones', async () => {
    const data = path.join(dir, 'data');
    // What an older version left: readable by everyone.
    await mkdir(path.join(data, 'db'), { recursive: true, mode: 0o755 });
    await writeFile(path.join(data, 'old-note.txt'), 'left by an older version', { mode: 0o644 });
    await chmod(data, 0o755);
    const service = await startLocalService({ dataDir: data, fsync: false });
    try {
      const client = new ApiClient({ baseUrl: service.url, apiKey: service.apiKey, nluApiKey: service.nluApiKey });
      await client.kbNodes.upload({ file: { data: '# Travel\nTrains and hotels.', contentType: 'text/markdown' }, fileName: 'travel.md' });
      await client.faq.register({ question: 'Which trains are covered?', answer: 'All of them.', status: 'on' });
      await service.processingIdle();
    } finally {
      await service.close();
    }
    const found = await modes(data);
    assert.ok(found.length > 8, `${found.length} entries`);
    const dirs = new Set((await Promise.all(found.map(async ([p]) => ((await lstat(p)).isDirectory() ? p : '')))).filter(Boolean));
    for (const [p, m] of found) assert.equal(m, dirs.has(p) ? '700' : '600', `${path.relative(dir, p)} is ${m}`);
  });
});
