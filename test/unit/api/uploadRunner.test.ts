import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileNode } from '../../../src/api/schemas/kbNodes';
import { isFileNode } from '../../../src/api/values';
import { listChildren, planUploads } from '../../../src/api/uploads/planUploads';
import { runUploads, type JobOutcome, type UploadJob } from '../../../src/api/uploads/uploadRunner';
import { waitFor } from '../support/waitFor';
import { startTestService, type TestService } from '../support/localService';

async function makeFiles(dir: string, n: number, prefix = 'doc'): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const file = path.join(dir, `${prefix}-${String(i).padStart(3, '0')}.txt`);
    await writeFile(file, `Document ${i}\n${'lorem ipsum '.repeat(20 + i)}`);
    files.push(file);
  }
  return files;
}

const jobsFor = (files: string[], targetFolderId?: string): Promise<UploadJob[]> =>
  Promise.all(
    files.map(async (f) => ({
      id: f,
      path: f,
      fileName: path.basename(f),
      size: (await import('node:fs')).statSync(f).size,
      targetFolderId,
    })),
  );

describe('Upload pipeline (runner, planner) against the local service', () => {
  let t: TestService;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-runner-'));
    t = await startTestService({ maxUploadBytes: 1024 * 1024, fsync: false });
  });
  after(async () => {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => t.admin('POST', '/_local/faults', {}));

  it('under injected 429/500/dropped connections every file ends uploaded once or failed-and-retryable; a retry completes it without duplicates', async function () {
    this.timeout(60_000);
    const files = await makeFiles(path.join(dir, 'faulty'), 40);
    await t.admin('POST', '/_local/faults', {
      rate429: 0.1,
      rate500: 0.1,
      rateDrop: 0.1,
      rateDropAfter: 0.1,
      retryAfterSeconds: 0,
      seed: 42,
      pathPrefix: '/webapi/v2/knowledge_base_nodes/upload',
    });
    const jobs = await jobsFor(files);
    const client = t.client();
    const first = await runUploads(client, jobs, { concurrency: 4, options: {}, attempts: 2, backoffMs: 10 });
    const statuses = [...first.values()].map((o) => o.status);
    assert.ok(
      statuses.every((s) => s === 'done' || s === 'failed'),
      statuses.join(','),
    );
    for (const o of first.values()) if (o.status === 'failed') assert.equal(o.retryable, true, `not retryable: ${o.message}`);
    const counts = (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts;
    await t.admin('POST', '/_local/faults', {});
    const failed = jobs.filter((j) => first.get(j.id)!.status === 'failed');
    assert.ok(
      counts['faults.429'] + counts['faults.500'] + counts['faults.drop'] + counts['faults.dropAfter'] >= 5,
      'faults were injected',
    );
    const second = await runUploads(client, failed, { concurrency: 4, options: {}, reconcileFirst: true, backoffMs: 10 });
    assert.ok([...second.values()].every((o) => o.status === 'done'));
    const nodes = (await listChildren(client, null)).filter(isFileNode) as FileNode[];
    const names = nodes
      .filter((n) => n.name.startsWith('doc-'))
      .map((n) => n.name)
      .sort();
    assert.deepEqual(names, files.map((f) => path.basename(f)).sort(), 'every file exactly once, no suffixed copies');
    console.log(`      faults served: ${JSON.stringify(counts)}; first pass failed ${failed.length}/40`);
  });

  it('reconciles after a dropped response instead of adding a second suffixed copy', async () => {
    const client = t.client();
    await client.kbNodes.upload({ file: { data: 'old version' }, fileName: 'report.txt' });
    const file = path.join(dir, 'report.txt');
    await writeFile(file, 'new version, different content');
    await t.admin('POST', '/_local/faults', { script: ['dropAfter'], pathPrefix: '/webapi/v2/knowledge_base_nodes/upload' });
    const [job] = await jobsFor([file]);
    const out = await runUploads(client, [job], { concurrency: 1, options: { isOverwrite: false }, backoffMs: 10 });
    const outcome = out.get(job.id) as Extract<JobOutcome, { status: 'done' }>;
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.reconciled, true);
    assert.equal(outcome.action, 'suffix_added');
    const names = (await client.kbNodes.search({ searchTerm: 'report' })).nodes.map((n) => n.name).sort();
    assert.deepEqual(names, ['report (1).txt', 'report.txt']);
  });

  it('gives empty, unreadable and over-limit files a specific outcome without sending them', async () => {
    const empty = path.join(dir, 'empty.txt');
    const locked = path.join(dir, 'locked.txt');
    const big = path.join(dir, 'big.bin');
    await writeFile(empty, '');
    await writeFile(locked, 'secret');
    await chmod(locked, 0o000);
    await writeFile(big, Buffer.alloc(2 * 1024 * 1024, 1));
    const plan = await planUploads(t.client(), {
      paths: [empty, locked, big, path.join(dir, 'gone.txt')],
      folderMode: 'zip',
      maxBytes: 1024 * 1024,
      tempDir: dir,
    });
    const out = await runUploads(t.client(), plan.jobs, { concurrency: 2, options: {} });
    const message = (p: string) => (out.get(p) as Extract<JobOutcome, { status: 'failed' }>).message;
    assert.match(message(empty), /empty \(0 bytes\)/);
    assert.match(message(big), /2\.0 MB, over the upload limit of 1\.0 MB/);
    assert.match(message(path.join(dir, 'gone.txt')), /no longer exists/);
    // root reads a chmod 000 file anyway; everyone else gets the specific message.
    if (process.getuid?.() !== 0) assert.match(message(locked), /cannot be read \(EACCES\)/);
    for (const [id, o] of out) if (id !== locked || process.getuid?.() !== 0) assert.ok(o.status === 'failed' && !o.retryable, id);
  });

  it('stops on cancel: unsent files are cancelled, nothing is half-uploaded', async () => {
    const files = await makeFiles(path.join(dir, 'cancel'), 30, 'cancelled');
    const controller = new AbortController();
    let done = 0;
    const out = await runUploads(t.client(), await jobsFor(files), {
      concurrency: 2,
      options: {},
      signal: controller.signal,
      onOutcome: (_j, o) => o.status === 'done' && ++done === 5 && controller.abort(),
    });
    const byStatus = (s: string) => [...out.values()].filter((o) => o.status === s).length;
    assert.ok(byStatus('cancelled') >= 20, `cancelled ${byStatus('cancelled')}`);
    assert.equal(byStatus('failed'), 0);
    // Uploads in flight at the cancel may still be stored: wait until the service handles nothing but this question.
    const inFlight = async () => (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts['http.inFlight'];
    await waitFor(async () => (await inFlight()) === 1, 'the service to finish the uploads in flight at the cancel');
    const uploaded = (await t.client().kbNodes.search({ searchTerm: 'cancelled-' })).total!;
    // Every upload reported done is there; at most the two in flight at the cancel may have
    // landed after the runner looked for them (a request fully received cannot be called back).
    assert.ok(
      uploaded >= byStatus('done') && uploaded <= byStatus('done') + 2,
      `service has ${uploaded}, reported done ${byStatus('done')}`,
    );
  });

  it('zips a folder into a new knowledge-base folder, or syncs it file by file (unchanged files skipped)', async () => {
    const local = path.join(dir, 'Policies');
    await makeFiles(path.join(local, 'HR'), 2, 'hr');
    await makeFiles(local, 2, 'top');
    const client = t.client();
    const zipped = await planUploads(client, { paths: [local], folderMode: 'zip', tempDir: dir });
    assert.equal(zipped.jobs.length, 1);
    assert.equal(zipped.jobs[0].isZip, true);
    const out = await runUploads(client, zipped.jobs, { concurrency: 1, options: {} });
    const created = out.get(local) as Extract<JobOutcome, { status: 'done' }>;
    assert.equal(created.nodes[0].name, 'Policies');
    const folderId = created.nodes[0].id;
    // Sync the same folder into the folder it created: everything unchanged comes back skipped.
    const synced = await planUploads(client, { paths: [local], targetFolderId: folderId, folderMode: 'sync', tempDir: dir });
    assert.deepEqual(synced.jobs.map((j) => j.fileName).sort(), ['hr-000.txt', 'hr-001.txt', 'top-000.txt', 'top-001.txt']);
    assert.ok(
      synced.jobs.filter((j) => j.fileName.startsWith('hr')).every((j) => j.targetFolderId !== folderId),
      'HR files go into the existing HR folder',
    );
    const again = await runUploads(client, synced.jobs, { concurrency: 2, options: { isOverwrite: true } });
    assert.deepEqual(
      [...again.values()].map((o) => (o.status === 'done' ? o.action : o.status)),
      ['skipped', 'skipped', 'skipped', 'skipped'],
    );
  });
});
