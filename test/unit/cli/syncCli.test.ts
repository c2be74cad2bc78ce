// `knowledge-desk sync` end to end: the bundled CLI against the standalone local service (started here; the CLI
// finds it through the data folder's lock file), the knowledge base read back with the real client.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import type { KbNode } from '../../../src/api/schemas/kbNodes';
import { isFileNode } from '../../../src/api/values';
import { startLocalService } from '../../../src/local/service';
import { buildCliBundle, runCli, type Ran } from '../support/cliBundle';
import { startTestService, type TestService } from '../support/localService';

describe('knowledge-desk sync (dist/cli.js) against the standalone local service', function () {
  let bundle: Awaited<ReturnType<typeof buildCliBundle>>;
  let svc: TestService;
  let work: string;
  let docs: string;

  const sync = (...args: string[]): Promise<Ran> => runCli(bundle.cli, ['sync', ...args, '--local', '--data', svc.dir], work);

  /** Every node under a folder path of the knowledge base, as "path" (folders end in "/"), sorted. */
  async function tree(folder: string[]): Promise<string[]> {
    const client = svc.client();
    let parent: string | null = null;
    for (const name of folder) {
      const found: KbNode | undefined = (await client.kbNodes.listAll({ parentFolderIds: [parent] })).find((n) => n.name === name);
      if (!found) return [];
      parent = found.id;
    }
    const out: string[] = [];
    const walk = async (id: string | null, prefix: string): Promise<void> => {
      for (const n of await client.kbNodes.listAll({ parentFolderIds: [id] })) {
        if (n.nodeType === 'file') out.push(prefix + n.name);
        else {
          out.push(`${prefix}${n.name}/`);
          await walk(n.id, `${prefix}${n.name}/`);
        }
      }
    };
    await walk(parent, '');
    return out.sort();
  }

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'kd-sync-cli-'));
    docs = path.join(work, 'docs');
    await mkdir(path.join(docs, 'sub'), { recursive: true });
    await writeFile(path.join(docs, 'a.md'), '# Alpha\n\nThe alpha policy.\n');
    await writeFile(path.join(docs, 'b.md'), '# Beta\n\nThe beta policy.\n');
    await writeFile(path.join(docs, 'sub', 'c.md'), '# Gamma\n\nThe gamma policy.\n');
    await writeFile(path.join(docs, 'notes.txt'), 'a file, not a folder');
    [bundle, svc] = await Promise.all([buildCliBundle(), startTestService({ fsync: false })]);
  });
  after(async () => {
    await svc?.stop();
    await bundle?.remove();
    await rm(work, { recursive: true, force: true });
  });

  it('--plan on a folder path that does not exist lists what would be created and changes nothing', async () => {
    const ran = await sync('docs', '--folder', 'Team/Handbook', '--plan');
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(
      ran.stdout,
      'create   Team/Handbook/ (new folder, 4 files)\n4 to create, 0 to replace, 0 unchanged, 0 problems (plan only: nothing was changed)\n',
    );
    assert.match(ran.stderr, /Team\/Handbook does not exist yet/);
    assert.deepEqual(await tree([]), []);
  });

  it('applies: creates the folder path with the files; a rerun sends nothing twice (all skipped, no duplicates)', async () => {
    const first = await sync('docs', '--folder', 'Team/Handbook');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^created {2}Team\/Handbook\/ \(new folder, 4 files\)\n4 created, 0 replaced, 0 skipped, 0 failed\n$/);
    const expected = ['a.md', 'b.md', 'notes.txt', 'sub/', 'sub/c.md'];
    assert.deepEqual(await tree(['Team', 'Handbook']), expected);
    const again = await sync('docs', '--folder', 'Team/Handbook', '--json');
    assert.equal(again.code, 0, again.stderr);
    const json = JSON.parse(again.stdout) as { results: Array<{ path: string; outcome: string }>; totals: Record<string, number> };
    assert.deepEqual(
      json.results.map((r) => `${r.outcome} ${r.path}`),
      ['skipped a.md', 'skipped b.md', 'skipped notes.txt', 'skipped sub/c.md'],
    );
    assert.deepEqual(json.totals, { created: 0, replaced: 0, skipped: 4, removed: 0, failed: 0 });
    assert.deepEqual(await tree(['Team', 'Handbook']), expected);
  });

  it('a changed file (same size: compared by content) is planned and applied as a replace, the rest skipped', async () => {
    await writeFile(path.join(docs, 'b.md'), '# BETA\n\nThe BETA policy.\n');
    await writeFile(path.join(docs, 'sub', 'd.md'), '# Delta\n');
    const plan = await sync('docs', '--folder', 'Team/Handbook', '--plan');
    assert.equal(plan.code, 0, plan.stderr);
    assert.equal(
      plan.stdout,
      [
        'skip     a.md',
        'replace  b.md',
        'skip     notes.txt',
        'skip     sub/c.md',
        'create   sub/d.md',
        '1 to create, 1 to replace, 3 unchanged, 0 problems (plan only: nothing was changed)',
        '',
      ].join('\n'),
    );
    const ran = await sync('docs', '--folder', 'Team/Handbook');
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^replaced b\.md$/m);
    assert.match(ran.stdout, /^created {2}sub\/d\.md$/m);
    assert.match(ran.stdout, /1 created, 1 replaced, 3 skipped, 0 failed/);
    assert.deepEqual(await tree(['Team', 'Handbook']), ['a.md', 'b.md', 'notes.txt', 'sub/', 'sub/c.md', 'sub/d.md']);
  });

  it('removes what the folder no longer has only with --delete', async () => {
    await rm(path.join(docs, 'a.md'));
    await rm(path.join(docs, 'sub'), { recursive: true });
    const plain = await sync('docs', '--folder', 'Team/Handbook', '--plan');
    assert.doesNotMatch(plain.stdout, /remove/);
    const kept = await sync('docs', '--folder', 'Team/Handbook');
    assert.equal(kept.code, 0, kept.stderr);
    assert.deepEqual(await tree(['Team', 'Handbook']), ['a.md', 'b.md', 'notes.txt', 'sub/', 'sub/c.md', 'sub/d.md']);
    const plan = await sync('docs', '--folder', 'Team/Handbook', '--plan', '--delete');
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^remove {3}a\.md\n(.*\n)*remove {3}sub\/\n/m);
    assert.match(plan.stdout, /0 to create, 0 to replace, 2 unchanged, 2 to remove, 0 problems/);
    assert.deepEqual(await tree(['Team', 'Handbook']), ['a.md', 'b.md', 'notes.txt', 'sub/', 'sub/c.md', 'sub/d.md']);
    const ran = await sync('docs', '--folder', 'Team/Handbook', '--delete');
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /0 created, 0 replaced, 2 skipped, 2 removed, 0 failed/);
    assert.deepEqual(await tree(['Team', 'Handbook']), ['b.md', 'notes.txt']);
  });

  it('a file that cannot be sent fails the run (exit 1, no removals); fixed, a rerun sends only it', async () => {
    await writeFile(path.join(docs, 'empty.md'), '');
    await writeFile(path.join(docs, 'e.md'), '# Epsilon\n');
    await writeFile(path.join(work, 'stray.md'), 'x');
    const plan = await sync('docs', '--folder', 'Team/Handbook', '--plan');
    assert.equal(plan.code, 1);
    assert.match(plan.stdout, /^error {4}empty\.md: The file is empty \(0 bytes\); there is nothing to upload\.$/m);
    const ran = await sync('docs', '--folder', 'Team/Handbook', '--delete');
    assert.equal(ran.code, 1);
    assert.match(ran.stdout, /^failed {3}empty\.md: The file is empty/m);
    assert.match(ran.stdout, /^created {2}e\.md$/m);
    assert.deepEqual(await tree(['Team', 'Handbook']), ['b.md', 'e.md', 'notes.txt']);
    await writeFile(path.join(docs, 'empty.md'), '# Not empty any more\n');
    const rerun = await sync('docs', '--folder', 'Team/Handbook', '--delete');
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stdout, /1 created, 0 replaced, 3 skipped, 0 removed, 0 failed/);
    assert.deepEqual(await tree(['Team', 'Handbook']), ['b.md', 'e.md', 'empty.md', 'notes.txt']);
  });

  it('--wait waits for processing; a local service started for the sync stops only once its documents are processed', async () => {
    const waited = await sync('docs', '--folder', 'Waited', '--wait');
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stderr, /waiting for \d+ documents to be processed/);
    assert.match(waited.stderr, /^processed notes\.txt: completed$/m);
    const fresh = path.join(work, 'fresh-data');
    const ran = await runCli(bundle.cli, ['sync', 'docs', '--folder', 'Fresh', '--local', '--data', fresh], work);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /started the local service on http:\/\/127\.0\.0\.1:\d+/);
    // Opened again: every document is processed already (none left unfinished by the sync's own service).
    const reopened = await startLocalService({ dataDir: fresh, fsync: false });
    try {
      const client = new ApiClient({ baseUrl: reopened.url, apiKey: reopened.apiKey });
      const folder = (await client.kbNodes.listAll({ parentFolderIds: [null] })).find((n) => n.name === 'Fresh');
      assert.ok(folder, 'the folder Fresh was created');
      const files = (await client.kbNodes.listAll({ parentFolderIds: [folder.id] })).filter(isFileNode);
      assert.ok(files.length > 0);
      assert.deepEqual(
        files.filter((f) => f.processState !== 'completed').map((f) => `${f.name} ${f.processState}`),
        [],
      );
    } finally {
      await reopened.close();
    }
  });

  it('bad input is a usage error (exit 2) that says what is wrong, and changes nothing', async () => {
    const before = await tree([]);
    const cases: Array<[string[], RegExp]> = [
      [['--folder', 'X'], /DIR: the folder to sync is missing\./],
      [['nowhere', '--folder', 'X'], /nowhere: no such folder\./],
      [['docs/notes.txt', '--folder', 'X'], /docs\/notes\.txt is a file: sync takes a folder\./],
      [['docs'], /--folder PATH is required/],
      [['docs', '--folder', '--plan'], /Option '--folder' argument is ambiguous/],
      [['docs', '--folder', 'X', '--frobnicate'], /Unknown option '--frobnicate'/],
      [['docs', 'more', '--folder', 'X'], /One folder to sync, not 2\./],
      [['docs', '--folder', 'a/../b'], /"\." and "\.\." are not folder names/],
      [['docs', '--folder', 'X', '--concurrency', '0'], /--concurrency 0: a whole number from 1 to 16\./],
    ];
    for (const [args, message] of cases) {
      const ran = await sync(...args);
      assert.equal(ran.code, 2, args.join(' '));
      assert.match(ran.stderr, message, args.join(' '));
      assert.equal(ran.stdout, '');
    }
    const bare = await runCli(bundle.cli, ['sync', 'docs', '--local', '--data', svc.dir, '--folder'], work);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /Option '--folder <value>' argument missing/);
    const key = await runCli(bundle.cli, ['sync', 'docs', '--folder', 'X', '--api-key=kd_secret_value'], work);
    assert.equal(key.code, 2);
    assert.match(key.stderr, /--api-key is not accepted/);
    assert.doesNotMatch(key.stderr, /kd_secret_value/);
    assert.deepEqual(await tree([]), before);
  });

  it('--help prints its options on stdout (exit 0)', async () => {
    const ran = await runCli(bundle.cli, ['sync', '--help'], work);
    assert.equal(ran.code, 0);
    assert.match(ran.stdout, /^Usage: knowledge-desk sync DIR --folder PATH \[--plan\] \[--delete\]/);
    assert.match(ran.stdout, /--key-file FILE/);
  });
});
