import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { acquireLock, DataFolderLockedError, readLockOwner } from '../../../../src/local/store/lock';

const CONTENDER = join(__dirname, 'fixtures', 'lockContender.ts');

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A pid that certainly belonged to a process on this host and is now dead. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

async function writeStaleLock(dir: string, pid: number): Promise<void> {
  await writeFile(
    join(dir, 'lock.json'),
    JSON.stringify({ pid, hostname: hostname(), startedAt: Date.now() - 60_000, url: 'http://127.0.0.1:1' }),
  );
}

describe('data folder lock', () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  after(() => {
    for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
  });

  it('acquires, reports the owner, and releases', async () => {
    const lock = await acquireLock(dir, { url: 'http://127.0.0.1:4000' });
    assert.equal(lock.info.pid, process.pid);
    assert.equal(lock.info.hostname, hostname());
    assert.deepEqual(await readLockOwner(dir), lock.info);
    await lock.release();
    assert.equal(await readLockOwner(dir), undefined);
    assert.deepEqual(await readdir(dir), []);
    await lock.release(); // idempotent
  });

  it('refuses a second instance in the same process, with the owner info (incl. url)', async () => {
    const lock = await acquireLock(dir, { url: 'http://127.0.0.1:4000' });
    await assert.rejects(acquireLock(dir), (err: unknown) => {
      assert.ok(err instanceof DataFolderLockedError);
      assert.deepEqual(err.owner, lock.info);
      assert.equal(err.owner.url, 'http://127.0.0.1:4000');
      assert.match(err.message, /in use by process \d+ .*http:\/\/127\.0\.0\.1:4000/);
      return true;
    });
    await lock.release();
    const again = await acquireLock(dir);
    await again.release();
  });

  it('updates the url atomically, and release leaves a file that is not ours alone', async () => {
    const lock = await acquireLock(dir);
    assert.equal(lock.info.url, undefined);
    await lock.update({ url: 'http://127.0.0.1:5000' });
    assert.equal((await readLockOwner(dir))?.url, 'http://127.0.0.1:5000');
    assert.equal(lock.info.url, 'http://127.0.0.1:5000');
    const foreign = JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: 1, token: 'someone-else' });
    await writeFile(join(dir, 'lock.json'), foreign);
    await assert.rejects(lock.update({ url: 'http://x' }), /no longer held/);
    await lock.release();
    assert.equal(await readFile(join(dir, 'lock.json'), 'utf8'), foreign);
  });

  it('takes over a stale lock whose pid is dead', async () => {
    await writeStaleLock(dir, await deadPid());
    assert.equal(await readLockOwner(dir), undefined);
    const lock = await acquireLock(dir);
    assert.equal(lock.info.pid, process.pid);
    assert.equal((await readLockOwner(dir))?.pid, process.pid);
    await lock.release();
    assert.deepEqual(await readdir(dir), [], 'no takeover markers or temp files left behind');
  });

  it('gets past a takeover marker left by a contender that died mid-takeover', async () => {
    const pid = await deadPid();
    await writeStaleLock(dir, pid);
    const staleRaw = await readFile(join(dir, 'lock.json'), 'utf8');
    const marker = `lock.json.takeover-${createHash('sha256').update(staleRaw).digest('hex').slice(0, 16)}`;
    await writeFile(join(dir, marker), JSON.stringify({ pid, hostname: hostname(), startedAt: Date.now(), token: 't' }));
    const lock = await acquireLock(dir);
    assert.equal((await readLockOwner(dir))?.pid, process.pid);
    await lock.release();
    assert.deepEqual(await readdir(dir), []);
  });

  it('takes over an unreadable lock once it is old enough, not while it may be being written', async () => {
    await writeFile(join(dir, 'lock.json'), '{"pid": 12'); // e.g. torn by a power loss
    const t = Date.now();
    const lock = await acquireLock(dir);
    assert.ok(Date.now() - t >= 1500, 'waited for the grace period');
    await lock.release();
  });

  it('lets exactly one of many concurrent contenders in this process take over one stale lock', async function () {
    this.timeout(180_000); // 30 rounds of contention: seconds on a quiet machine, much longer on a busy one
    for (let round = 0; round < 30; round++) {
      await writeStaleLock(dir, await deadPid());
      // Staggered starts so the contenders interleave differently in each round.
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => delay((i * round) % 7).then(() => acquireLock(dir))));
      const winners = results.filter((r) => r.status === 'fulfilled');
      assert.equal(winners.length, 1, `round ${round}: ${winners.length} winners`);
      for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof DataFolderLockedError, String(r.reason));
      await (winners[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
      assert.deepEqual(await readdir(dir), []);
    }
  });

  it('lets exactly one of several processes take over one stale lock', async function () {
    this.timeout(240_000); // 16 child processes start through tsx: slow on a busy machine
    for (let round = 0; round < 4; round++) {
      await writeStaleLock(dir, await deadPid());
      const procs = Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', CONTENDER, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
        children.push(child);
        const lines = createInterface({ input: child.stdout! });
        const next = (): Promise<string> => new Promise((resolve) => lines.once('line', resolve));
        return { child, next, ready: next() };
      });
      await Promise.all(procs.map((p) => p.ready));
      const outcomes = procs.map((p) => p.next());
      for (const [i, p] of procs.entries()) p.child.stdin!.write(`go ${(i * (round + 1)) % 4}\n`);
      const results = await Promise.all(outcomes);
      const winners = procs.filter((_, i) => results[i] === 'won');
      assert.equal(winners.length, 1, `round ${round}: ${results.join(', ')}`);
      for (const r of results) if (r !== 'won') assert.equal(r, `lost ${winners[0].child.pid}`);
      assert.equal((await readLockOwner(dir))?.pid, winners[0].child.pid);
      for (const p of procs) p.child.stdin!.end();
      await Promise.all(
        procs.map((p) => new Promise((resolve) => (p.child.exitCode === null ? p.child.on('exit', resolve) : resolve(null)))),
      );
      // The winner died without releasing: its lock is now stale for the next round.
      assert.equal(await readLockOwner(dir), undefined);
    }
  });
});
